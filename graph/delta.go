package graph

import (
	"reflect"
	"slices"
	"sync/atomic"
)

// The incremental contract, as types. A client that builds the graph
// again after every edit (the language server) and evaluates it again
// from the last evaluation (evaluate.Update) must say which nodes
// differ between the graph before and the graph now. It cannot write
// that list itself: a Delta has unexported fields, and only this
// package makes one, in two ways, each correct by construction:
//
//   - Memo.Delta, after a build that patched the last graph (patch.go):
//     the nodes the patch made anew, every other node being the graph
//     before's own;
//   - Diff, for two graphs built apart: the nodes that differ in value.
//
// Every Graph carries a generation, a number no other graph of the
// process has, and a Delta names the generation it goes from and the
// one it goes to: a reader of a Delta (evaluate.Update) checks that the
// graph it is given is the delta's target and that its last result is
// of the delta's base, and does the full work otherwise. Pointer
// identity of graphs decides nothing.

// generations numbers the graphs of the process.
var generations atomic.Uint64

func nextGeneration() uint64 { return generations.Add(1) }

// Generation is the graph's number: no two graphs of one process have
// the same, and a patched graph has another than the graph it was
// patched from.
func (g *Graph) Generation() uint64 { return g.gen }

// Delta is how a graph (the delta's target, of generation To) differs
// from an earlier one of the same tree (its base, of generation From):
// both have as many nodes, and at every index a node of the same kind
// (and, but at the changed indices, of the same ID: an edit may rename
// nodes, or move one in the ID order, so that the node at a changed
// index is another); the changed
// indices list every node that differs in anything an accessor shows
// (its fields, position, edges in and out, pins, open links, IsLeaf,
// OnCycle), and every other node is equal in value in both graphs.
// Nothing else of the graph differs but the refinement order, which a
// reader takes from the target: a change to refines edges names both
// ends, and every node whose OnCycle changed.
//
// The zero Delta is none (Valid is false). Only Memo.Delta and Diff
// make one.
type Delta struct {
	base     *Graph
	from, to uint64
	changed  []int
	// patched: the target shares every unchanged node with the base,
	// the same pointer (Memo.Delta); false after Diff.
	patched bool
}

// Valid reports whether d is a delta (not the zero Delta).
func (d Delta) Valid() bool { return d.base != nil }

// Base is the graph d goes from (nil for the zero Delta).
func (d Delta) Base() *Graph { return d.base }

// From and To are the generations of the graphs d goes from and to.
func (d Delta) From() uint64 { return d.from }
func (d Delta) To() uint64   { return d.to }

// Changed lists the indices of the nodes that differ, sorted, without
// repeats (a copy).
func (d Delta) Changed() []int { return slices.Clone(d.changed) }

// Len is the number of changed nodes.
func (d Delta) Len() int { return len(d.changed) }

// Shared reports whether the target holds every node it does not name
// changed as the base's own node (a patch); false when they were built
// apart and are only equal in value.
func (d Delta) Shared() bool { return d.patched }

// Delta is, after a build with m that patched the graph before, the
// delta from that graph to the one the build returned; the zero Delta
// after a full build.
func (m *Memo) Delta() Delta {
	if m == nil || m.last == nil || !m.last.patched || m.prev == nil {
		return Delta{}
	}
	return Delta{base: m.prev, from: m.prev.gen, to: m.last.g.gen, changed: m.last.changed, patched: true}
}

// Diff is the delta from a to b, two graphs of the same tree built
// apart, found by comparing every node of one with the node at its
// index in the other, in value: the zero Delta when they have not as
// many nodes, a node changed kind, or they resolve positions against
// different file sets (a position is then not comparable by value). It
// costs a walk of both graphs; a client that patches the graph has
// Memo.Delta for free.
func Diff(a, b *Graph) Delta {
	if a == nil || b == nil || len(a.nodes) != len(b.nodes) || a.files != b.files {
		return Delta{}
	}
	openA, openB := openByNode(a), openByNode(b)
	var changed []int
	for i := range b.nodes {
		x, y := a.nodes[i], b.nodes[i]
		if x.kind != y.kind {
			return Delta{}
		}
		if x != y && !reflect.DeepEqual(x, y) || a.cyclic[i] != b.cyclic[i] || !reflect.DeepEqual(openA[int32(i)], openB[int32(i)]) {
			changed = append(changed, i)
		}
	}
	return Delta{base: a, from: a.gen, to: b.gen, changed: changed}
}

// openByNode is g's open links by the node they leave.
func openByNode(g *Graph) map[int32][]OpenLink {
	out := map[int32][]OpenLink{}
	for _, o := range g.open {
		out[o.from] = append(out[o.from], o)
	}
	return out
}

// Equal reports whether a and b are the same graph in value, their
// generations aside: a build and a patch of the same tree, or two builds
// of it, are Equal.
func Equal(a, b *Graph) bool {
	if a == nil || b == nil {
		return a == b
	}
	x := *a
	x.gen = b.gen
	return reflect.DeepEqual(&x, b)
}
