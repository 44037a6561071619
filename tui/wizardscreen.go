package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// wizardScreen is the setup wizard: a huh form per stage (wizard.go holds
// its state). It owns the back keys; the form answers the rest.
type wizardScreen struct {
	Next, Back, Leave, Choose, Sides key.Binding
}

func newWizardScreen() wizardScreen {
	return wizardScreen{
		Next:   bind("enter", "next", "enter"),
		Back:   bind("shift+tab/esc", "back", "shift+tab", "esc"),
		Leave:  bind("esc", "leave the setup (on its first field)", "esc"),
		Choose: bind("↑/↓", "choose", "up", "down"),
		Sides:  bind("←/→", "choose between buttons", "left", "right"),
	}
}

// ShortHelp is the wizard's footer.
func (k wizardScreen) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Back, k.Choose} }

// FullHelp is the wizard's help.
func (k wizardScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Back, k.Leave, k.Choose, k.Sides}}
}

// wizardKey handles the wizard's back keys, then feeds the form: shift+tab
// and esc go back a field, and from a page's first field to the last field
// of the page before; esc on the very first field cancels.
func (k wizardScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	esc := key.Matches(msg, k.Leave)
	if !key.Matches(msg, k.Back) {
		return wizardPage.update(m, msg)
	}
	if m.wiz.form.GetFocusedField() != m.wiz.first {
		return wizardPage.update(m, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	}
	if !m.wiz.back() {
		if esc {
			m.next = leaveSetupMsg{}
			return m, nil
		}
		return m, nil
	}
	m.wiz.fit(&m.frame)
	cmd := m.wiz.form.Init()
	m.wiz.focusLast()
	return m, cmd
}

// update feeds the wizard's form and moves through its stages: aborted,
// the setup is left; completed, the cost screen opens.
func (k wizardScreen) update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	f, c := m.wiz.form.Update(msg)
	if form, ok := f.(*huh.Form); ok {
		m.wiz.form = form
	}
	switch m.wiz.form.State {
	case huh.StateAborted:
		m.next = leaveSetupMsg{}
		return m, nil
	case huh.StateCompleted:
		if m.wiz.advance() {
			m.next = setupDoneMsg{}
			return m, nil
		}
		m.wiz.fit(&m.frame)
		return m, m.wiz.form.Init()
	}
	return m, c
}

// open opens the setup wizard for a new debate on bug.
func (k wizardScreen) open(m Model, bug *bugfolder.Bug) (Model, tea.Cmd) {
	m.subj.bug = bug
	m.subj.problem, m.subj.probErr = nil, nil
	m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, engine.Setup{}, m.opts.choices())
	m.wiz.probing = m.run.probing
	m.wiz.fit(&m.frame)
	m.screen = scrWizard
	return m, tea.Batch(assemblePCmd(m.subj.bug), m.wiz.form.Init())
}

func (k wizardScreen) render(m Model) string {
	head := m.st.Title.Render("moot") + m.st.Subtle.Render(" · set up "+m.wiz.setupWhat())
	form := m.wiz.form.View()
	if !strings.Contains(ansi.Strip(form), m.wiz.bug.ID) { // the page's heading scrolled away or none: the title names the bug
		head += m.st.Subtle.Render(ansi.Truncate(" · "+m.wiz.heading(), max(0, m.w-ansi.StringWidth(ansi.Strip(head))), "…"))
	}
	help := footerHelp(k.ShortHelp()...)
	if m.wiz.stage == stageConfirm { // yes/no buttons side by side
		help = footerHelp(labelled(k.Sides, "←/→", "choose"), labelled(k.Next, "enter", "confirm"), k.Back)
	}
	if m.wiz.firstStage() && m.wiz.form.GetFocusedField() == m.wiz.first {
		help = footerHelp(k.Next, k.Choose, labelled(k.Leave, "esc", "leave")) // nothing to go back to
	}
	if note := m.wiz.restrictedNote(); note != "" { // pinned: the form scrolls under it
		head += "\n" + m.st.Warning.Render(wrapLines(note, m.w))
	}
	return head + "\n\n" + lipgloss.NewStyle().Width(m.w).Height(m.h-3-lipgloss.Height(head)).Render(form) + "\n" + m.toast.footer(&m.frame, help)
}

// probed takes the background probe's result: the wizard on its engines
// page offers only the engines that passed.
func (w *wizard) probed(f *frame, msg probedMsg) tea.Cmd {
	if w == nil {
		return nil
	}
	w.status, w.probing = msg, false
	if w.stage == stageEngines && f.screen == scrWizard {
		w.build()
		w.fit(f)
		return w.form.Init()
	}
	return nil
}
