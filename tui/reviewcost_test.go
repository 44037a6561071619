package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// reviewCostPlan is a review's plan as cli would price it.
func reviewCostPlan() ReviewPlan {
	return ReviewPlan{Title: "round shipping to the cent",
		Setup: [][2]string{{"change", "HEAD~1..HEAD"}, {"builder", "mistral (excluded: local-mis)"},
			{"lenses", "defect: juror-a → juror-b"}, {"", "security: juror-b → juror-a"}, {"", "tests: juror-a [capacity] → juror-b"}},
		Formula: "3 lens(es) × one juror = 3, at most 6 (a rung that fails to answer passes to the next)",
		Engines: []ReviewEngineCost{{Name: "juror-a", Roles: "defect", Calls: 1, Input: 1200, Output: 2000, USD: 0.01, PriceKnown: true, External: true},
			{Name: "juror-b", Roles: "security, tests", Calls: 2, Input: 2400, Output: 4000}},
		Total:    ReviewEngineCost{Name: "total", Calls: 3, Input: 3600, Output: 6000, USD: 0.01},
		Warnings: []string{"ladders with fewer than 3 external rungs to call before the local tail: defect (2), security (2), tests (1)"}}
}

// TestReviewCostScreen: a review started on a terminal shows the cost
// screen a debate shows (title, setup, the engine table, warnings, Start
// Edit Cancel, the same keys); Start runs it and opens its live view on
// the folder the run wrote; Cancel or esc quit with nothing started; a
// start that fails says why on the screen. At 80×24 and 140×45.
func TestReviewCostScreen(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	opts := Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}}
	open := func(t *testing.T, w, h int, start func() (string, error)) Model {
		m := NewReviewCost(ReviewStart{Plan: reviewCostPlan(), Start: start}, opts)
		m = pump(t, m, tea.WindowSizeMsg{Width: w, Height: h})
		for _, msg := range run(m.Init()) {
			m = pump(t, m, msg)
		}
		return m
	}
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			started := 0
			m := open(t, sz.w, sz.h, func() (string, error) { started++; return br.f.Dir, nil })
			checkFrame(t, m, sz.w, sz.h, "", []string{"Cost of the review", "juror-a ⇄", "security, tests", "total", "Warnings", "▸ Start ◂", "Edit", "Cancel"})
			goldenScreenNamed(t, "plan", m, "")
			m = keys(t, m, "right")
			checkFrame(t, m, sz.w, sz.h, "", []string{"▸ Edit ◂"})
			m = keys(t, m, "left", "enter")
			if started != 1 || drawnScreen(m) != "review" || m.ReviewStarted() != br.f.Dir {
				t.Fatalf("Start: started %d, following %q:\n%s", started, m.ReviewStarted(), screenText(m, ""))
			}
			checkFrame(t, m, sz.w, sz.h, "", []string{"review " + br.f.ID, "defect · refuse", "←/h left"})
			goldenScreenNamed(t, "live", m, "")

			failed := open(t, sz.w, sz.h, func() (string, error) { return "", errors.New("review 1: another moot is running this review") })
			failed = keys(t, failed, "enter")
			checkFrame(t, failed, sz.w, sz.h, "", []string{"this review cannot start", "another moot is running this review", "▸ Cancel ◂"})
			goldenScreenNamed(t, "refused", failed, "")
			if failed.ReviewStarted() != "" {
				t.Error("a review that could not start is followed")
			}
		})
	}
	for _, k := range []string{"esc", "q"} {
		m := open(t, 100, 30, func() (string, error) { t.Error("cancel started the review"); return "", nil })
		m, quits := pumpQuits(m, keyMsg(k))
		if !quits || !m.Outcome().Cancelled || m.ReviewStarted() != "" {
			t.Errorf("%s on the review's cost screen: quits %v, cancelled %v", k, quits, m.Outcome().Cancelled)
		}

	}
}

// TestReviewRefusalKeepsPathsWhole: a refusal on the review's cost
// screen is wrapped at spaces only, so a path in it ("/tmp/walk-s/…")
// is never cut at its '-' across two lines.
func TestReviewRefusalKeepsPathsWhole(t *testing.T) {
	t.Parallel()
	const path = "/tmp/walk-sample/_reversa_bugs/moot.yaml"
	refusal := errors.New("no lens has a rung moot can call in " + path + ": scripted skipped on the ladders of defect, security (unknown-family: its family is unknown)")
	for _, w := range []int{60, 80, 100} {
		m := NewReviewCost(ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { return "", refusal }}, Options{Now: func() time.Time { return fixedNow }})
		m = pump(t, m, tea.WindowSizeMsg{Width: w, Height: 30})
		for _, msg := range run(m.Init()) {
			m = pump(t, m, msg)
		}
		m = keys(t, m, "enter")
		if screen := screenText(m, ""); !strings.Contains(screen, path) {
			t.Errorf("at %d columns the path is broken:\n%s", w, screen)
		}
	}
}

// TestReviewBudgetAskedBeforeTheLiveViewOpensIsShown: a review started
// from its cost screen can reach its cap before its start returns (the
// round runs beside the UI); the budget menu is drawn over the cost
// screen then, and its answer reaches the review: never a menu that takes
// the keys unseen while the review waits for it.
func TestReviewBudgetAskedBeforeTheLiveViewOpensIsShown(t *testing.T) {
	t.Parallel()
	reach := engine.BudgetReach{Cap: engine.Budget{MaxTokens: 10}, NextTokens: 2000, Round: 1, Who: "defect", FinalWord: "gate"}
	m := NewReviewCost(ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { return "", nil }}, Options{Now: func() time.Time { return fixedNow }})
	m = pump(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	started, _ := m.Update(keyMsg("enter")) // Start, its command not run: the review has not said it started
	m = started.(Model)
	reply := make(chan budgetAnswer, 1)
	m = pump(t, m, askBudgetMsg{reach, reply})
	checkFrame(t, m, 80, 24, "", []string{"Raise the cap", "Stop now", "Cancel"})
	m = keys(t, m, "down", "enter")
	select {
	case a := <-reply:
		// justified: the decision the engine receives on the menu's channel; no frame shows it
		if a.d.Choice != engine.BudgetStop {
			t.Errorf("answer %+v, want stop", a.d)
		}
	default:
		t.Fatalf("the budget menu's answer did not reach the review:\n%s", screenText(m, ""))
	}
}

// TestReviewStartedWhilePlannedStartsOncePlanned: Start chosen while the
// wizard's review is still being planned is kept, not dropped: the
// review starts as soon as its plan arrives, and its view follows it.
func TestReviewStartedWhilePlannedStartsOncePlanned(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	m := NewReviewCost(ReviewStart{Plan: ReviewPlan{Title: "round shipping to the cent"}}, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
	m.revCost.starting = true // as the wizard opens it: planned off the UI goroutine
	m = pump(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = keys(t, m, "enter")
	checkFrame(t, m, 80, 24, "", []string{"starting as soon as the review is planned"})
	started := 0
	m = pump(t, m, reviewPlannedMsg{rs: ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { started++; return br.f.Dir, nil }}})
	if started != 1 || m.ReviewStarted() != br.f.Dir || drawnScreen(m) != "review" {
		t.Fatalf("Start before the plan: started %d, following %q:\n%s", started, m.ReviewStarted(), screenText(m, ""))
	}
}
