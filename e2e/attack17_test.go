package e2e

import (
	"strings"
	"testing"
)

// TestBudgetRefusesInfinity: --max-usd Inf (and NaN) sets no cap at all,
// so it is refused like any amount that is not a positive number (exit 2,
// nothing written).
func TestBudgetRefusesInfinity(t *testing.T) {
	for _, v := range []string{"Inf", "+Inf", "NaN"} {
		p := newProject(t)
		r := p.moot("plan", "7", "--mode", "diagnosis", "--max-usd", v).mustExit(t, 2)
		if !strings.Contains(r.stderr, "--max-usd") {
			t.Errorf("--max-usd %s: the refusal does not name the flag:\n%s", v, r.stderr)
		}
	}
}
