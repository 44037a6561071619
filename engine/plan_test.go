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

func TestCountAndFormula(t *testing.T) {
	for _, tc := range []struct{ n, r, c, total int }{{3, 2, 0, 10}, {2, 0, 0, 3}, {8, 3, 2, 39}, {4, 1, 1, 10}} {
		got := Count(tc.n, tc.r, tc.c)
		if got.Total != tc.total || got.Solvers != tc.n*(tc.r+1) || got.Critics != tc.c*tc.r || got.Judge != 1 {
			t.Errorf("Count(%d,%d,%d) = %+v, want total %d", tc.n, tc.r, tc.c, got, tc.total)
		}
	}
	if f := Formula(3, 2, 0); f != "3×(2+1) + 0×2 + 1 = 10 calls" {
		t.Errorf("formula %q", f)
	}
}
