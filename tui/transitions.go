package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
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
	// unfinished, set on a bug whose debate is unfinished, says so: the
	// wizard then offers argue and review only. With no bug, the wizard
	// sets up a question of its own (its text prefilled with question) or
	// a review of a change: n with no bug selected.
	openSetupMsg struct {
		bug        *bugfolder.Bug
		unfinished string
		question   string
	}
	// startRunMsg starts the cost screen's debate.
	startRunMsg struct{}
	// backToBrowserMsg leaves the debate on screen for the list (or quits
	// when the UI opened on it); left names a running debate that was
	// left, its calls stopped.
	backToBrowserMsg struct{ left string }
	// resumeDebateMsg resumes a bug's unfinished debate (r in the list).
	resumeDebateMsg struct{ bug *bugfolder.Bug }
	// backToSetupMsg is esc on the cost screen: back to the wizard's
	// last page, or out of the setup when no wizard stands behind it.
	backToSetupMsg struct{}
	// editSetupMsg is Edit on a cost screen: the wizard from its first
	// page, over setup when none stands behind it yet.
	editSetupMsg struct{ setup engine.Setup }
	// openFocusedMsg opens the focused file of the view under the zoom
	// in $PAGER (copy: copies its path).
	openFocusedMsg struct{ copy bool }
	// backToDecisionMsg leaves the zoom for the decision menu that
	// waits, if one does.
	backToDecisionMsg struct{}
	// openZoomMsg zooms into the review view's focused lens or
	// document (find: and opens its search).
	openZoomMsg struct{ find bool }
	// openMenuMsg opens a menu over the screen.
	openMenuMsg struct{ menu *menu }
	// askStopReviewMsg asks before q stops the review running here (the
	// debate's quit question, quitMenu).
	askStopReviewMsg struct{ id string }
	// leaveReviewMsg leaves the review view for the list (relist: the
	// view is dropped and the reviews listed again).
	leaveReviewMsg struct{ relist bool }
	// openHelpMsg opens the help overlay over the active screen.
	openHelpMsg struct{}
	// decideRowMsg opens the debate dir of bug (its latest, or an
	// archived one) with the decision form (d on a ◆ or ◈ row).
	decideRowMsg struct {
		bug *bugfolder.Bug
		dir string
	}
	// quitDebateMsg is q (esc: esc) on the live view: with a run on, the
	// quit question (over a decision that waits, which stays under it;
	// esc goes back to that decision); else back to the list.
	quitDebateMsg struct{ esc bool }
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
		m, c = m.openCost()
	case openSetupMsg:
		if t.bug == nil {
			m, c = m.openQuestionWizard(t.question)
		} else {
			m, c = m.openWizard(t.bug, t.unfinished)
		}
	case startRunMsg:
		m.dv, c = m.dv.start(&m.frame, m.cost.setup, m.cost.plan)
		m.zm.on = false
	case backToBrowserMsg:
		m, c = m.reopen(t.left)
	case decideRowMsg:
		m.subj.bug, m.dv.decideOnOpen = t.bug, true
		c = loadDecisionCmd(t.bug, t.dir)
	case resumeDebateMsg:
		m.subj.bug, m.opts.Resume = t.bug, true
		c = loadDebateCmd(t.bug)
	case openHelpMsg:
		m.helpv.on = true
	case openZoomMsg:
		m.zm.start(&m.frame, &m.dv, &m.rv)
		if t.find {
			c = m.zm.openFind(&m.frame)
		}
	case openMenuMsg:
		c = m.dlg.openMenu(&m.frame, t.menu)
	case askStopReviewMsg:
		c = m.dlg.openMenu(&m.frame, quitMenu("review", m.opts.resumeArgs(t.id), m.rv.alone == ""))
	case leaveReviewMsg:
		m.screen = scrBrowser
		if t.relist {
			m.rv.view = nil
			c = listReviewsCmd(m.opts.keeper(), m.opts.Register)
		}
	case openFocusedMsg:
		c = m.openFile(m.dv.focusedPath(&m.frame))
		if t.copy {
			c = m.copyPath(m.dv.focusedPath(&m.frame))
		}
	case backToDecisionMsg:
		if m.dlg.menu != nil {
			m.zm.on, m.zm.find, m.dlg.hidden = false, find{}, false
		}
	case quitDebateMsg:
		m, c = m.quitDebate(t.esc)
	case backToSetupMsg:
		m, c = m.backToSetup()
	case editSetupMsg:
		m, c = m.editSetup(t.setup)
	}
	return m, tea.Batch(cmd, c)
}

// quitDebate answers quitDebateMsg.
func (m Model) quitDebate(esc bool) (Model, tea.Cmd) {
	switch {
	case m.dlg.menu != nil && m.run.on && !esc:
		// leaving asks first, the decision waiting under the question
		m.dlg.aside = m.dlg.menu
		return m, m.dlg.openMenu(&m.frame, quitMenu("debate", m.opts.resumeArgs(m.dv.deb.bugID), m.fromBrowser()))
	case m.dlg.menu != nil && esc:
		m.dlg.hidden = false // back to the decision that waits
		return m, nil
	case m.run.on && m.dlg.menu == nil && m.dv.deb != nil && !m.dv.deb.live && !esc:
		// the debate said it finished; the engine is closing its files
		m.run.leaveWhenDone = true
		return m, statusCmd("the debate has finished: leaving once moot has closed its files…")
	case m.run.on:
		return m, m.dlg.openMenu(&m.frame, quitMenu("debate", m.opts.resumeArgs(m.dv.deb.bugID), m.fromBrowser()))
	}
	return m.reopen("")
}

