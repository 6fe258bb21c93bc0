package chunks

import (
	"runtime"
	"sync"
	"testing"
)

// Run covers [0, n) exactly once, in contiguous chunks, as many as there
// are cores but no more than n/least+1, and returns only when every chunk
// is done.
func TestRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tt := range []struct{ n, least, chunks int }{
		{0, 10, 1}, {5, 10, 1}, {10, 10, 2}, {29, 10, 3}, {39, 10, 4}, {1000, 10, 4}, {1000, 1000, 2}, {1000, 2000, 1}, {11, 11, 2},
	} {
		var mu sync.Mutex
		seen := make([]int, tt.n)
		chunks := 0
		Run(tt.n, tt.least, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			chunks++
			if hi-lo < tt.least/2 && tt.n >= tt.least {
				t.Errorf("n=%d least=%d: chunk [%d, %d) holds fewer than least/2 items", tt.n, tt.least, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		if chunks != tt.chunks {
			t.Errorf("n=%d least=%d: %d chunks, want %d", tt.n, tt.least, chunks, tt.chunks)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d least=%d: index %d run %d times", tt.n, tt.least, i, c)
			}
		}
	}
}
