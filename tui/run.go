package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/internal/shellword"
)

// engineOptions are the options of a run driven by this UI.
func (d debateState) engineOptions(f *frame, b *bridge, command string) engine.Options {
	proto := f.opts.Protocol
	if p := d.protocol(f); p != nil {
		proto = p // a debate resumed from the browser runs the protocol its problema.md names
	}
	return engine.Options{Protocol: proto, Config: f.opts.Config, Harness: f.opts.Harness, Supervisor: b, Sink: b.sink, Command: command, Version: f.opts.Version, Now: f.opts.Now, Check: f.opts.Check,
		AcceptEngineChange: d.acceptEngines, AcceptedBy: "human", Budget: f.opts.ResumeBudget, EnginesFile: f.opts.EnginesFile}
}

// start starts the debate of the cost screen (its setup s, priced by
// plan) on this view; the root closes a zoom left open.
func (d debateState) start(f *frame, s engine.Setup, plan *engine.Plan) (debateState, tea.Cmd) {
	b := newBridge()
	f.run.bridge, f.run.on = b, true
	f.out.BugID = s.Bug.ID
	d.deb = newLiveView(s)
	f.forgetDocsIn(s.Bug.DebateFolder())
	// until the run logs its plan: the same estimate
	d.deb.estUSD, d.deb.estUnknown, d.deb.hasEstimate = plan.USD, !plan.USDKnown, true
	d.deb.startedAt = f.clock()
	d.deb.sessionStart = d.deb.startedAt
	f.screen, d.tab, d.focus, d.conv = scrDebate, 1, 0, nil
	opts := d.engineOptions(f, b, "moot run "+s.Bug.ID)
	live := livefile.New() // streamed figures for another moot watching
	opts.Sink = live.Wrap(opts.Sink)
	go func() {
		res, err := engine.Start(b.ctx, s, opts)
		live.Close()
		b.ch <- runDoneMsg{res, err}
	}()
	return d, tea.Batch(waitForEngine(b.ch, ""), tick(), f.spin.Tick)
}

// resume resumes the debate on screen (the frame's subject).
func (d debateState) resume(f *frame) (debateState, tea.Cmd) {
	b := newBridge()
	f.run.bridge, f.run.on = b, true
	f.out.BugID = f.subj.bug.ID
	d.deb.live, d.deb.state = true, "running"
	d.deb.sessionStart, d.deb.finishedAt = f.clock(), time.Time{}
	bug, recorded := f.subj.bug, d.deb.enginesFile
	opts := d.engineOptions(f, b, "moot resume "+bug.ID)
	live := livefile.New()
	opts.Sink = live.Wrap(opts.Sink)
	go func() {
		res, err := engine.Resume(b.ctx, bug, opts)
		if errors.Is(err, harness.ErrUnknownEngine) { // the engines file it started with is another
			err = unknownEngineAdvice(err, bug.ID, recorded)
		}
		live.Close()
		b.ch <- runDoneMsg{res, err}
	}()
	return d, tea.Batch(waitForEngine(b.ch, d.deb.dir), tick(), f.spin.Tick)
}

// unknownEngineAdvice says how to resume a debate whose engines this
// moot's engines file lacks: with the file it was started with, named
// when its files record it (recorded).
func unknownEngineAdvice(err error, id, recorded string) error {
	if recorded == "" {
		return fmt.Errorf("%w: a debate started with --config FILE resumes with that file: quit, then moot --config FILE and r, or moot resume %s --config FILE", err, engine.ResumeArgs(id, ""))
	}
	return fmt.Errorf("%w: a debate started with --config FILE resumes with that file, and this one was started with %s: quit, then moot --config %s and r, or moot resume %s",
		err, shellword.Quote(recorded), shellword.Quote(recorded), engine.ResumeArgs(id, recorded))
}

