package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
)

// Transitions between screens are messages: a screen returns one as a
// command, and the root hands it to the screen it opens (transition). A
// transition applies only while the screen it leaves is still the active
// one (a key pressed before it arrived may have moved on).
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

// A transitionMsg says which screens it leaves.
type transitionMsg interface{ leaves() []screen }

func (leaveSetupMsg) leaves() []screen    { return []screen{scrWizard, scrCost, scrReviewCost} }
func (setupDoneMsg) leaves() []screen     { return []screen{scrWizard} }
func (openSetupMsg) leaves() []screen     { return []screen{scrBrowser} }
func (startRunMsg) leaves() []screen      { return []screen{scrCost} }
func (backToBrowserMsg) leaves() []screen { return []screen{scrDebate} }

func leaveSetup() tea.Msg    { return leaveSetupMsg{} }
func setupDone() tea.Msg     { return setupDoneMsg{} }
func startRun() tea.Msg      { return startRunMsg{} }
func backToBrowser() tea.Msg { return backToBrowserMsg{} }

func openSetup(bug *bugfolder.Bug) tea.Cmd {
	return func() tea.Msg { return openSetupMsg{bug: bug} }
}

// leftToBrowser is the end of a debate left from the browser (its calls
// stopped, its end logged): the list comes back.
func leftToBrowser(id string) tea.Cmd {
	return func() tea.Msg { return backToBrowserMsg{left: id} }
}

// transition hands a transition to the screen it opens.
func (m Model) transition(msg tea.Msg) (Model, tea.Cmd, bool) {
	t, ok := msg.(transitionMsg)
	if !ok {
		return m, nil, false
	}
	if !slices.Contains(t.leaves(), m.screen) {
		return m, nil, true // the engineer moved on before it arrived
	}
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case leaveSetupMsg:
		m, cmd = browserPage.fromSetup(m)
	case setupDoneMsg:
		m, cmd = costPage.open(m)
	case openSetupMsg:
		m, cmd = wizardPage.open(m, msg.bug)
	case startRunMsg:
		m, cmd = debatePage.start(m)
	case backToBrowserMsg:
		m, cmd = browserPage.reopen(m, msg.left)
	}
	return m, cmd, true
}
