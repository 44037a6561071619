// Package money formats the dollar amounts moot shows, the same way in the
// command line and the TUI.
package money

import "fmt"

// USD formats a dollar amount: cents, or four decimals below one cent so a
// cheap call does not read as free.
func USD(v float64) string {
	switch {
	case v == 0:
		return "$0.00"
	case v < 0.01:
		return fmt.Sprintf("$%.4f", v)
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
