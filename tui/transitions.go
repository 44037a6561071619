package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
)

// Moving between screens is a message: a screen (or an updater) that
// leaves for another puts the transition in frame.next, and Update hands
// it to the screen it opens (transition) before it returns — in the same
// Update, so a key typed right after it already meets the new screen (q q
// leaves a debate, then the list).

type (
	// leaveSetupMsg leaves the wizard or a cost screen: back to the list,
	// or out of moot run (nothing started).
	leaveSetupMsg struct{}
	// setupDoneMsg opens the cost screen of the completed wizard.
	setupDoneMsg struct{}
	// openSetupMsg opens the wizard for a new debate on a bug.
	openSetupMsg struct{ bug *bugfolder.Bug }
	// startRunMsg starts the cost screen's debate.
	startRunMsg struct{}
	// backToBrowserMsg leaves the debate on screen for the list (or quits
	// when the UI opened on it); left names a running debate that was
	// left, its calls stopped.
	backToBrowserMsg struct{ left string }
)

// moveOn makes the transition a screen asked for, if any.
func (m Model) moveOn(cmd tea.Cmd) (Model, tea.Cmd) {
	t := m.next
	if t == nil {
		return m, cmd
	}
	m.next = nil
	var c tea.Cmd
	switch t := t.(type) {
	case leaveSetupMsg:
		m, c = browserPage.fromSetup(m)
	case setupDoneMsg:
		m, c = costPage.open(m)
	case openSetupMsg:
		m, c = wizardPage.open(m, t.bug)
	case startRunMsg:
		m, c = debatePage.start(m)
	case backToBrowserMsg:
		m, c = browserPage.reopen(m, t.left)
	}
	return m, tea.Batch(cmd, c)
}
