package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
)

// ReviewBudget answers a review's reached budget cap with the budget menu
// a debate shows, drawn over the review's live view (NewReview): raise the
// cap, stop the round where it is, or cancel. It is the review's
// engine.BudgetAsker while the view runs.
type ReviewBudget struct {
	send func(tea.Msg)
}

// NewReviewBudget asks through send, the live view's program's Send.
func NewReviewBudget(send func(tea.Msg)) *ReviewBudget { return &ReviewBudget{send: send} }

// BudgetReached opens the budget menu over the review view and waits for
// the answer (or ctx: the review stopped, the view left).
func (r *ReviewBudget) BudgetReached(ctx context.Context, b engine.BudgetReach) (engine.BudgetDecision, error) {
	reply := make(chan budgetAnswer, 1)
	r.send(askBudgetMsg{b, reply}) // returns at once once the view has ended
	select {
	case a := <-reply:
		return a.d, a.err
	case <-ctx.Done():
		return engine.BudgetDecision{}, ctx.Err()
	}
}
