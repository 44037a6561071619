package tui

import (
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Update routes a message: a stop and the probe's answer first, keys and
// the mouse to the dialog or screen on top, every other message to the
// handler of its family (updaters); then it asks for the documents the
// screen shows and follows the folder it watches.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	raised := m.toast
	m, cmd := m.update(msg)
	m.toast.own(raised, m.screen)
	return m, cmd
}

// update is Update's routing (Update gives the status line to its screen).
func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case StopMsg:
		m, cmd = m.stop()
		return m.moveOn(cmd)
	case probedMsg:
		m.opts.Status, m.run.probing = msg, false
		cmd := m.wiz.probed(&m.frame, msg)
		return m, cmd
	case tea.KeyPressMsg:
		m, cmd = m.handleKey(msg)
	case askBudgetMsg: // a review's live view (ReviewBudget): a debate's comes with its events
		m, cmd = budgetDialog{}.ask(m, msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		m = m.mouse(msg)
	default:
		m, cmd = m.route(msg)
	}
	m, cmd = m.moveOn(cmd)
	cmds := append([]tea.Cmd{cmd}, m.wantDocs()...)
	cmds = append(cmds, m.dv.follow(&m.frame))
	return m, tea.Batch(cmds...)
}

// An updater handles the messages of one family and reports whether msg
// was one of them.
type updater func(Model, tea.Msg) (Model, tea.Cmd, bool)

// updaters are the message families, each in its own function: the
// frame's (size, colours, clocks, status line), the browser's data, the
// debate's data and the review's.
var updaters = []updater{Model.updateFrame, Model.updateBrowserData, Model.updateDebateData, Model.updateReviewData, Model.updateReviewStart}

// route hands msg to its family's updater; a message of none goes to the
// open dialog's form, else to the wizard's (huh's own messages).
func (m Model) route(msg tea.Msg) (Model, tea.Cmd) {
	for _, u := range updaters {
		if nm, cmd, ok := u(m, msg); ok {
			return nm, cmd
		}
	}
	switch {
	case m.dlg.menu != nil:
		return m.updateMenu(msg)
	case m.screen == scrWizard && m.wiz != nil:
		return m.screenUpdate(msg)
	}
	return m, nil
}

// stop answers a stop signal: a running debate is left as q leaves it;
// otherwise the UI quits (a cancel while setting up).
func (m Model) stop() (Model, tea.Cmd) {
	if m.run.on {
		m.out.Interrupted = true
		return m.leave()
	}
	m.out.Interrupted = m.rv.runsHere() // a review started here stops with the UI
	if m.screen == scrWizard || m.screen == scrCost {
		m.out.Cancelled = true
	}
	return m, tea.Quit
}

// updateFrame handles what every screen shares: the window's size, the
// background colour, the clocks and the status line.
func (m Model) updateFrame(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
		m.zm.layoutZoom(&m.frame)
		m.wiz.fit(&m.frame)
		if m.dlg.menu != nil {
			m.dlg.fitMenu(&m.frame)
		}
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.st = NewStyles(m.dark)
		m.docs = map[docKey]string{} // rendered for the other background
	case tickMsg:
		m.now = time.Time(msg)
		if m.run.on {
			return m, tick(), true
		}
	case spinner.TickMsg:
		if m.run.on {
			var c tea.Cmd
			m.spin, c = m.spin.Update(msg)
			return m, c, true
		}
	case statusMsg:
		m.toast.text, m.toast.until = string(msg), m.clock().Add(4*time.Second)
	case noteMsg:
		// too long for the status line: wrapped over the bottom until a key
		m.toast.text, m.toast.until, m.toast.errShown = string(msg), m.clock().Add(24*time.Hour), true
	case watchTickMsg:
		nm, c := m.onWatchTick()
		return nm, c, true
	default:
		return m, nil, false
	}
	return m, nil, true
}

// updateBrowserData hands the browser its list's data (browserScreen.
// Update); the root answers a pending decision read, which opens its
// question or the wizard.
func (m Model) updateBrowserData(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case bugDirsMsg, reviewsMsg, indexMsg, holderWatchMsg, contextsMsg, newRowsMsg:
	case rowsChangedMsg:
		var cmd tea.Cmd
		m.browser, cmd = m.browser.Update(&m.frame, msg)
		m.toast.clearStaleHeld(&m.browser.browser, &m.dv, m.subj.bug)
		return m, cmd, true
	case pendingReadMsg:
		if m.screen != scrBrowser || m.dlg.ask != nil || m.dlg.menu != nil {
			return m, nil, true // the engineer moved on before it was read
		}
		if msg.result == nil {
			m.next = openSetupMsg{bug: msg.bug}
			return m, nil, true
		}
		m.dlg.ask = newPendingAsk(msg.bug, msg.result, msg.archive)
		return m, nil, true
	default:
		return m, nil, false
	}
	var cmd tea.Cmd
	m.browser, cmd = m.browser.Update(&m.frame, msg)
	return m, cmd, true
}

