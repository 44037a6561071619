// Package initgc keeps the package initialisers' garbage from costing
// moot a second garbage collection before it does anything. The
// dependencies' initialisers (the Markdown renderer's highlighter above
// all) allocate about 6 MB that is garbage at once, on every start of the
// binary: with the collector's 4 MB starting goal that cost moot two
// collections before and just after main, where a program linking the
// renderer alone pays one (docs/benchmarks.md, Startup).
//
// Imported by main, this package is initialised after the highlighter
// (packages initialise in import-path order once their imports have) and
// turns the collector off for the initialisers that remain; main calls
// Restore first, which turns it back on with a goal 4 MB above the heap
// main starts with (the minimum goal a fresh program's first collection
// has), not below it, and returns the collector to its own percent
// (GOGC's) once that first collection has run.
package initgc

import (
	"runtime"
	"runtime/debug"
)

// percent is the collector's percent before initialisation turned it off
// (100, or GOGC's).
var percent = debug.SetGCPercent(-1)

// minimumGoal is the Go runtime's smallest heap goal at a percent of 100.
const minimumGoal = 4 << 20

// Restore turns the collector back on: its next collection comes once
// the program has allocated about minimumGoal beyond the heap it holds
// now (scaled by GOGC, as the runtime's own first goal is), and every
// later one at the percent it had. main calls it before anything else.
func Restore() {
	if percent < 0 {
		debug.SetGCPercent(percent) // GOGC=off
		return
	}
	// runtime.ReadMemStats, not runtime/metrics: that package builds its
	// table of metrics in an initialiser, paid by every start
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	heap := m.HeapAlloc
	// the runtime's smallest goal is minimumGoal × percent/100: a percent
	// raised by (heap + minimumGoal) / minimumGoal puts it above the heap
	// by what a fresh program gets
	debug.SetGCPercent(int(uint64(percent) * (heap + minimumGoal) / minimumGoal))
	// once a collection has freed it, the collector runs at its own
	// percent again ([32]byte: an object the tiny allocator does not
	// batch, so its finalizer runs)
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) { debug.SetGCPercent(percent) })
}
