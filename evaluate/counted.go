package evaluate

import (
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/source"
)

// CountedEvidence is one piece of evidence a verdict counted for its
// requirement: an edge that bore on it and held, or an outcome that
// counted for one of its tests. seg diff compares these between two
// evaluations (docs/diff.md, "Lost evidence"), so that losing one is seen
// even when the status stays the same.
type CountedEvidence struct {
	// Kind is verifies (an active verifies edge from a test),
	// implements (an active implements edge from an implementation),
	// refined-by (a refines edge from a satisfied child, for a non-leaf),
	// or outcome (an outcome of one of its tests that counted).
	Kind string
	// Node is the node at the other end: the test, the implementation,
	// the child or the outcome. Via is, for an outcome, the test it
	// confirms; nil otherwise.
	Node, Via *graph.Node
	// Pos is where the evidence is written: the link entry, or the
	// outcome.
	Pos source.Pos
}

// Counted lists the evidence v counted, in the order of its evidence
// record. It reads the verdict's record and the link states evaluate
// decided by (the edge states of the record, EdgeState: a link is active
// when its written state is active and it holds); it decides nothing anew.
// A leaf counts its active verifies and implements edges and the counted
// outcomes of every test that verifies it (a test's outcomes count
// whether or not its verifies edge is active, as the leaf rule says); a
// non-leaf counts its satisfied children and its active verifies and
// implements edges, and no outcomes (it is decided by its children).
func (r *Result) Counted(g *graph.Graph, v *Verdict) []CountedEvidence {
	var out []CountedEvidence
	active := func(e *graph.Edge) bool { return r.EdgeState(g, e).Active }
	if !v.Leaf {
		last := -1
		for _, l := range v.RefinedBy {
			if l.Node.Index() == last {
				continue
			}
			last = l.Node.Index()
			if cv, ok := r.Verdict(l.Node); ok && cv.Satisfied {
				out = append(out, CountedEvidence{Kind: "refined-by", Node: l.Node, Pos: l.Edge.Pos()})
			}
		}
	}
	last := -1
	for _, te := range v.Verifies {
		if active(te.Edge) {
			out = append(out, CountedEvidence{Kind: "verifies", Node: te.Node, Pos: te.Edge.Pos()})
		}
		if !v.Leaf || te.Node.Index() == last {
			continue
		}
		last = te.Node.Index()
		for _, o := range te.Outcomes {
			if o.Standing == Counted {
				out = append(out, CountedEvidence{Kind: "outcome", Node: o.Outcome, Via: te.Node, Pos: o.Outcome.Pos()})
			}
		}
	}
	for _, l := range v.Implements {
		if active(l.Edge) {
			out = append(out, CountedEvidence{Kind: "implements", Node: l.Node, Pos: l.Edge.Pos()})
		}
	}
	return out
}
