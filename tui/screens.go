package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The screens of the UI are the browser (browserScreen), the setup
// wizard (wizard), the cost screens (costState, reviewCostState), the
// live debate view, the review view, and a zoom over the last two. Each
// owns its state, its key bindings (its footer and its help are
// generated from them, help.KeyMap), answers its keys with Update and
// draws itself with View; the frame they share (size, styles, options,
// status line, the subject set up) is handed to them by the root, which
// holds it. A screen moves to another by a transition message
// (transitions.go). The root (Model) routes: ctrl+c, an error shown, an
// open dialog (a menu) and the help overlay come first, then the active
// screen.

// The bindings of the live debate view and the review view are built
// once.
var (
	debatePage = newDebateScreen()
	reviewPage = newReviewScreen()
)

// screenUpdate hands a message to the active screen.
func (m Model) screenUpdate(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m.screen {
	case scrBrowser:
		m.browser, cmd = m.browser.Update(&m.frame, msg)
	case scrWizard:
		m.wiz, cmd = m.wiz.Update(&m.frame, msg)
	case scrCost:
		m.cost, cmd = m.cost.Update(&m.frame, msg)
	case scrReviewCost:
		m.revCost, cmd = m.revCost.Update(&m.frame, msg)
	case scrReview:
		if m.zm.on && m.rv.view != nil { // esc comes back here, to the panes
			m.zm, cmd = m.zm.Update(&m.frame, msg)
		} else {
			m.rv, cmd = m.rv.Update(&m.frame, msg)
		}
	case scrDebate:
		if m.zm.on && m.dv.deb != nil {
			if k, ok := msg.(tea.KeyPressMsg); ok {
				m.zm, cmd = m.zm.Update(&m.frame, k)
			}
		} else {
			m.dv, cmd = m.dv.Update(&m.frame, msg)
		}
	}
	return m, cmd
}

// screenView draws the active screen.
func (m Model) screenView() string {
	switch m.screen {
	case scrBrowser:
		return m.browser.View(&m.frame)
	case scrWizard:
		return m.wiz.View(&m.frame)
	case scrCost:
		return m.cost.View(&m.frame)
	case scrReviewCost:
		return m.revCost.View(&m.frame)
	case scrReview:
		if m.zm.on && m.rv.view != nil {
			return m.zm.View(&m.frame, m.zm.title(&m.frame, &m.dv, &m.rv), m.dlg.menu != nil)
		}
		if m.dlg.menu != nil {
			return m.dlg.over(&m.frame, m.rv.View(&m.frame, m.dlg.menuKeys()))
		}
		return m.rv.View(&m.frame, "")
	}
	if m.zm.on && m.dv.deb != nil {
		return m.zm.View(&m.frame, m.zm.title(&m.frame, &m.dv, &m.rv), m.dlg.menu != nil)
	}
	if m.dlg.menu == nil {
		return m.dv.View(&m.frame, menuOver{})
	}
	out := m.dv.View(&m.frame, menuOver{open: true, hidden: m.dlg.hidden, keys: m.dlg.menuKeys()})
	if !m.dlg.hidden && m.dv.deb != nil {
		out = m.dlg.over(&m.frame, out)
	}
	return out
}

// helpRowsOf are the help overlay's rows for the active screen.
func (m Model) helpRowsOf() [][2]string {
	switch {
	case m.zm.on:
		return helpRows(zoomKeyMap)
	case m.screen == scrDebate:
		return debatePage.help(&m.frame, &m.dv)
	case m.screen == scrReview:
		return helpRows(reviewPage)
	case m.screen == scrWizard:
		return helpRows(wizardKeyMap)
	case m.screen == scrCost, m.screen == scrReviewCost:
		return helpRows(costKeyMap)
	}
	return helpRows(m.browser.keys)
}
