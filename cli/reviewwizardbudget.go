package cli

import (
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/tui"
)

// wizardBudget is who answers a reached cap for a review the TUI's wizard
// started: the budget menu over the UI, as a debate's, once the UI runs;
// the headless rule (pol, --on-budget) otherwise.
func wizardBudget(e *env, pol engine.BudgetAsker) engine.BudgetAsker {
	if e.uiSend == nil {
		return pol
	}
	return tui.NewReviewBudget(e.uiSend)
}
