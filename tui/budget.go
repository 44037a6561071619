package tui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// The budget menus (numbered apart from menus.go's, so the two lists
// grow without touching each other).
const (
	// menuBudget: the next call would cross the budget cap.
	menuBudget menuKind = iota + 100
	// menuBudgetRaise: the new cap is typed in.
	menuBudgetRaise
)

// askBudgetMsg asks the budget menu; the answer goes to reply.
type askBudgetMsg struct {
	b     engine.BudgetReach
	reply chan budgetAnswer
}

type budgetAnswer struct {
	d   engine.BudgetDecision
	err error
}

// budgetAsk is what a budget menu answers, and the new cap typed in.
type budgetAsk struct {
	b              engine.BudgetReach
	reply          chan budgetAnswer
	usd, maxTokens string
	// why is the refusal of the cap typed last ("" before one)
	why string
	// choice is the budget menu's choice when it was last drawn
	choice string
	// width is the menu form's width: the figures are wrapped at spaces
	// before huh would break "7,000" or "$0.04" at its comma or point
	width int
}

// BudgetReached asks the UI's budget menu and waits for the answer.
func (b *bridge) BudgetReached(ctx context.Context, r engine.BudgetReach) (engine.BudgetDecision, error) {
	reply := make(chan budgetAnswer, 1)
	select {
	case b.ch <- askBudgetMsg{r, reply}:
	case <-ctx.Done():
		return engine.BudgetDecision{}, ctx.Err()
	}
	select {
	case a := <-reply:
		return a.d, a.err
	case <-ctx.Done():
		return engine.BudgetDecision{}, ctx.Err()
	}
}

// ask opens the budget menu (or answers "left" when the user left).
func (budgetDialog) ask(m Model, then askBudgetMsg) (Model, tea.Cmd) {
	if m.out.Left {
		then.reply <- budgetAnswer{err: errors.New("left")}
		return m, nil
	}
	m.zm.on, m.helpv.on = false, false
	who := "the review" // a review's live view has no debate
	if m.dv.deb != nil {
		who = m.dv.deb.bugID
		m.dv.deb.state = "waiting" // as at the quorum menu: the header says a human is asked
	}
	return m, tea.Batch(notify(who+" needs a decision: the budget cap was reached"), m.dlg.openMenu(&m.frame, budgetMenu(&budgetAsk{b: then.b, reply: then.reply, width: m.lay.menuFormW})))
}

// budgetSentence is the engine's wording of a reached budget
// (BudgetReach.Text), as a sentence: capitalized, ending with a period.
func budgetSentence(b engine.BudgetReach) string {
	t := b.Text()
	return strings.ToUpper(t[:1]) + t[1:] + "."
}

// budgetMenu offers: raise the cap, stop now with a labelled degraded
// result (the final step on the last complete round), cancel.
func budgetMenu(a *budgetAsk) *menu {
	a.b = a.b.Current() // the calls in flight may have finished since it was asked
	m := &menu{kind: menuBudget, bud: a, choice: cmp.Or(a.choice, "raise")}
	b := a.b
	desc := budgetSentence(b) + "\nIt was not started."
	if a.width > 8 {
		desc = wrapText(desc, a.width-6) // huh's card takes its frame from the width
	}
	stop := fmt.Sprintf("Stop now: skip the remaining rounds, the %s reads the last complete round (labelled cut by the budget)", b.FinalWord)
	switch {
	case b.FinalWord == "": // a protocol with no final step (review): its round ends where it is
		stop = "Stop now: the round ends here; the answers so far are kept (moot resume with a higher cap makes the calls left)"
	case b.Final:
		stop = fmt.Sprintf("Stop now: no %s call (kept; moot resume with a higher cap runs it)", b.FinalWord)
	}
	m.form = newForm(huh.NewGroup(
		m.wrappedNote(fmt.Sprintf("The budget cap is reached (round %d)", b.Round), desc),
		huh.NewSelect[string]().Title("What now?").Options(
			huh.NewOption("Raise the cap… (type a new one)", "raise"),
			huh.NewOption(stop, "stop"),
			huh.NewOption("Cancel (everything is kept; moot resume asks again)", "cancel"),
		).Value(&m.choice),
	))
	return m
}

