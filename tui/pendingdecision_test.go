package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestDecisionByAnotherProcessShows: a finished debate whose
// result waits for a human decision is followed on disk like a running
// one: when another process records the decision (moot decide), the open
// Final tab shows it at the next look, and the watch then stops.
func TestDecisionByAnotherProcessShows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := makePending(t, f)
	m := keys(t, loadBrowser(t, f, 120, 30), "enter")
	// justified: whether the view follows the folder is not drawn
	if !strings.Contains(screenText(m, f.proj), "A human decision is pending") || !m.dv.followsDisk(&m.frame) {
		t.Fatalf("the pending result is not open and followed:\n%s", screenText(m, f.proj))
	}
	if _, err := engine.Decide(engine.HumanDecision{Root: filepath.Dir(dir), Dir: dir, Lang: bugfolder.PT, BugID: "BUG-20260702-Q2R8",
		Choice: bugfolder.ChoiceDecline, Note: "measure first", By: "Bea <bea@example.org>", Command: "moot decide BUG-20260702-Q2R8"}); err != nil {
		t.Fatal(err)
	}
	m = pump(t, m, watchTickMsg{})
	if text := screenText(m, f.proj); strings.Contains(text, "A human decision is pending") || !strings.Contains(text, "decision: decline") {
		t.Errorf("the Final tab does not show the decision another process recorded:\n%s", screenText(m, f.proj))
	}
	// justified: whether the view follows the folder is not drawn
	if m.dv.followsDisk(&m.frame) {
		t.Error("a decided, finished debate is still followed")
	}
}

// TestClosedBugsPendingResultIsNotMarkedOrFirst: a result that waited for a human
// decision on a bug closed since by DONE.md can never be decided: the
// browser does not mark it ◆ nor keep it first.
func TestClosedBugsPendingResultIsNotMarkedOrFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := filepath.Join(f.proj, "_reversa_bugs/checkout/bugs/BUG-20260610-K4M1-cupom-expirado-aceito/debate/resposta-final.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "---\n", "---\ndecision: pending\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 120, 30)
	// a decision counted pending would mark the row ◆ and sort it first

	rows, seen := 0, false
	for _, l := range strings.Split(screenText(m, f.proj), "\n") {
		if !strings.Contains(l, "BUG-") {
			continue
		}
		rows++
		if strings.Contains(l, "BUG-20260610-K4M1") {
			seen = true
			if strings.Contains(l, "◆") {
				t.Errorf("the closed bug is drawn marked:\n%s", l)
			}
			if rows == 1 {
				t.Errorf("the closed bug is drawn first:\n%s", l)
			}
		}
	}
	if !seen {
		t.Fatal("the closed bug's row is not drawn")
	}
}
