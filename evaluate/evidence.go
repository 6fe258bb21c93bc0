package evaluate

import "github.com/seg-trace/seg/graph"

// OutcomeStatus is how an outcome bears on the tests it confirms.
type OutcomeStatus string

const (
	// Counted: witnessed and passed, it is evidence for its tests.
	Counted OutcomeStatus = "counted"
	// Excused: witnessed, failed or errored, and excused by a waiver in force.
	Excused OutcomeStatus = "excused"
	// Failing: witnessed, failed or errored, and not excused.
	Failing OutcomeStatus = "failing"
	// Invalid: witnessed, with a missing or unknown result; counts against.
	Invalid OutcomeStatus = "invalid"
	// SkippedRun: witnessed and skipped; no evidence either way.
	SkippedRun OutcomeStatus = "skipped"
	// Unwitnessed: no witnesses edge, so not a confirming outcome at all.
	Unwitnessed OutcomeStatus = "excluded"
)

// Blocks reports whether an outcome of this status makes the leaves its
// tests verify unsatisfied.
func (s OutcomeStatus) Blocks() bool { return s == Failing || s == Invalid }

// OutcomeEvidence is what one outcome says at this evaluation.
type OutcomeEvidence struct {
	Outcome *graph.Node
	Status  OutcomeStatus
	// Waiver is the waiver in force that excuses it (Status Excused), else nil.
	Waiver *graph.Node
}

// Outcome classifies outcome node o.
func (r *Result) Outcome(g *graph.Graph, o *graph.Node) OutcomeEvidence {
	f := r.outcomes[o.Index()]
	ev := OutcomeEvidence{Outcome: o}
	switch {
	case !f.witnessed:
		ev.Status = Unwitnessed
	case o.Result() == graph.Passed:
		ev.Status = Counted
	case o.Result() == graph.Skipped:
		ev.Status = SkippedRun
	case o.Result() == graph.ResultInvalid:
		ev.Status = Invalid
	case f.excusedBy >= 0:
		ev.Status = Excused
		ev.Waiver = g.Node(int(f.excusedBy))
	default:
		ev.Status = Failing
	}
	return ev
}

// TestEvidence lists the outcomes that confirm test t, each once, in ID
// order.
func (r *Result) TestEvidence(g *graph.Graph, t *graph.Node) []OutcomeEvidence {
	var out []OutcomeEvidence
	last := -1
	for e := range g.In(t, graph.Confirms) {
		o := g.From(e)
		if o.Index() == last {
			continue
		}
		last = o.Index()
		out = append(out, r.Outcome(g, o))
	}
	return out
}
