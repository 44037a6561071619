// Package par runs the independent steps of a listing on a few workers.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is how many goroutines a listing reads with: one per processor,
// at least two (a read waiting on the disk leaves its processor free) and
// at most eight.
func Workers() int { return min(8, max(2, runtime.GOMAXPROCS(0))) }

// Each calls fn(i) for every i in [0, n) on workers goroutines (steps are
// handed out in order, one at a time) and returns when all have returned.
func Each(n, workers int, fn func(i int)) {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
