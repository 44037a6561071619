package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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
			if m.cost.plan == nil && m.cost.err == nil && m.probErr == nil {
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
				m.wiz = newWizard(m.bug, m.opts.Config, m.opts.Status, m.cost.setup, m.opts.choices())
				m.wiz.probing = m.probing
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
	return body + "\n" + m.footer(footerHelp(labelled(k.Left, "←/→", "choose"), k.Confirm, back))
}
