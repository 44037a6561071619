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

// TestDistinctNeverLetsTwoIDsReadTheSame: questions of one day, with
// the same opening or the same ending, stay apart once cut to the width
// Distinct gives, keeping the start it says; and the width stays near a
// bug ID's when the start alone tells them apart (three questions that
// differ at their 17th character and share 31 of their end took 35 cells
// with halves kept even, which pushed the title off an 80-column list).
func TestDistinctNeverLetsTwoIDsReadTheSame(t *testing.T) {
	for _, tc := range []struct {
		name string
		ids  []string
		most int
	}{
		{"a suffix apart", []string{
			"20261202-should-checkout-cache-coupon-lookups",
			"20261202-should-checkout-cache-coupon-lookups-2",
			"BUG-20260715-A7K3",
		}, 30},
		{"their first words apart, their ends alike", []string{
			"20261203-should-checkout-retry-payment-webhooks-forever",
			"20261203-should-billing-retry-payment-webhooks-forever",
			"20261203-should-refunds-be-retried-forever",
			"BUG-20260715-A7K3",
		}, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, head := Distinct(tc.ids, IDColumn)
			seen := map[string]string{}
			for _, id := range tc.ids {
				c := CutHead(id, w, head)
				if runewidth.StringWidth(c) > w {
					t.Errorf("%q cut to %q, wider than %d", id, c, w)
				}
				if other, ok := seen[c]; ok {
					t.Fatalf("width %d: %q and %q both read %q", w, id, other, c)
				}
				seen[c] = id
			}
			if w > tc.most {
				t.Errorf("width %d (start kept %d) to tell them apart, want at most %d", w, head, tc.most)
			}
			// a wider column (the room a title leaves) keeps them apart too
			for wider := w + 1; wider < w+30; wider++ {
				seen := map[string]bool{}
				for _, id := range tc.ids {
					c := CutHead(id, wider, head)
					if seen[c] {
						t.Fatalf("at %d cells, wider than %d, two IDs read %q", wider, w, c)
					}
					seen[c] = true
				}
			}
		})
	}
}
