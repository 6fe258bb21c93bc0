package evaluate

import (
	"fmt"
	"slices"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The warnings about evidence that counts for nothing: whether an outcome
// or a waiver bears on a verdict is evaluate's to say, so these are said
// here, from the standings the evaluation gave every outcome.
var (
	CodeUnwitnessedOutcome = diag.NewWarning("unwitnessed-outcome", "an outcome with confirms but no witnesses edge")
	CodeUnusedWaiver       = diag.NewWarning("unused-waiver", "a waiver none of whose outcomes is a failure that counts")
)

// evidenceDiagnostic is the warning of node n of g, if it has one: for an
// outcome, a function of n and its edges; for a waiver, of n, its
// excuses edges and the standings of the outcomes it names (which Update
// relies on to redo only the waivers whose outcomes it decided again).
func (r *Result) evidenceDiagnostic(g *graph.Graph, n *graph.Node) (diag.Diagnostic, bool) {
	switch n.Kind() {
	case parser.Outcome:
		// Outcomes made from results files are warned about once per
		// run, where the witnesses were (not) given (results package).
		if !n.FromResults() && g.HasOut(n, graph.Confirms) && !g.HasOut(n, graph.Witnesses) {
			return diag.Diagnostic{
				Code:    CodeUnwitnessedOutcome,
				Message: fmt.Sprintf("outcome %q confirms a test but witnesses no implementation", n.ID()),
				Detail:  "An outcome counts as evidence only when it also names the implementation it ran against (:witnesses:). This one is excluded from every verdict.",
				Span:    source.At(n.Pos()),
			}, true
		}
	case parser.Waiver:
		return r.unusedWaiver(g, n)
	}
	return diag.Diagnostic{}, false
}

// aimed reports whether outcome evidence oe is of an outcome a waiver
// naming it is aimed at: a failure that counts, excused or not, or an
// invalid outcome that did not pass or skip (no waiver excuses it, and
// its own error says so already).
func aimed(oe *OutcomeEvidence) bool {
	switch oe.Standing {
	case Excused, Against:
		return true
	case Invalid:
		return failure(oe.Result)
	}
	return false
}

// failure reports whether result r is no pass and no skip.
func failure(r graph.Result) bool { return r != graph.Passed && r != graph.Skipped }

// unusedWaiver is the unused-waiver warning of waiver w: no outcome it
// names (directly, or through a test it names and the cases it covers)
// stands as a failure for a test it confirms (or, confirming no test, failed
// and has an error on its :confirms:). An outcome that failed but
// is no evidence at this evaluation (it witnesses no implementation, is
// stale, older than its maximum age, dated after the evaluation date, an
// earlier run of a flaky case) leaves nothing to excuse. A waiver that
// names nothing it can excuse (no :excuses:, or only entries that do not
// resolve) already has an error that says so: no second diagnostic.
func (r *Result) unusedWaiver(g *graph.Graph, w *graph.Node) (diag.Diagnostic, bool) {
	if !g.HasOut(w, graph.Excuses) {
		return diag.Diagnostic{}, false
	}
	// A result carried over by Update may hold an earlier graph's nodes,
	// equal in value: nodes are compared by index.
	var excluded *OutcomeEvidence // the first failure named that counts for nothing
	look := func(oe *OutcomeEvidence) bool {
		if !slices.ContainsFunc(oe.Waivers, func(we WaiverEvidence) bool { return we.Waiver.Index() == w.Index() }) {
			return false
		}
		if aimed(oe) {
			return true
		}
		if excluded == nil && oe.Standing == Excluded && failure(oe.Result) {
			excluded = oe
		}
		return false
	}
	for x := range g.Out(w, graph.Excuses) {
		target := g.To(x)
		if target.Kind() == testKind {
			os := r.TestOutcomes(target)
			for i := range os {
				if look(&os[i]) {
					return diag.Diagnostic{}, false
				}
			}
			continue
		}
		if !g.HasOut(target, graph.Confirms) && failure(target.Result()) {
			// An outcome of no test stands for none: its own error (on
			// :confirms:) says what is wrong, as for an invalid one.
			return diag.Diagnostic{}, false
		}
		for c := range g.Out(target, graph.Confirms) {
			os := r.TestOutcomes(g.To(c))
			for i := range os {
				if os[i].Outcome.Index() == target.Index() && look(&os[i]) {
					return diag.Diagnostic{}, false
				}
			}
		}
	}
	detail := "Every outcome this waiver names passed or was skipped (or it names a test specification none of whose outcomes it covers failed), so it excuses nothing. Remove it, or point it at the outcome it was written for."
	if excluded != nil {
		did := "failed"
		if excluded.Result == graph.ResultError {
			did = "errored"
		}
		detail = fmt.Sprintf("Outcome %q %s, but it is no evidence at this evaluation (%s: %s), so there is nothing to excuse. Fix what keeps it from counting, or remove the waiver.",
			excluded.Outcome.ID(), did, excluded.Why.Name, excluded.Detail)
	}
	return diag.Diagnostic{
		Code:    CodeUnusedWaiver,
		Message: fmt.Sprintf("waiver %q excuses no failed outcome", w.ID()),
		Detail:  detail,
		Span:    source.At(w.Pos()),
	}, true
}
