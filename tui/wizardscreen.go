package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
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
		return m.updateWizard(msg)
	}
	if m.wiz.form.GetFocusedField() != m.wiz.first {
		return m.updateWizard(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	}
	if !m.wiz.back() {
		if esc {
			return m.backFromSetup()
		}
		return m, nil
	}
	m.sizeWizard()
	cmd := m.wiz.form.Init()
	m.wiz.focusLast()
	return m, cmd
}

func (k wizardScreen) render(m Model) string {
	head := m.st.Title.Render("moot") + m.st.Subtle.Render(" · set up "+m.wiz.setupWhat())
	form := m.wiz.form.View()
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
