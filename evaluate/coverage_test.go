package evaluate_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

// The coverage record counts what the verdicts read: a suspect edge is a
// link (S-CORE's code and test measures) but makes no leaf verified; a
// test's entries that name nothing, or a node of the wrong kind, are
// broken references.
func TestCoverage(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("S", "")
	tr.Req("R1", "S")
	tr.Req("R2", "")
	tr.Add(parser.Requirement, "swreq", "W1")
	tr.Test("T1", "R1, W1")
	tr.Test("T2", "R2 (suspect), NOPE")
	tr.Test("T3", "I1")
	tr.Impl("I1", "R1")
	tr.Impl("I2", "R2 (retired)")
	tr.Outcome("O1", "T1", "I1", "passed")
	g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	cv := evaluate.Evaluate(g, at).Coverage(g, nil)
	want := evaluate.Coverage{
		All: evaluate.TypeCoverage{Requirements: 4, Satisfied: 2, Leaves: 3, Implemented: 1, Verified: 2, Both: 1,
			Code: 2, Test: 3, FullyLinked: 2, TestsLinked: 2},
		ByType: []evaluate.TypeCoverage{
			{Type: "sreq", Requirements: 3, Satisfied: 2, Leaves: 2, Implemented: 1, Verified: 1, Both: 1, Code: 2, Test: 2, FullyLinked: 2, TestsLinked: 2},
			{Type: "swreq", Requirements: 1, Leaves: 1, Verified: 1, Test: 1, TestsLinked: 1},
		},
		Tests: 3, TestsLinked: 2, BrokenReferences: 2,
	}
	if d := cmp.Diff(want, cv); d != "" {
		t.Errorf("coverage (-want +got):\n%s", d)
	}
	// Only the requirements a check shows are counted.
	only := evaluate.Evaluate(g, at).Coverage(g, func(n *graph.Node) bool { return n.Directive() != "swreq" })
	if only.All.Requirements != 3 || len(only.ByType) != 1 || only.All.Verified != 1 {
		t.Errorf("narrowed coverage %+v", only)
	}
	below := cv.Below([]evaluate.Threshold{
		{Measure: evaluate.MeasureSatisfied, Percent: 50},                 // 2 of 4: met
		{Type: "sreq", Measure: evaluate.MeasureVerified, Percent: 50.5},  // 1 of 2: missed
		{Type: "swreq", Measure: evaluate.MeasureImplemented, Percent: 0}, // 0 %: met
		{Type: "sys", Measure: evaluate.MeasureCode, Percent: 0},          // no such type: missed
	})
	var got []string
	for _, s := range below {
		got = append(got, s.String())
	}
	if d := cmp.Diff([]string{
		"sreq:verified=50.5: 1 of 2 leaves verified (50.0%), 0.5 points below 50.5%",
		`sys:code=0: no requirement of type "sys" is counted, so its code cannot reach 0%`,
	}, got); d != "" {
		t.Errorf("shortfalls (-want +got):\n%s", d)
	}
}

func TestParseThresholds(t *testing.T) {
	ts, err := evaluate.ParseThresholds("80, sreq:verified=90.5,comp_req:fully-linked=100,tests-linked=0")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range ts {
		got = append(got, x.String())
	}
	if d := cmp.Diff([]string{"satisfied=80", "sreq:verified=90.5", "comp_req:fully-linked=100", "tests-linked=0"}, got); d != "" {
		t.Error(d)
	}
	for in, want := range map[string]string{
		"":               "an empty entry",
		"80,":            "an empty entry",
		"verifed=1":      `did you mean "verified"`,
		"code=101":       "from 0 to 100",
		"code=-1":        "from 0 to 100",
		"code=NaN":       "from 0 to 100",
		":code=1":        "no type",
		"sreq:bogus=1":   "unknown measure",
		"sreq:code=most": "from 0 to 100",
	} {
		if _, err := evaluate.ParseThresholds(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseThresholds(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}