// open shows a debate read from disk (the root closes a zoom left open).
func (d debateState) open(f *frame, msg debateLoadedMsg) debateState {
	if msg.err != nil { // shown wrapped until a key
		f.toast.text, f.toast.until, f.toast.errShown = msg.err.Error(), f.clock().Add(24*time.Hour), true
		f.opts.Resume = false
		return d
	}
	if f.opts.Resume && msg.deb.State == bugfolder.StateDone {
		f.toast.text, f.toast.until = "the debate is already finished; nothing to resume", f.clock().Add(6*time.Second)
		f.opts.Resume = false
	}
	f.subj.bug = msg.bug
	d.deb = viewFromFiles(msg.bug, msg.deb, msg.facts)
	d.deb.nth, d.deb.of = msg.nth, msg.of
	if msg.bug != nil && !msg.bug.IsQuestion {
		d.deb.which, d.deb.also = bugfolder.DebateWords(msg.deb), msg.also
	}
	f.now = f.clock() // a debate run elsewhere counts its elapsed time to now
	f.out.Dir = msg.deb.Dir
	f.screen, d.focus, d.conv = scrDebate, 0, nil
	d.tab = 1 + d.deb.current
	if msg.deb.Final != nil {
		d.tab = d.finalTab()
	}
	return d
}

// refresh shows the debate on screen read again (another process
// writes it), keeping the tab and the focus; shown reports whether it
// did (a zoom over it is filled again by the root).
// A debate another moot process runs notifies the terminal when it comes
// to wait for a decision or ends (watchedNote), as a debate run here does.
func (d debateState) refresh(f *frame, msg debateLoadedMsg) (_ debateState, _ tea.Cmd, shown bool) {
	if msg.err != nil || d.deb == nil || f.run.on || msg.deb.Dir != d.deb.dir {
		return d, nil, false
	}
	was, other := bugfolder.State(d.deb.state), d.deb.heldBy != ""
	tab, focus := d.tab, d.focus
	d.deb = viewFromFiles(msg.bug, msg.deb, msg.facts)
	d.tab, d.focus = min(tab, d.finalTab()), focus
	if n := watchedNote(d.deb.bugID, was, msg.deb.State); other && n != "" {
		return d, notify(n), true
	}
	return d, nil, true
}

// leave stops a running debate (it stays resumable) and exits when the
// engine has written its last event.
func (m Model) leave() (Model, tea.Cmd) {
	m.dlg.menu, m.dlg.aside = nil, nil
	if !m.run.on { // it finished meanwhile: nothing to stop, nothing to resume
		if m.run.leaveToBrowser {
			m.endLeftRun()
			return m, nil
		}
		return m, tea.Quit
	}
	m.out.Left = true
	if m.run.bridge != nil {
		m.run.bridge.cancel()
	}
	m.toast.text, m.toast.until = "stopping the calls in flight…", m.clock().Add(time.Minute)
	return m, nil
}

// endLeftRun ends a debate left from the browser (its calls stopped and
// its end logged): the browser's exit is its own again, and the list
// comes back (its row read again shows the debate as resumable).
func (f *frame) endLeftRun() {
	f.next = backToBrowserMsg{left: f.out.BugID}
	f.run.leaveToBrowser, f.run.on, f.run.bridge, f.toast.errShown = false, false, nil, false
}

// engineBatch applies a batch of the run's events to the debate view,
// then opens the question or takes the end that follows them.
func (m Model) engineBatch(msg engineMsg) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	var seen eventsSeen
	m.dv, cmds, seen = m.dv.applyEvents(&m.frame, msg, m.zm.on)
	if seen.output && m.zm.on {
		m.zm.refresh(&m.frame, &m.dv, &m.rv)
	}
	if seen.callEnded {
		cmds = append(cmds, m.dlg.refreshBudget(&m.frame)) // its spend and calls in flight moved
	}
	var cmd tea.Cmd
	switch then := msg.then.(type) {
	case askQuorumMsg:
		cmds = append(cmds, m.askQuorum(then))
	case askJudgeMsg:
		cmds = append(cmds, m.askJudge(then))
	case askBudgetMsg:
		m, cmd = budgetDialog{}.ask(m, then)
		cmds = append(cmds, cmd)
	case runDoneMsg:
		m, cmd = m.runDone(then)
		return m, tea.Batch(append(cmds, cmd)...)
	}
	if m.run.on {
		cmds = append(cmds, waitForEngine(msg.ch, m.dv.deb.dir))
	}
	return m, tea.Batch(cmds...)
}

