package initgc

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's percent (setting it back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// sink keeps allocations from being optimised away.
var sink []byte

// TestRestoreTurnsTheCollectorBackOnAtItsPercent: the package's
// initialisation turned the collector off (this test binary imports it as
// main does); after Restore, allocating far past the heap makes the
// collector run by itself (the initialisers' 3 MB of garbage do not
// make it run at once), and once it has, the percent is GOGC's again,
// so a long run of moot is collected as before.
func TestRestoreTurnsTheCollectorBackOnAtItsPercent(t *testing.T) {
	if gcPercent() != -1 {
		t.Fatalf("the collector's percent during initialisation is %d, want -1 (off)", gcPercent())
	}
	for range 3 { // garbage, as the initialisers leave
		sink = make([]byte, 1<<20)
	}
	Restore()
	if p := gcPercent(); p <= percent {
		t.Errorf("right after Restore the percent is %d, want above %d (a goal above the heap main starts with)", p, percent)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	deadline := time.Now().Add(30 * time.Second)
	for {
		for range 64 {
			sink = make([]byte, 1<<20)
		}
		var now runtime.MemStats
		runtime.ReadMemStats(&now)
		if now.NumGC > before.NumGC && gcPercent() == percent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %d MB allocated: %d collections, percent %d; want a collection and the percent back at %d",
				(now.TotalAlloc-before.TotalAlloc)>>20, now.NumGC-before.NumGC, gcPercent(), percent)
		}
		runtime.Gosched() // the finalizer goroutine
	}
}
