package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
)

// pendingAsk is the question asked before a new debate starts on a bug
// whose latest result waits for a human decision (a spec debate's verdict,
// a tradeoff, an escalated council): decide it now, or archive it and start
// anyway (the archived result keeps its pending decision: moot decide
// records it there), or cancel. It owns its keys, its view and its help.
type pendingAsk struct {
	bug *bugfolder.Bug
	// what names the pending result ("the spec debate's recommended
	// verdict spec-gap"); archive is where it will be moved.
	what, archive string
	cursor        int
	keys          pendingKeys
}

// pendingChoice is one of the dialog's answers.
type pendingChoice int

const (
	pendingDecide pendingChoice = iota
	pendingArchive
	pendingCancel
)

// pendingKeys are the dialog's key bindings; its help line is made from them.
type pendingKeys struct {
	Up, Down, Choose, Cancel key.Binding
}

func newPendingKeys() pendingKeys {
	return pendingKeys{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "choose")),
		Down:   key.NewBinding(key.WithKeys("down", "j")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Cancel: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "cancel")),
	}
}

// pendingResult is the bug's latest debate when its result waits for a
// human decision that can still be recorded; nil otherwise.
func pendingResult(b *bugfolder.Bug) *bugfolder.Debate {
	if b == nil || b.IsQuestion {
		return nil
	}
	d, err := bugfolder.ReadDebate(b.DebateFolder(), b.Register.Lang)
	if err != nil || !d.AwaitsDecision() || d.DecisionClosed() {
		return nil
	}
	return d
}

// pendingReadMsg is a bug's pending result, read from disk when n was
// pressed on its row (result nil: none waits any more).
type pendingReadMsg struct {
	bug    *bugfolder.Bug
	result *bugfolder.Debate
	// archive is the folder the result would be archived in, looked up
	// with it.
	archive string
}

// readPendingCmd reads the bug's pending result off the UI goroutine.
func readPendingCmd(b *bugfolder.Bug) tea.Cmd {
	return func() tea.Msg {
		msg := pendingReadMsg{bug: b, result: pendingResult(b)}
		if msg.result != nil {
			msg.archive = archiveName(b, msg.result)
		}
		return msg
	}
}

// archiveName is the folder d would be archived in (the first free name:
// it looks at the disk).
func archiveName(b *bugfolder.Bug, d *bugfolder.Debate) string {
	return filepath.Base(bugfolder.ArchivePath(b.Dir, d.ArchiveTime())) + "/"
}

// newPendingAsk asks about d, the bug's pending result, which archive
// would take.
func newPendingAsk(b *bugfolder.Bug, d *bugfolder.Debate, archive string) *pendingAsk {
	what := "its latest result"
	if d.Final != nil && d.Final.RecommendedVerdict != "" {
		what += " (recommended verdict " + clipLine(d.Final.RecommendedVerdict, 40) + ")"
	}
	return &pendingAsk{bug: b, what: what, archive: archive, keys: newPendingKeys()}
}

// options are the dialog's answers, in order.
func (a *pendingAsk) options() []string {
	return []string{
		"Decide it now (opens the result; d records the decision)",
		"Archive it and set up a new debate (d on its ◈ row, or moot decide " + a.bug.ID + ", still records the decision)",
		"Cancel",
	}
}

// update moves the cursor; chosen is set when the user answered.
func (a *pendingAsk) update(msg tea.KeyPressMsg) (choice pendingChoice, chosen bool) {
	switch {
	case key.Matches(msg, a.keys.Up):
		a.cursor = (a.cursor + len(a.options()) - 1) % len(a.options())
	case key.Matches(msg, a.keys.Down):
		a.cursor = (a.cursor + 1) % len(a.options())
	case key.Matches(msg, a.keys.Choose):
		return pendingChoice(a.cursor), true
	case key.Matches(msg, a.keys.Cancel):
		return pendingCancel, true
	}
	return 0, false
}

// help is the dialog's footer, from its key bindings.
func (a *pendingAsk) help() string {
	var parts []string
	for _, b := range []key.Binding{a.keys.Up, a.keys.Choose, a.keys.Cancel} {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// view draws the dialog in a box at most width wide.
func (a *pendingAsk) view(st *Styles, width int) string {
	w := max(20, min(width-4, 90))
	inner := w - 4
	var b strings.Builder
	b.WriteString(st.Warning.Render(ansi.Truncate("◆ "+a.bug.ID+" waits for a human decision", inner, "…")) + "\n")
	b.WriteString(wrapText(fmt.Sprintf("Nobody has decided %s yet. A new debate archives it as %s; the decision can still be recorded there.", a.what, a.archive), inner) + "\n\n")
	for i, o := range a.options() {
		line := "  " + o
		if i == a.cursor {
			line = st.Selected.Render("▸ " + o)
		}
		b.WriteString(wrapText(line, inner) + "\n")
	}
	b.WriteString("\n" + st.Subtle.Render(a.help()))
	return st.Box.Width(w).Render(b.String())
}

// pendingDialog is the pending-decision question over the list or the
// setup.
type pendingDialog struct{}

// key answers the dialog: deciding opens the bug's latest debate
// with the decision form, archiving goes on to the setup, cancelling goes
// back (to the list, or out of moot run).
func (pendingDialog) key(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	a := *m.dlg.ask // a model is a value: its copies keep their own cursor
	choice, chosen := a.update(msg)
	m.dlg.ask = &a
	if !chosen {
		return m, nil
	}
	bug := m.dlg.ask.bug
	m.dlg.ask = nil
	switch choice {
	case pendingDecide:
		m.subj.bug, m.dv.decideOnOpen = bug, true
		return m, loadNthDebateCmd(bug, 0)
	case pendingArchive:
		if m.screen == scrBrowser {
			m.next = openSetupMsg{bug: bug}
			return m, nil
		}
		return m, nil // moot run: the setup is open beneath
	}
	if m.screen == scrBrowser {
		return m, nil
	}
	m.out.Cancelled = true
	return m, tea.Quit
}