// eventsSeen is what a batch of events changed that the root shows over
// the view: a zoomed pane's text, a call's end (a budget menu's figures).
type eventsSeen struct{ output, callEnded bool }

// applyEvents applies a batch of events to the debate shown (zoomOn: a
// zoom stands over it): the tab follows the round; what an event changed
// on disk is read again.
func (d debateState) applyEvents(f *frame, msg engineMsg, zoomOn bool) (debateState, []tea.Cmd, eventsSeen) {
	var cmds []tea.Cmd
	var seen eventsSeen
	d.deb.folderCalls = max(d.deb.folderCalls, msg.calls) // the folder's count as the batch was taken
	for _, ev := range msg.events {
		fromFinal := d.finalTab() - d.tab // the Convergence and Final tabs move up when a stop drops the rounds after it
		d.deb.apply(ev)
		if fromFinal >= 0 && fromFinal <= 1 {
			d.tab = d.finalTab() - fromFinal
		}
		switch {
		case ev.Type == engine.EvRoundStarted && !zoomOn && d.tab >= 1 && d.tab <= d.deb.lastRound()+1:
			d.tab, d.focus = 1+ev.Round, 0
		case ev.Type == engine.EvJudgeStarted && !zoomOn:
			d.tab = d.finalTab()
		case ev.Type == engine.EvConvergence:
			cmds = append(cmds, loadConvergenceCmd(d.deb.dir, d.deb.lang))
		case ev.Type == engine.EvOutput && zoomOn && d.zoomPane(f) != nil:
			seen.output = true
		case ev.Type == engine.EvCallFinished:
			seen.callEnded = true
		}
		if ev.Type == engine.EvRoundStarted || ev.Type == engine.EvDecision || ev.Type == engine.EvJudgeStarted ||
			ev.Type == engine.EvCallFinished && f.keepsArtifacts() {
			cmds = append(cmds, loadArgueCmd(d.protocol(f), d.deb.dir)) // argue rewrites its files as each call lands
		}
	}
	if d.deb.dir != "" {
		f.out.Dir = d.deb.dir
	}
	return d, cmds, seen
}

// askQuorum opens the quorum menu (a debate left answers it at once).
func (m *Model) askQuorum(then askQuorumMsg) tea.Cmd {
	note := notify(m.dv.deb.bugID + " needs a decision: the quorum was lost")
	if m.out.Left {
		then.reply <- quorumAnswer{err: errors.New("left")}
		return note
	}
	m.zm.on, m.helpv.on = false, false
	return tea.Batch(note, m.dlg.openMenu(&m.frame, quorumMenu(m.dv.retriedLoss(then.q), then.reply, m.unpriced, m.lay.menuFormW)))
}

// askJudge opens the judge-failure menu (a debate left answers it at
// once).
func (m *Model) askJudge(then askJudgeMsg) tea.Cmd {
	note := notify(m.dv.deb.bugID + " needs a decision: the " + finalWord(then.j) + " failed")
	if m.out.Left {
		then.reply <- judgeAnswer{err: errors.New("left")}
		return note
	}
	menu := m.dv.judgeMenu(&m.frame, then.j, then.reply)
	m.zm.on, m.helpv.on = false, false
	return tea.Batch(note, m.dlg.openMenu(&m.frame, menu))
}

