package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// costScreen is the cost screen: the plan priced, then Start, Edit or
// Cancel (costState holds what it shows).
type costScreen struct {
	Left, Right, Confirm, Up, Down, PageUp, PageDown, Back, Quit key.Binding
}

func newCostScreen() costScreen {
	return costScreen{
		Left:     bind("←/shift+tab", "the button before", "left", "h", "shift+tab"),
		Right:    bind("→/tab", "the button after", "right", "l", "tab"),
		Confirm:  bind("enter", "confirm", "enter"),
		Up:       bind("↑/↓", "scroll what stands above the buttons", "up", "k"),
		Down:     silent("down", "j"),
		PageUp:   bind("pgup/pgdn", "scroll a page", "pgup", "b"),
		PageDown: silent("pgdown", "f", "space"),
		Back:     bind("esc", "back to the setup (cancel when there is none)", "esc"),
		Quit:     bind("q", "cancel", "q"),
	}
}

// ShortHelp is the cost screen's footer.
func (k costScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Left, "←/→", "choose"), k.Confirm, k.Back}
}

// FullHelp is the cost screen's help.
func (k costScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Left, k.Right, k.Confirm, k.Up, k.PageUp, k.Back, k.Quit}}
}

func (k costScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	page := max(1, m.costAvail()-1)
	switch {
	case key.Matches(msg, k.Up):
		m.cost.scroll = m.cost.clampScroll(&m.frame, m.cost.scroll-1)
	case key.Matches(msg, k.Down):
		m.cost.scroll = m.cost.clampScroll(&m.frame, m.cost.scroll+1)
	case key.Matches(msg, k.PageUp):
		m.cost.scroll = m.cost.clampScroll(&m.frame, m.cost.scroll-page)
	case key.Matches(msg, k.PageDown):
		m.cost.scroll = m.cost.clampScroll(&m.frame, m.cost.scroll+page)
	case key.Matches(msg, k.Left):
		m.cost.button = (m.cost.button + 2) % 3
	case key.Matches(msg, k.Right):
		m.cost.button = (m.cost.button + 1) % 3
	case key.Matches(msg, k.Back) && m.wiz != nil:
		m.wiz.stage = stageEngines // back one step: the wizard's last page
		m.wiz.build()
		m.wiz.fit(&m.frame)
		m.screen = scrWizard
		cmd := m.wiz.form.Init()
		m.wiz.focusLast()
		return m, cmd
	case key.Matches(msg, k.Back), key.Matches(msg, k.Quit):
		m.next = leaveSetupMsg{}
		return m, nil
	case key.Matches(msg, k.Confirm):
		switch m.cost.button {
		case 0:
			if m.cost.plan == nil && m.cost.err == nil && m.subj.probErr == nil {
				m.cost.startWhenReady = true
				if m.cost.estimating {
					return m, statusCmd("starting as soon as the cost is estimated…")
				}
				return m, statusCmd("starting as soon as P is assembled…")
			}
			if m.cost.plan == nil || len(m.cost.plan.Refusals) > 0 {
				m.cost.scroll = 0 // the refusal opens the screen: show it
				return m, statusCmd("this debate cannot start: see why at the top · Edit changes the setup")
			}
			m.next = startRunMsg{}
			return m, nil
		case 1:
			if m.wiz == nil {
				m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, m.cost.setup, m.opts.choices())
				m.wiz.probing = m.run.probing
			} else {
				m.wiz.stage = stageBasics
				m.wiz.build()
			}
			m.wiz.fit(&m.frame)
			m.screen = scrWizard
			return m, m.wiz.form.Init()
		case 2:
			m.next = leaveSetupMsg{}
			return m, nil
		}
	}
	return m, nil
}

