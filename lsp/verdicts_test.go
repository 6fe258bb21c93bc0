package lsp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seg-trace/seg/evaluate"
)

// sameBlocking compares what Verdict.Blocking lists, without the lists.
func TestSameBlockingIsBlockingEqual(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 9))
	reasons := func() []evaluate.Reason {
		var out []evaluate.Reason
		for range r.IntN(5) {
			out = append(out, evaluate.Reason{Message: []string{"a", "b"}[r.IntN(2)], Blocking: r.IntN(2) == 0})
		}
		return out
	}
	for range 20000 {
		a, b := reasons(), reasons()
		want := slices.Equal(evaluate.Verdict{Reasons: a}.Blocking(), evaluate.Verdict{Reasons: b}.Blocking())
		if got := sameBlocking(a, b); got != want {
			t.Fatalf("sameBlocking(%v, %v) = %v, want %v", a, b, got, want)
		}
	}
}
