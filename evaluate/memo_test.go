package evaluate

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
)

// A Memo updates its last result only through the delta from the graph
// that result is of: after a build it did not evaluate, the next delta
// goes from a graph it never saw, and it evaluates in full rather than
// apply that delta to the wrong result. The results are EvaluateWith's
// either way.
func TestMemoRefusesAnotherGraphsDelta(t *testing.T) {
	defer func(l float64) { updateLimit = l }(updateLimit)
	updateLimit = 1
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	o := Options{At: at, MaxAgeDays: 30, WaiverWarnDays: 30}
	updated, refused := 0, 0
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 29))
		text := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(4))
		tree := segtest.Parse(text)
		var gm graph.Memo
		var em Memo
		for step := range 30 {
			if step > 0 {
				tree.Changed(segtest.Edit(r, text))
			}
			fset, files := tree.Files()
			g, _ := graph.BuildMemo(fset, files, nil, nil, nil, &gm)
			d := gm.Delta()
			if step%5 == 3 {
				// A run the memo does not evaluate: the next delta is not
				// of its last result.
				continue
			}
			skipped := step%5 == 4
			got := em.Evaluate(g, o, d)
			if want := EvaluateWith(g, o); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: the Memo's result differs from EvaluateWith", seed, step)
			}
			switch {
			case skipped && em.Updated():
				t.Fatalf("seed %d step %d: a delta from a graph the memo did not evaluate was applied", seed, step)
			case skipped && d.Valid():
				refused++
			case em.Updated():
				updated++
			}
		}
	}
	if updated == 0 || refused == 0 {
		t.Errorf("%d updates, %d deltas refused: the test proves nothing", updated, refused)
	}
	t.Logf("%d updates, %d deltas of another graph refused", updated, refused)
}
