package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestSetupScreensOpenTheirHelp: ? opens the help overlay on the wizard
// (on a field that takes no text) and on both cost screens, listing that
// screen's keys; in a wizard text field ? is typed and f1 opens it,
// which the footer says.
func TestSetupScreensOpenTheirHelp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	opts.Bug = f.bug(t, "7")
	wiz := sized(t, opts, 80, 24) // on its first field, Mode: a choice
	if s := screenText(wiz, f.proj); !strings.Contains(s, "? keys") {
		t.Errorf("the wizard's footer does not say ? on a choice:\n%s", s)
	}
	review := NewReviewCost(ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { return "", nil }}, opts)
	review = pump(t, review, tea.WindowSizeMsg{Width: 80, Height: 24})
	for name, tc := range map[string]struct {
		m    Model
		want string
	}{
		"wizard":      {wiz, "choose between buttons"},
		"debate cost": {costModel(t, f, 2), "scroll what stands above the buttons"},
		"review cost": {review, "scroll what stands above the buttons"},
	} {
		if s := screenText(keys(t, tc.m, "?"), f.proj); !strings.Contains(s, "Keys") || !strings.Contains(s, tc.want) {
			t.Errorf("? on the %s does not open its help:\n%s", name, s)
		}
	}
	text := keys(t, wiz, "enter") // the next field takes a number
	if !text.wiz.typing() {
		t.Fatalf("the field after Mode takes no text:\n%s", screenText(text, f.proj))
	}
	if s := screenText(text, f.proj); !strings.Contains(s, "f1 keys") {
		t.Errorf("a text field's footer does not say f1:\n%s", s)
	}
	if s := screenText(keys(t, text, "?"), f.proj); strings.Contains(s, "choose between buttons") {
		t.Errorf("? in a text field opened the help instead of being typed:\n%s", s)
	}
	if s := screenText(keys(t, text, "f1"), f.proj); !strings.Contains(s, "choose between buttons") {
		t.Errorf("f1 in a text field does not open the help:\n%s", s)
	}
}
