package evaluate_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// Counted lists what each verdict counted: a leaf's verifies and
// implements edges and its tests' counted outcomes (a failed one is not
// counted); a non-leaf's satisfied children only, and no outcomes.
func TestCountedEvidence(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("SYS", "")
	tr.Req("A", "SYS")
	tr.Req("B", "SYS")
	tr.Test("TA", "A")
	tr.Test("TB", "B")
	tr.Impl("I", "A, B")
	tr.Outcome("OA", "TA", "I", "passed")
	tr.Outcome("OB", "TB", "I", "failed")
	g, gd := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	if len(gd) != 0 {
		t.Fatalf("graph diagnostics: %v", gd)
	}
	res := evaluate.Evaluate(g, at)
	got := map[string][]string{}
	for i := range res.Verdicts {
		v := &res.Verdicts[i]
		for _, e := range res.Counted(g, v) {
			s := e.Kind + " " + e.Node.ID()
			if e.Via != nil {
				s += " via " + e.Via.ID()
			}
			if !e.Pos.IsValid() {
				s += " (no position)"
			}
			got[v.ID] = append(got[v.ID], s)
		}
	}
	want := map[string][]string{
		"A":   {"verifies TA", "outcome OA via TA", "implements I"},
		"B":   {"verifies TB", "implements I"},
		"SYS": {"refined-by A"},
	}
	if !cmp.Equal(got, want) {
		t.Errorf("counted evidence:\n%s", cmp.Diff(want, got))
	}
}
