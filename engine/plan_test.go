package engine

import (
	"testing"
)

func TestQuorum(t *testing.T) {
	// max(2, ceil(2N/3))
	want := map[int]int{1: 2, 2: 2, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5, 8: 6, 9: 6, 12: 8}
	for n, q := range want {
		if got := Quorum(n); got != q {
			t.Errorf("Quorum(%d) = %d, want %d", n, got, q)
		}
	}
	// after "continue with fewer": min(max(2, ceil(2N'/3)), N')
	panel := map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 6: 4}
	for n, q := range panel {
		if got := PanelQuorum(n); got != q {
			t.Errorf("PanelQuorum(%d) = %d, want %d", n, got, q)
		}
	}
}
