package evaluate

import (
	"runtime"
	"sync"
)

// parallelChunk is the least work worth a goroutine (a variable so the
// tests can compare an evaluation on every core with one on one).
var parallelChunk = 2048

// parallel runs f over [0, n) in as many contiguous chunks as there are
// cores, and waits. Small inputs run on the caller's goroutine.
func parallel(n int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/parallelChunk+1)
	if workers <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