// runDone takes the end of the run: its result or error, then the final
// answer, the convergence and the scores read again.
func (m Model) runDone(then runDoneMsg) (Model, tea.Cmd) {
	m.run.on = false
	if m.dlg.menu != nil && m.dlg.menu.kind == menuQuit {
		m.dlg.menu, m.dlg.aside = nil, nil // "leave this debate?" has no object any more
	}
	var changed *engine.EngineChangeError
	if errors.As(then.err, &changed) && !m.dv.acceptEngines && !m.out.Left {
		m.out.Err = then.err // leaving without accepting exits 2
		return m, m.dlg.openMenu(&m.frame, engineChangeMenu(changed.Diffs))
	}
	m.out.Result, m.out.Err = then.res, then.err
	m.dv.deb.ended(then.res, then.err)
	if then.err != nil && !m.out.Left {
		m.toast.text, m.toast.until, m.toast.errShown = then.err.Error(), m.clock().Add(24*time.Hour), true
	}
	if then.res != nil {
		m.out.Dir = then.res.Dir
	}
	if m.dv.deb.finishedAt.IsZero() {
		m.dv.deb.finishedAt = m.clock()
	}
	if m.out.Left && m.run.leaveToBrowser {
		m.endLeftRun()
		return m, nil
	}
	if m.out.Left {
		return m, tea.Quit
	}
	if m.run.leaveWhenDone { // q came once it had finished
		m.run.leaveWhenDone = false
		return m.reopen("")
	}
	cmds := []tea.Cmd{notify(m.dv.deb.bugID + " finished: " + m.dv.deb.state)}
	if then.res != nil && then.res.Outcome == engine.OutcomeDone {
		if !m.zm.on { // a zoom stays on what the user opened
			m.dv.tab = m.dv.finalTab()
		}
		m.dv.deb.judge.path = filepath.Join(m.dv.deb.dir, m.dv.deb.lang.Names().Final)
		cmds = append(cmds, loadFinalCmd(m.dv.deb.dir, m.dv.deb.judge.path))
	}
	cmds = append(cmds, loadConvergenceCmd(m.dv.deb.dir, m.dv.deb.lang), loadArgueCmd(m.dv.protocol(&m.frame), m.dv.deb.dir))
	return m, tea.Batch(cmds...)
}

// ended marks the debate ended with res or err (its state and reason).
func (d *debateView) ended(res *engine.Result, err error) {
	if res != nil {
		d.state, d.reason = string(res.Outcome), res.Reason
	}
	if err != nil {
		d.state, d.reason = "error", err.Error()
	}
	d.live = false
}

// debateLoaded shows a debate read from disk (or the one on screen read
// again), asks for its convergence, scores and trend, and resumes it when
// the UI was opened to.
func (m Model) debateLoaded(msg debateLoadedMsg) (Model, tea.Cmd) {
	if msg.refresh {
		var c tea.Cmd
		var shown bool
		m.dv, c, shown = m.dv.refresh(&m.frame, msg)
		if shown && m.zm.on {
			m.zm.refresh(&m.frame, &m.dv, &m.rv)
		}
		m.toast.clearStaleHeld(&m.browser.browser, &m.dv, m.subj.bug)
		return m, c
	}
	m.dv = m.dv.open(&m.frame, msg)
	if msg.err == nil {
		m.zm.on = false
	}
	var cmds []tea.Cmd
	if m.dv.deb != nil {
		cmds = append(cmds, loadConvergenceCmd(m.dv.deb.dir, m.dv.deb.lang), loadArgueCmd(m.dv.protocol(&m.frame), m.dv.deb.dir), loadTrendCmd(m.opts.Register, m.dv.deb.dir, m.dv.deb.final))
	}
	if m.dv.decideOnOpen && m.dv.deb != nil && m.dv.deb.awaitsDecision() {
		var c tea.Cmd
		m, c = decideDialog{}.open(m)
		cmds = append(cmds, c)
	}
	m.dv.decideOnOpen = false
	if m.opts.Resume && m.dv.deb != nil && !m.run.on && msg.err == nil {
		var c tea.Cmd
		m, c = resumeCostDialog{}.ask(m, msg.deb)
		cmds = append(cmds, c)
	}
	return m, tea.Batch(cmds...)
}
