package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestWizardRefusesTwoIdenticalTradeoffOptions: option B that states
// option A again (case and spacing aside) keeps the wizard on the options
// page with the CLI's words; a different B goes on to the engines.
func TestWizardRefusesTwoIdenticalTradeoffOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, a, b string
		refused    bool
	}{
		{"same text", "Strip discounts before recalculating", "Strip discounts before recalculating", true},
		{"case and spacing", "Strip discounts before recalculating", "  strip  DISCOUNTS before recalculating", true},
		{"different", "Strip discounts before recalculating", "Recalculate, then strip discounts", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			opts := protocolOptions(f, t)
			opts.Proposals = func(*bugfolder.Bug) (string, string, bool) { return tc.a, tc.b, true }
			m := sized(t, opts, 140, 45)
			m = keys(t, m, "down", "enter", "enter", "enter", "enter") // tradeoff; mode, R, strategy
			if wizardStage(m) != "inputs" || !fieldTitles(m)["Option A"] {
				t.Fatalf("want tradeoff's options:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "enter", "enter", "enter") // A, B as prefilled, no criteria
			s := screenText(m, f.proj)
			if got := wizardStage(m) == "inputs"; got != tc.refused {

				t.Fatalf("still on the options: %v, want %v:\n%s", got, tc.refused, s)
			}
			if tc.refused && !strings.Contains(s, "same statement") {
				t.Errorf("the refusal does not say why:\n%s", s)
			}
		})
	}
}