func (k costScreen) render(m Model) string {
	lines := strings.Split(m.cost.text(&m.frame), "\n")
	avail := m.costAvail()
	if len(lines) > avail { // the buttons stay; what stands above scrolls
		from := m.cost.clampScroll(&m.frame, m.cost.scroll)
		shown := lines[from : from+avail-1]
		more := len(lines) - from - len(shown)
		note := fmt.Sprintf("  +%d more (↓ pgdn scroll)", more)
		if more == 0 {
			note = "  (↑ pgup scroll back)"
		}
		lines = append(shown, m.st.Subtle.Render(note))
	}
	var b strings.Builder
	b.WriteString(strings.Join(lines, "\n") + "\n\n  ")
	for i, label := range []string{"Start", "Edit", "Cancel"} {
		if i == m.cost.button {
			b.WriteString(m.st.ButtonOn.Render("▸ "+label+" ◂") + " ")
		} else {
			b.WriteString(m.st.Button.Render("  "+label+"  ") + " ")
		}
	}
	b.WriteString("\n")
	body := padLines(strings.TrimRight(b.String(), "\n"), m.lay.costH)
	back := labelled(k.Back, "esc", "cancel")
	if m.wiz != nil {
		back = labelled(k.Back, "esc", "back to the setup")
	}
	return body + "\n" + m.toast.footer(&m.frame, footerHelp(labelled(k.Left, "←/→", "choose"), k.Confirm, back))
}

// plan prices a setup (Options.planOf, else engine.NewPlan). It reads
// every past final answer of the register (what the plan learns from):
// never on the UI's goroutine.
func (o Options) plan(s engine.Setup, cfg *harness.Config) (*engine.Plan, error) {
	if o.planOf != nil {
		return o.planOf(s, cfg)
	}
	return engine.NewPlan(s, cfg)
}

// planMsg carries a plan priced in the background; seq says which
// request it answers (an older one, for choices since changed, is
// dropped).
type planMsg struct {
	seq   int
	setup engine.Setup
	plan  *engine.Plan
	err   error
}

// planCost prepares the setup once P is there and returns the command
// that prices it in the background (the cost screen says it is
// estimating until the plan arrives).
func (c *costState) price(f *frame, subj *subject) tea.Cmd {
	if subj.problem == nil && subj.probErr == nil && c.setup.Problem == nil {
		return nil
	}
	if subj.probErr != nil && c.setup.Problem == nil { // a question's P comes made (moot ask)
		c.err = subj.probErr
		return nil
	}
	s := c.setup
	if s.Protocol == nil {
		s.Protocol = f.opts.Protocol
	}
	if pk, ok := s.Protocol.(engine.Packer); ok && s.Problem == nil {
		s.Problem = pk.Pack(s, subj.problem, c.criteria) // the protocol's own P (tradeoff's evidence packet)
		s.Criteria = c.criteria
	}
	if s.Problem == nil {
		s.Problem = subj.problem
	}
	if s.Parallel == 0 {
		s.Parallel = engine.DefaultParallel(s)
	}
	if s.Protocol == nil {
		s.Protocol = f.opts.Protocol
	}
	if !s.Budget.Set() {
		s.Budget = f.opts.Budget // the wizard's setup takes the flags' and the engines file's cap
	}
	c.setup = s
	c.plan, c.err, c.button, c.scroll = nil, nil, 0, 0
	subj.planSeq++
	c.estimating = true
	seq, cfg, opts := subj.planSeq, f.opts.Config, f.opts
	return func() tea.Msg {
		p, err := opts.plan(s, cfg)
		return planMsg{seq: seq, setup: s, plan: p, err: err}
	}
}

// planArrived takes the plan the cost screen waits for (one for earlier
// choices, or that arrives after the screen was left, is dropped) and
// starts the debate if Start was chosen while it was being priced.
func (c *costState) planArrived(f *frame, subj subject, msg planMsg) (start bool) {
	if msg.seq != subj.planSeq || f.screen != scrCost || !c.estimating {
		return false
	}
	c.estimating = false
	c.setup, c.plan, c.err = msg.setup, msg.plan, msg.err
	if c.plan == nil || len(c.plan.Refusals) > 0 {
		c.button, c.startWhenReady = 1, false // it cannot start: Edit is where Enter leads
	}
	if f.opts.AcceptPlan && c.plan != nil && c.plan.OverBudget() {
		c.startWhenReady = false // --yes accepts a plan, not one over its cap: the screen says so
	}
	if c.startWhenReady {
		c.startWhenReady = false
		if c.plan != nil && len(c.plan.Refusals) == 0 {
			return true
		}
	}
	return false
}

// costAvail is how many lines the cost screen has above its buttons.
func (f frame) costAvail() int { return max(2, f.lay.costH-2) }

// clampCostScroll keeps the cost screen's scroll within its text.
func (c costState) clampScroll(f *frame, n int) int {
	over := strings.Count(c.text(f), "\n") + 1 - (f.costAvail() - 1)
	return max(0, min(n, over))
}

