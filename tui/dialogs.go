package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
)

// A dialog is a family of menus (huh forms) opened over a page: the
// quorum loss and its follow-ups, the judge failure and its follow-ups,
// the budget, the quit question, the trust question, the engine change
// and the human decision. Each owns its keys (the footer under its form)
// and what its form does when completed, stepped back from (esc) or
// aborted. The root holds the one open menu and routes to its dialog.
type dialog interface {
	keys(mn *menu) []key.Binding
	done(m Model, mn *menu) (Model, tea.Cmd)
	back(m Model, mn *menu) (Model, tea.Cmd)
	reopen(m Model, mn *menu) (Model, tea.Cmd)
}

type (
	quorumDialog       struct{}
	judgeDialog        struct{}
	budgetDialog       struct{}
	quitDialog         struct{}
	trustDialog        struct{}
	engineChangeDialog struct{}
	decideDialog       struct{}
)

// dialogOf is the dialog a menu belongs to.
func dialogOf(k menuKind) dialog {
	switch k {
	case menuJudge, menuJudgeHuman, menuJudgeEngine, menuJudgeConfirm:
		return judgeDialog{}
	case menuBudget, menuBudgetRaise:
		return budgetDialog{}
	case menuQuit:
		return quitDialog{}
	case menuTrust:
		return trustDialog{}
	case menuEngineChange:
		return engineChangeDialog{}
	case menuDecide:
		return decideDialog{}
	case menuResumeCost:
		return resumeCostDialog{}
	}
	return quorumDialog{}
}

// dialog is the open menu's dialog.
func (d dialogStack) dialog() dialog { return dialogOf(d.menu.kind) }

// The keys a menu's footer names.
var (
	menuChoose  = bind("↑/↓", "choose", "up", "down")
	menuSides   = bind("←/→", "choose", "left", "right")
	menuConfirm = bind("enter", "confirm", "enter")
	menuNext    = bind("enter", "next", "enter")
	menuBack    = bind("esc", "back", "esc")
	menuAside   = bind("esc", "read the panes first", "esc")
	menuWatch   = bind("esc", "keep watching", "esc")
	// typing says what a text field takes (it answers no key).
	typing = func(what string) key.Binding { return said("type", what) }
)

// menuKeys are the keys that work in the open menu, as its footer says.
func (d dialogStack) menuKeys() string { return footerHelp(d.dialog().keys(d.menu)...) }

// closeMenu closes the open menu: the decision stepped aside under the
// quit question comes back, stepped aside as it was.
func (d *dialogStack) closeMenu() {
	d.menu, d.hidden, d.aside = d.aside, d.aside != nil, nil
}

func (quorumDialog) keys(mn *menu) []key.Binding {
	switch mn.kind {
	case menuQuorum:
		return []key.Binding{menuChoose, menuConfirm, menuAside}
	case menuTimeout:
		return []key.Binding{typing("a duration"), menuConfirm, menuBack}
	case menuSwapConfirm:
		return []key.Binding{menuSides, menuConfirm, menuBack} // yes/no buttons side by side
	}
	return []key.Binding{menuChoose, menuConfirm, menuBack}
}

