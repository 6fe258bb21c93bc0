package evaluate_test

import (
	"runtime"
	"testing"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
)

// Building and evaluating a graph twice the size must cost no more than
// twice as much. Time is not measured (a unit test must not fail because
// the machine is busy): allocations are, as a deterministic stand-in for
// work, so a superlinear step (a scan per node, a quadratic merge) that
// allocates shows up here.
func TestCostIsLinear(t *testing.T) {
	perNode := func(n int) (allocs, bytes float64, nodes int) {
		tr := benchTree(n)
		files := tr.Files()
		nodes = len(files[0].Nodes)
		run := func() {
			g, _ := graph.Build(tr.FileSet(), files, nil, nil)
			evaluate.Evaluate(g, at)
		}
		allocs = testing.AllocsPerRun(2, run)
		// The bytes of two runs, as AllocsPerRun counts allocations (a
		// benchmark loop would run for a second to say the same).
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		run()
		run()
		runtime.ReadMemStats(&m1)
		total := (m1.TotalAlloc - m0.TotalAlloc) / 2
		return allocs / float64(nodes), float64(total) / float64(nodes), nodes
	}
	a1, b1, n1 := perNode(20_000)
	a2, b2, n2 := perNode(40_000)
	t.Logf("%d nodes: %.2f allocs and %.0f bytes per node; %d nodes: %.2f and %.0f", n1, a1, b1, n2, a2, b2)
	if a2 > a1*1.1 {
		t.Errorf("allocations per node grew from %.2f to %.2f when the graph doubled", a1, a2)
	}
	if b2 > b1*1.1 {
		t.Errorf("bytes per node grew from %.0f to %.0f when the graph doubled", b1, b2)
	}
}