// fromSetup leaves the wizard or a cost screen for the list (or quits,
// nothing started, when the UI opened on a bug).
func (m Model) fromSetup() (Model, tea.Cmd) {
	m = m.releaseAsked()
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

// open leaves the completed wizard for the cost screen: a bug's
// setup as the wizard describes it, or a question set up as moot ask
// sets it up (its folder reserved; a refusal keeps the wizard open).
func (m Model) openCost() (Model, tea.Cmd) {
	w := m.wiz
	if w.reviewing() {
		return m.openReviewCost()
	}
	if !w.onQuestion() {
		m.cost = costState{setup: w.setup(m.subj.bug), criteria: w.criteriaList(), fromWizard: true}
		m.screen = scrCost
		return m, m.cost.price(&m.frame, &m.subj)
	}
	bug, s, err := w.ch.ask(w.askArgs(), true)
	if err != nil {
		w.stage = stageBasics
		w.build()
		w.refused = "the question cannot be set up: " + plainRefusal(err).Error() // shown whole under the form
		m.wiz.fit(&m.frame)
		return m, w.form.Init()
	}
	m.subj.bug, m.cost = bug, costState{setup: s, fromWizard: true}
	m.screen = scrCost
	return m, m.cost.price(&m.frame, &m.subj)
}

// problemArrived takes the bug read in full and its P, and prices the
// cost screen's setup once P is there.
func (m Model) problemArrived(msg problemMsg) (Model, tea.Cmd) {
	m.subj.problem, m.subj.probErr = msg.p, msg.err
	if msg.bug != nil && m.subj.bug != nil && msg.bug.Dir == m.subj.bug.Dir {
		m.subj.bug = msg.bug
		m.cost.setup.Bug = msg.bug
		if m.wiz != nil {
			m.wiz.bug = msg.bug
		}
	}
	if m.screen != scrCost {
		return m, nil
	}
	cmd := m.cost.price(&m.frame, &m.subj)
	if m.subj.probErr != nil {
		m.cost.startWhenReady = false
	}
	return m, cmd
}

// open opens the setup wizard for a new debate on bug.
func (m Model) openWizard(bug *bugfolder.Bug, unfinished string) (Model, tea.Cmd) {
	m.subj.bug = bug
	m.subj.problem, m.subj.probErr = nil, nil
	ch := m.opts.choices()
	if unfinished != "" {
		ch, _ = ch.withoutBugProtocols(unfinished)
	}
	m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, engine.Setup{}, ch)
	m.wiz.probing = m.run.probing
	m.wiz.fit(&m.frame)
	m.screen = scrWizard
	return m, tea.Batch(assemblePCmd(m.subj.bug), m.wiz.form.Init())
}

// releaseAsked gives back the folder the wizard's end reserved for a
// question (openCost) when its cost screen is left unstarted — back to
// the wizard or out of the setup — so no empty question is listed, and
// asking again takes the same name, not a "-2"; the subject is the
// wizard's again.
func (m Model) releaseAsked() Model {
	if m.wiz == nil || !m.wiz.onQuestion() || m.subj.bug == nil || m.subj.bug == m.wiz.bug || !m.subj.bug.IsQuestion {
		return m
	}
	bugfolder.ReleaseQuestionDir(m.subj.bug.Dir)
	m.subj.bug = m.wiz.bug
	return m
}

// openQuestionWizard opens the setup wizard with no bug: the protocols
// that run on a question of its own (its text prefilled with question)
// and the review of a change, which need none. The wizard's subject is a
// question not asked yet; asking it (the wizard's end) makes its folder.
func (m Model) openQuestionWizard(question string) (Model, tea.Cmd) {
	ch := m.opts.choices()
	ch.protocols = nil // a bug's own protocols need a bug
	m.subj.bug = bugfolder.UnaskedQuestion(m.opts.Register)
	m.subj.problem, m.subj.probErr = nil, nil
	m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, engine.Setup{}, ch)
	m.wiz.question = question
	m.wiz.probing = m.run.probing
	m.wiz.fit(&m.frame)
	m.screen = scrWizard
	return m, m.wiz.form.Init()
}

// backToSetup goes back from the cost screen to the wizard's last page,
// or leaves the setup when the UI opened on the cost screen.
func (m Model) backToSetup() (Model, tea.Cmd) {
	if m.wiz == nil {
		return m.fromSetup()
	}
	m = m.releaseAsked()
	m.wiz.stage = stageEngines // back one step: the wizard's last page
	m.wiz.build()
	m.wiz.fit(&m.frame)
	m.screen = scrWizard
	cmd := m.wiz.form.Init()
	m.wiz.focusLast()
	return m, cmd
}

// editSetup opens the wizard from its first page (a review's cost
// screen is left for it).
func (m Model) editSetup(s engine.Setup) (Model, tea.Cmd) {
	m = m.releaseAsked()
	if m.wiz == nil {
		m.wiz = newWizard(m.subj.bug, m.opts.Config, m.opts.Status, s, m.opts.choices())
		m.wiz.probing = m.run.probing
	} else {
		m.wiz.stage = stageBasics
		m.wiz.build()
	}
	m.wiz.fit(&m.frame)
	m.screen, m.revCost = scrWizard, nil
	return m, m.wiz.form.Init()
}
