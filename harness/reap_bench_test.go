package harness

import "testing"

// BenchmarkKillTagged is the cost a call pays at its end to find its
// descendants that left the process group.
func BenchmarkKillTagged(b *testing.B) {
	for b.Loop() {
		killTagged("MOOT_CALL=0000000000000000", reapWithin)
	}
}
