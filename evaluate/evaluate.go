// Package evaluate decides, for every requirement of a graph, whether it is
// satisfied, says why, and records the evidence it decided from. Evaluate
// is a pure function of the graph and the evaluation date: it reads the
// graph through its read-only accessors and keeps everything it derives in
// its own Result. Every report renders that Result and decides nothing.
//
// A client that evaluates again after every edit (the language server)
// keeps a Memo: Memo.Evaluate updates the last Result (Update) through
// the graph.Delta a patched build names, and only when that delta goes
// from the graph the last Result is of (their generations tell) to the
// graph given; otherwise it evaluates in full. The result is
// EvaluateWith's either way.
package evaluate

import (
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/source"
)

// Reason is one finding behind a verdict. Blocking reasons are why a
// requirement is unsatisfied; the others are notes an explanation shows
// (an excluded outcome, a skipped run, a waiver in force).
type Reason struct {
	Code     *diag.Code
	Message  string
	Pos      source.Pos
	Subject  string // the ID the reason is about: a test, an outcome, a child...
	Blocking bool
}

// Verdict is the evaluation of one requirement: the verdict, its reasons,
// and the evidence below it.
type Verdict struct {
	ID        string
	Satisfied bool
	Status    Status
	Leaf      bool
	// Policy is the evidence policy a leaf was decided under (policy.go),
	// nil for the seed's rule.
	Policy  *Policy
	Reasons []Reason // blocking reasons first, each group in source order
	Evidence
	// Tally counts the evidence as the verdict read it.
	Tally Tally
}

// Evidence is what a requirement's verdict was decided from: every edge
// it carries or that leaves it, with the node at the other end, and for
// each test specification that verifies it, how each of the test's
// outcomes stands.
type Evidence struct {
	// Refines are the requirements this one refines; RefinedBy the
	// requirements that refine it (its children).
	Refines, RefinedBy []Link
	// Verifies are the verifies edges it carries, each with its test and
	// the test's outcomes.
	Verifies []TestEvidence
	// Implements are the implements edges it carries.
	Implements []Link
}

// Link is an edge, the node at its other end, and how the edge stands.
type Link struct {
	Edge  *graph.Edge
	Node  *graph.Node
	State EdgeState
}

// TestEvidence is one verifies edge, its test and every outcome that
// confirms the test, in ID order. The outcomes are shared by every
// requirement the test verifies: do not change them.
type TestEvidence struct {
	Link
	Outcomes []OutcomeEvidence
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
	// Diagnostics are the findings of the evaluation: those that depend
	// on the evaluation date (expired-waiver, expiring-waiver), on pins
	// (stale-link, unreviewed-link) and on how outcomes stand
	// (unwitnessed-outcome, unused-waiver).
	Diagnostics diag.List

	// byNode maps a node's index to the requirement's position in
	// Verdicts, or the test's in tests; -1 for other nodes.
	byNode []int32
	// reqNodes is byNode the other way: the node index of each verdict.
	reqNodes []int32
	tests    [][]OutcomeEvidence // each test's outcomes' standing
	// testFacts holds, while Evaluate runs, each test's outcomes as
	// reasons (rules.go).
	testFacts []*testFacts
	eval      *evaluation // while Evaluate runs
	opts      Options
	// gen is the generation of the graph evaluated (graph.Delta).
	gen uint64
}

// LinkState says whether the link e of g was written in still holds at
// this evaluation: current, stale or (strict review) unreviewed. A
// renderer reads the same fact from the record (Link.State, Edge).
func (r *Result) LinkState(g *graph.Graph, e *graph.Edge) LinkState {
	return linkState(g, r.opts.RequirePins, e)
}

// Verdict returns the verdict of requirement n.
func (r *Result) Verdict(n *graph.Node) (Verdict, bool) {
	if !n.IsRequirement() || n.Index() >= len(r.byNode) || r.byNode[n.Index()] < 0 {
		return Verdict{}, false
	}
	return r.Verdicts[r.byNode[n.Index()]], true
}

