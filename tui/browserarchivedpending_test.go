package tui

import (
	"strings"
	"testing"
)

// TestBrowserRowSaysADecisionWaitsOnAnArchivedResult: a bug whose latest
// debate is done but whose archived result still waits for a human
// decision is marked ◈ on its row (its status says so, in the words its
// width has room for), and the help says that d decides it and, scrolled, what ◈ means.
func TestBrowserRowSaysADecisionWaitsOnAnArchivedResult(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	archivedPending(t, f)
	m := sized(t, f.options(), 140, 45)
	row := lineWith(screenText(m, f.proj), "BUG-20260702-Q2R8")
	if !strings.Contains(row, "◈") || !strings.Contains(row, "done · ◈ decide (archived)") {
		t.Errorf("the row does not say a decision waits on the archived result:\n%s", row)
	}
	if other := lineWith(screenText(m, f.proj), "BUG-20260705-M8N2"); strings.Contains(other, "◈") {
		t.Errorf("a bug with no archived result is marked:\n%s", other)
	}
	m = keys(t, m, "?")
	if help := strings.Join(strings.Fields(screenText(m, f.proj)), " "); !strings.Contains(help, "d decide what waits for you (◆ its result, ◈ the archived one)") {
		t.Errorf("the help does not say that d decides on a ◈ row:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "down", "down", "down", "down", "down", "down", "down", "down")
	if help := strings.Join(strings.Fields(screenText(m, f.proj)), " "); !strings.Contains(help, "◈ an archived result still waits for a human decision") {
		t.Errorf("the help, scrolled to its end, does not say what ◈ means:\n%s", screenText(m, f.proj))
	}
}
