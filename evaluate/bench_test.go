package evaluate_test

import (
	"fmt"
	"testing"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// benchTree makes a graph of about n nodes: a three-level refinement
// hierarchy whose leaves each have a test, an implementation, two outcomes
// and, now and then, a failure with a waiver.
func benchTree(n int) *segtest.Tree {
	tr := &segtest.Tree{}
	leaves := n / 5
	for i := range leaves / 100 {
		tr.Req(fmt.Sprintf("SYS-%d", i), "")
	}
	for i := range leaves / 10 {
		tr.Req(fmt.Sprintf("REQ-%d", i), fmt.Sprintf("SYS-%d", i/10))
	}
	for i := range leaves {
		id := fmt.Sprintf("SREQ-%d", i)
		tr.Req(id, fmt.Sprintf("REQ-%d", i/10))
		tr.Test("T-"+id, id)
		tr.Impl("I-"+id, id)
		tr.Outcome("O-"+id, "T-"+id, "I-"+id, "passed")
		if i%50 == 0 {
			tr.Outcome("F-"+id, "T-"+id, "I-"+id, "failed")
			tr.Waiver("W-"+id, "F-"+id, "2027-01-01")
		}
	}
	return tr
}

// BenchmarkBuildEvaluate measures graph construction plus evaluation. Run
// with -benchmem; compare the sizes to see that doubling the graph no more
// than doubles the time.
func BenchmarkBuildEvaluate(b *testing.B) {
	for _, n := range []int{250_000, 500_000, 1_000_000} {
		tr := benchTree(n)
		files := tr.Files()
		nodes := len(files[0].Nodes)
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			for b.Loop() {
				g, _ := graph.Build(tr.FileSet(), files, nil, nil)
				evaluate.Evaluate(g, at)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nodes), "ns/node")
		})
	}
}
