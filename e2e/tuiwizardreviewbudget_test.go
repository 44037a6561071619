package e2e

import (
	"testing"
)

// TestTUIWizardReviewAsksTheBudgetMenuAtItsCap: a review set up in the
// wizard whose engines file caps the spend below its first juror's call
// opens the budget menu over its live view, as a debate does (raise the
// cap, stop, cancel), instead of ending its round by the headless rule.
func TestTUIWizardReviewAsksTheBudgetMenuAtItsCap(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, pricedLadder()+"budget: {max_tokens: 10}\n")
	tr.withRegister("BUG-20260702-Q2R8-frete-arredondado")
	m := tribunalTmux(t, tr, 80, 24, "run", "BUG-20260702-Q2R8", "--solver", "loc", "--config", tr.cfg)
	m.wait("the protocol list", "review — of a change")
	m.send("Down", "Down", "Down", "Down", "Enter")
	m.wait("the review's page", "Change", "Contract")
	m.send("-l", "HEAD~1..HEAD")
	m.send("Enter")
	m.wait("the contract in focus", "┃ Contract")
	m.send("-l", "document Total | Total has a doc comment")
	m.send("Enter")
	m.wait("the builder in focus", "┃ Builder")
	m.send("-l", "mistral")
	m.send("Enter")
	m.wait("the lenses in focus", "┃ Lenses")
	m.send("-l", "defect")
	m.send("Enter")
	m.wait("the review's cost screen", "Cost of the review", "▸ Start ◂")
	m.send("Enter")
	m.wait("the budget menu over the review", "The budget cap is reached", "Raise")
}
