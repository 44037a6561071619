package tui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// A page is one screen of the UI: the browser, the setup wizard, the cost
// screen, the live debate view, the review view, or a zoom over the last
// two. It owns its key bindings (its footer and its help are generated
// from them, help.KeyMap), answers the keys the root routes to it and
// draws itself. The root (Model) routes: ctrl+c, an error shown, an open
// dialog (a menu) and the help overlay come first, then the active page;
// what pages share (size, styles, the run's bridge) stays in the root.
type page interface {
	help.KeyMap
	handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd)
	render(m Model) string
}

// The pages: each is its key bindings, built once.
var (
	wizardPage = newWizardScreen()
	costPage   = newCostScreen()
	debatePage = newDebateScreen()
	zoomPage   = newZoomScreen()
	reviewPage = newReviewScreen()
	// reviewCostPage is a review's cost screen: the cost screen's keys.
	reviewCostPage = reviewCostScreen{newCostScreen()}
)

// active is the page the root routes keys to and draws.
func (f frame) active() page {
	switch f.screen {
	case scrWizard:
		return wizardPage
	case scrCost:
		return costPage
	case scrDebate:
		return debatePage
	case scrReview:
		return reviewPage
	}
	return reviewCostPage
}

// helpRowsOf are the help overlay's rows for the active page.
func (m Model) helpRowsOf() [][2]string {
	if m.zm.on {
		return helpRows(zoomPage)
	}
	if m.screen == scrDebate {
		return debatePage.help(m)
	}
	if m.screen == scrBrowser {
		return helpRows(m.browser.keys)
	}
	return helpRows(m.active())
}