// VerdictNode is the requirement Verdicts[i] decides, in g, the graph r
// evaluated: by index, where a lookup by ID would hash every ID.
func (r *Result) VerdictNode(g *graph.Graph, i int) *graph.Node {
	if i < len(r.reqNodes) && int(r.reqNodes[i]) < g.Len() {
		if n := g.Node(int(r.reqNodes[i])); n.ID() == r.Verdicts[i].ID {
			return n
		}
	}
	n, _ := g.Lookup(r.Verdicts[i].ID)
	return n
}

// TestOutcomes is how every outcome confirming test t stands, in ID order
// (nil for a node that is no test).
func (r *Result) TestOutcomes(t *graph.Node) []OutcomeEvidence {
	if t.Kind() != testKind || t.Index() >= len(r.byNode) || r.byNode[t.Index()] < 0 {
		return nil
	}
	return r.tests[r.byNode[t.Index()]]
}

// Day truncates t to its UTC date, the unit evaluation dates are compared in.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Evaluate decides every requirement of g at the evaluation date at (only
// its UTC date counts), with no maximum age and no strict review.
func Evaluate(g *graph.Graph, at time.Time) *Result {
	return EvaluateWith(g, Options{At: at})
}

// EvaluateWith decides every requirement of g. Its cost is linear in nodes
// plus edges.
func EvaluateWith(g *graph.Graph, o Options) *Result {
	e := newEvaluation(g, o)
	r := &Result{At: e.at, byNode: make([]int32, g.Len()), eval: e, opts: e.opts, gen: g.Generation()}
	for i := range r.byNode {
		r.byNode[i] = -1
	}
	var reqs, tests []*graph.Node
	for n := range g.Nodes() {
		switch {
		case n.IsRequirement():
			reqs = append(reqs, n)
		case n.Kind() == testKind:
			tests = append(tests, n)
		}
	}
	if len(reqs) > 0 {
		r.Verdicts = make([]Verdict, len(reqs))
		r.reqNodes = make([]int32, len(reqs))
	}
	r.tests = make([][]OutcomeEvidence, len(tests))
	for i, t := range tests {
		r.byNode[t.Index()] = int32(i)
	}
	for i, n := range reqs {
		r.byNode[n.Index()] = int32(i)
		r.reqNodes[i] = int32(n.Index())
		r.Verdicts[i] = Verdict{ID: n.ID(), Leaf: g.IsLeaf(n)}
	}
	// A test's outcomes, a leaf's verdict and every requirement's evidence
	// read the graph and what an earlier step made, and write their own
	// slots: they run on every core. A non-leaf reads its children's
	// verdicts, so the non-leaves are decided in refinement order, where
	// every leaf comes before the requirements it refines (it refines
	// them, so Tarjan's walk reaches it first).
	r.testFacts = make([]*testFacts, len(tests))
	parallel(len(tests), func(lo, hi int) {
		for i, t := range tests[lo:hi] {
			r.tests[lo+i] = e.outcomes(t)
			r.testFacts[lo+i] = facts(g, t, r.tests[lo+i])
		}
	})
	r.Diagnostics = r.diagnostics(g)
	parallel(len(reqs), func(lo, hi int) {
		for _, n := range reqs[lo:hi] {
			v := &r.Verdicts[r.byNode[n.Index()]]
			v.Evidence = r.evidence(g, n)
			v.Tally = tally(g, &v.Evidence, v.Leaf)
			if v.Leaf {
				r.leaf(g, n, v)
			}
		}
	})
	for n := range g.RefinementOrder() {
		if v := &r.Verdicts[r.byNode[n.Index()]]; !v.Leaf {
			r.nonLeaf(g, n, v)
		}
	}
	r.testFacts, r.eval = nil, nil
	r.statuses(g)
	return r
}

