package money

import "testing"

// TestFinding13b_7OneMoneyFormatter: a partly-unknown total reads
// "$X+unknown", a wholly unknown one "unknown", never $0.00 unpriced.
func TestFinding13b_7OneMoneyFormatter(t *testing.T) {
	for _, tc := range []struct {
		usd      float64
		unpriced bool
		want     string
	}{
		{0, false, "$0.00"},
		{0.0012, false, "$0.0012"},
		{0.05, false, "$0.05"},
		{0.0012, true, "$0.0012+unknown"},
		{0, true, "unknown"},
		{1.5, true, "$1.50+unknown"},
	} {
		if got := Total(tc.usd, tc.unpriced); got != tc.want {
			t.Errorf("Total(%v, %v) = %q, want %q", tc.usd, tc.unpriced, got, tc.want)
		}
	}
}

// TestIssue13_3EstimateOfNothingPricedIsUnknown: an estimate with no
// price behind it reads "unknown" (the plan printed "≈$0.00 + unknown").
func TestIssue13_3EstimateOfNothingPricedIsUnknown(t *testing.T) {
	for _, tc := range []struct {
		usd      float64
		unpriced bool
		want     string
	}{
		{0, true, "unknown"},
		{0, false, "≈$0.00"},
		{0.12, false, "≈$0.12"},
		{0.12, true, "≈$0.12+unknown"},
	} {
		if got := Estimate(tc.usd, tc.unpriced); got != tc.want {
			t.Errorf("Estimate(%v, %v) = %q, want %q", tc.usd, tc.unpriced, got, tc.want)
		}
	}
}
