package tui

import (
	"fmt"
	"time"

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
	// resumeDebateMsg resumes a bug's unfinished debate (r in the list).
	resumeDebateMsg struct{ bug *bugfolder.Bug }
	// openHelpMsg opens the help overlay over the active screen.
	openHelpMsg struct{}
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
		m, c = m.fromSetup()
	case setupDoneMsg:
		m, c = costPage.open(m)
	case openSetupMsg:
		m, c = wizardPage.open(m, t.bug)
	case startRunMsg:
		m, c = debatePage.start(m)
	case backToBrowserMsg:
		m, c = m.reopen(t.left)
	case resumeDebateMsg:
		m.subj.bug, m.opts.Resume = t.bug, true
		c = loadDebateCmd(t.bug)
	case openHelpMsg:
		m.helpv.on = true
	}
	return m, tea.Batch(cmd, c)
}

// fromSetup leaves the wizard or a cost screen for the list (or quits,
// nothing started, when the UI opened on a bug).
func (m Model) fromSetup() (Model, tea.Cmd) {
	if m.opts.Bug != nil {
		m.out.Cancelled = true // nothing started: a cancel, not a success
		return m, tea.Quit
	}
	m.screen, m.wiz, m.revCost = scrBrowser, nil, nil
	return m, nil
}

// reopen leaves a past debate (or quits when the UI opened on it); left
// names a running debate left from the list: everything is kept, r
// resumes it.
func (m Model) reopen(left string) (Model, tea.Cmd) {
	if !m.fromBrowser() {
		return m, tea.Quit
	}
	m.screen, m.dv.deb, m.zm.on, m.zm.find = scrBrowser, nil, false, find{}
	m.dlg.menu, m.dlg.hidden, m.dlg.aside = nil, false, nil
	m.opts.Resume, m.dv.acceptEngines = false, false
	// the browser's exit is its own (the debate's outcome is on its row);
	// it still names the last debate shown
	m.out = Outcome{Dir: m.out.Dir}
	if left != "" {
		m.toast.text, m.toast.until = fmt.Sprintf("left %s: everything is kept; r resumes it", left), m.clock().Add(6*time.Second)
	}
	if i := m.browser.rowOf(m.subj.bug); i >= 0 {
		// the index stays: only the bug just left is read again
		return m, refreshRowCmd(m.opts.Register, i, m.browser.rows[i].dir)
	}
	return m, tea.Batch(listBugDirsCmd(m.opts.Register))
}
