// Package chunks runs a loop over an index range on every core, in
// contiguous chunks.
package chunks

import (
	"runtime"
	"sync"
)

// Run runs f over [0, n) in as many contiguous chunks as there are cores,
// but no more than n/least+1 (so that a chunk holds least/2 items,
// rounded down, or more), and waits. An input of fewer than least items
// runs on the caller's goroutine.
func Run(n, least int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/least+1)
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
