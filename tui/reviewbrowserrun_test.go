package tui

import (
	"strings"
	"testing"
)

// TestAReviewStartedFromTheBrowserAsksBeforeLeaving: a review started
// from the browser (its wizard's cost screen, Start) opens its view, whose
// q asks the debate's question while it runs; keep watching stays, leave
// it stops the run (its Stop), goes back to the list and says how to
// resume it; the row shows ● while the review runs.
func TestAReviewStartedFromTheBrowserAsksBeforeLeaving(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := runningReview(t, f)
	stops := 0
	m := sized(t, f.options(), 100, 30)
	if row := lineWith(screenText(m, f.proj), "live"); !strings.Contains(row, "●") {
		t.Errorf("the running review's row has no ● mark: %q", row)
	}
	m.revCost = &reviewCostState{rs: ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { return rf.f.Dir, nil },
		Stop: func() { stops++ }}, back: true}
	m.screen = scrReviewCost
	m = keys(t, m, "enter")
	if drawnScreen(m) != "review" {
		t.Fatalf("Start did not open the review's view:\n%s", screenText(m, f.proj))
	}
	asked, quits := pumpQuits(m, keyMsg("q"))
	if s := screenText(asked, f.proj); quits || !strings.Contains(s, "Leave this review?") || !strings.Contains(s, "Back to the list: moot resume "+rf.f.ID) {
		t.Fatalf("q left a running review started from the browser without asking:\n%s", s)
	}
	if stay := keys(t, asked, "enter"); drawnScreen(stay) != "review" || strings.Contains(screenText(stay, ""), "Leave this review?") || stops != 0 {
		t.Errorf("keep watching left the review (stops %d):\n%s", stops, screenText(stay, f.proj))
	}
	again, _ := pumpQuits(m, keyMsg("esc"))
	left, quits := pumpQuits(keys(t, again, "up"), keyMsg("enter"))
	if s := screenText(left, f.proj); quits || stops != 1 || drawnScreen(left) != "browser" || !strings.Contains(s, "moot resume "+rf.f.ID) {
		t.Errorf("leave it: quits %v, stops %d, screen %s:\n%s", quits, stops, drawnScreen(left), s)
	}
}