// back: the loss steps aside so the panes can be read (m brings it
// back); a follow-up goes back to the menu it came from.
func (quorumDialog) back(m Model, mn *menu) (Model, tea.Cmd) {
	switch mn.kind {
	case menuQuorum:
		m.dlg.hidden = true
		return m, nil
	case menuQuorumOther:
		if mn.first != nil && mn.form.GetFocusedField() != mn.first {
			return m, m.dlg.openMenu(&m.frame, otherMenu(mn)) // its second page: back to its first
		}
		return m, m.dlg.openMenu(&m.frame, quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
	case menuSwapConfirm:
		return m, m.dlg.openMenu(&m.frame, swapMenu(mn, m.opts.Config, m.opts.Status))
	}
	return m, m.dlg.openMenu(&m.frame, otherMenu(mn)) // the engines, the timeout
}

// reopen: a decision must be answered (or the debate left with ctrl+c).
func (quorumDialog) reopen(m Model, mn *menu) (Model, tea.Cmd) {
	return m, m.dlg.openMenu(&m.frame, quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
}

func (quorumDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	answer := func(d engine.QuorumDecision) (Model, tea.Cmd) {
		d.By = "human"
		mn.qReply <- quorumAnswer{d: d}
		m.dlg.menu = nil
		m.dv.deb.state = "running"
		return m, nil
	}
	next := func(n *menu) (Model, tea.Cmd) { return m, m.dlg.openMenu(&m.frame, n) }
	switch mn.kind {
	case menuQuorum:
		switch mn.choice {
		case "continue":
			return answer(engine.QuorumDecision{Choice: engine.QuorumContinue})
		case "retry":
			m.noteRetrying(mn.q)
			return answer(engine.QuorumDecision{Choice: engine.QuorumRetry})
		case "cancel":
			return answer(engine.QuorumDecision{Choice: engine.QuorumCancel})
		}
		return next(otherMenu(mn))
	case menuQuorumOther:
		switch mn.choice {
		case "back":
			return next(quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
		case "swap":
			return next(swapMenu(mn, m.opts.Config, m.opts.Status))
		case "timeout":
			return next(timeoutMenu(mn))
		}
		return answer(engine.QuorumDecision{Choice: engine.QuorumPause})
	case menuSwapEngine:
		if mn.engine == "" { // "choose to go back": one step, as esc
			return next(otherMenu(mn))
		}
		if ec, ok := m.opts.Config.Engines[mn.engine]; ok && ec.External {
			return next(swapConfirmMenu(mn))
		}
	case menuSwapConfirm:
		if !mn.confirm { // no: back to the engines, as esc
			return next(swapMenu(mn, m.opts.Config, m.opts.Status))
		}
	case menuTimeout:
		d, _ := time.ParseDuration(mn.timeout)
		return answer(engine.QuorumDecision{Choice: engine.QuorumSetTimeout, SolverID: mn.solver, Timeout: d})
	}
	return answer(engine.QuorumDecision{Choice: engine.QuorumSwap, SolverID: mn.solver, Engine: mn.engine})
}

func (judgeDialog) keys(mn *menu) []key.Binding {
	switch mn.kind {
	case menuJudge:
		return []key.Binding{menuChoose, menuConfirm, menuAside}
	case menuJudgeConfirm:
		return []key.Binding{menuSides, menuConfirm, menuBack}
	}
	return []key.Binding{menuChoose, menuConfirm, menuBack}
}

func (judgeDialog) back(m Model, mn *menu) (Model, tea.Cmd) {
	switch mn.kind {
	case menuJudge:
		m.dlg.hidden = true
		return m, nil
	case menuJudgeConfirm:
		return m, m.dlg.openMenu(&m.frame, judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
	}
	return m, m.dlg.openMenu(&m.frame, m.dv.judgeMenu(&m.frame, mn.j, mn.jReply))
}

func (judgeDialog) reopen(m Model, mn *menu) (Model, tea.Cmd) {
	return m, m.dlg.openMenu(&m.frame, m.dv.judgeMenu(&m.frame, mn.j, mn.jReply))
}

func (judgeDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	answer := func(d engine.JudgeDecision) (Model, tea.Cmd) {
		d.By = "human"
		mn.jReply <- judgeAnswer{d: d}
		m.dlg.menu = nil
		m.dv.deb.state = "running"
		return m, nil
	}
	next := func(n *menu) (Model, tea.Cmd) { return m, m.dlg.openMenu(&m.frame, n) }
	switch mn.kind {
	case menuJudge:
		switch mn.choice {
		case "retry":
			return answer(engine.JudgeDecision{Choice: engine.JudgeRetry})
		case "cancel":
			return answer(engine.JudgeDecision{Choice: engine.JudgeCancel})
		case "engine":
			return next(judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
		}
		return next(humanMenu(mn, m.lay.menuFormW))
	case menuJudgeEngine:
		if mn.engine == "" {
			return next(m.dv.judgeMenu(&m.frame, mn.j, mn.jReply))
		}
		if ec, ok := m.opts.Config.Engines[mn.engine]; ok && ec.External {
			return next(judgeConfirmMenu(mn))
		}
	case menuJudgeConfirm:
		if !mn.confirm { // no: back to the engines, as esc
			return next(judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
		}
	case menuJudgeHuman:
		if mn.label == "" {
			return next(m.dv.judgeMenu(&m.frame, mn.j, mn.jReply))
		}
		return answer(engine.JudgeDecision{Choice: engine.JudgeHuman, Winner: mn.label})
	}
	return answer(engine.JudgeDecision{Choice: engine.JudgeRetry, Engine: mn.engine})
}

func (budgetDialog) keys(mn *menu) []key.Binding {
	if mn.kind == menuBudgetRaise {
		return []key.Binding{typing("a new cap"), menuNext, menuBack}
	}
	return []key.Binding{menuChoose, menuConfirm, menuAside}
}

func (budgetDialog) back(m Model, mn *menu) (Model, tea.Cmd) {
	return m, m.dlg.budgetBack(&m.frame, mn)
}
func (budgetDialog) reopen(m Model, mn *menu) (Model, tea.Cmd) {
	return m, m.dlg.openMenu(&m.frame, budgetMenu(mn.bud))
}

func (quitDialog) keys(*menu) []key.Binding { return []key.Binding{menuChoose, menuConfirm, menuWatch} }

// back and reopen keep watching: the decision that waits comes back.
func (quitDialog) back(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.closeMenu()
	return m, nil
}

func (quitDialog) reopen(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.closeMenu()
	return m, nil
}

func (quitDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	m.dlg.closeMenu() // keep watching: the decision still waits
	if mn.choice == "leave" && m.screen == scrReview {
		return m.leaveReviewRun()
	}
	if mn.choice == "leave" {
		m.run.leaveToBrowser = m.fromBrowser() // the list stays open: r resumes it there
		return m.leave()
	}
	return m, nil
}

func (trustDialog) keys(*menu) []key.Binding { return []key.Binding{menuChoose, menuConfirm} }
func (trustDialog) back(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	return m, nil
}
func (d trustDialog) reopen(m Model, _ *menu) (Model, tea.Cmd) { return d.answered(m, "quit") }
func (d trustDialog) done(m Model, mn *menu) (Model, tea.Cmd)  { return d.answered(m, mn.choice) }

func (engineChangeDialog) keys(*menu) []key.Binding {
	return []key.Binding{menuChoose, menuConfirm, menuBack}
}
func (engineChangeDialog) back(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	return m, nil
}
func (engineChangeDialog) reopen(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	return m, tea.Quit
}

// done resumes with the changed engines accepted, or leaves.
func (engineChangeDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	if mn.choice != "accept" {
		return m, tea.Quit
	}
	m.dv.acceptEngines, m.out.Err = true, nil
	var c tea.Cmd
	m.dv, c = m.dv.resume(&m.frame)
	return m, c
}

func (decideDialog) keys(*menu) []key.Binding {
	return []key.Binding{menuChoose, menuConfirm, menuBack}
}
func (decideDialog) back(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	return m, nil
}
func (decideDialog) reopen(m Model, _ *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	return m, nil
}

// menuKey scrolls a menu taller than the window: pgup/pgdn, ↑ on its
// first choice (instead of wrapping to the last), and ↑/↓ while it is
// scrolled up; else the key goes to the menu.
func (m Model) menuKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	page := max(1, (m.h-4)/2)
	up, down := key.Matches(msg, m.keys.Up), key.Matches(msg, m.keys.Down)
	if m.dlg.menuTyping() && msg.Text != "" {
		return m.updateMenu(msg) // a letter or a space typed in a field, never a scroll key
	}
	switch {
	case key.Matches(msg, m.keys.PageUp):
		m.dlg.off = m.dlg.clampMenuOff(&m.frame, m.dlg.off+page)
		return m, nil
	case key.Matches(msg, m.keys.PageDown):
		m.dlg.off = m.dlg.clampMenuOff(&m.frame, m.dlg.off-page)
		return m, nil
	case m.dlg.off > 0 && (up || down):
		m.dlg.off = m.dlg.clampMenuOff(&m.frame, m.dlg.off+map[bool]int{true: 1, false: -1}[up])
		return m, nil
	}
	before := cursorLine(m.dlg.menu.form.View())
	nm, cmd := m.updateMenu(msg)
	if up && nm.dlg.menu == m.dlg.menu && cursorLine(nm.dlg.menu.form.View()) > before && m.dlg.clampMenuOff(&m.frame, 1) > 0 {
		// ↑ on the first choice wrapped to the last: undo it, scroll up
		nm, _ = nm.updateMenu(tea.KeyPressMsg{Code: tea.KeyDown})
		nm.dlg.off = 1
	}
	return nm, cmd
}

// menuTyping reports whether the menu's focused field takes text (a note,
// a timeout), where letters and the space are text, not keys.
func (d dialogStack) menuTyping() bool {
	switch d.menu.form.GetFocusedField().(type) {
	case *huh.Input, *huh.Text:
		return true
	}
	return false
}

// cursorLine is the line of a menu's view that holds its cursor (-1).
func cursorLine(view string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, "> ") {
			return i
		}
	}
	return -1
}

// clampMenuOff keeps a menu's scroll within what stands above its end.
func (d dialogStack) clampMenuOff(f *frame, off int) int {
	_, off = menuWindow(d.menu.view(f.lay.menuFormW)+"\n"+d.menuKeys(), f.menuRows(), off)
	return off
}

// openMenu shows n over the view, fitted to the window, and returns its
// form's first command.
func (d *dialogStack) openMenu(f *frame, n *menu) tea.Cmd {
	d.menu, d.hidden, d.off = n, false, 0
	cmd := n.form.Init()
	d.fitMenu(f)
	return cmd
}

// fitMenu sizes the open menu's form to the window, and wraps the
// descriptions of the decision that waits aside under the quit question
// too, so it comes back fitted.
func (d *dialogStack) fitMenu(f *frame) {
	if d.aside != nil {
		d.aside.fitText(f.lay.menuFormW)
	}
	d.menu.fitText(f.lay.menuFormW)
	d.menu.form = f.fitForm(d.menu.form, f.lay.menuFormW, 0)
}

// fitForm sizes a huh form: huh lays a form out only when the form itself
// receives a window size, so it gets one at the size it is drawn.
func (fr frame) fitForm(f *huh.Form, w, h int) *huh.Form {
	f = f.WithWidth(w)
	if h > 0 {
		f = f.WithHeight(h)
	}
	tall := max(h, fr.h)
	if h == 0 {
		tall = 500 // a menu is never scrolled inside huh (its title cut off): menuWindow scrolls it whole
	}
	if nf, _ := f.Update(tea.WindowSizeMsg{Width: w, Height: tall}); nf != nil {
		if form, ok := nf.(*huh.Form); ok {
			f = form
		}
	}
	return f
}

// updateMenu feeds the open menu's form and acts on its answer; keys
// typed while the form moves its focus are held for the field it moves
// to (typeahead.go).
func (m Model) updateMenu(msg tea.Msg) (Model, tea.Cmd) {
	mn := m.dlg.menu
	if r, ok := msg.(menuReleaseMsg); ok {
		if r.turn == mn.ahead.turn {
			mn.ahead.moving = false
		}
		return m.replayMenu(mn)
	}
	if typed(msg) && mn.ahead.moving {
		mn.ahead.keys = append(mn.ahead.keys, msg)
		return m, nil
	}
	mn.form = pasted(mn.form, msg)
	form, field := mn.form, mn.form.GetFocusedField()
	f, c := mn.form.Update(msg)
	if form, ok := f.(*huh.Form); ok {
		mn.form = form
	}
	hold := mn.ahead.follow(msg, form, field, mn.form, func(turn int) tea.Msg { return menuReleaseMsg{turn: turn} })
	switch mn.form.State {
	case huh.StateAborted:
		m, c = m.dlg.dialog().reopen(m, mn)
	case huh.StateCompleted:
		m, c = m.dlg.dialog().done(m, mn)
	}
	nm, rc := m.replayMenu(mn)
	return nm, tea.Batch(c, hold, rc)
}

// replayMenu hands the keys mn held to its form once the focus has
// moved, in order; once mn is closed (answered, or another menu opened),
// the rest go back to the root as messages, for what is shown now.
func (m Model) replayMenu(mn *menu) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for m.dlg.menu == mn && !mn.ahead.moving && len(mn.ahead.keys) > 0 {
		k := mn.ahead.keys[0]
		mn.ahead.keys = mn.ahead.keys[1:]
		var c tea.Cmd
		m, c = m.updateMenu(k)
		cmds = append(cmds, c)
	}
	if m.dlg.menu != mn && len(mn.ahead.keys) > 0 {
		var rest []tea.Cmd
		for _, k := range mn.ahead.keys {
			rest = append(rest, func() tea.Msg { return k })
		}
		mn.ahead.keys = nil
		cmds = append(cmds, tea.Sequence(rest...))
	}
	return m, tea.Batch(cmds...)
}

// over draws the open menu in a box over out, scrolled when taller than
// the window.
func (d dialogStack) over(f *frame, out string) string {
	body, _ := menuWindow(d.menu.view(f.lay.menuFormW)+"\n"+f.st.Subtle.Render(fitHelp(d.menuKeys(), f.lay.menuFormW)), f.menuRows(), d.off)
	return f.overlay(out, f.st.Box.Width(f.lay.menuBoxW).Render(body))
}
