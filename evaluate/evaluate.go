// Package evaluate decides, for every requirement of a graph, whether it is
// satisfied, and says why. Evaluate is a pure function of the graph and the
// evaluation date: it reads the graph through its read-only accessors and
// keeps everything it derives in its own Result.
package evaluate

import (
	"fmt"
	"strings"
	"time"

	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
)

// Reason is one finding behind a verdict. Blocking reasons are why a
// requirement is unsatisfied; the others are notes an explanation shows
// (an excluded outcome, a skipped run, a waiver in force).
type Reason struct {
	Code     string
	Message  string
	Pos      parser.Pos
	Subject  string // the ID the reason is about: a test, an outcome, a child...
	Blocking bool
}

// Verdict is the evaluation of one requirement.
type Verdict struct {
	ID        string
	Satisfied bool
	Leaf      bool
	Reasons   []Reason // blocking reasons first, each group in source order
}

// Blocking returns only the reasons that make the requirement unsatisfied.
func (v Verdict) Blocking() []Reason {
	var out []Reason
	for _, r := range v.Reasons {
		if r.Blocking {
			out = append(out, r)
		}
	}
	return out
}

// Result holds every verdict of one evaluation.
type Result struct {
	At time.Time
	// Verdicts lists the requirements in ID order.
	Verdicts []Verdict
	// Diagnostics are the findings that depend on the evaluation date
	// (expired-waiver).
	Diagnostics parser.Diagnostics

	byNode   []int32 // node index -> position in Verdicts, or -1
	outcomes []outcomeFacts
}

// Verdict returns the verdict of requirement n.
func (r *Result) Verdict(n *graph.Node) (Verdict, bool) {
	if n.Index() >= len(r.byNode) || r.byNode[n.Index()] < 0 {
		return Verdict{}, false
	}
	return r.Verdicts[r.byNode[n.Index()]], true
}

// Counts returns how many requirements are satisfied and unsatisfied.
func (r *Result) Counts() (satisfied, unsatisfied int) {
	for _, v := range r.Verdicts {
		if v.Satisfied {
			satisfied++
		} else {
			unsatisfied++
		}
	}
	return
}

// outcomeFacts is what the evaluation date and the graph decide about one
// outcome node, whatever test it confirms.
type outcomeFacts struct {
	witnessed bool
	excusedBy int32 // node index of a waiver in force, or -1
}

// Day truncates t to its UTC date, the unit evaluation dates are compared in.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Evaluate decides every requirement of g at the evaluation date at (only
// its UTC date counts). Its cost is linear in nodes plus edges.
func Evaluate(g *graph.Graph, at time.Time) *Result {
	at = Day(at)
	r := &Result{At: at, byNode: make([]int32, g.Len()), outcomes: make([]outcomeFacts, g.Len())}
	for i := range r.byNode {
		r.byNode[i] = -1
	}

	for n := range g.Nodes() {
		switch n.Kind() {
		case parser.Outcome:
			f := &r.outcomes[n.Index()]
			f.witnessed = g.HasOut(n, graph.Witnesses)
			f.excusedBy = -1
			for e := range g.In(n, graph.Excuses) {
				if w := g.From(e); !w.Expired(at) {
					f.excusedBy = int32(w.Index())
					break
				}
			}
		case parser.Waiver:
			if n.HasExpires() && n.ExpiresValid() && n.Expired(at) {
				r.Diagnostics = append(r.Diagnostics, parser.Diagnostic{
					Severity: parser.Warning,
					Code:     "expired-waiver",
					Message:  fmt.Sprintf("waiver %q expired on %s", n.ID(), n.ExpiresText()),
					Detail:   fmt.Sprintf("Its :expires: date is before the evaluation date %s, so it excuses nothing. Renew it with a new date or fix what it excused.", at.Format(time.DateOnly)),
					Span:     parser.Span{Start: n.Pos()},
				})
			}
		case parser.Requirement:
			r.byNode[n.Index()] = int32(len(r.Verdicts))
			r.Verdicts = append(r.Verdicts, Verdict{ID: n.ID(), Leaf: g.IsLeaf(n)})
		}
	}
	r.Diagnostics.Sort()

	tests := make([]*testFacts, g.Len())
	for n := range g.RefinementOrder() {
		v := &r.Verdicts[r.byNode[n.Index()]]
		if v.Leaf {
			r.leaf(g, n, v, tests)
		} else {
			r.nonLeaf(g, n, v)
		}
	}
	return r
}

