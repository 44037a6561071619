package tradeoff

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestPlanRefusesTwoIdenticalOptions: the plan refuses a tradeoff whose
// options state the same thing (case, spacing, quotes and the final
// punctuation aside), whoever set it up.
func TestPlanRefusesTwoIdenticalOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b    string
		refused bool
	}{
		{"Cache coupons", "Cache coupons", true},
		{"Cache coupons", "  cache   COUPONS ", true},
		{"Strip discounts first", "Strip discounts first.", true},
		{"Strip discounts first", "\"Strip discounts first!\"", true},
		{"Cache coupons", "Never cache coupons", false},
		{"Cache coupons.", "Cache coupons, then expire them.", false},
		{"Retry 3 times", "Retry 4 times", false},
	} {
		s := engine.Setup{N: 2, Lenses: []bugfolder.Lens{{Name: "A", Text: tc.a}, {Name: "B", Text: tc.b}}}
		why := Protocol{}.Refusals(s)
		if got := len(why) == 1 && strings.Contains(why[0], "same statement"); got != tc.refused {
			t.Errorf("%q / %q: refusals %q, want refused %v", tc.a, tc.b, why, tc.refused)
		}
	}
}
