package evaluate

import (
	"fmt"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
)

// This file holds the facts of the evidence record that renderers show
// besides verdicts and standings: how each link stands (EdgeState,
// EdgeEvidence) and how a requirement's own evidence counted (Tally).
// A renderer reads them here and never works them out again from the
// graph: the written state of an edge is not whether it counts, and a
// result is not a standing.

// EdgeState is how one link stands at this evaluation.
type EdgeState struct {
	// Written is the state the link was written in: active, suspect or
	// retired (an edge whose option takes no state is active).
	Written parser.State
	// Holds says whether the link still holds: current, stale (pinned to
	// another revision of its target) or unreviewed (strict review, no
	// pin).
	Holds LinkState
	// Active is whether the edge counts as active, what the satisfaction
	// rules read of a verifies or implements edge: written active, and
	// its link holds.
	Active bool
	// Condition is the entry's condition when it does not hold for the
	// target (graph.Condition): the link is stale by it, whatever its
	// pin says. Its State is graph.NoCondition otherwise.
	Condition graph.Condition
	// target is the ID of the edge's target, for Word.
	target string
}

// Word is how explanations name the state of a link that is not active:
// "stale" or "unreviewed" when it does not hold (with the condition that
// fails, and what the target's fields are now), else the written state.
func (s EdgeState) Word() string {
	if !s.Condition.Holds() {
		return fmt.Sprintf("stale: its condition [%s] does not hold for %q (%s)", s.Condition.Text, s.target, s.Condition.Values())
	}
	if s.Holds != Current {
		return s.Holds.String()
	}
	return s.Written.String()
}

// why is the reason code of an edge that is not active.
func (s EdgeState) why() *diag.Code {
	if c := s.Condition.Code(); c != nil {
		return c
	}
	switch s.Holds {
	case Stale:
		return CodeStaleLink
	case Unreviewed:
		return CodeUnreviewedLink
	}
	return ReasonInactiveEdge
}

// edgeState is how edge stands in g: a condition that does not hold makes
// the link stale (it is a pin written in the entry), else its seg.lock
// pin decides.
func edgeState(g *graph.Graph, requirePins bool, edge *graph.Edge) EdgeState {
	s := EdgeState{Written: edge.State()}
	if !g.ConditionHolds(edge) {
		s.Holds, s.Condition, s.target = Stale, g.Condition(edge), g.To(edge).ID()
	} else {
		s.Holds = pinState(g, requirePins, edge)
	}
	s.Active = s.Written == parser.Active && s.Holds == Current
	return s
}

// EdgeState says how edge e of g, the graph this Result evaluated,
// stands.
func (r *Result) EdgeState(g *graph.Graph, e *graph.Edge) EdgeState {
	return edgeState(g, r.opts.RequirePins, e)
}

// EdgeEvidence is one edge of the graph with how it stands, and the pin
// its state was decided from.
type EdgeEvidence struct {
	Edge *graph.Edge
	EdgeState
	// Pin is the edge's seg.lock pin when Pinned.
	Pin    graph.Pin
	Pinned bool
	// Now is the revision of the edge's target at this evaluation.
	Now uint64
	// PinHolds is what the pin alone says (seg.lock, strict review):
	// Holds, but for a link stale by its condition, which may be pinned
	// to its target's revision now.
	PinHolds LinkState
}

// Edge says how edge e of g, the graph this Result evaluated, stands.
func (r *Result) Edge(g *graph.Graph, e *graph.Edge) EdgeEvidence {
	x := EdgeEvidence{Edge: e, EdgeState: edgeState(g, r.opts.RequirePins, e), Now: g.To(e).Revision()}
	x.Pin, x.Pinned = g.Pin(e)
	x.PinHolds = x.Holds
	if !x.Condition.Holds() {
		x.PinHolds = pinState(g, r.opts.RequirePins, e)
	}
	return x
}

// Edges lists how every edge that leaves node n stands, then every edge
// that reaches it, each group in the graph's edge order.
func (r *Result) Edges(g *graph.Graph, n *graph.Node) []EdgeEvidence {
	var out []EdgeEvidence
	for e := range g.Out(n, 0) {
		out = append(out, r.Edge(g, e))
	}
	for e := range g.In(n, 0) {
		out = append(out, r.Edge(g, e))
	}
	return out
}

// Tally counts a requirement's own evidence as its verdict read it.
type Tally struct {
	// Tests and Implementations are the test specifications that verify
	// it and the implementations that implement it, each once.
	Tests, Implementations int32
	// Outcomes are the outcomes that confirm those tests, each once.
	Outcomes int32
	// Of the Outcomes of a leaf: Counted are those that ran and bear on
	// the verdict (passed, failed or errored, excused, invalid), Skipped
	// those that ran without a result either way, Excluded those that
	// are no evidence at this evaluation (unwitnessed, stale, too old,
	// dated in the future, an earlier run of a flaky case). An outcome
	// that confirms two of its tests and stands differently for them is
	// counted where it counts for one, else skipped where it is skipped
	// for one, else excluded. A non-leaf is decided by its children: its
	// verdict reads none of its own tests' outcomes, and they are all
	// NotRead.
	Counted, Skipped, Excluded, NotRead int32
	// ActiveVerifies and ActiveImplements say whether it carries a
	// verifies (an implements) edge that counts as active.
	ActiveVerifies, ActiveImplements bool
}

// outcomeClass orders how an outcome counts in a Tally: the largest
// class among its tests wins.
func outcomeClass(s Standing) int8 {
	switch s {
	case Excluded:
		return 1
	case Skipped:
		return 2
	}
	return 3
}

// tally counts the evidence ev of requirement n of g (a leaf when leaf).
func tally(g *graph.Graph, ev *Evidence, leaf bool) Tally {
	var t Tally
	add := func(class int8) {
		t.Outcomes++
		switch {
		case !leaf:
			t.NotRead++
		case class == 1:
			t.Excluded++
		case class == 2:
			t.Skipped++
		default:
			t.Counted++
		}
	}
	// An outcome is listed once for each test it confirms: with more
	// than one test, one that confirms more than one (rare) is counted
	// once, at the end. Nodes are told apart by index: what Update
	// carries over may hold an earlier graph's nodes, equal in value.
	var shared map[int]int8
	last, several := -1, false
	for _, te := range ev.Verifies {
		if te.Node.Index() != last && last >= 0 {
			several = true
			break
		}
		last = te.Node.Index()
	}
	last = -1
	for _, te := range ev.Verifies {
		if te.State.Active {
			t.ActiveVerifies = true
		}
		if te.Node.Index() == last { // edges arrive sorted by their test
			continue
		}
		last = te.Node.Index()
		t.Tests++
		for _, oe := range te.Outcomes {
			c := outcomeClass(oe.Standing)
			if !several || !confirmsMore(g, oe.Outcome) {
				add(c)
				continue
			}
			if shared == nil {
				shared = map[int]int8{}
			}
			k := oe.Outcome.Index()
			shared[k] = max(shared[k], c)
		}
	}
	for _, c := range shared {
		add(c)
	}
	lastImpl := -1
	for _, l := range ev.Implements { // in the order of the nodes they leave
		if l.State.Active {
			t.ActiveImplements = true
		}
		if l.Node.Index() != lastImpl {
			lastImpl = l.Node.Index()
			t.Implementations++
		}
	}
	return t
}

// confirmsMore reports whether outcome o has more than one confirms edge.
func confirmsMore(g *graph.Graph, o *graph.Node) bool {
	n := 0
	for range g.Out(o, graph.Confirms) {
		if n++; n > 1 {
			return true
		}
	}
	return false
}
