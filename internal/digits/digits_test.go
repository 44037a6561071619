package digits

import "testing"

func TestGrouped(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1105, "1,105"}, {12840, "12,840"}, {1234567, "1,234,567"}, {-12840, "-12,840"}} {
		if got := Grouped(c.n); got != c.want {
			t.Errorf("Grouped(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
