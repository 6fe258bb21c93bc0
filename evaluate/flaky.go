package evaluate

import (
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
)

// Flaky reruns (results.md, "Reruns"). Under `[results] flaky = "passed"`
// the results reader marks every earlier run of a case whose last run
// passed with the option rerun-of, naming the outcome of that last run.
// Whether such a run counts is decided here, from the graph alone: it is
// excluded (flaky-rerun) only when the run it names is there to count in
// its place for the same test. Anything else about the mark, on an outcome
// written in the tree, naming no outcome, a run that did not pass or that
// has an error, or one confirming other tests, leaves the outcome counting
// as it would without the mark.

// ReasonFlakyRerun is an earlier run of a flaky case that the rerun policy
// leaves out: its last run passed and counts in its place.
var ReasonFlakyRerun = diag.NewReason("flaky-rerun", "note: an earlier run of a results case whose last run passed, under [results] flaky = \"passed\"", false)

// optionRerunOf is the option results.OptionRerunOf names (a test checks
// that the two agree; evaluate does not import the results reader).
const optionRerunOf = "rerun-of"

// flakyRerun reports whether outcome o, confirming test t, is an earlier
// run that its passing last run replaces for t: the last run confirms t
// and counts for it at the evaluation date.
func (e *evaluation) flakyRerun(o, t *graph.Node) bool {
	if !o.FromResults() {
		return false
	}
	id := o.Attr(optionRerunOf)
	if id == "" {
		return false
	}
	last, ok := e.g.Lookup(id)
	if !ok || last == o || !last.FromResults() || last.Broken() || last.Result() != graph.Passed ||
		!e.g.HasOut(last, graph.Witnesses) {
		return false
	}
	var confirms []*graph.Edge
	for c := range e.g.Out(last, graph.Confirms) {
		if e.g.To(c) == t {
			confirms = append(confirms, c)
		}
	}
	// The last run replaces this one only where it counts itself: one
	// dated after the evaluation date, stale or too old would leave the
	// failure with nothing in its place.
	if len(confirms) == 0 {
		return false
	}
	why, _ := e.excluded(last, t, confirms)
	return why == nil
}

// invalidWhy says what is wrong with an outcome that has an error on it.
// An outcome made from a results file has no directive: its error is in
// how it was given (a witness that names no implementation, a time that
// cannot be read), and the diagnostic says which.
func invalidWhy(o *graph.Node) string {
	if o.FromResults() {
		return "was read with an error (see the results diagnostics)"
	}
	return "has an error in its directive"
}
