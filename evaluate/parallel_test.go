package evaluate

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// An evaluation on every core is the evaluation on one, to the last
// unexported field, on random trees split into chunks of one node.
func TestParallelEvaluateIsSequential(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	defer func(c int) { parallelChunk = c }(parallelChunk)
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 11))
		tr := segtest.RandomTree(r)
		g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
		o := Options{At: at, MaxAgeDays: int(seed % 3 * 200), RequirePins: seed%2 == 0}
		parallelChunk = 1 << 30
		seq := EvaluateWith(g, o)
		parallelChunk = 1
		par := EvaluateWith(g, o)
		if !reflect.DeepEqual(seq, par) {
			t.Fatalf("seed %d: the evaluation on every core differs (-one +every):\n%s", seed,
				cmp.Diff(seq, par, cmp.Exporter(func(reflect.Type) bool { return true })))
		}
	}
}
