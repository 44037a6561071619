package debate

import (
	"testing"

	"github.com/reversa/moot/engine"
)

// TestCountAndFormula: the cost screen counts N×(R+1) + C×R + 1 calls and
// shows the formula with its numbers.
func TestCountAndFormula(t *testing.T) {
	for _, tc := range []struct{ n, r, c, total int }{{3, 2, 0, 10}, {2, 0, 0, 3}, {8, 3, 2, 39}, {4, 1, 1, 10}} {
		s := engine.Setup{N: tc.n, R: tc.r, Critics: make([]string, tc.c)}
		got := Protocol{}.Count(s)
		if got.Total != tc.total || got.Solvers != tc.n*(tc.r+1) || got.Critics != tc.c*tc.r || got.Judge != 1 {
			t.Errorf("Count(%d,%d,%d) = %+v, want total %d", tc.n, tc.r, tc.c, got, tc.total)
		}
	}
	if f := (Protocol{}).Formula(engine.Setup{N: 3, R: 2}); f != "3×(2+1) + 0×2 + 1 = 10 calls" {
		t.Errorf("formula %q", f)
	}
}
