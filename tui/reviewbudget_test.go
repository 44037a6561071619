package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestReviewBudgetMenuOverTheLiveView: a review's live view (NewReview)
// answers a reached cap with the budget menu a debate shows (ReviewBudget
// is the review's BudgetAsker): the cap and the lens held back, a stop
// that says the round ends where it is (a review has no final step), and
// raise, stop and cancel answered as a debate's are.
func TestReviewBudgetMenuOverTheLiveView(t *testing.T) {
	t.Parallel()
	reach := engine.BudgetReach{Cap: engine.Budget{MaxTokens: 4000}, SpentTokens: 2500, NextTokens: 2500, Round: 1, Who: "security"}
	for _, tc := range []struct {
		name string
		keys []string
		want engine.BudgetDecision
	}{
		{"raise", []string{"enter", "ctrl+a", "ctrl+k", "enter", "ctrl+a", "ctrl+k", "9", "0", "0", "0", "enter"},
			engine.BudgetDecision{Choice: engine.BudgetRaise, Cap: engine.Budget{MaxTokens: 9000}, By: "human"}},
		{"stop", []string{"down", "enter"}, engine.BudgetDecision{Choice: engine.BudgetStop, By: "human"}},
		{"cancel", []string{"down", "down", "enter"}, engine.BudgetDecision{Choice: engine.BudgetCancel, By: "human"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			br, _ := reviewsFor(t, f)
			m := NewReview(br.f.Dir, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
			m = pump(t, m, tea.WindowSizeMsg{Width: 110, Height: 34})
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			asked := make(chan tea.Msg, 1)
			answer := make(chan engine.BudgetDecision, 1)
			go func() {
				d, err := NewReviewBudget(func(msg tea.Msg) { asked <- msg }).BudgetReached(context.Background(), reach)
				if err != nil {
					t.Error(err)
				}
				answer <- d
			}()
			m = pump(t, m, recv(t, asked))
			if !menuDrawn(m, menuBudget) {
				t.Fatalf("no budget menu over the review view:\n%s", screenText(m, ""))
			}
			text := strings.Join(strings.Fields(screenText(m, "")), " ")
			for _, want := range []string{"The budget cap is reached (round 1)", "(security) ≈2,500 tokens", "Stop now: the round ends here"} {
				if !strings.Contains(text, want) {
					t.Errorf("the menu does not say %q:\n%s", want, text)
				}
			}
			m = keys(t, m, tc.keys...)
			if d := recv(t, answer); d != tc.want || anyMenuDrawn(m) {
				t.Errorf("answer %+v, want %+v, the menu closed:\n%s", d, tc.want, screenText(m, ""))
			}

		})
	}
}
