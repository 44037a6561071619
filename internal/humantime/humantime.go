// Package humantime prints durations for people: the one rounding every
// message moot shows uses, so "no answer within 1.998598862s" reads
// "no answer within 2s".
package humantime

import (
	"fmt"
	"strings"
	"time"
)

// Duration prints d rounded to what a person reads: milliseconds under a
// second (850ms), tenths under ten seconds (1.5s, 2s), whole seconds
// above, in hours, minutes and seconds without zero parts (2m31s, 10m,
// 1h5m). A negative duration keeps its sign.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + Duration(-d)
	case d == 0:
		return "0s"
	case d < time.Second:
		if ms := d.Round(time.Millisecond); ms < time.Second {
			return fmt.Sprintf("%dms", max(ms.Milliseconds(), 1))
		}
		return "1s"
	case d < 10*time.Second:
		s := fmt.Sprintf("%.1f", d.Round(100*time.Millisecond).Seconds())
		return strings.TrimSuffix(s, ".0") + "s"
	}
	d = d.Round(time.Second)
	h, m, s := d/time.Hour, d%time.Hour/time.Minute, d%time.Minute/time.Second
	var b strings.Builder
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if s > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%ds", s)
	}
	return b.String()
}