// diagnostics are the evaluation's findings: the waivers' and links', and
// the warnings about evidence that counts for nothing.
func (r *Result) diagnostics(g *graph.Graph) diag.List {
	// One pass over the nodes for the waivers' and the evidence
	// warnings, on every core, each part in node order.
	var mu sync.Mutex
	parts := map[int]diag.List{}
	parallel(g.Len(), func(lo, hi int) {
		var part diag.List
		for i := lo; i < hi; i++ {
			n := g.Node(i)
			if d, ok := r.eval.waiverDiagnostic(n); ok {
				part = append(part, d)
			}
			if d, ok := r.evidenceDiagnostic(g, n); ok {
				part = append(part, d)
			}
		}
		mu.Lock()
		parts[lo] = part
		mu.Unlock()
	})
	var out diag.List
	for _, lo := range slices.Sorted(maps.Keys(parts)) {
		out = append(out, parts[lo]...)
	}
	out = append(out, r.eval.linkDiagnostics()...)
	out.Sort(g.Files())
	return out
}

// evidence lists the edges requirement n carries or that leave it, each
// with how it stands, and counts them.
func (r *Result) evidence(g *graph.Graph, n *graph.Node) Evidence {
	var ev Evidence
	link := func(e *graph.Edge, other *graph.Node) Link {
		return Link{e, other, edgeState(g, r.opts.RequirePins, e)}
	}
	for e := range g.Out(n, graph.Refines) {
		ev.Refines = append(ev.Refines, link(e, g.To(e)))
	}
	for e := range g.In(n, graph.Refines) {
		ev.RefinedBy = append(ev.RefinedBy, link(e, g.From(e)))
	}
	for e := range g.In(n, graph.Verifies) {
		t := g.From(e)
		ev.Verifies = append(ev.Verifies, TestEvidence{link(e, t), r.tests[r.byNode[t.Index()]]})
	}
	for e := range g.In(n, graph.Implements) {
		ev.Implements = append(ev.Implements, link(e, g.From(e)))
	}
	return ev
}

// Status is the three-valued standing of a requirement (revisions.md):
// satisfied; failing, when the evidence says no (a counted outcome failed
// or errored and nothing excuses it, below it); unproven otherwise.
type Status uint8

const (
	Satisfied Status = iota + 1
	Failing
	Unproven
)

func (s Status) String() string {
	switch s {
	case Satisfied:
		return "satisfied"
	case Failing:
		return "failing"
	case Unproven:
		return "unproven"
	}
	return "unknown"
}

// statuses gives every verdict its status. A leaf is failing when one of
// its blocking reasons is a counted outcome that failed or errored; every
// requirement such a leaf refines, transitively and through cycles, is
// failing too (the least fixed point from the leaves up: a requirement is
// failing only when something failing is below it).
func (r *Result) statuses(g *graph.Graph) {
	var work []*graph.Node
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		if v.Status = v.ownStatus(); v.Status == Failing {
			n := r.VerdictNode(g, i)
			work = append(work, n)
		}
	}
	r.failUp(g, work)
}

// ownStatus is the status v has before anything below it counts:
// satisfied, failing for a leaf with a counted failure, else unproven.
func (v *Verdict) ownStatus() Status {
	switch {
	case v.Satisfied:
		return Satisfied
	case v.Leaf && hasReason(v.Reasons, ReasonOutcomeFailed):
		return Failing
	}
	return Unproven
}

// failUp makes failing every unproven requirement that the failing
// requirements work refine, transitively.
func (r *Result) failUp(g *graph.Graph, work []*graph.Node) {
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for e := range g.Out(n, graph.Refines) {
			p := g.To(e)
			if v := &r.Verdicts[r.byNode[p.Index()]]; v.Status == Unproven {
				v.Status = Failing
				work = append(work, p)
			}
		}
	}
}

func hasReason(rs []Reason, code *diag.Code) bool {
	for _, x := range rs {
		if x.Blocking && x.Code == code {
			return true
		}
	}
	return false
}

// Counts are how many requirements have each status.
func (r *Result) Counts() (satisfied, failing, unproven int) {
	for _, v := range r.Verdicts {
		switch v.Status {
		case Satisfied:
			satisfied++
		case Failing:
			failing++
		default:
			unproven++
		}
	}
	return
}