// testFacts summarises the confirming outcomes of one test specification.
type testFacts struct {
	counted int      // confirming outcomes that are not skipped
	bad     []Reason // confirming outcomes that failed unexcused or have no valid result
	notes   []Reason // excluded, skipped and excused outcomes
}

// whyNone says what became of a test's outcomes when none counted, so a
// reader sees at once that, say, a results file was given no witness.
func (f *testFacts) whyNone() string {
	unwitnessed, skipped := 0, 0
	for _, n := range f.notes {
		switch n.Code {
		case "outcome-unwitnessed":
			unwitnessed++
		case "outcome-skipped":
			skipped++
		}
	}
	var parts []string
	if unwitnessed > 0 {
		parts = append(parts, fmt.Sprintf("%d excluded because they witness no implementation", unwitnessed))
	}
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", skipped))
	}
	if len(parts) == 0 {
		return ": it has no outcomes"
	}
	return ": of its outcomes, " + strings.Join(parts, ", ")
}

// test computes (once per test) what its outcomes say.
func (r *Result) test(g *graph.Graph, t *graph.Node, cache []*testFacts) *testFacts {
	if f := cache[t.Index()]; f != nil {
		return f
	}
	f := &testFacts{}
	last := -1
	for e := range g.In(t, graph.Confirms) {
		o := g.From(e)
		if o.Index() == last {
			continue // the same outcome listed twice in :confirms:
		}
		last = o.Index()
		of := r.outcomes[o.Index()]
		label := outcomeLabel(o)
		switch {
		case !of.witnessed:
			f.notes = append(f.notes, Reason{Code: "outcome-unwitnessed", Pos: o.Pos(), Subject: o.ID(),
				Message: fmt.Sprintf("%s of test %q is excluded: it witnesses no implementation", label, t.ID())})
		case o.Result() == graph.Skipped:
			f.notes = append(f.notes, Reason{Code: "outcome-skipped", Pos: o.Pos(), Subject: o.ID(),
				Message: fmt.Sprintf("%s of test %q was skipped: no evidence either way", label, t.ID())})
		case o.Result() == graph.Passed:
			f.counted++
		case o.Result() == graph.ResultInvalid:
			f.counted++
			f.bad = append(f.bad, Reason{Code: "outcome-invalid", Pos: o.Pos(), Subject: o.ID(), Blocking: true,
				Message: fmt.Sprintf("%s of test %q has no valid :result: (%q), so it can only count against", label, t.ID(), o.ResultText())})
		default: // failed or error
			f.counted++
			if of.excusedBy >= 0 {
				w := g.Node(int(of.excusedBy))
				f.notes = append(f.notes, Reason{Code: "outcome-excused", Pos: o.Pos(), Subject: o.ID(),
					Message: fmt.Sprintf("%s of test %q %s, excused by waiver %q (%s)", label, t.ID(), o.Result(), w.ID(), w.Pos())})
				continue
			}
			msg := fmt.Sprintf("%s of test %q %s", label, t.ID(), o.Result())
			if expired := expiredWaivers(g, o); expired != "" {
				msg += "; " + expired
			}
			f.bad = append(f.bad, Reason{Code: "outcome-failed", Pos: o.Pos(), Subject: o.ID(), Blocking: true, Message: msg})
		}
	}
	cache[t.Index()] = f
	return f
}

func outcomeLabel(o *graph.Node) string {
	if c := o.Config(); c != "" {
		return fmt.Sprintf("outcome %q (config %s)", o.ID(), c)
	}
	return fmt.Sprintf("outcome %q", o.ID())
}

// expiredWaivers names the waivers that would have excused o but no longer do.
func expiredWaivers(g *graph.Graph, o *graph.Node) string {
	var parts []string
	for e := range g.In(o, graph.Excuses) {
		w := g.From(e)
		if w.ExpiresValid() {
			parts = append(parts, fmt.Sprintf("waiver %q expired on %s", w.ID(), w.ExpiresText()))
		} else {
			parts = append(parts, fmt.Sprintf("waiver %q has an invalid :expires: date", w.ID()))
		}
	}
	return strings.Join(parts, "; ")
}

