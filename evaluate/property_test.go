package evaluate_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

func TestRandomGraphsAgainstNaiveReference(t *testing.T) {
	// Compare every field, unexported ones included: immutability and
	// determinism are about the whole value, not its public face.
	// Two builds, and their evaluations, differ in their generations
	// only (graph.Delta).
	all := cmp.Options{cmp.Exporter(func(reflect.Type) bool { return true }),
		cmpopts.IgnoreFields(graph.Graph{}, "gen"), cmpopts.IgnoreFields(evaluate.Result{}, "gen")}
	opts := all
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 7))
		tr := segtest.RandomTree(r)
		files := tr.Files()
		g, diags := graph.Build(tr.FileSet(), files, nil, nil)
		before := snapshot(g)

		res := evaluate.Evaluate(g, at)
		if diff := fastDiff(before, snapshot(g), opts); diff != "" {
			t.Fatalf("seed %d: evaluation changed the graph (-before +after):\n%s", seed, diff)
		}
		again := evaluate.Evaluate(g, at)
		if diff := fastDiff(res, again, all); diff != "" {
			t.Fatalf("seed %d: two evaluations differ:\n%s", seed, diff)
		}

		// The same nodes in another order give the same graph and verdicts.
		shuffled := tr.With(append([]parser.Node(nil), tr.Nodes...))
		r.Shuffle(len(shuffled.Nodes), func(i, j int) {
			shuffled.Nodes[i], shuffled.Nodes[j] = shuffled.Nodes[j], shuffled.Nodes[i]
		})
		g2, diags2 := graph.Build(shuffled.FileSet(), shuffled.Files(), nil, nil)
		if diff := fastDiff(g, g2, opts); diff != "" {
			t.Fatalf("seed %d: shuffled input built another graph:\n%s", seed, diff)
		}
		diags.Sort(tr.FileSet())
		diags2.Sort(tr.FileSet())
		if diff := fastDiff(diags, diags2, all); diff != "" {
			t.Fatalf("seed %d: shuffled input gave other diagnostics:\n%s", seed, diff)
		}
		if diff := fastDiff(res, evaluate.Evaluate(g2, at), all); diff != "" {
			t.Fatalf("seed %d: shuffled input gave other verdicts:\n%s", seed, diff)
		}

		want := segtest.Naive(tr, at)
		for _, v := range res.Verdicts {
			if v.Satisfied != want[v.ID] {
				t.Fatalf("seed %d: %s satisfied = %v, naive reference says %v\nreasons: %+v\ntree:\n%s",
					seed, v.ID, v.Satisfied, want[v.ID], v.Reasons, tr)
			}
			if !v.Satisfied && len(v.Blocking()) == 0 {
				t.Fatalf("seed %d: %s unsatisfied without a blocking reason", seed, v.ID)
			}
			if v.Satisfied && len(v.Blocking()) != 0 {
				t.Fatalf("seed %d: %s satisfied with blocking reasons %+v", seed, v.ID, v.Blocking())
			}
		}
	}
}

// snapshot copies a graph deeply, so a later comparison sees any change the
// evaluator might make through a shared slice.
func snapshot(g *graph.Graph) *graph.Graph {
	var out graph.Graph
	if err := deepCopy(g, &out); err != nil {
		panic(err)
	}
	return &out
}

// The generator must reach every outcome of the rules often enough for the
// reference comparison to mean something.
func TestRandomTreesCoverTheRules(t *testing.T) {
	codes := map[string]int{}
	satisfied := 0
	for seed := range uint64(2000) {
		tr := segtest.RandomTree(rand.New(rand.NewPCG(seed, 7)))
		g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
		for _, v := range evaluate.Evaluate(g, at).Verdicts {
			if v.Satisfied {
				satisfied++
			}
			for _, r := range v.Reasons {
				codes[r.Code.Name]++
			}
		}
	}
	if satisfied < 300 {
		t.Errorf("only %d satisfied verdicts", satisfied)
	}
	for _, c := range []string{"no-active-verifies", "no-active-implements", "no-confirming-outcome", "outcome-failed",
		"outcome-invalid", "outcome-excused", "outcome-skipped", "outcome-unwitnessed", "child-unsatisfied", "inactive-edge",
		"on-cycle", "own-outcomes-not-counted"} {
		if codes[c] < 20 {
			t.Errorf("reason %s reached only %d times", c, codes[c])
		}
	}
	t.Logf("satisfied %d, reasons %v", satisfied, codes)
}

// fastDiff is cmp.Diff with a shortcut for the usual case, equal values:
// reflect.DeepEqual is as strict (every field, unexported ones too) and
// about twenty times faster than cmp's reflective walk, which was 93 % of
// this test's time. Only values DeepEqual finds different pay for the
// walk that explains the difference.
func fastDiff(x, y any, opts ...cmp.Option) string {
	switch a := x.(type) {
	case *graph.Graph:
		if graph.Equal(a, y.(*graph.Graph)) {
			return ""
		}
	case *evaluate.Result:
		if evaluate.SameResult(a, y.(*evaluate.Result)) {
			return ""
		}
	}
	if reflect.DeepEqual(x, y) {
		return ""
	}
	return cmp.Diff(x, y, opts...)
}
