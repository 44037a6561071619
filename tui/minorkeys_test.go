package tui

import (
	"strings"
	"testing"
)

// TestOlderDebateSaysWhenThereIsNone: a on a bug's only debate says there
// is no earlier one, instead of doing nothing.
func TestOlderDebateSaysWhenThereIsNone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := keys(t, loadBrowser(t, f, 120, 30), "/", "Q2R8", "enter", "enter")
	if drawnScreen(m) != "debate" {

		t.Fatalf("the debate did not open:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "a")
	if s := screenText(m, f.proj); !strings.Contains(s, "has no earlier debate") {
		t.Errorf("a on the only debate says nothing:\n%s", s)
	}
}
