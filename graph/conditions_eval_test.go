package graph_test

import (
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// A failing condition takes away what a stale pin takes away: on a
// verifies edge the edge (the reason is link-condition-failed), on an
// outcome's confirms or witnesses link the outcome (stale-evidence, whose
// detail names the condition and the target's value now); the
// requirement is unproven, not failing.
func TestConditionsEvaluate(t *testing.T) {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "req", Kind: "requirement"})
	n.AddType(needs.NeedType{Directive: "test", Kind: "test"})
	n.AddType(needs.NeedType{Directive: "impl", Kind: "implementation"})
	n.AddType(needs.NeedType{Directive: "run", Kind: "outcome"})
	n.AddLink(needs.LinkType{Option: "tests", Edge: "verifies"})
	n.AddLink(needs.LinkType{Option: "implements", Edge: "implements"})
	n.AddLink(needs.LinkType{Option: "confirms", Edge: "confirms"})
	n.AddLink(needs.LinkType{Option: "witnesses", Edge: "witnesses"})
	n.AddOption("version")
	n.AddOption("result")
	cfg.UseNeeds(&n.Tables)
	build := func(testVersion, implVersion string) *evaluate.Result {
		src := `.. req:: R
   :id: R_1

.. test:: T
   :id: T_1
   :version: ` + testVersion + `
   :tests: R_1

.. impl:: I
   :id: I_1
   :version: ` + implVersion + `
   :implements: R_1

.. run:: Run
   :id: O_1
   :confirms: T_1[version==1]
   :witnesses: I_1[version==1]
   :result: passed
`
		fs := source.NewFileSet()
		f := parser.ParseFile(fs.Add("e.rst", len(src), source.Docutils), []byte(src), cfg)
		if len(f.Diagnostics) > 0 {
			t.Fatalf("parse diagnostics: %v", f.Diagnostics)
		}
		g, _ := graph.Build(fs, []*parser.File{f}, nil, n)
		return evaluate.Evaluate(g, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	}
	if v := build("1", "1").Verdicts[0]; !v.Satisfied {
		t.Fatalf("every condition holds, and R_1 is %s: %v", v.Status, v.Reasons)
	}
	for _, c := range []struct{ test, impl, want string }{
		{"2", "1", `its confirms link's condition [version==1] does not hold for "T_1": version is '2'`},
		{"1", "2", `its witnesses link's condition [version==1] does not hold for "I_1": version is '2'`},
	} {
		r := build(c.test, c.impl)
		v := r.Verdicts[0]
		if v.Satisfied || v.Status != evaluate.Unproven {
			t.Errorf("test version %s, impl version %s: R_1 is %s, want unproven", c.test, c.impl, v.Status)
		}
		oe := v.Verifies[0].Outcomes[0]
		if oe.Standing != evaluate.Excluded || oe.Why != evaluate.ReasonStaleEvidence || !strings.Contains(oe.Detail, c.want) {
			t.Errorf("test version %s, impl version %s: the outcome is %s (%v: %s), want excluded, stale-evidence: %s", c.test, c.impl, oe.Standing, oe.Why, oe.Detail, c.want)
		}
	}
}
