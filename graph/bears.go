package graph

import (
	"slices"

	"github.com/seg-trace/seg/parser"
)

// BearsOn lists, in ID order, the requirements whose verdict reads n
// directly: a requirement itself; the requirements a test verifies or an
// implementation implements; through the tests it confirms, those of an
// outcome; through what it excuses, those of a waiver. It does not climb
// refines edges (Affected does).
func (g *Graph) BearsOn(n *Node) []*Node {
	seen := map[int32]bool{}
	var out []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if seen[int32(n.index)] {
			return
		}
		seen[int32(n.index)] = true
		var next EdgeType
		switch n.kind {
		case parser.Requirement:
			out = append(out, n)
			return
		case parser.Test:
			next = Verifies
		case parser.Implementation:
			next = Implements
		case parser.Outcome:
			next = Confirms
		case parser.Waiver:
			next = Excuses
		default:
			return
		}
		for e := range g.Out(n, next) {
			walk(g.To(e))
		}
	}
	walk(n)
	slices.SortFunc(out, func(a, b *Node) int { return a.index - b.index })
	return out
}

// Affected is every requirement whose verdict depends on one of nodes:
// what each bears on, and every requirement those refine, transitively.
func (g *Graph) Affected(nodes []*Node) map[*Node]bool {
	out := map[*Node]bool{}
	var work []*Node
	for _, n := range nodes {
		for _, r := range g.BearsOn(n) {
			if !out[r] {
				out[r] = true
				work = append(work, r)
			}
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for e := range g.Out(r, Refines) {
			if p := g.To(e); !out[p] {
				out[p] = true
				work = append(work, p)
			}
		}
	}
	return out
}
