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

// The cost screen is costState (a debate's plan) or reviewCostState (a
// review's): each owns its state, answers its keys (costKeys, the same
// for both) with Update and draws itself with View, the frame handed in
// by the root. Start, Edit, Cancel and esc ask the root to move
// (startRunMsg, editSetupMsg, backToSetupMsg, leaveSetupMsg).

// costKeys are the cost screen's key bindings.
type costKeys struct {
	Left, Right, Confirm, Up, Down, PageUp, PageDown, Back, Quit, Help key.Binding
}

// costKeyMap are the cost screens' bindings, built once.
var costKeyMap = costKeys{
	Left:     bind("←/shift+tab", "the button before", "left", "h", "shift+tab"),
	Right:    bind("→/tab", "the button after", "right", "l", "tab"),
	Confirm:  bind("enter", "confirm", "enter"),
	Up:       bind("↑/↓", "scroll what stands above the buttons", "up", "k"),
	Down:     silent("down", "j"),
	PageUp:   bind("pgup/pgdn", "scroll a page", "pgup", "b"),
	PageDown: silent("pgdown", "f", "space"),
	Back:     bind("esc", "back to the setup (cancel when there is none)", "esc"),
	Quit:     bind("q", "cancel", "q"),
	Help:     bind("?", "this help", "?"),
}

// ShortHelp is the cost screen's footer.
func (k costKeys) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Left, "←/→", "choose"), k.Confirm, k.Back, labelled(k.Help, "?", "keys")}
}

// FullHelp is the cost screen's help.
func (k costKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Left, k.Right, k.Confirm, k.Up, k.PageUp, k.Back, k.Quit, k.Help}}
}

// costNav is what both cost screens move: the focused button and the
// scroll of what stands above the buttons.
type costNav struct {
	button int
	// scroll is the first line shown of what stands above the buttons.
	scroll int
}

// move answers the scroll and button keys over n lines of text; it
// reports whether msg was one of them.
func (c *costNav) move(f *frame, msg tea.KeyPressMsg, n int) bool {
	k, page := costKeyMap, max(1, f.costAvail()-1)
	by := map[*key.Binding]int{&k.Up: -1, &k.Down: 1, &k.PageUp: -page, &k.PageDown: page}
	for b, d := range by {
		if key.Matches(msg, *b) {
			c.scroll = clampLines(c.scroll+d, n, f.costAvail())
			return true
		}
	}
	switch {
	case key.Matches(msg, k.Left):
		c.button = (c.button + 2) % 3
	case key.Matches(msg, k.Right):
		c.button = (c.button + 1) % 3
	default:
		return false
	}
	return true
}

// clampLines keeps a scroll within n lines shown avail-1 at a time.
func clampLines(scroll, n, avail int) int { return max(0, min(scroll, n-(avail-1))) }

// costBody draws a cost screen's lines (scrolled when they do not fit:
// the buttons stay) and its Start, Edit, Cancel buttons.
func (c costNav) body(f *frame, lines []string) string {
	if avail := f.costAvail(); len(lines) > avail {
		from := clampLines(c.scroll, len(lines), avail)
		shown := lines[from : from+avail-1]
		note := fmt.Sprintf("  +%d more (↓ pgdn scroll)", len(lines)-from-len(shown))
		if from+len(shown) == len(lines) {
			note = "  (↑ pgup scroll back)"
		}
		lines = append(shown, f.st.Subtle.Render(note))
	}
	var b strings.Builder
	b.WriteString(strings.Join(lines, "\n") + "\n\n  ")
	for i, label := range []string{"Start", "Edit", "Cancel"} {
		if i == c.button {
			b.WriteString(f.st.ButtonOn.Render("▸ "+label+" ◂") + " ")
		} else {
			b.WriteString(f.st.Button.Render("  "+label+"  ") + " ")
		}
	}
	return padLines(strings.TrimRight(b.String(), " "), f.lay.costH)
}

