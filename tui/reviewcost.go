package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
)

// A review started on a terminal (moot review, or the wizard) shows its
// plan on the cost screen — the same title, engine table, warnings and
// Start, Edit, Cancel as a debate's, answering the same keys — and Start
// opens its live view (reviewScreen) on the folder the run writes.

// ReviewPlan is a review's plan as the cost screen shows it: cli prices
// it with the protocol's estimate (the TUI imports no protocol).
type ReviewPlan struct {
	// Title names the review (its bug, or the contract's intent).
	Title string
	// Setup are the lines above the figures, each a key and its text
	// ("change", "HEAD~1..HEAD"); a line with no key goes on the one above.
	Setup [][2]string
	// Formula says the calls ("2 lenses, one juror each: 2 to 4 calls").
	Formula string
	// Engines are the first rungs' engines, priced; Total sums them.
	Engines []ReviewEngineCost
	Total   ReviewEngineCost
	// Warnings are said before Start (thin ladders, the builder's family).
	Warnings []string
}

// ReviewEngineCost is one engine's estimated share of a review.
type ReviewEngineCost struct {
	Name, Roles          string
	Calls, Input, Output int
	USD                  float64
	PriceKnown, External bool
}

// ReviewStart is a review ready to run once its plan is accepted: Start
// runs it (in the background) and returns its folder as soon as it is
// written, or why it could not start.
type ReviewStart struct {
	Plan  ReviewPlan
	Start func() (dir string, err error)
	// Stop stops the review Start began (its calls in flight stop, what
	// it wrote is kept, moot resume continues it) and returns once its
	// record says how it ended: Leave it on its view opened from the
	// browser (called off the UI's goroutine). nil when the caller stops
	// it once the UI has quit (moot review on a terminal).
	Stop func()
}

// reviewCostState is the cost screen's state for a review.
type reviewCostState struct {
	costNav
	rs       ReviewStart
	starting bool
	// startWhenPlanned is set when Start was chosen while the review was
	// being planned: it starts as soon as its plan arrives.
	startWhenPlanned bool
	err              error
	// back is set for a review the wizard set up: Cancel goes back to
	// the browser, Edit and esc to the wizard, and its view opens as the
	// browser opens a review.
	back bool
}

// reviewStartedMsg says the review began in dir (or why it did not).
type reviewStartedMsg struct {
	dir string
	err error
}

// NewReviewCost is the UI of moot review on a terminal: the cost screen
// of rs's plan, then, on Start, its live view following the folder the
// run writes; q or ctrl+c leaves (a review still running is stopped by
// the caller, as a stop signal stops it).
func NewReviewCost(rs ReviewStart, opts Options) Model {
	m := New(opts)
	m.screen, m.revCost = scrReviewCost, &reviewCostState{rs: rs}
	return m
}

// ReviewStarted reports whether Start was chosen and the review began
// (its folder), for the caller's exit code and report.
func (m Model) ReviewStarted() string { return m.rv.alone }

// Update answers the review's cost screen's keys (the debate's cost
// screen's, costKeys).
func (c *reviewCostState) Update(f *frame, msg tea.Msg) (*reviewCostState, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
		return c, nil
	case key.Matches(k, costKeyMap.Help):
		f.next = openHelpMsg{}
	case c.starting && c.rs.Start == nil && c.err == nil && c.button == 0 && key.Matches(k, costKeyMap.Confirm):
		c.startWhenPlanned = true // still planned: it starts once it is
		return c, statusCmd("starting as soon as the review is planned…")
	case c.starting:
		return c, statusCmd("starting the review…")
	case c.move(f, k, len(c.lines(f))):
		return c, nil
	case key.Matches(k, costKeyMap.Back) && c.back, c.button == 1 && key.Matches(k, costKeyMap.Confirm) && c.back:
		f.next = editSetupMsg{} // back to the review's page of the wizard
	case key.Matches(k, costKeyMap.Back), key.Matches(k, costKeyMap.Quit), key.Matches(k, costKeyMap.Confirm) && c.button == 2:
		return c, c.cancel(f)
	case key.Matches(k, costKeyMap.Confirm) && c.button == 1:
		return c, statusCmd("a review's setup is its command's flags: Cancel, then run moot review again with others")
	case key.Matches(k, costKeyMap.Confirm):
		return c, c.start()
	}
	return c, nil
}

// start is Start: the review runs in the background, its folder comes
// back (reviewStartedMsg), unless it cannot start.
func (c *reviewCostState) start() tea.Cmd {
	if c.rs.Start == nil {
		return statusCmd("this review cannot start: see why above · Edit changes it")
	}
	if c.err != nil {
		return statusCmd("this review cannot start: see why above · q leaves")
	}
	c.starting = true
	start := c.rs.Start
	return func() tea.Msg {
		dir, err := start()
		return reviewStartedMsg{dir: dir, err: err}
	}
}