// updateDebateData handles a debate's data: its P and plan while it is
// set up, the engine's events while it runs, its files read from disk,
// rendered documents and decisions.
func (m Model) updateDebateData(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case problemMsg:
		nm, c := m.problemArrived(msg)
		return nm, c, true
	case planMsg:
		if m.cost.planArrived(&m.frame, m.subj, msg) {
			m.next = startRunMsg{}
			return m, nil, true
		}
	case fsWatchMsg:
		return m, m.dv.folderChanged(&m.frame, msg), true
	case liveMsg:
		if m.dv.watchingOther(&m.frame) && msg.dir == m.dv.deb.dir {
			m.dv.deb.applyLive(msg.st)
			m.now = m.clock()
		}
	case debateChangedMsg:
		return m, m.dv.changed(&m.frame, m.subj.bug, msg), true
	case debateLoadedMsg:
		nm, c := m.debateLoaded(msg)
		return nm, c, true
	case resumeFiguresMsg:
		nm, c := resumeCostDialog{}.figures(m, msg)
		return nm, c, true
	case engineMsg:
		nm, c := m.engineBatch(msg)
		return nm, c, true
	case docMsg:
		m.docArrived(msg, &m.zm, &m.dv)
	case decidedMsg:
		m = decideDialog{}.recorded(m, msg)
		if m.screen == scrReview && m.rv.view != nil && m.rv.view.dir == msg.dir {
			return m, loadReviewCmd(m.opts.keeper(), m.rv.view.dir, m.rv.view.round), true
		}
	default:
		cmd, ok := m.dv.filesRead(&m.frame, msg)
		return m, cmd, ok
	}
	return m, nil, true
}

// updateReviewData handles a review's data: it ended, it was read, a
// document of it was rendered.
func (m Model) updateReviewData(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ReviewDoneMsg:
		m.rv.done = true
		m.rv.closeQuitMenu(&m.dlg)
		if m.rv.alone != "" {
			return m, loadReviewCmd(m.opts.keeper(), m.rv.alone, 0), true
		}
	case reviewLoadedMsg:
		if m.rv.showsReview(&m.frame, msg) {
			m = reviewPage.open(m, msg)
		}
		if !m.rv.runsHere() {
			m.rv.closeQuitMenu(&m.dlg)
		}
	case reviewDocMsg:
		m.rv.gotDoc(&m.frame, &m.zm, &m.dv, msg)
	default:
		return m, nil, false
	}
	return m, nil, true
}

// showsReview reports whether a review read from disk is to be shown: the
// browser opens it, the review view takes its own again, and a review
// followed alone (NewReview) takes its folder's.
func (s reviewState) showsReview(f *frame, msg reviewLoadedMsg) bool {
	same := func(dir string) bool { return msg.data != nil && msg.data.dir == dir }
	return f.screen == scrBrowser || (f.screen == scrReview && s.view != nil && same(s.view.dir)) ||
		(s.alone != "" && same(s.alone)) || (f.screen == scrReview && s.view == nil && s.ran != "" && same(s.ran))
}

// closeQuitMenu closes "Leave this review?" once the review ended: it has
// no object any more, as a debate's quit menu at its end.
func (s reviewState) closeQuitMenu(d *dialogStack) {
	if d.menu != nil && d.menu.kind == menuQuit && s.view != nil {
		d.closeMenu()
	}
}

// docArrived takes a document rendered off the UI goroutine (one rendered
// for the other background is dropped: it is asked for again).
func (f *frame) docArrived(msg docMsg, z *zoomState, d *debateState) {
	delete(f.pending, msg.key)
	if msg.style != glamourStyle(f.dark, f.opts.NoColor) {
		return
	}
	if msg.err != nil && z.on && d.zoomPane(f) != nil {
		f.unread[msg.key] = true
		return // keep showing the pane's text
	}
	f.docs[msg.key] = msg.out
	if z.on && d.zoomDocKey(f) == msg.key {
		off := z.vp.YOffset()
		z.set(f, d, msg.out)
		z.vp.GotoTop()
		if z.hold {
			z.vp.SetYOffset(off) // the user's place, through the re-render
		}
	}
}