// budgetRaiseMenu asks the new cap: dollars and tokens, each blank for
// none, prefilled with the cap in force.
func budgetRaiseMenu(a *budgetAsk) *menu {
	m := &menu{kind: menuBudgetRaise, bud: a}
	if a.b.Cap.MaxUSD > 0 {
		a.usd = strconv.FormatFloat(a.b.Cap.MaxUSD, 'f', -1, 64)
	}
	if a.b.Cap.MaxTokens > 0 {
		a.maxTokens = strconv.Itoa(a.b.Cap.MaxTokens)
	}
	usd := huh.NewInput().Title("New cap in dollars").Description("blank: no dollar cap").Value(&a.usd).Validate(func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if f, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "$"), 64); err != nil || !(f > 0) || math.IsInf(f, 0) {
			return fmt.Errorf("a positive amount, e.g. 2.50")
		}
		return nil
	})
	tok := huh.NewInput().Title("New cap in tokens").Description("blank: no token cap").Value(&a.maxTokens).Validate(func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err != nil || n <= 0 {
			return fmt.Errorf("a positive whole number, e.g. 400000")
		}
		return nil
	})
	m.first = usd
	if a.why != "" {
		m.form = newForm(huh.NewGroup(m.wrappedNote("That cap was not taken", a.why), usd, tok))
		return m
	}
	m.form = newForm(huh.NewGroup(usd, tok))
	return m
}

// typedCap reads the new cap typed in the raise menu.
func (a *budgetAsk) typedCap() engine.Budget {
	var c engine.Budget
	c.MaxUSD, _ = strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(a.usd), "$"), 64)
	c.MaxTokens, _ = strconv.Atoi(strings.TrimSpace(a.maxTokens))
	return c
}

// done acts on a completed budget menu.
func (budgetDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	answer := func(d engine.BudgetDecision) (Model, tea.Cmd) {
		d.By = "human"
		mn.bud.reply <- budgetAnswer{d: d}
		m.dlg.menu = nil
		if m.dv.deb != nil {
			m.dv.deb.state = "running"
		}
		return m, nil
	}
	if mn.kind == menuBudgetRaise {
		mn.bud.b = mn.bud.b.Current() // judged, and said, on the spend as it is now
		c := mn.bud.typedCap()
		if why := engine.RaiseRefusal(mn.bud.b, c); why != "" {
			mn.bud.why = why // said on the raise menu, which opens again
			return m, m.dlg.openMenu(&m.frame, budgetRaiseMenu(mn.bud))
		}
		return answer(engine.BudgetDecision{Choice: engine.BudgetRaise, Cap: c})
	}
	switch mn.choice {
	case "raise":
		return m, m.dlg.openMenu(&m.frame, budgetRaiseMenu(mn.bud))
	case "stop":
		if mn.bud.b.Final { // nothing left to run: say so, and the true status
			m, cmd := answer(engine.BudgetDecision{Choice: engine.BudgetStop})
			if m.dv.deb != nil {
				m.dv.deb.state = "waiting"
			}
			m.toast.text, m.toast.until = fmt.Sprintf("%s: the budget cannot pay the %s's call, so the debate waits; moot resume --max-usd … or --max-tokens … raises the cap and runs it", bugfolder.BudgetStopMark, mn.bud.b.FinalWord), m.clock().Add(24*time.Hour)
			return m, cmd
		}
		return answer(engine.BudgetDecision{Choice: engine.BudgetStop})
	}
	return answer(engine.BudgetDecision{Choice: engine.BudgetCancel})
}

// refreshBudget draws an open budget menu again with the figures as they
// are now (a call in flight finished), its choice and its place kept.
func (d *dialogStack) refreshBudget(f *frame) tea.Cmd {
	if d.menu == nil || d.menu.kind != menuBudget {
		return nil
	}
	d.menu.bud.choice = d.menu.choice
	hidden, off := d.hidden, d.off
	cmd := d.openMenu(f, budgetMenu(d.menu.bud))
	d.hidden, d.off = hidden, off
	return cmd
}

