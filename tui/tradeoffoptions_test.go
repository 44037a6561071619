package tui

import (
	"slices"
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

// TestWizardKeepsLongTextWholeOrRefusesIt: a tradeoff option longer than
// the CLI's 2000 bytes is refused on the options page with the limit (never
// cut to it unseen), and a 3000-character question reaches moot ask's own
// checks whole.
func TestWizardKeepsLongTextWholeOrRefusesIt(t *testing.T) {
	t.Parallel()
	t.Run("option", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		opts := protocolOptions(f, t)
		long := strings.Repeat("strip discounts ", 160) // 2560 bytes
		opts.Proposals = func(*bugfolder.Bug) (string, string, bool) { return long, "Recalculate, then strip discounts", true }
		m := sized(t, opts, 140, 45)
		m = keys(t, m, "down", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
		s := screenText(m, f.proj)
		if wizardStage(m) != "inputs" || !strings.Contains(s, "at most 2000") {
			t.Errorf("a 2560-byte option went on (stage %s) or its refusal does not name the limit:\n%s", wizardStage(m), s)
		}
	})
	t.Run("question", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		var asked, reviewed [][]string
		m := sized(t, fiveProtocolOptions(f, t, &asked, &reviewed), 140, 45)
		m = keys(t, m, "down", "enter")
		q := "Should " + strings.Repeat("x", 2992) + "?"
		m = typeText(t, m, q)
		keys(t, m, "enter")
		if len(asked) == 0 || !slices.Contains(asked[len(asked)-1], q) {
			t.Errorf("the 3000-character question did not reach moot ask whole")
		}
	})
}
