package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// The wizard offers a review of a change beside the debates: it asks the
// change (a git range, or files), the contract, the builder and the
// lenses, as moot review takes them; the review function (cli's, the
// command's own flags and code) checks each answer as it is typed, then
// plans and prices the review for its cost screen (reviewcost.go). On a
// bug with no change given, it reviews the bug's applied fix.

// reviewChoice is the review's name in the wizard's list of protocols.
const reviewChoice = "review"

// ChangeField and ContractField are the titles of the review's fields
// that take the change and its contract: a refusal of either names its
// field (cli words moot review's refusals so).
const (
	ChangeField   = "Change"
	ContractField = "Contract"
	BuilderField  = "Builder"
	LensesField   = "Lenses"
)

// reviewSummary is its line in that list.
const reviewSummary = "of a change: a blind tribunal of lensed jurors; only a unanimous pass opens the gate"

// choiceCount is how many protocols the wizard lists.
func (w *wizard) choiceCount() int {
	n := len(w.offeredProtocols())
	if w.ch.review != nil {
		n++
	}
	return n
}

// reviewing reports whether the wizard sets up a review.
func (w *wizard) reviewing() bool { return w.ch.review != nil && w.protoName == reviewChoice }

// reviewFields are a review's page: the change, the contract, the
// builder and the lenses.
func (w *wizard) reviewFields() []huh.Field {
	change := "a git range A..B, or the files it touches separated by spaces"
	if !w.bug.IsQuestion {
		change += "; empty = the bug's applied fix (fix/CHG-*.diff)"
	}
	return []huh.Field{
		described(w, huh.NewInput().Title(ChangeField), change).Value(&w.change).
			Validate(func(s string) error { return w.reviewCheck(0, func() { w.change = s }) }),
		described(w, huh.NewInput().Title(ContractField), `"intent in one line | pass criteria"`).Value(&w.contract).
			Validate(func(s string) error { return w.reviewCheck(1, func() { w.contract = s }) }),
		described(w, huh.NewInput().Title(BuilderField), "who built the change: a family, an engine or a model (its family never sits); empty = the change's trailers, else the engines file's review.builder").
			Value(&w.builder).Validate(func(s string) error { return w.reviewCheck(2, func() { w.builder = s }) }),
		described(w, huh.NewInput().Title(LensesField), "separated by spaces; empty = the eight review lenses").Value(&w.revLenses).
			Validate(func(s string) error { return w.reviewCheck(3, func() { w.revLenses = s }) }),
	}
}

// reviewArgs are the words moot review takes for the review the wizard
// holds: the bug (its applied fix when no change is given), the change,
// the contract, the builder and the lenses.
func (w *wizard) reviewArgs() []string { return w.reviewArgsWith(w.contract, w.builder) }

// reviewArgsWith are reviewArgs with this contract and builder.
func (w *wizard) reviewArgsWith(contract, builder string) []string {
	var args []string
	change := strings.Fields(w.change)
	switch {
	case len(change) == 1 && strings.Contains(change[0], ".."):
		args = append(args, "--change", change[0])
	default:
		for _, f := range change {
			args = append(args, "--files", f)
		}
	}
	if c := strings.TrimSpace(contract); c != "" {
		args = append(args, "--contract", c)
	}
	if b := strings.TrimSpace(builder); b != "" {
		args = append(args, "--builder", b)
	}
	for _, l := range strings.Fields(w.revLenses) {
		args = append(args, "--lens", l)
	}
	if w.bug != nil && !w.bug.IsQuestion {
		args = append(args, "--", w.bug.ID)
	}
	return args
}

// reviewCheck sets what field typed (set) and checks the review as moot
// review checks it, nothing probed, called or written; a field below it,
// not typed yet, is not refused before its turn (a stand-in is checked in
// its place: "intent | criteria", the unknown builder).
func (w *wizard) reviewCheck(field int, set func()) error {
	set()
	contract, builder := w.contract, w.builder
	if field < 1 && strings.TrimSpace(contract) == "" {
		contract = "intent | criteria"
	}
	if field < 2 && strings.TrimSpace(builder) == "" {
		builder = "unknown"
	}
	_, err := w.ch.review(w.reviewArgsWith(contract, builder), true)
	return w.wrappedErr(plainRefusal(err))
}

// plainRefusal is a command's refusal in a form: without its "nothing
// was written", which a form needs not say.
func plainRefusal(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, tail := range []string{"; nothing was called or written", "; nothing was written"} {
		msg = strings.TrimSuffix(msg, tail)
	}
	return errors.New(msg)
}

// reviewPlannedMsg delivers a review planned from the wizard.
type reviewPlannedMsg struct {
	rs  ReviewStart
	err error
}

// open plans the wizard's review off the UI goroutine (moot review
// probes the engines and builds the envelope first).
func (m Model) openReviewCost() (Model, tea.Cmd) {
	args, review := m.wiz.reviewArgs(), m.wiz.ch.review
	m.screen, m.revCost = scrReviewCost, &reviewCostState{back: true, starting: true, rs: ReviewStart{Plan: ReviewPlan{Title: m.wiz.heading()}}}
	return m, func() tea.Msg {
		rs, err := review(args, false)
		return reviewPlannedMsg{rs: rs, err: err}
	}
}

// planned shows the planned review on its cost screen, and starts it
// when Start was chosen while it was planned; a refusal stays there,
// naming why (Edit goes back to the wizard).
func (c *reviewCostState) planned(f *frame, msg reviewPlannedMsg) tea.Cmd {
	if c == nil || f.screen != scrReviewCost {
		return nil
	}
	c.starting = false
	start := c.startWhenPlanned
	c.startWhenPlanned = false
	if msg.err != nil {
		c.err, c.button = msg.err, 1
		return nil
	}
	c.rs = msg.rs
	if start {
		return c.start()
	}
	return nil
}
