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
	t := newTarjan(g)
	g.cyclic = make([]bool, len(g.nodes))
	g.order = make([]int32, 0, len(g.nodes))
	for root := range g.nodes {
		if g.nodes[root].kind != parser.Requirement || t.index[root] != unvisited {
			continue
		}
		t.visit(int32(root))
		for len(t.call) > 0 {
			if t.descend() {
				continue
			}
			comp := t.finish()
			if comp == nil {
				continue
			}
			g.order = append(g.order, comp...)
			if len(comp) > 1 || b.selfLoop(comp[0]) {
				for _, w := range comp {
					g.cyclic[w] = true
				}
				b.reportCycle(comp)
			}
		}
	}
}

const unvisited = -1

// tarjan is the state of Tarjan's walk over refines edges, child to
// parent reversed: from a requirement to the requirements that refine it.
type tarjan struct {
	g          *Graph
	index, low []int32
	onStack    []bool
	stack      []int32 // the nodes of components not yet complete
	call       []tarjanFrame
	counter    int32
}

// tarjanFrame is a node being walked, and the position in its incoming
// edges the walk has reached.
type tarjanFrame struct {
	v    int32
	next int
}

func newTarjan(g *Graph) *tarjan {
	n := len(g.nodes)
	t := &tarjan{g: g, index: make([]int32, n), low: make([]int32, n), onStack: make([]bool, n)}
	for i := range t.index {
		t.index[i] = unvisited
	}
	return t
}

// visit enters w: numbers it and puts it on both stacks.
func (t *tarjan) visit(w int32) {
	t.index[w], t.low[w] = t.counter, t.counter
	t.counter++
	t.stack = append(t.stack, w)
	t.onStack[w] = true
	t.call = append(t.call, tarjanFrame{v: w})
}

// descend goes on with the node on top of the call stack: it visits its
// next unvisited child and reports true, or, when every child is done,
// reports false.
func (t *tarjan) descend() bool {
	f := &t.call[len(t.call)-1]
	v := f.v
	in := t.g.nodes[v].in
	for f.next < len(in) {
		e := in[f.next]
		f.next++
		if e.typ != Refines {
			continue
		}
		w := e.from // a child of v
		if t.index[w] == unvisited {
			t.visit(w)
			return true
		}
		if t.onStack[w] && t.index[w] < t.low[v] {
			t.low[v] = t.index[w]
		}
	}
	return false
}

// finish leaves the node on top of the call stack, whose children are
// all done, and returns its component when it roots one (the root
// first), nil otherwise.
func (t *tarjan) finish() []int32 {
	v := t.call[len(t.call)-1].v
	t.call = t.call[:len(t.call)-1]
	if len(t.call) > 0 {
		p := t.call[len(t.call)-1].v
		if t.low[v] < t.low[p] {
			t.low[p] = t.low[v]
		}
	}
	if t.low[v] != t.index[v] {
		return nil
	}
	start := len(t.stack) - 1
	for t.stack[start] != v {
		start--
	}
	comp := slices.Clone(t.stack[start:])
	t.stack = t.stack[:start]
	for _, w := range comp {
		t.onStack[w] = false
	}
	return comp
}

func (b *builder) selfLoop(v int32) bool {
	for _, e := range b.g.nodes[v].in {
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
		for k := range g.nodes[w].out {
			e := &g.nodes[w].out[k]
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
			if !yield(g.nodes[i]) {
				return
			}
		}
	}
}

// OnCycle reports whether requirement n sits on a refinement cycle.
func (g *Graph) OnCycle(n *Node) bool { return g.cyclic[n.index] }
