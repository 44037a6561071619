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
		m.cost.scroll = m.clampCostScroll(m.cost.scroll - 1)
	case key.Matches(msg, k.Down):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll + 1)
	case key.Matches(msg, k.PageUp):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll - page)
	case key.Matches(msg, k.PageDown):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll + page)
	case key.Matches(msg, k.Left):
		m.cost.button = (m.cost.button + 2) % 3
	case key.Matches(msg, k.Right):
		m.cost.button = (m.cost.button + 1) % 3
	case key.Matches(msg, k.Back) && m.wiz != nil:
		m.wiz.stage = stageEngines // back one step: the wizard's last page
		m.wiz.build()
		m.sizeWizard()
		m.screen = scrWizard
		cmd := m.wiz.form.Init()
		m.wiz.focusLast()
		return m, cmd
	case key.Matches(msg, k.Back), key.Matches(msg, k.Quit):
		return m.backFromSetup()
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
			return m.startRun()
		case 1:
			if m.wiz == nil {
				m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, m.cost.setup, m.opts.choices())
				m.wiz.probing = m.run.probing
			} else {
				m.wiz.stage = stageBasics
				m.wiz.build()
			}
			m.sizeWizard()
			m.screen = scrWizard
			return m, m.wiz.form.Init()
		case 2:
			return m.backFromSetup()
		}
	}
	return m, nil
}

