// Package money formats the dollar amounts moot shows, the same way in the
// command line and the TUI.
package money

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// noise is the smallest amount USD shows: below it a figure is the
// rounding left by adding and taking back estimates, not money.
const noise = 1e-12

// USD formats a dollar amount: cents, or four decimals below one cent so a
// cheap call does not read as free, and two significant digits below a
// hundredth of a cent (a cap of $0.0000001 reads as typed, never
// "$0.0000"); an amount of a billion or more in scientific notation, not
// hundreds of digits. Float noise around zero is "$0.00" (never
// "$-0.0000"); a real negative amount reads "-$X".
func USD(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "$" + strconv.FormatFloat(v, 'g', -1, 64)
	case math.Abs(v) < noise:
		return "$0.00"
	case v < 0:
		return "-" + USD(-v)
	case v < 0.0001:
		digits := 1 - int(math.Floor(math.Log10(v))) // two significant
		return "$" + strings.TrimRight(strconv.FormatFloat(v, 'f', digits, 64), "0")
	case v < 0.01:
		return fmt.Sprintf("$%.4f", v)
	case v >= 1e9:
		return fmt.Sprintf("$%.2e", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// Total formats a sum of costs of which some may have no price behind them
// (unpriced): "unknown" when nothing priced was counted, "$X+unknown" when
// part of it is unpriced, "$X" when every part is priced — never $0.00
// without a price behind it.
func Total(usd float64, unpriced bool) string {
	switch {
	case !unpriced:
		return USD(usd)
	case usd > 0:
		return USD(usd) + "+unknown"
	}
	return "unknown"
}

// Estimate formats an estimated cost the same way: "≈$X" priced,
// "≈$X+unknown" partly unpriced, and plain "unknown" when nothing in it
// is priced — an estimate of nothing known is no "≈$0.00".
func Estimate(usd float64, unpriced bool) string {
	if unpriced && usd <= 0 {
		return "unknown"
	}
	return "≈" + Total(usd, unpriced)
}