// costText is what the cost screen shows above its buttons.
func (c costState) text(f *frame) string {
	s := c.setup
	var b strings.Builder
	title := s.Bug.ID
	if s.Bug.Title != "" {
		title += " — " + s.Bug.Title
	}
	b.WriteString(f.st.Title.Render("Cost of the "+protocolNoun(s.Protocol)) + "  " + f.st.Subtle.Render(ansi.Truncate(title, max(0, f.lay.w-22), "…")) + "\n\n")
	if c.plan != nil && len(c.plan.Refusals) > 0 { // first: what keeps it from starting is never scrolled away
		b.WriteString(f.st.Error.Render("  Refused — this debate cannot start") + "\n")
		for _, r := range c.plan.Refusals {
			b.WriteString(strings.Join(refusalLines("  ✗ "+r, f.w-4, "    ", f.st.Error.Render), "\n") + "\n")
		}
		b.WriteString("\n")
	}
	prevKey := ""
	for i, l := range engine.SetupLines(s) {
		line := l.Text
		switch {
		case i == 0 && engine.Describe(s.Protocol).Modes:
			line = fmt.Sprintf("mode %s · %s", f.st.Bold.Render(string(s.Mode)), line)
		case i > 0 && l.Key == "": // the list of the line above goes on, aligned under it
			line = strings.Repeat(" ", ansi.StringWidth(prevKey)+1) + line
		case i > 0:
			line = l.Key + " " + line
			prevKey = l.Key
		}
		if l.Note != "" { // a lens's description, where there is room
			line = ansi.Truncate(line+" — "+l.Note, max(f.lay.w-4, ansi.StringWidth(line)), "…")
		}
		b.WriteString(strings.Join(wrapStyled("  "+line, f.lay.w-2, "  ", nil), "\n") + "\n")
	}
	switch {
	case c.err != nil:
		b.WriteString("\n" + f.st.Error.Render("  "+c.err.Error()) + "\n")
	case c.estimating:
		b.WriteString("\n" + f.st.Subtle.Render("  estimating the cost (learning from past debates)…") + "\n")
	case c.plan == nil:
		b.WriteString("\n" + f.st.Subtle.Render("  assembling P…") + "\n")
	default:
		p := c.plan
		calls := wrapStyled(p.Formula, f.lay.w-8, "        ", f.st.Bold.Render) // under its own start
		b.WriteString("  calls " + strings.Join(calls, "\n") + "\n")
		if path := p.PathSummary(); path != "" {
			fmt.Fprintf(&b, "  path  %s\n", ansi.Truncate(path, max(f.lay.w-10, 10), "…"))
		}
		if s.Problem != nil {
			fmt.Fprintf(&b, "  P     %s bytes ≈ %s tokens, %d part(s)\n", fmtInt(s.Problem.Bytes()), fmtInt(s.Problem.Tokens()), len(s.Problem.Parts))
		}
		b.WriteString("\n")
		rows := [][]string{}
		for _, e := range p.Engines {
			cost := "≈" + engine.USD(e.USD)
			if !e.PriceKnown {
				cost = "unknown price"
			}
			name := e.Name
			if e.External {
				name += " ⇄"
			}
			rows = append(rows, []string{name, e.Roles, fmt.Sprint(e.Calls), "≈" + fmtTokens(e.Input), "≈" + fmtTokens(e.Output), cost})
		}
		total := estimate(p.USD, !p.USDKnown)
		rows = append(rows, []string{"total", "", fmt.Sprint(p.Calls.Total), "≈" + fmtTokens(p.Input), "≈" + fmtTokens(p.Output), f.st.Bold.Render(total)})
		b.WriteString(costTable(rows, f.lay.w))
		b.WriteString(f.st.Subtle.Render("  tokens and money are estimates; ⇄ marks an external engine") + "\n")
		if line := engine.CachingLine(p); line != "" {
			b.WriteString(strings.Join(wrapStyled("  "+line, f.lay.w-2, "    ", f.st.Subtle.Render), "\n") + "\n")
		}
		for _, l := range engine.PlanBudgetLines(p) { // the cap, and estimates learned from past debates
			b.WriteString(strings.Join(wrapStyled("    "+l.Key+" "+l.Text, f.lay.w-2, "    ", nil), "\n") + "\n")
		}
		if len(p.Warnings) > 0 {
			b.WriteString("\n" + f.st.Warning.Render("  Warnings") + "\n")
			for _, w := range p.Warnings {
				b.WriteString(strings.Join(wrapStyled("  ! "+w, f.w-4, "    ", f.st.Warning.Render), "\n") + "\n")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// costTable lays out the cost screen's engine rows (name, roles, calls,
// tokens in, tokens out, money) in width cells. The money column is never
// cut: the headers shorten first, then the roles go, then the names give
// way (the cells closer together first).
func costTable(rows [][]string, width int) string {
	heads := [][]string{
		{"ENGINE", "ROLES", "CALLS", "TOKENS IN", "TOKENS OUT", "COST (estimate)"},
		{"ENGINE", "ROLES", "CALLS", "IN", "OUT", "COST ≈"},
	}
	keep := []int{0, 1, 2, 3, 4, 5}
	head, gap := heads[0], 2
	colW := func(c int) int {
		w := ansi.StringWidth(head[c])
		for _, r := range rows {
			w = max(w, ansi.StringWidth(r[c]))
		}
		return w
	}
	nameW := func() int { // what the names may take once the rest is laid out
		used := 2 // the indent
		for _, c := range keep[1:] {
			used += gap + colW(c)
		}
		return width - used
	}
	for _, next := range []func(){
		func() { head = heads[1] },
		func() { gap = 1 },
		func() { keep = []int{0, 2, 3, 4, 5} },
	} {
		if nameW() >= min(colW(0), 12) { // a name keeps 12 cells before a column goes
			break
		}
		next()
	}
	nw := max(4, min(colW(0), nameW()))
	var b strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		b.WriteString("  " + padRight(ansi.Truncate(r[0], nw, "…"), nw))
		for _, c := range keep[1:] {
			cell, w := r[c], colW(c)
			switch c {
			case 5: // the money, last: never cut, never padded
			case 1: // words left, figures right
				cell = padRight(cell, w)
			default:
				cell = strings.Repeat(" ", max(0, w-ansi.StringWidth(cell))) + cell
			}
			b.WriteString(strings.Repeat(" ", gap) + cell)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// protocolNoun names a run of p in a title ("Cost of the council"): a
// council, a tradeoff or an argument is not called a debate where its
// protocol is known.
func protocolNoun(p engine.Protocol) string {
	switch {
	case p == nil:
		return "debate"
	case p.Name() == "argue":
		return "argument"
	}
	return p.Name()
}

// open leaves the completed wizard for the cost screen: a bug's
// setup as the wizard describes it, or a question set up as moot ask
// sets it up (its folder reserved; a refusal keeps the wizard open).
func (k costScreen) open(m Model) (Model, tea.Cmd) {
	w := m.wiz
	if w.reviewing() {
		return reviewCostPage.open(m)
	}
	if !w.onQuestion() {
		m.cost = costState{setup: w.setup(m.subj.bug), criteria: w.criteriaList()}
		m.screen = scrCost
		return m, m.cost.price(&m.frame, &m.subj)
	}
	bug, s, err := w.ch.ask(w.askArgs(), true)
	if err != nil {
		w.stage = stageBasics
		w.build()
		m.wiz.fit(&m.frame)
		return m, tea.Batch(w.form.Init(), statusCmd("the question cannot be set up: "+err.Error()))
	}
	m.subj.bug, m.cost = bug, costState{setup: s}
	m.screen = scrCost
	return m, m.cost.price(&m.frame, &m.subj)
}

// problemArrived takes the bug read in full and its P, and prices the
// cost screen's setup once P is there.
func (k costScreen) problemArrived(m Model, msg problemMsg) (Model, tea.Cmd) {
	m.subj.problem, m.subj.probErr = msg.p, msg.err
	if msg.bug != nil && m.subj.bug != nil && msg.bug.Dir == m.subj.bug.Dir {
		m.subj.bug = msg.bug
		m.cost.setup.Bug = msg.bug
		if m.wiz != nil {
			m.wiz.bug = msg.bug
		}
	}
	if m.screen != scrCost {
		return m, nil
	}
	cmd := m.cost.price(&m.frame, &m.subj)
	if m.subj.probErr != nil {
		m.cost.startWhenReady = false
	}
	return m, cmd
}
