package harness

import (
	"math"
	"testing"
)

// TestImpossibleUsageIsUnknown: a negative, huge or NaN report never
// reaches the budget; an honest one is kept as it is.
func TestImpossibleUsageIsUnknown(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name             string
		in, out          int
		cost             *float64
		wantIn, wantOut  int
		wantCostReported bool
	}{
		{"honest", 1200, 300, f(0.01), 1200, 300, true},
		{"negative tokens", -10_000_000, -10_000_000, nil, 0, 0, false},
		{"one negative count", 500, -1, f(0.5), 0, 0, false},
		{"wrapping the sums", math.MaxInt64, 1, nil, 0, 0, false},
		{"negative cost", 10, 10, f(-2600), 10, 10, false},
		{"NaN cost", 10, 10, f(math.NaN()), 10, 10, false},
		{"absurd cost", 10, 10, f(1e300), 10, 10, false},
	}
	for _, tt := range tests {
		r := SaneUsage(Result{TokensIn: tt.in, TokensOut: tt.out, CostUSD: tt.cost})
		if r.TokensIn != tt.wantIn || r.TokensOut != tt.wantOut || (r.CostUSD != nil) != tt.wantCostReported {
			t.Errorf("%s: got %d/%d cost %v", tt.name, r.TokensIn, r.TokensOut, r.CostUSD)
		}
	}
}