// budgetBack is esc in a budget menu: the menu steps aside so the panes
// can be read (m brings it back); the raise goes back to the menu.
func (d *dialogStack) budgetBack(f *frame, mn *menu) tea.Cmd {
	if mn.kind == menuBudgetRaise {
		return d.openMenu(f, budgetMenu(mn.bud))
	}
	d.hidden = true
	return nil
}

// costTrend is one engine's estimate error in a debate and how it moved
// over the register's recorded debates (first recorded, this one).
type costTrend struct {
	engine      string
	now, first  float64
	debates     int
	est, act    int
	estUSD, usd float64
}

// trendMsg delivers a debate's cost accuracy trend, read off the UI
// goroutine.
type trendMsg struct {
	dir  string
	rows []costTrend
}

// loadTrendCmd reads the register's recorded cost accuracies (oldest
// first) for the trend of the debate in dir whose final answer is f.
func loadTrendCmd(reg *bugfolder.Register, dir string, f *bugfolder.Final) tea.Cmd {
	if f == nil || len(f.CostAccuracy) == 0 {
		return nil
	}
	return func() tea.Msg {
		return trendMsg{dir: dir, rows: costTrends(f, bugfolder.PastCostRecords(reg))}
	}
}

// costTrends pairs each engine of f's cost accuracy with its first
// recorded debate and counts the debates that recorded it.
func costTrends(f *bugfolder.Final, past []bugfolder.CostRecord) []costTrend {
	var out []costTrend
	for _, c := range f.CostAccuracy {
		t := costTrend{engine: c.Engine, now: engine.EstimateError(c.EstTokens, c.ActTokens), est: c.EstTokens, act: c.ActTokens, estUSD: c.EstUSD, usd: c.ActUSD}
		t.first = t.now
		found := false
		for _, rec := range past {
			if rec.Partial {
				continue // a cut debate's error is not an estimate's
			}
			for _, pc := range rec.Engines {
				if pc.Engine != c.Engine || pc.EstTokens == 0 {
					continue
				}
				if !found {
					t.first, found = engine.EstimateError(pc.EstTokens, pc.ActTokens), true
				}
				t.debates++
			}
		}
		out = append(out, t)
	}
	return out
}

// costLines are the Final tab's budget and estimate lines: the cut, and
// per engine the estimate's error now against its first recorded one (a
// debate not run as planned — cut, degraded, stopped early — has none).
func (d debateState) costLines(fr *frame, f *bugfolder.Final) []string {
	var out []string
	partial := f != nil && f.Partial()
	if f != nil && f.BudgetCut {
		out = append(out, fr.st.Warning.Render(fmt.Sprintf("degraded: cut by the budget: the %s read round %d, the last complete one", d.words(fr).Final, f.Round)))
	}
	for _, t := range d.deb.trend {
		if t.est <= 0 { // an engine the plan never priced (swapped in): no error to show
			out = append(out, fr.st.Subtle.Render(fmt.Sprintf("tokens on %s: not in the plan, %s used", t.engine, fmtTokens(t.act))))
			continue
		}
		line := fmt.Sprintf("tokens on %s: ≈%s planned, %s used (%s)", t.engine, fmtTokens(t.est), fmtTokens(t.act), overUnder(t.now))
		if partial {
			line = fmt.Sprintf("tokens on %s: ≈%s planned, %s used (not run in full: no estimate error)", t.engine, fmtTokens(t.est), fmtTokens(t.act))
		}
		out = append(out, fr.st.Subtle.Render(line))
		if t.debates > 1 {
			out = append(out, fr.st.Subtle.Render(fmt.Sprintf("  in its first of %d debates here: %s (each plan learns from the last)", t.debates, overUnder(t.first))))
		}
	}
	return out
}

// overUnder says an estimate's error in words: "53 % under", "12 % over"
// (what was used was that much above or below the plan).
func overUnder(e float64) string {
	switch {
	case e < 0:
		return fmt.Sprintf("%.0f %% under", -e*100)
	case e > 0:
		return fmt.Sprintf("%.0f %% over", e*100)
	}
	return "exactly"
}
