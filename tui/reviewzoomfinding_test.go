package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestReviewLensFocusAndZoomMatchTheDebates: the lens in focus has a heavy
// border, as a debate's focused pane (seen without colour), and enter
// zooms the lens with each finding whole (its evidence too) and what the
// juror named as checked.
func TestReviewLensFocusAndZoomMatchTheDebates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := runningReview(t, f)
	m := sized(t, f.options(), 140, 45)
	m = openReviewRow(t, m, rf.f.ID)
	s := screenText(m, f.proj)
	if strings.Count(s, "┏") != 1 || !strings.Contains(s, "┃defect") {
		t.Errorf("the focused lens has no heavy border (or more than one has):\n%s", s)
	}
	z := screenText(keys(t, m, "enter"), f.proj)
	if !strings.Contains(z, "finding number 7") || strings.Count(z, "evidence: calc.go") != 7 {
		t.Errorf("the zoom does not show each finding with its evidence:\n%s", z)
	}
	if !strings.Contains(z, "checked: Total's rounding against calc_test.go") || !strings.Contains(z, "checked: the cap at its boundary") {
		t.Errorf("the zoom does not say what the juror checked:\n%s", z)
	}
}

// TestStoppingARunningReviewAsksFirst: q on the review view of a review
// still running (moot review on a terminal) asks, as a debate's q does:
// keep watching (the default) stays; leave it quits (the caller stops the
// run, resumable).
func TestStoppingARunningReviewAsksFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := runningReview(t, f)
	m := NewReview(rf.f.Dir, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
	m = pump(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, msg := range run(m.Init()) {
		m = pump(t, m, msg)
	}
	am, quits := pumpQuits(m, keyMsg("q"))
	if !strings.Contains(screenText(am, ""), "Leave this review?") || quits {
		t.Fatalf("q stopped a running review without asking:\n%s", screenText(am, ""))
	}
	if s := screenText(am, ""); !strings.Contains(s, "Leave this review?") || !strings.Contains(s, "Keep watching") {
		t.Errorf("the question does not say what it asks:\n%s", s)
	}
	if stay := keys(t, am, "enter"); strings.Contains(screenText(stay, ""), "Leave this review?") || drawnScreen(stay) != "review" {

		t.Errorf("keep watching left the review view")
	}
	if ended := pump(t, am, ReviewDoneMsg{}); strings.Contains(screenText(ended, ""), "Leave this review?") {
		t.Errorf("the question stays open once the review ended:\n%s", screenText(ended, ""))
	}
	again, _ := pumpQuits(m, keyMsg("q")) // a new question: the form answered above is done
	if _, quits := pumpQuits(keys(t, again, "up"), keyMsg("enter")); !quits {
		t.Error("leave it does not quit the review view")
	}
}
