package midcut

import (
	"testing"

	"github.com/mattn/go-runewidth"
)

// TestCutKeepsBothEndsWithinTheWidth: a cut ID keeps its start and its end,
// joined by …, and never passes the width.
func TestCutKeepsBothEndsWithinTheWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"BUG-20260715-A7K3", 20, "BUG-20260715-A7K3"},
		{"20261202-should-we-retry-payment-webhooks-forever", 21, "20261202-s…ks-forever"},
		{"abcdef", 4, "abc…"},
		{"日本語のパス/ファイル", 9, "日本…イル"},
	} {
		got := Cut(tc.s, tc.w)
		if got != tc.want || runewidth.StringWidth(got) > tc.w {
			t.Errorf("Cut(%q, %d) = %q, want %q within %d cells", tc.s, tc.w, got, tc.want, tc.w)
		}
	}
}

// TestDistinctWidthNeverLetsTwoIDsReadTheSame: two questions of one day
// with the same opening stay apart once cut.
func TestDistinctWidthNeverLetsTwoIDsReadTheSame(t *testing.T) {
	ids := []string{
		"20261202-should-checkout-cache-coupon-lookups",
		"20261202-should-checkout-cache-coupon-lookups-2",
		"BUG-20260715-A7K3",
	}
	w := DistinctWidth(ids, 10)
	seen := map[string]string{}
	for _, id := range ids {
		c := Cut(id, w)
		if other, ok := seen[c]; ok {
			t.Fatalf("width %d: %q and %q both read %q", w, id, other, c)
		}
		seen[c] = id
	}
	if w >= len(ids[1]) {
		t.Errorf("width %d: the IDs were not cut at all (they differ at their ends)", w)
	}
}
