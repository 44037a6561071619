package humantime

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{1998598862 * time.Nanosecond, "2s"}, // the round's remainder the tester saw
		{1500 * time.Millisecond, "1.5s"},
		{9960 * time.Millisecond, "10s"},
		{850 * time.Millisecond, "850ms"},
		{999700 * time.Microsecond, "1s"},
		{300 * time.Microsecond, "1ms"},
		{12400 * time.Millisecond, "12s"},
		{151 * time.Second, "2m31s"},
		{10 * time.Minute, "10m"},
		{time.Hour + 5*time.Minute, "1h5m"},
		{2 * time.Hour, "2h"},
		{-2 * time.Minute, "-2m"},
		{-time.Second, "-1s"},
	} {
		if got := Duration(c.in); got != c.want {
			t.Errorf("Duration(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
