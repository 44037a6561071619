package money

import "testing"

// TestPartlyUnknownTotalReadsPlusUnknown: a partly-unknown total reads
// "$X+unknown", a wholly unknown one "unknown", never $0.00 unpriced.
func TestPartlyUnknownTotalReadsPlusUnknown(t *testing.T) {
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

// TestEstimateOfNothingPricedIsUnknown: an estimate with no
// price behind it reads "unknown" (the plan printed "≈$0.00 + unknown").
func TestEstimateOfNothingPricedIsUnknown(t *testing.T) {
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

// TestUSDExtremes: a tiny cap reads as typed (not "$0.0000"), a huge one
// in a few characters (not 300 digits), and the rounding left in the
// budget's in-flight figure never reads "$-0.0000".
func TestUSDExtremes(t *testing.T) {
	for _, tc := range []struct {
		usd  float64
		want string
	}{
		{0.0000001, "$0.0000001"},
		{0.0000123456, "$0.000012"},
		{0.00009999, "$0.0001"},
		{0.0012, "$0.0012"},
		{-1.3877787807814457e-17, "$0.00"},
		{1e-13, "$0.00"},
		{-0.05, "-$0.05"},
		{12345.678, "$12345.68"},
		{1e308, "$1.00e+308"},
		{2.5e9, "$2.50e+09"},
	} {
		if got := USD(tc.usd); got != tc.want {
			t.Errorf("USD(%v) = %q, want %q", tc.usd, got, tc.want)
		}
	}
}
