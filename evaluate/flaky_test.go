package evaluate_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/source"
)

// surefireFlaky is a Surefire report: flaky failed, errored, then passed
// (flakyFailure and flakyError in its <testcase>); broken failed on every
// run (rerunFailure); steady passed once.
const surefireFlaky = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.example.LeafTest" timestamp="2026-11-28T10:00:00">
  <testcase name="flaky" classname="com.example.LeafTest">
    <flakyFailure message="expected 1 but was 2" type="AssertionError"/>
    <flakyError message="pool exhausted" type="IllegalStateException"/>
  </testcase>
  <testcase name="broken" classname="com.example.LeafTest">
    <failure message="still broken"/>
    <rerunFailure message="still broken (rerun 1)"/>
  </testcase>
  <testcase name="steady" classname="com.example.LeafTest"/>
</testsuite>
`

// flakyTree is requirements R-FLAKY, R-BROKEN and R-STEADY, each verified
// by a test whose :cases: names one case of surefireFlaky, all
// implemented by I; outcomes come from the report under the policy given.
func flakyTree(t *testing.T, policy string) (*graph.Graph, *evaluate.Result, []parser.Node) {
	t.Helper()
	tr, outs := flakyOutcomes(t, policy)
	g, gd := graph.Build(tr.FileSet(), tr.Files(), outs, nil)
	if len(gd) != 0 {
		t.Fatalf("graph diagnostics: %v", gd)
	}
	return g, evaluate.Evaluate(g, at), outs
}

// flakyOutcomes is flakyTree's tree and the outcomes read from the report.
func flakyOutcomes(t *testing.T, policy string) (*segtest.Tree, []parser.Node) {
	t.Helper()
	tr := &segtest.Tree{}
	tr.Impl("I", "R-FLAKY, R-BROKEN, R-STEADY")
	for _, name := range []string{"FLAKY", "BROKEN", "STEADY"} {
		tr.Req("R-"+name, "")
		tr.Test("T-"+name, "R-"+name)
	}
	cases := map[string]string{"T-FLAKY": "*.flaky", "T-BROKEN": "*.broken", "T-STEADY": "*.steady"}
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		if c, ok := cases[n.ID]; ok {
			n.Options = append(n.Options, parser.Option{Name: "cases", Value: c})
		}
	}
	fset := tr.FileSet()
	src := results.BytesSource("build/surefire.xml", []byte(surefireFlaky))
	src.File = fset.Add(src.Path, 0, source.Newlines)
	src.Witnesses = []string{"I"}
	src.Flaky = policy
	outs, _, diags := results.Outcomes(tr.Files(), []results.Source{src})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return tr, outs
}

// standings lists, per outcome of test id, its standing and why.
func standings(g *graph.Graph, res *evaluate.Result, id string) map[string]string {
	n, _ := g.Lookup(id)
	out := map[string]string{}
	for _, ev := range res.TestOutcomes(n) {
		s := ev.Standing.String()
		if ev.Why != nil {
			s += " " + ev.Why.Name
		}
		out[ev.Outcome.ID()] = s
	}
	return out
}

func TestFlakyRerun(t *testing.T) {
	const f = "build/surefire.xml::com.example.LeafTest."
	t.Run("default: every run counts", func(t *testing.T) {
		g, res, _ := flakyTree(t, results.FlakyFailed)
		want := map[string]string{f + "flaky": "failing", f + "flaky#2": "failing", f + "flaky#3": "counted"}
		if diff := cmp.Diff(want, standings(g, res, "T-FLAKY")); diff != "" {
			t.Errorf("T-FLAKY outcomes (-want +got):\n%s", diff)
		}
		v := verdict(t, g, res, "R-FLAKY")
		if v.Satisfied || v.Status != evaluate.Failing {
			t.Errorf("R-FLAKY: satisfied %v, status %s; want failing", v.Satisfied, v.Status)
		}
	})
	t.Run(`flaky = "passed"`, func(t *testing.T) {
		g, res, _ := flakyTree(t, results.FlakyPassed)
		want := map[string]string{
			f + "flaky":   "excluded flaky-rerun",
			f + "flaky#2": "excluded flaky-rerun",
			f + "flaky#3": "counted",
		}
		if diff := cmp.Diff(want, standings(g, res, "T-FLAKY")); diff != "" {
			t.Errorf("T-FLAKY outcomes (-want +got):\n%s", diff)
		}
		if v := verdict(t, g, res, "R-FLAKY"); !v.Satisfied {
			t.Errorf("R-FLAKY unsatisfied: %v", v.Reasons)
		} else {
			var notes []string
			for _, r := range v.Reasons {
				notes = append(notes, r.Code.Name+" "+r.Subject)
			}
			wantNotes := []string{"flaky-rerun " + f + "flaky", "flaky-rerun " + f + "flaky#2"}
			if diff := cmp.Diff(wantNotes, notes); diff != "" {
				t.Errorf("R-FLAKY notes (-want +got):\n%s", diff)
			}
		}
		// A case whose last run failed keeps every run.
		wantBroken := map[string]string{f + "broken": "failing", f + "broken#2": "failing"}
		if diff := cmp.Diff(wantBroken, standings(g, res, "T-BROKEN")); diff != "" {
			t.Errorf("T-BROKEN outcomes (-want +got):\n%s", diff)
		}
		if v := verdict(t, g, res, "R-STEADY"); !v.Satisfied {
			t.Errorf("R-STEADY unsatisfied: %v", v.Reasons)
		}
	})
}

// The mark counts only where the rule says: on an outcome made from
// results, naming a passing, sound, witnessed outcome made from results
// that confirms the same test and counts for it.
func TestFlakyRerunMarkIsChecked(t *testing.T) {
	const f = "build/surefire.xml::com.example.LeafTest."
	for _, tc := range []struct {
		name   string
		change func(outs []parser.Node, byID map[string]*parser.Node)
	}{
		{"", func(outs []parser.Node, byID map[string]*parser.Node) {}}, // as read: excluded
		{"an outcome written in the tree", func(outs []parser.Node, byID map[string]*parser.Node) {
			byID[f+"flaky"].FromResults = false
		}},
		{"naming no outcome", func(outs []parser.Node, byID map[string]*parser.Node) {
			setOption(byID[f+"flaky"], "rerun-of", "nowhere")
		}},
		{"naming itself", func(outs []parser.Node, byID map[string]*parser.Node) {
			setOption(byID[f+"flaky"], "rerun-of", f+"flaky")
		}},
		{"naming a run that failed", func(outs []parser.Node, byID map[string]*parser.Node) {
			setOption(byID[f+"flaky"], "rerun-of", f+"flaky#2")
		}},
		{"naming a run that is broken", func(outs []parser.Node, byID map[string]*parser.Node) {
			byID[f+"flaky#3"].Broken = true
		}},
		{"naming a run of another test", func(outs []parser.Node, byID map[string]*parser.Node) {
			setOption(byID[f+"flaky"], "rerun-of", f+"steady")
		}},
		{"naming a run written in the tree", func(outs []parser.Node, byID map[string]*parser.Node) {
			byID[f+"flaky#3"].FromResults = false
		}},
		// Found in review: a last run that does not count at the
		// evaluation date cannot stand in for a failure observed then.
		{"naming a run dated after the evaluation date", func(outs []parser.Node, byID map[string]*parser.Node) {
			setOption(byID[f+"flaky#3"], "date", "2026-12-05")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, outs := flakyOutcomes(t, results.FlakyPassed)
			byID := map[string]*parser.Node{}
			for i := range outs {
				byID[outs[i].ID] = &outs[i]
			}
			tc.change(outs, byID)
			g, _ := graph.Build(tr.FileSet(), tr.Files(), outs, nil)
			res := evaluate.Evaluate(g, at)
			got := standings(g, res, "T-FLAKY")[f+"flaky"]
			if excluded := got == "excluded flaky-rerun"; excluded != (tc.name == "") {
				t.Errorf("%q: the first run is %s", tc.name, got)
			}
		})
	}
}

func setOption(n *parser.Node, name, value string) {
	for i := range n.Options {
		if n.Options[i].Name == name {
			n.Options[i].Value = value
			return
		}
	}
	n.Options = append(n.Options, parser.Option{Name: name, Value: value, Pos: n.Pos, ValuePos: n.Pos})
}

func verdict(t *testing.T, g *graph.Graph, res *evaluate.Result, id string) evaluate.Verdict {
	t.Helper()
	n, ok := g.Lookup(id)
	if !ok {
		t.Fatalf("no node %s", id)
	}
	v, _ := res.Verdict(n)
	return v
}

// TestRerunOfName ties the option evaluate reads to the one the results
// reader writes.
func TestRerunOfName(t *testing.T) {
	_, _, outs := flakyTree(t, results.FlakyPassed)
	marked := 0
	for _, o := range outs {
		if o.Option(results.OptionRerunOf) != nil {
			marked++
		}
	}
	if marked != 2 {
		t.Errorf("%d outcomes carry %q, want the two earlier runs of flaky", marked, results.OptionRerunOf)
	}
}
