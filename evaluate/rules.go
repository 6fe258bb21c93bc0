package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/graph"
)

// leaf applies the leaf rule (SEG-SREQ-006, with SEG-SREQ-355's confirming
// outcomes) to n, whose evidence v already holds.
func (r *Result) leaf(g *graph.Graph, n *graph.Node, v *Verdict) {
	var blocking, notes []Reason
	activeV, activeI := false, false
	activeFull := false // an active verifies edge that is not partial
	var inactive []string
	last := -1 // edges arrive sorted by their test, so repeats are adjacent
	for _, te := range v.Verifies {
		e, t := te.Edge, te.Node
		if ok, why := r.eval.active(e); ok {
			activeV = true
			activeFull = activeFull || !e.Partial()
		} else {
			state := r.eval.stateWord(e)
			inactive = append(inactive, fmt.Sprintf("%q (%s)", t.ID(), state))
			notes = append(notes, Reason{Code: why, Pos: e.Pos(), Subject: t.ID(),
				Message: fmt.Sprintf("verifies edge from test %q is %s; its outcomes still count", t.ID(), state)})
		}
		if t.Index() == last {
			continue
		}
		last = t.Index()
		f := r.facts(t)
		if f.counted == 0 {
			blocking = append(blocking, Reason{Code: ReasonNoConfirmingOutcome, Pos: t.Pos(), Subject: t.ID(), Blocking: true,
				Message: fmt.Sprintf("test %q has no confirming outcome that ran (witnessed and not skipped)%s", t.ID(), f.whyNone())})
		}
		blocking = append(blocking, f.bad...)
		notes = append(notes, f.notes...)
	}
	var inactiveI []string
	for _, l := range v.Implements {
		if ok, why := r.eval.active(l.Edge); ok {
			activeI = true
		} else {
			inactiveI = append(inactiveI, fmt.Sprintf("%q (%s)", l.Node.ID(), r.eval.stateWord(l.Edge)))
			notes = append(notes, Reason{Code: why, Pos: l.Edge.Pos(), Subject: l.Node.ID(),
				Message: fmt.Sprintf("implements edge from %q is %s", l.Node.ID(), r.eval.stateWord(l.Edge))})
		}
	}
	var clauses []Reason
	p := r.eval.policyOf(n)
	needV, needFull, needI := policyClauses(p)
	v.Policy = p
	if !activeV && needV {
		msg := "no active verifies edge: no test specification verifies it"
		if len(inactive) > 0 {
			msg = "no active verifies edge: only " + strings.Join(inactive, ", ")
		}
		clauses = append(clauses, Reason{Code: ReasonNoActiveVerifies, Pos: n.Pos(), Subject: n.ID(), Blocking: true, Message: msg})
	}
	if activeV && needFull && !activeFull {
		clauses = append(clauses, Reason{Code: ReasonPartialOnly, Pos: n.Pos(), Subject: n.ID(), Blocking: true,
			Message: "only partial verification: every active verifies edge verifies it in part, but " + p.String()})
	}
	if !activeI && needI {
		msg := "no active implements edge: no implementation implements it"
		if len(inactiveI) > 0 {
			msg = "no active implements edge: only " + strings.Join(slices.Compact(inactiveI), ", ")
		}
		clauses = append(clauses, Reason{Code: ReasonNoActiveImplements, Pos: n.Pos(), Subject: n.ID(), Blocking: true, Message: msg})
	}
	blocking = append(clauses, blocking...)
	if p != nil {
		notes = append(notes, Reason{Code: ReasonPolicy, Pos: n.Pos(), Subject: n.ID(), Message: "decided under " + p.String()})
	}
	v.Satisfied = len(blocking) == 0
	v.Reasons = append(blocking, notes...)
}

// facts is test t's outcomes as reasons, worked out once per test
// before any requirement is decided.
func (r *Result) facts(t *graph.Node) *testFacts { return r.testFacts[r.byNode[t.Index()]] }

// nonLeaf applies the non-leaf rule (SEG-SREQ-007). Children were decided
// before n; members of a cycle are unsatisfied (the least fixed point).
func (r *Result) nonLeaf(g *graph.Graph, n *graph.Node, v *Verdict) {
	var blocking, notes []Reason
	if g.OnCycle(n) {
		pos := n.Pos()
		for _, l := range v.Refines {
			if g.OnCycle(l.Node) {
				pos = l.Edge.Pos()
				break
			}
		}
		blocking = append(blocking, Reason{Code: ReasonOnCycle, Pos: pos, Subject: n.ID(), Blocking: true,
			Message: "it sits on a refinement cycle, so it depends on itself"})
	}
	last := -1
	for _, l := range v.RefinedBy {
		c := l.Node
		if c.Index() == last {
			continue
		}
		last = c.Index()
		if cv := r.Verdicts[r.byNode[c.Index()]]; !cv.Satisfied {
			blocking = append(blocking, Reason{Code: ReasonChildUnsatisfied, Pos: l.Edge.Pos(), Subject: c.ID(), Blocking: true,
				Message: fmt.Sprintf("refined by %q, which is unsatisfied", c.ID())})
		}
	}
	ownOutcomes := 0
	inactive := func(kind graph.EdgeType, l Link) {
		if ok, why := r.eval.active(l.Edge); !ok {
			blocking = append(blocking, Reason{Code: why, Pos: l.Edge.Pos(), Subject: l.Node.ID(), Blocking: true,
				Message: fmt.Sprintf("%s edge from %q is %s; a non-leaf needs every such edge active", kind, l.Node.ID(), r.eval.stateWord(l.Edge))})
		}
	}
	for _, te := range v.Verifies {
		inactive(graph.Verifies, te.Link)
		for range g.In(te.Node, graph.Confirms) {
			ownOutcomes++
		}
	}
	for _, l := range v.Implements {
		inactive(graph.Implements, l)
	}
	if ownOutcomes > 0 {
		notes = append(notes, Reason{Code: ReasonOwnOutcomes, Pos: n.Pos(), Subject: n.ID(),
			Message: fmt.Sprintf("%d outcome(s) of its own tests are not counted: a non-leaf is decided by its children", ownOutcomes)})
	}
	v.Satisfied = len(blocking) == 0
	v.Reasons = append(blocking, notes...)
}