// leaf applies the leaf rule (SEG-SREQ-006, with SEG-SREQ-355's confirming
// outcomes).
func (r *Result) leaf(g *graph.Graph, n *graph.Node, v *Verdict, cache []*testFacts) {
	var blocking, notes []Reason
	activeV, activeI := false, false
	var inactive []string
	last := -1 // edges arrive sorted by their test, so repeats are adjacent
	for e := range g.In(n, graph.Verifies) {
		t := g.From(e)
		if e.Active() {
			activeV = true
		} else {
			inactive = append(inactive, fmt.Sprintf("%q (%s)", t.ID(), e.State()))
			notes = append(notes, Reason{Code: "inactive-edge", Pos: e.Pos(), Subject: t.ID(),
				Message: fmt.Sprintf("verifies edge from test %q is %s; its outcomes still count", t.ID(), e.State())})
		}
		if t.Index() == last {
			continue
		}
		last = t.Index()
		f := r.test(g, t, cache)
		if f.counted == 0 {
			blocking = append(blocking, Reason{Code: "no-confirming-outcome", Pos: t.Pos(), Subject: t.ID(), Blocking: true,
				Message: fmt.Sprintf("test %q has no confirming outcome that ran (witnessed and not skipped)%s", t.ID(), f.whyNone())})
		}
		blocking = append(blocking, f.bad...)
		notes = append(notes, f.notes...)
	}
	for e := range g.In(n, graph.Implements) {
		if e.Active() {
			activeI = true
		} else {
			notes = append(notes, Reason{Code: "inactive-edge", Pos: e.Pos(), Subject: g.From(e).ID(),
				Message: fmt.Sprintf("implements edge from %q is %s", g.From(e).ID(), e.State())})
		}
	}
	var clauses []Reason
	if !activeV {
		msg := "no active verifies edge: no test specification verifies it"
		if len(inactive) > 0 {
			msg = "no active verifies edge: only " + strings.Join(inactive, ", ")
		}
		clauses = append(clauses, Reason{Code: "no-active-verifies", Pos: n.Pos(), Subject: n.ID(), Blocking: true, Message: msg})
	}
	if !activeI {
		clauses = append(clauses, Reason{Code: "no-active-implements", Pos: n.Pos(), Subject: n.ID(), Blocking: true,
			Message: "no active implements edge: no implementation implements it"})
	}
	blocking = append(clauses, blocking...)
	v.Satisfied = len(blocking) == 0
	v.Reasons = append(blocking, notes...)
}

// nonLeaf applies the non-leaf rule (SEG-SREQ-007). Children were decided
// before n; members of a cycle are unsatisfied (the least fixed point).
func (r *Result) nonLeaf(g *graph.Graph, n *graph.Node, v *Verdict) {
	var blocking, notes []Reason
	if g.OnCycle(n) {
		pos := n.Pos()
		for e := range g.Out(n, graph.Refines) {
			if g.OnCycle(g.To(e)) {
				pos = e.Pos()
				break
			}
		}
		blocking = append(blocking, Reason{Code: "on-cycle", Pos: pos, Subject: n.ID(), Blocking: true,
			Message: "it sits on a refinement cycle, so it depends on itself"})
	}
	last := -1
	for e := range g.In(n, graph.Refines) {
		c := g.From(e)
		if c.Index() == last {
			continue
		}
		last = c.Index()
		cv := r.Verdicts[r.byNode[c.Index()]]
		if !cv.Satisfied {
			blocking = append(blocking, Reason{Code: "child-unsatisfied", Pos: e.Pos(), Subject: c.ID(), Blocking: true,
				Message: fmt.Sprintf("refined by %q, which is unsatisfied", c.ID())})
		}
	}
	ownOutcomes := 0
	for _, t := range []graph.EdgeType{graph.Verifies, graph.Implements} {
		for e := range g.In(n, t) {
			from := g.From(e)
			if !e.Active() {
				blocking = append(blocking, Reason{Code: "inactive-edge", Pos: e.Pos(), Subject: from.ID(), Blocking: true,
					Message: fmt.Sprintf("%s edge from %q is %s; a non-leaf needs every such edge active", t, from.ID(), e.State())})
			}
			if t == graph.Verifies {
				for range g.In(from, graph.Confirms) {
					ownOutcomes++
				}
			}
		}
	}
	if ownOutcomes > 0 {
		notes = append(notes, Reason{Code: "own-outcomes-not-counted", Pos: n.Pos(), Subject: n.ID(),
			Message: fmt.Sprintf("%d outcome(s) of its own tests are not counted: a non-leaf is decided by its children", ownOutcomes)})
	}
	v.Satisfied = len(blocking) == 0
	v.Reasons = append(blocking, notes...)
}