func (k costScreen) render(m Model) string {
	lines := strings.Split(m.costText(), "\n")
	avail := m.costAvail()
	if len(lines) > avail { // the buttons stay; what stands above scrolls
		from := m.clampCostScroll(m.cost.scroll)
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
func (m *Model) planCost() tea.Cmd {
	if m.subj.problem == nil && m.subj.probErr == nil && m.cost.setup.Problem == nil {
		return nil
	}
	if m.subj.probErr != nil && m.cost.setup.Problem == nil { // a question's P comes made (moot ask)
		m.cost.err = m.subj.probErr
		return nil
	}
	s := m.cost.setup
	if s.Protocol == nil {
		s.Protocol = m.opts.Protocol
	}
	if pk, ok := s.Protocol.(engine.Packer); ok && s.Problem == nil {
		s.Problem = pk.Pack(s, m.subj.problem, m.cost.criteria) // the protocol's own P (tradeoff's evidence packet)
		s.Criteria = m.cost.criteria
	}
	if s.Problem == nil {
		s.Problem = m.subj.problem
	}
	if s.Parallel == 0 {
		s.Parallel = engine.DefaultParallel(s)
	}
	if s.Protocol == nil {
		s.Protocol = m.opts.Protocol
	}
	if !s.Budget.Set() {
		s.Budget = m.opts.Budget // the wizard's setup takes the flags' and the engines file's cap
	}
	m.cost.setup = s
	m.cost.plan, m.cost.err, m.cost.button, m.cost.scroll = nil, nil, 0, 0
	m.subj.planSeq++
	m.cost.estimating = true
	seq, cfg, opts := m.subj.planSeq, m.opts.Config, m.opts
	return func() tea.Msg {
		p, err := opts.plan(s, cfg)
		return planMsg{seq: seq, setup: s, plan: p, err: err}
	}
}

// planArrived takes the plan the cost screen waits for (one for earlier
// choices, or that arrives after the screen was left, is dropped) and
// starts the debate if Start was chosen while it was being priced.
func (m Model) planArrived(msg planMsg) (Model, tea.Cmd) {
	if msg.seq != m.subj.planSeq || m.screen != scrCost || !m.cost.estimating {
		return m, nil
	}
	m.cost.estimating = false
	m.cost.setup, m.cost.plan, m.cost.err = msg.setup, msg.plan, msg.err
	if m.cost.plan == nil || len(m.cost.plan.Refusals) > 0 {
		m.cost.button, m.cost.startWhenReady = 1, false // it cannot start: Edit is where Enter leads
	}
	if m.opts.AcceptPlan && m.cost.plan != nil && m.cost.plan.OverBudget() {
		m.cost.startWhenReady = false // --yes accepts a plan, not one over its cap: the screen says so
	}
	if m.cost.startWhenReady {
		m.cost.startWhenReady = false
		if m.cost.plan != nil && len(m.cost.plan.Refusals) == 0 {
			return m.startRun()
		}
	}
	return m, nil
}

// costAvail is how many lines the cost screen has above its buttons.
func (f frame) costAvail() int { return max(2, f.lay.costH-2) }

// clampCostScroll keeps the cost screen's scroll within its text.
func (m Model) clampCostScroll(n int) int {
	over := strings.Count(m.costText(), "\n") + 1 - (m.costAvail() - 1)
	return max(0, min(n, over))
}

// costText is what the cost screen shows above its buttons.
func (m Model) costText() string {
	c := m.cost
	s := c.setup
	var b strings.Builder
	title := s.Bug.ID
	if s.Bug.Title != "" {
		title += " — " + s.Bug.Title
	}
	b.WriteString(m.st.Title.Render("Cost of the "+protocolNoun(s.Protocol)) + "  " + m.st.Subtle.Render(ansi.Truncate(title, max(0, m.lay.w-22), "…")) + "\n\n")
	if c.plan != nil && len(c.plan.Refusals) > 0 { // first: what keeps it from starting is never scrolled away
		b.WriteString(m.st.Error.Render("  Refused — this debate cannot start") + "\n")
		for _, r := range c.plan.Refusals {
			b.WriteString(strings.Join(wrapStyled("  ✗ "+r, m.w-4, "    ", m.st.Error.Render), "\n") + "\n")
		}
		b.WriteString("\n")
	}
	prevKey := ""
	for i, l := range engine.SetupLines(s) {
		line := l.Text
		switch {
		case i == 0 && engine.Describe(s.Protocol).Modes:
			line = fmt.Sprintf("mode %s · %s", m.st.Bold.Render(string(s.Mode)), line)
		case i > 0 && l.Key == "": // the list of the line above goes on, aligned under it
			line = strings.Repeat(" ", ansi.StringWidth(prevKey)+1) + line
		case i > 0:
			line = l.Key + " " + line
			prevKey = l.Key
		}
		if l.Note != "" { // a lens's description, where there is room
			line = ansi.Truncate(line+" — "+l.Note, max(m.lay.w-4, ansi.StringWidth(line)), "…")
		}
		b.WriteString(strings.Join(wrapStyled("  "+line, m.lay.w-2, "  ", nil), "\n") + "\n")
	}
	switch {
	case c.err != nil:
		b.WriteString("\n" + m.st.Error.Render("  "+c.err.Error()) + "\n")
	case c.estimating:
		b.WriteString("\n" + m.st.Subtle.Render("  estimating the cost (learning from past debates)…") + "\n")
	case c.plan == nil:
		b.WriteString("\n" + m.st.Subtle.Render("  assembling P…") + "\n")
	default:
		p := c.plan
		fmt.Fprintf(&b, "  calls %s\n", m.st.Bold.Render(p.Formula))
		if path := p.PathSummary(); path != "" {
			fmt.Fprintf(&b, "  path  %s\n", ansi.Truncate(path, max(m.lay.w-10, 10), "…"))
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
		rows = append(rows, []string{"total", "", fmt.Sprint(p.Calls.Total), "≈" + fmtTokens(p.Input), "≈" + fmtTokens(p.Output), m.st.Bold.Render(total)})
		b.WriteString(costTable(rows, m.lay.w))
		b.WriteString(m.st.Subtle.Render("  tokens and money are estimates; ⇄ marks an external engine") + "\n")
		if line := engine.CachingLine(p); line != "" {
			b.WriteString(strings.Join(wrapStyled("  "+line, m.lay.w-2, "    ", m.st.Subtle.Render), "\n") + "\n")
		}
		for _, l := range engine.PlanBudgetLines(p) { // the cap, and estimates learned from past debates
			b.WriteString(strings.Join(wrapStyled("    "+l.Key+" "+l.Text, m.lay.w-2, "    ", nil), "\n") + "\n")
		}
		if len(p.Warnings) > 0 {
			b.WriteString("\n" + m.st.Warning.Render("  Warnings") + "\n")
			for _, w := range p.Warnings {
				b.WriteString(strings.Join(wrapStyled("  ! "+w, m.w-4, "    ", m.st.Warning.Render), "\n") + "\n")
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
