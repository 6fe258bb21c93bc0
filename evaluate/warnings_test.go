package evaluate_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

// The warnings about evidence that counts for nothing are evaluate's:
// whether a waiver excuses anything reads how each outcome it names
// stands at this evaluation, not its written result. A waiver of a
// failure that is excluded (unwitnessed, dated after the evaluation date,
// older than its test's maximum age) excuses nothing and is unused; one
// of a failure that counts is used, in force or not (expired-waiver says
// the rest); one of an invalid outcome is left to the outcome's error.
func TestEvidenceWarnings(t *testing.T) {
	tr := &segtest.Tree{}
	outcome := func(id, confirms, witnesses, result string, more ...parser.Option) {
		opts := []parser.Option{segtest.Links("confirms", confirms)}
		if witnesses != "" {
			opts = append(opts, segtest.Links("witnesses", witnesses))
		}
		opts = append(opts, segtest.Opt("result", result))
		tr.Add(parser.Outcome, "outcome", id, append(opts, more...)...)
	}
	tr.Req("R", "")                                                                                    // line 1
	tr.Test("T", "R")                                                                                  // line 11
	tr.Impl("I", "R")                                                                                  // line 21
	outcome("O-PASS", "T", "", "passed")                                                               // line 31: unwitnessed
	tr.Waiver("W-PASS", "O-PASS", "")                                                                  // line 41: unused (it passed)
	outcome("O-UNW", "T", "", "failed")                                                                // line 51: unwitnessed
	tr.Waiver("W-UNW", "O-UNW", "")                                                                    // line 61: unused (excluded)
	outcome("O-FUT", "T", "I", "failed", segtest.Opt("date", "2026-12-25"))                            // line 71
	tr.Waiver("W-FUT", "O-FUT", "")                                                                    // line 81: unused (dated later)
	outcome("O-FAIL", "T", "I", "failed")                                                              // line 91
	tr.Waiver("W-FAIL", "O-FAIL", "")                                                                  // line 101: used
	tr.Waiver("W-EXP", "O-FAIL", "2026-01-01")                                                         // line 111: expired, not unused
	tr.Add(parser.Test, "test", "T-OLD", segtest.Links("verifies", "R"), segtest.Opt("max-age", "10")) // line 121
	outcome("O-OLD", "T-OLD", "I", "error", segtest.Opt("date", "2026-01-01"))                         // line 131
	tr.Waiver("W-OLD", "T-OLD", "")                                                                    // line 141: unused (too old)
	outcome("O-BAD", "T", "I", "bogus")                                                                // line 151: invalid
	tr.Waiver("W-BAD", "O-BAD", "")                                                                    // line 161: left to the error
	g, gd := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	for _, d := range gd {
		if d.Code.Name == "unused-waiver" || d.Code.Name == "unwitnessed-outcome" {
			t.Errorf("the graph decides %s", d.Code.Name)
		}
	}
	res := evaluate.Evaluate(g, at)
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d %s %s | %s", tr.FileSet().Position(d.Span.Start).Line, d.Code.Name, d.Message, d.Detail))
	}
	passed := "Every outcome this waiver names passed or was skipped (or it names a test specification none of whose outcomes it covers failed), so it excuses nothing. Remove it, or point it at the outcome it was written for."
	want := []string{
		`31 unwitnessed-outcome outcome "O-PASS" confirms a test but witnesses no implementation | An outcome counts as evidence only when it also names the implementation it ran against (:witnesses:). This one is excluded from every verdict.`,
		`41 unused-waiver waiver "W-PASS" excuses no failed outcome | ` + passed,
		`51 unwitnessed-outcome outcome "O-UNW" confirms a test but witnesses no implementation | An outcome counts as evidence only when it also names the implementation it ran against (:witnesses:). This one is excluded from every verdict.`,
		`61 unused-waiver waiver "W-UNW" excuses no failed outcome | Outcome "O-UNW" failed, but it is no evidence at this evaluation (outcome-unwitnessed: it witnesses no implementation), so there is nothing to excuse. Fix what keeps it from counting, or remove the waiver.`,
		`81 unused-waiver waiver "W-FUT" excuses no failed outcome | Outcome "O-FUT" failed, but it is no evidence at this evaluation (future-evidence: it is dated 2026-12-25, after the evaluation date), so there is nothing to excuse. Fix what keeps it from counting, or remove the waiver.`,
		`111 expired-waiver waiver "W-EXP" expired on 2026-01-01 | Its :expires: date is before the evaluation date 2026-11-29, so it excuses nothing. Renew it with a new date or fix what it excused.`,
		`141 unused-waiver waiver "W-OLD" excuses no failed outcome | Outcome "O-OLD" errored, but it is no evidence at this evaluation (expired-evidence: it is 332 days old, over test "T-OLD"'s maximum age of 10 days), so there is nothing to excuse. Fix what keeps it from counting, or remove the waiver.`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
