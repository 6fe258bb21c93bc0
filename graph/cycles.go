package graph

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// cycles finds the strongly connected components of the refinement graph
// (Tarjan's algorithm, iterative so that deep chains cannot overflow the
// stack). It records, for the evaluator, an order in which every
// requirement comes after all requirements that refine it, and which
// requirements sit on a cycle; and it reports each cycle once.
func (b *builder) cycles() {
	g := b.g
	n := len(g.nodes)
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	g.cyclic = make([]bool, n)
	g.order = make([]int32, 0, n)

	type frame struct {
		v    int32
		next int // position in v.in
	}
	var stack []int32
	var call []frame
	counter := int32(0)

	for root := range g.nodes {
		if g.nodes[root].kind != parser.Requirement || index[root] != unvisited {
			continue
		}
		call = append(call, frame{v: int32(root)})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		onStack[root] = true

		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			in := g.nodes[v].in
			descended := false
			for f.next < len(in) {
				e := &g.edges[in[f.next]]
				f.next++
				if e.typ != Refines {
					continue
				}
				w := e.from // a child of v
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
					descended = true
					break
				}
				if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
			}
			if descended {
				continue
			}
			// v is finished.
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				if low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			// v roots a component: pop it.
			start := len(stack) - 1
			for stack[start] != v {
				start--
			}
			comp := slices.Clone(stack[start:])
			stack = stack[:start]
			for _, w := range comp {
				onStack[w] = false
			}
			g.order = append(g.order, comp...)
			if len(comp) > 1 || b.selfLoop(v) {
				for _, w := range comp {
					g.cyclic[w] = true
				}
				b.reportCycle(comp)
			}
		}
	}
}

func (b *builder) selfLoop(v int32) bool {
	for _, ei := range b.g.nodes[v].in {
		e := &b.g.edges[ei]
		if e.typ == Refines && e.from == v {
			return true
		}
	}
	return false
}

// reportCycle emits one refinement-cycle diagnostic for a component, at the
// refines entry of its member with the smallest ID, listing every member.
func (b *builder) reportCycle(comp []int32) {
	g := b.g
	slices.Sort(comp) // node indices are in ID order
	member := make(map[int32]bool, len(comp))
	for _, w := range comp {
		member[w] = true
	}
	ids := make([]string, len(comp))
	var related []diag.Related
	var at source.Span
	for i, w := range comp {
		ids[i] = g.nodes[w].id
		for _, ei := range g.nodes[w].out {
			e := &g.edges[ei]
			if e.typ != Refines || !member[e.to] {
				continue
			}
			if i == 0 && !at.Start.IsValid() {
				at = e.Span()
				continue
			}
			related = append(related, diag.Related{
				Span:    e.Span(),
				Message: fmt.Sprintf("%q refines %q", g.nodes[w].id, g.nodes[e.to].id),
			})
		}
	}
	b.diag(diag.Diagnostic{
		Code:    CodeRefinementCycle,
		Message: fmt.Sprintf("refinement cycle among %s", strings.Join(quoteAll(ids), ", ")),
		Detail:  "Requirements on a cycle depend on themselves, so none of them can be satisfied, nor can anything they refine. Break the cycle by removing one :refines: entry.",
		Span:    at,
		Related: related,
	})
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return q
}

// RefinementOrder lists every requirement so that each comes after all the
// requirements that refine it (members of one cycle are adjacent).
func (g *Graph) RefinementOrder() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for _, i := range g.order {
			if !yield(&g.nodes[i]) {
				return
			}
		}
	}
}

// OnCycle reports whether requirement n sits on a refinement cycle.
func (g *Graph) OnCycle(n *Node) bool { return g.cyclic[n.index] }