// Update answers the cost screen's keys.
func (c costState) Update(f *frame, msg tea.Msg) (costState, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || c.move(f, k, strings.Count(c.text(f), "\n")+1) {
		return c, nil
	}
	switch {
	case key.Matches(k, costKeyMap.Help):
		f.next = openHelpMsg{}
	case key.Matches(k, costKeyMap.Back):
		f.next = backToSetupMsg{}
	case key.Matches(k, costKeyMap.Quit), key.Matches(k, costKeyMap.Confirm) && c.button == 2:
		f.next = leaveSetupMsg{}
	case key.Matches(k, costKeyMap.Confirm) && c.button == 1:
		f.next = editSetupMsg{setup: c.setup}
	case key.Matches(k, costKeyMap.Confirm):
		return c, c.start(f)
	}
	return c, nil
}

// start is Start: the debate starts, or as soon as its plan is ready, or
// the screen says why it cannot.
func (c *costState) start(f *frame) tea.Cmd {
	if c.plan == nil && c.err == nil && f.subj.probErr == nil {
		c.startWhenReady = true
		if c.estimating {
			return statusCmd("starting as soon as the cost is estimated…")
		}
		return statusCmd("starting as soon as P is assembled…")
	}
	if c.plan == nil || len(c.plan.Refusals) > 0 {
		c.scroll = 0 // the refusal opens the screen: show it
		return statusCmd("this debate cannot start: see why at the top · Edit changes the setup")
	}
	f.next = startRunMsg{}
	return nil
}

// View draws the plan, the buttons and the footer.
func (c costState) View(f *frame) string {
	return c.body(f, strings.Split(c.text(f), "\n")) + "\n" + f.toast.footer(f, costFooter(c.fromWizard))
}

// costFooter is both cost screens' footer: esc goes back to the setup
// when a wizard stands behind the screen, else it cancels.
func costFooter(fromWizard bool) string {
	k := costKeyMap
	bs := k.ShortHelp()
	if !fromWizard {
		bs[2] = labelled(k.Back, "esc", "cancel")
	} else {
		bs[2] = labelled(k.Back, "esc", "back to the setup")
	}
	return footerHelp(bs...)
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

// clampScroll keeps the cost screen's scroll within its text.
func (c costState) clampScroll(f *frame, n int) int {
	return clampLines(n, strings.Count(c.text(f), "\n")+1, f.costAvail())
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
	c.writeSetup(&b, f)
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
			b.WriteString("  path  " + strings.Join(wrapStyled(path, f.lay.w-8, "        ", nil), "\n") + "\n") // its figure is never cut
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

// writeSetup writes the setup's lines under the cost screen's title: the
// mode first, keyed lines with their lists aligned under them, a lens's
// description on its one line, a stake's or a limit's meaning wrapped
// whole.
func (c costState) writeSetup(b *strings.Builder, f *frame) {
	s := c.setup
	prevKey := ""
	setup := engine.SetupLines(s)
	for i, l := range setup {
		line, indent := l.Text, "  "
		switch {
		case i == 0 && engine.Describe(s.Protocol).Modes:
			line = fmt.Sprintf("mode %s · %s", f.st.Bold.Render(string(s.Mode)), line)
		case i > 0 && l.Key == "": // the list of the line above goes on, aligned under it
			line = strings.Repeat(" ", ansi.StringWidth(prevKey)+1) + line
		case i > 0:
			line = l.Key + " " + line
			prevKey = l.Key
		}
		if i > 0 { // a keyed line's continuations go under its text
			indent += strings.Repeat(" ", ansi.StringWidth(prevKey)+1)
		}
		inList := l.Key == "" || i+1 < len(setup) && setup[i+1].Key == ""
		switch {
		case l.Note != "" && inList: // a lens's description, on its one line where there is room
			line = ansi.Truncate(line+" — "+l.Note, max(f.lay.w-4, ansi.StringWidth(line)), "…")
		case l.Note != "": // what the stakes or the limits mean: wrapped whole, as moot plan says it
			line += " — " + l.Note
		}
		b.WriteString(strings.Join(wrapStyled("  "+line, f.lay.w-2, indent, nil), "\n") + "\n")
	}
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