// cancel leaves the review's cost screen: nothing was started.
func (c *reviewCostState) cancel(f *frame) tea.Cmd {
	if c.back {
		f.next = leaveSetupMsg{}
		return nil
	}
	f.out.Cancelled = true
	return tea.Quit
}

// updateReviewStart takes the started review: its live view follows the
// folder; a review that could not start says why on the cost screen.
func (m Model) updateReviewStart(msg tea.Msg) (Model, tea.Cmd, bool) {
	if pl, ok := msg.(reviewPlannedMsg); ok {
		return m, m.revCost.planned(&m.frame, pl), true
	}
	st, ok := msg.(reviewStartedMsg)
	if !ok || m.revCost == nil {
		return m, nil, false
	}
	m.revCost.starting = false
	if st.err != nil {
		m.revCost.err, m.revCost.button = st.err, 2
		return m, nil, true
	}
	if m.revCost.back && m.opts.Bug == nil { // its view, the list behind it: leaving asks while it runs, as a debate's
		m.rv.ran, m.rv.stop, m.rv.view = st.dir, m.revCost.rs.Stop, nil
		m.revCost, m.wiz, m.screen = nil, nil, scrReview
		return m, tea.Batch(loadStartedReviewCmd(m.opts.keeper(), st.dir), listReviewsCmd(m.opts.keeper(), m.opts.Register)), true
	}
	m.rv.alone, m.screen = st.dir, scrReview
	return m, loadStartedReviewCmd(m.opts.keeper(), st.dir), true
}

// lines are what the review's cost screen shows above its
// buttons.
func (c *reviewCostState) lines(f *frame) []string {
	p := c.rs.Plan
	var b strings.Builder
	b.WriteString(f.st.Title.Render("Cost of the review") + "  " + f.st.Subtle.Render(ansi.Truncate(p.Title, max(0, f.lay.w-22), "…")) + "\n\n")

	if c.err != nil {
		b.WriteString(f.st.Error.Render("  Refused — this review cannot start") + "\n")
		b.WriteString(strings.Join(refusalLines("  ✗ "+c.err.Error(), f.w-4, "    ", f.st.Error.Render), "\n") + "\n\n")
	}
	if c.rs.Start == nil { // not planned (yet)
		if c.err == nil {
			b.WriteString(f.st.Subtle.Render("  planning the review: probing the engines, reading the change…"))
		}
		return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	}
	keyW := 0
	for _, l := range p.Setup {
		keyW = max(keyW, ansi.StringWidth(l[0]))
	}
	for _, l := range p.Setup {
		line := padRight(l[0], keyW) + " " + l[1]
		b.WriteString(strings.Join(wrapStyled("  "+line, f.lay.w-2, "  "+strings.Repeat(" ", keyW+1), nil), "\n") + "\n")
	}
	b.WriteString("\n" + strings.Join(wrapStyled("  calls "+p.Formula, f.lay.w-2, "        ", nil), "\n") + "\n\n")
	var rows [][]string
	for _, e := range append(append([]ReviewEngineCost{}, p.Engines...), p.Total) {
		cost := "≈" + engine.USD(e.USD)
		if !e.PriceKnown {
			cost = "unknown price"
		}
		name := e.Name
		if e.External {
			name += " ⇄"
		}
		if e.Name == "total" {
			cost = f.st.Bold.Render(estimate(e.USD, !e.PriceKnown))
		}
		rows = append(rows, []string{name, e.Roles, fmt.Sprint(e.Calls), "≈" + fmtTokens(e.Input), "≈" + fmtTokens(e.Output), cost})
	}
	b.WriteString(costTable(rows, f.lay.w))
	b.WriteString(strings.Join(wrapStyled("  tokens and money are estimates of each lens's first rung; ⇄ marks an external engine", f.lay.w-2, "  ", f.st.Subtle.Render), "\n") + "\n")
	if len(p.Warnings) > 0 {
		b.WriteString("\n" + f.st.Warning.Render("  Warnings") + "\n")
		for _, w := range p.Warnings {
			b.WriteString(strings.Join(wrapStyled("  ! "+w, f.w-4, "    ", f.st.Warning.Render), "\n") + "\n")
		}
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

// View draws the review's plan, the buttons and the footer.
func (c *reviewCostState) View(f *frame) string {
	help := costFooter(c.back) // esc goes back to the wizard's review page when it set the review up
	if c.starting {
		help = "starting the review…"
	}
	return c.body(f, c.lines(f)) + "\n" + f.toast.footer(f, help)
}
