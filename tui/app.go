package tui

import (
	"context"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// Options configure the UI.
type Options struct {
	// Protocol is the protocol new debates run and resumes continue
	// (cli picks it).
	Protocol engine.Protocol
	Register *bugfolder.Register
	Config   *harness.Config
	// EnginesFile is the engines file moot was given with --config
	// (absolute; "" when it found one itself): the runs started here log
	// it, and every moot resume hint repeats it (engine.ResumeArgs).
	EnginesFile string
	Harness     harness.Options
	Version     string
	// Bug opens the UI on one bug: resuming its debate when Resume is set,
	// at the cost screen when Setup is complete (mode and engines), else at
	// the setup wizard. Without a bug the UI opens the browser.
	Bug    *bugfolder.Bug
	Setup  engine.Setup
	Resume bool
	// AcceptPlan starts a complete Setup as soon as its plan is priced
	// and fits (--yes on a terminal): the cost screen is not asked.
	AcceptPlan bool
	// Budget is a new debate's cap (the flags over the engines file);
	// ResumeBudget a resume's new cap (resume's flags; none: the frozen).
	Budget, ResumeBudget engine.Budget
	// Status is the probe result of each engine (nil: not probed).
	Status map[string]EngineStatus
	// Probe, when set, probes the engines in the background at start; its
	// result replaces Status (the wizard offers only engines that passed).
	Probe func(context.Context) map[string]EngineStatus
	// Check vets a debate's engines before it starts (engine.Options.Check).
	Check func(ctx context.Context, names []string) error
	// NoColor renders documents without colour (NO_COLOR).
	NoColor bool
	// Banner is a line shown above every screen (the demo says where it runs).
	Banner string
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// Untrusted, when set, asks first to trust the project's engines
	// file: no probe or call runs before it is trusted.
	Untrusted *TrustRequest
	// Protocols are those the wizard offers (cli's table, Protocol
	// first); none: it sets up Protocol only.
	Protocols []engine.Protocol
	// Records are the protocols that keep their runs in folders of their
	// own (review): the browser lists those runs and opens their view
	// (cli's table; none: no review is listed).
	Records []engine.RecordKeeper
	// Known are every protocol moot runs (cli's table): a debate opened
	// from the browser is described in, and resumed with, the protocol its
	// problema.md names — argue's questions included, which the wizard
	// does not offer.
	Known []engine.Protocol
	// Lenses are the lenses a participant may take in the wizard (the
	// library and the project's own).
	Lenses []bugfolder.Lens
	// Questions are the protocols the wizard offers on a question (argue):
	// choosing one asks the question, its personas and its rounds, and Ask
	// sets it up (none, or no Ask: the wizard offers no question).
	Questions []engine.Protocol
	// Ask sets a question's debate up as moot ask does with args (the
	// words after "moot ask"): its own checks, so the wizard refuses what
	// the command refuses; reserve takes the question's folder.
	Ask func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error)
	// Review plans a review as moot review does with args (the words after
	// "moot review"): check only settles the change, the contract, the
	// builder and the lenses (as typed); nil: the wizard offers no review.
	Review func(args []string, check bool) (ReviewStart, error)
	// Proposals offers a bug's two best proposals of a finished repair
	// debate as options A and B (nil: none offered).
	Proposals func(*bugfolder.Bug) (a, b string, ok bool)

	// planOf prices a setup; engine.NewPlan when nil (a test counts its
	// calls through it, without touching what another test runs).
	planOf func(engine.Setup, *harness.Config) (*engine.Plan, error)
	// whoIs names the person deciding; whoami.Name when nil (tests name
	// one: git is slow to start on a loaded machine).
	whoIs func(ctx context.Context, project string, getenv func(string) string) string
	// getenv reads the environment ($PAGER, $EDITOR, the decider's name);
	// os.Getenv when nil (a test sets its own without changing the
	// process's, which tests running beside it read).
	getenv func(string) string
}

// choices are what the wizard offers from the options.
func (o Options) choices() wizardChoices {
	return wizardChoices{protocols: o.Protocols, catalog: o.Lenses, proposals: o.Proposals, questions: o.Questions, ask: o.Ask, review: o.Review}
}

// resumeArgs are the words after `moot resume` in this UI's hints for the
// debate or review id run here: the one builder (engine.ResumeArgs),
// with the engines file moot was given.
func (o Options) resumeArgs(id string) string { return engine.ResumeArgs(id, o.EnginesFile) }

// resumeArgsOf are resumeArgs for a debate read from its folder: the
// engines file its files record for its last session, else this UI's.
func (o Options) resumeArgsOf(d *debateView) string {
	if d.enginesFile != "" {
		return engine.ResumeArgs(d.bugID, d.enginesFile)
	}
	return o.resumeArgs(d.bugID)
}

// Outcome is what the UI leaves behind when it exits.
type Outcome struct {
	// Result is the result of the debate that ran, if one did.
	Result *engine.Result
	Err    error
	// Dir is the debate folder the UI last showed or wrote.
	Dir string
	// Left is set when the engineer left a running debate.
	Left bool
	// Interrupted is set when a stop signal (StopMsg) left a run in
	// flight; a signal with none running only closes the UI.
	Interrupted bool
	// BugID is the bug of the debate that ran.
	BugID string
	// Cancelled is set when the engineer cancelled the wizard or the cost
	// screen before anything started (nothing was written).
	Cancelled bool
}

type screen int

const (
	scrBrowser screen = iota
	scrWizard
	scrCost
	scrDebate
	scrReview
	scrReviewCost
)

// StopMsg is a stop signal (SIGTERM, SIGHUP, SIGQUIT, or SIGINT without a
// terminal) sent by the program's owner: a running debate is left as `q`
// leaves it (calls stopped, its end logged, the lock released, resumable;
// Outcome.Interrupted); otherwise the UI quits, nothing started.
type StopMsg struct{}

// Messages the model sends itself.
type (
	// tickMsg advances the clock while a debate runs.
	tickMsg time.Time
	// problemMsg delivers the bug read in full and its P, assembled off the
	// UI goroutine.
	problemMsg struct {
		bug *bugfolder.Bug
		p   *bugfolder.Problem
		err error
	}
	// debateLoadedMsg opens a past debate read off the UI goroutine;
	// refresh is set when it is the debate on screen read again.
	debateLoadedMsg struct {
		bug     *bugfolder.Bug
		deb     *bugfolder.Debate
		err     error
		refresh bool
		// nth and of place it among the bug's debates (1-based, oldest
		// first; of is 0 when not counted).
		nth, of int
		// facts are read with deb (viewFromFiles).
		facts folderFacts
		// also is the other result of the bug that waits for a human
		// decision too, in words with its folder (loadDecisionCmd).
		also string
	}
	// convergenceMsg delivers the convergence rows read from disk.
	convergenceMsg struct {
		dir  string
		rows []convRow
		// path is where the table was read (bugfolder.DocPath), "" when
		// it was not.
		path string
	}
	// statusMsg shows a message in the status line for a while.
	statusMsg string
	// noteMsg shows a message too long for the status line, wrapped over
	// the bottom of the screen until a key.
	noteMsg string
)

// Model is the root model: it routes every message and holds what the
// screens share (the frame: size, styles, clock, rendered documents; the
// run's bridge; the toasts; the dialog stack and the active screen). Each
// screen's state is its own type, created here and fed by the routes.
type Model struct {
	frame
	dlg   dialogStack
	helpv helpOverlay

	browser browserScreen
	wiz     *wizard
	cost    costState
	dv      debateState
	zm      zoomState

	rv reviewState
	// revCost is the cost screen of a review started here (reviewcost.go).
	revCost *reviewCostState
}

// subject is the bug (or question) being set up or shown, its P, and the
// plans asked for it.
type subject struct {
	bug     *bugfolder.Bug
	problem *bugfolder.Problem
	probErr error
	// planSeq numbers the plans asked for: only the last one's answer is
	// taken.
	planSeq int
}

// reviewState is the review view's state (scrReview).
type reviewState struct {
	view *reviewView
	// alone is the review NewReview follows (no browser behind it), and
	// done set once its run ended.
	alone string
	done  bool
	// ran is the review started from the browser (its wizard and cost
	// screen) that runs in this process, and stop stops it: q on its view
	// asks first while it runs, and leaving it stops it, as a debate's.
	ran  string
	stop func()
}

// frame is what every screen shares: the options (the register, the
// engines, the records), the run's handle, the active screen, the window's size and regions, the styles for its
// background, the key map, the clock and the spinner, and the documents
// rendered for it.
type frame struct {
	opts Options
	run  runState
	// subj is the bug (or question) the wizard, the cost screen and the
	// live view set up and show.
	subj subject
	// screen is the active screen (the dialogs stand over it).
	screen screen
	st     *Styles
	keys   keyMap
	w, h   int
	lay    layout
	dark   bool
	now    time.Time
	spin   spinner.Model

	docs    map[docKey]string
	pending map[docKey]bool
	// unread are the documents a zoom could not read (it shows its pane's
	// text instead): asked for again when a zoom opens, not on every
	// message, which would read the missing file again and again.
	unread map[docKey]bool
	// next is the screen a screen asked to move to (transitions.go),
	// made before Update returns.
	next tea.Msg

	// out is what the UI leaves behind; toast the status line.
	out   Outcome
	toast toast
}

// runState is the engine's handle: the bridge to a debate this process
// runs and whether it runs.
type runState struct {
	// probing is set while the engines' probe runs in the background.
	probing bool
	bridge  *bridge
	on      bool
	// leaveToBrowser is set when the engineer left a running debate that
	// the browser opened: once it stops, the list comes back.
	leaveToBrowser bool
	// leaveWhenDone is q pressed once the debate said it finished but
	// before the engine returned (it closes its files): moot leaves as
	// soon as it does, without asking to stop what has ended.
	leaveWhenDone bool
}

// toast is the status line: a message shown for a while, the note of a
// run another process holds, an error kept until a key.
type toast struct {
	text  string
	until time.Time
	// held is the bug folder the status line says another process
	// runs: the line is cleared as soon as that run is seen to end.
	held string
	// errShown is set while the footer shows the error a run ended with:
	// it stays until a key, and that key dismisses it (and its exit code).
	errShown bool
	// screen is the screen that raised it: another screen's footer never
	// shows it (a browser's note is no wizard's).
	screen screen
}

// own gives a message raised since before (the toast as it was) to the
// screen shown once it was raised.
func (t *toast) own(before toast, s screen) {
	if t.text != before.text || !t.until.Equal(before.until) {
		t.screen = s
	}
}

// dialogStack is what stands over the screen: a menu (quorum, judge,
// budget, quit, trust, engine change, decide), the decision menu stepped
// aside under the quit question, and the pending-decision question.
type dialogStack struct {
	menu *menu
	// hidden is set while the engineer reads the panes and the open
	// menu waits (esc on a decision menu; m brings it back).
	hidden bool
	// aside is the decision menu that waits while the quit question is
	// asked over it (q while it is stepped aside); "keep watching" puts
	// it back, stepped aside as it was.
	aside *menu
	// off is how far a menu taller than the window is scrolled up
	// from its end (pgup/pgdn; ↑/↓ past its first or last choice).
	off int
	// ask is the question before a new debate archives a result that
	// waits for a human decision (tui/pendingask.go).
	ask *pendingAsk
}

// helpOverlay is the ? help over the active screen.
type helpOverlay struct {
	on bool
	// off is the first row of keys the help shows (it scrolls when
	// the window is too short for it).
	off int
}

// debateState is the live debate view's state: the debate shown, its
// tab and pane in focus, what was read of it, and the folder followed.
type debateState struct {
	deb   *debateView
	tab   int
	focus int
	conv  []convRow
	// argueView is an argue debate's scores, confidences and concessions
	// (nil for other protocols).
	argueView *engine.ScoreView
	// argueAt is when the read of argueView began (argueMsg.at).
	argueAt time.Time
	// fsw follows the folder of a debate shown but run elsewhere.
	fsw *fsWatch
	// decideOnOpen opens the decision form once the debate it loads is
	// shown.
	decideOnOpen bool
	// acceptEngines is set once the engineer accepted changed engines as
	// an amendment; the resume then runs with them.
	acceptEngines bool
}

// zoomState is the zoom over a pane, a document or a lens.
type zoomState struct {
	on bool
	vp viewport.Model
	// hold is set when the user scrolled the zoom up: text that
	// arrives, a finish or a re-render leave it where it is.
	hold bool
	// find is the search inside the zoom (/).
	find find
}

// costState is the cost screen (costscreen.go): the plan and the
// focused button.
type costState struct {
	costNav
	setup engine.Setup
	plan  *engine.Plan
	err   error
	// fromWizard is set when the wizard set it up: esc goes back to it.
	fromWizard bool
	// startWhenReady is set when Start was chosen while P was still being
	// assembled or the plan priced: the debate starts as soon as its plan
	// is ready.
	startWhenReady bool
	// estimating is set while the plan is priced in the background.
	estimating bool
	// criteria are the wizard's criteria for a protocol's packet (none:
	// its default).
	criteria []string
}

// New builds the UI's root model.
func New(opts Options) Model {
	m := Model{frame: frame{opts: opts, st: NewStyles(true), keys: newKeyMap(), dark: true, w: 100, h: 30,
		docs: map[docKey]string{}, pending: map[docKey]bool{}, unread: map[docKey]bool{}}}
	m.relayout()
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.now = m.clock()
	m.run.probing = opts.Probe != nil
	m.browser = newBrowserScreen(opts.Register, opts.keeper())
	if opts.Untrusted != nil {
		m.dlg.menu = trustMenu(opts.Untrusted)
	}
	switch {
	case opts.Bug == nil:
		m.screen = scrBrowser
	case opts.Resume:
		m.subj.bug = opts.Bug
		m.screen = scrDebate
	case (opts.Setup.Mode != "" || opts.Bug.IsQuestion) && len(opts.Setup.Solvers) > 0 && !needsPack(opts.Setup): // a question has no mode
		m.subj.bug = opts.Bug
		m.cost.setup = opts.Setup
		m.screen = scrCost
	default:
		m.subj.bug = opts.Bug
		m.wiz = newWizard(opts.Bug, opts.Config, opts.Status, opts.Setup, opts.choices())
		m.wiz.probing = opts.Probe != nil
		m.screen = scrWizard
	}
	if d := pendingResult(opts.Bug); d != nil && !opts.Resume {
		m.dlg.ask = newPendingAsk(opts.Bug, d, archiveName(opts.Bug, d))
	}
	m.cost.startWhenReady = m.screen == scrCost && opts.AcceptPlan && m.dlg.ask == nil
	return m
}

// relayout recomputes every region: on a resize, and when the register's
// size is known.
func (m *Model) relayout() {
	m.browser.relayout(&m.frame)
}

func (f frame) clock() time.Time {
	if f.opts.Now != nil {
		return f.opts.Now()
	}
	return time.Now()
}

// probeCmd asks every engine whether it can answer (the engines' own
// timeouts bound it), off the UI goroutine.
func probeCmd(probe func(context.Context) map[string]EngineStatus) tea.Cmd {
	return func() tea.Msg { return probedMsg(probe(context.Background())) }
}

// Init starts what the first screen needs.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.dlg.menu != nil && m.dlg.menu.kind == menuTrust {
		cmds = append(cmds, m.dlg.menu.form.Init())
	} else if m.opts.Probe != nil {
		cmds = append(cmds, probeCmd(m.opts.Probe))
	}
	cmds = append(cmds, watchTick())
	switch m.screen {
	case scrBrowser:
		cmds = append(cmds, listBugDirsCmd(m.opts.Register))
	case scrWizard, scrCost:
		cmds = append(cmds, assemblePCmd(m.subj.bug))
		if m.wiz != nil {
			cmds = append(cmds, m.wiz.form.Init())
		}
	case scrDebate:
		cmds = append(cmds, loadDebateCmd(m.subj.bug))
	case scrReview:
		cmds = append(cmds, loadReviewCmd(m.opts.keeper(), m.rv.alone, 0))
	}
	return tea.Batch(cmds...)
}

// Outcome reports what happened, once the program has exited.
func (m Model) Outcome() Outcome { return m.out }

func assemblePCmd(bug *bugfolder.Bug) tea.Cmd {
	return func() tea.Msg {
		if bug.IsQuestion { // its P is the question, made by moot ask with the setup
			return problemMsg{bug, nil, nil}
		}
		full, err := bug.Full()
		if err != nil {
			return problemMsg{bug, nil, err}
		}
		p, err := bugfolder.AssembleP(full)
		return problemMsg{full, p, err}
	}
}

func loadDebateCmd(bug *bugfolder.Bug) tea.Cmd {
	return func() tea.Msg {
		full, err := bug.Full()
		if err != nil {
			return debateLoadedMsg{bug: bug, err: err}
		}
		d, err := bugfolder.ReadDebate(full.DebateFolder(), full.Register.Lang) // a question's folder is its debate
		msg := debateLoadedMsg{bug: full, deb: d, err: err}
		if err == nil {
			msg.facts = readFolderFacts(d)
		}
		return msg
	}
}

// loadNthDebateCmd opens one of a bug's debates: the archived ones oldest
// first, then the current; nth ≤ 0 counts from the newest (0 is it).
func loadNthDebateCmd(bug *bugfolder.Bug, nth int) tea.Cmd {
	return func() tea.Msg {
		full, err := bug.Full()
		if err != nil {
			return debateLoadedMsg{bug: bug, err: err}
		}
		ds, err := bugfolder.ReadDebates(full)
		if err != nil || len(ds) == 0 {
			return debateLoadedMsg{bug: full, err: err}
		}
		i := (nth - 1 + len(ds)) % len(ds)
		if nth <= 0 {
			i = (len(ds) - 1 + nth%len(ds) + len(ds)) % len(ds)
		}
		return debateLoadedMsg{bug: full, deb: ds[i], nth: i + 1, of: len(ds), facts: readFolderFacts(ds[i])}
	}
}

// indexAndLoadCmd reads a bug the index has not reached yet and opens its
// latest debate.
func indexAndLoadCmd(reg *bugfolder.Register, bd bugfolder.BugDir) tea.Cmd {
	return func() tea.Msg {
		s, err := bugfolder.IndexSubject(reg, bd)
		if err != nil {
			return debateLoadedMsg{err: err}
		}
		if s.Count == 0 {
			return statusMsg(fmt.Sprintf("%s has no debate yet: n starts one", s.Bug.ID))
		}
		return loadDebateCmd(s.Bug)()
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// clearStaleHeld clears the status line saying another process runs a
// bug once that run is seen to have ended (its row or its debate read
// again without a live holder).
func (t *toast) clearStaleHeld(b *browser, d *debateState, bug *bugfolder.Bug) {
	if t.held == "" {
		return
	}
	ended := false
	if i := slices.IndexFunc(b.rows, func(r *browserRow) bool { return r.dir.Dir == t.held }); i >= 0 && b.rows[i].sum != nil {
		ended = !b.rows[i].held()
	}
	if d.deb != nil && bug != nil && bug.Dir == t.held {
		ended = d.deb.heldBy == ""
	}
	if ended {
		t.text, t.held = "", ""
	}
}

// handleKey routes a key press: ctrl+c first, then an open menu, the help
// overlay, and the screen.
func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		if m.run.on {
			return m.leave()
		}
		m.out.Cancelled = m.screen == scrWizard || m.screen == scrCost || m.screen == scrReviewCost
		return m, tea.Quit
	}
	if m.toast.errShown { // a key dismisses the error: it no longer decides the exit
		m.toast.errShown, m.toast.text, m.out.Err = false, "", nil
		if m.dv.deb != nil && m.dv.deb.state == "error" {
			m.dv.deb.reason = ""
		}
		return m, nil
	}
	if m.dlg.menu != nil && !m.dlg.hidden {
		if key.Matches(msg, m.keys.Back) {
			return m.dlg.dialog().back(m, m.dlg.menu)
		}
		return m.menuKey(msg)
	}
	if m.dlg.ask != nil {
		return pendingDialog{}.key(m, msg)
	}
	if m.helpv.on { // ↑/↓ scroll a help taller than the window; any other key closes it
		switch {
		case key.Matches(msg, m.keys.Down, m.keys.PageDown):
			m.helpv.off++
		case key.Matches(msg, m.keys.Up, m.keys.PageUp):
			m.helpv.off = max(0, m.helpv.off-1)
		default:
			m.helpv.on, m.helpv.off = false, 0
		}
		return m, nil
	}
	return m.screenUpdate(msg)
}

func statusCmd(s string) tea.Cmd { return func() tea.Msg { return statusMsg(s) } }

// fit fits the wizard's form to the window (none open: nothing).
func (w *wizard) fit(f *frame) {
	if w != nil {
		h := f.lay.wizH
		if note := w.restrictedNote(); note != "" { // it stands above the form
			h = max(4, h-lipgloss.Height(wrapLines(note, f.w)))
		}
		h = max(4, h-len(w.refusal(f))) // and a refusal below it
		w.form = f.fitForm(w.form, f.lay.wizW, h)
		w.fitText(f.lay.wizW)
	}
}

// probedMsg carries the background probe's result.
type probedMsg map[string]EngineStatus

// judgeMenu builds the judge-failure menu: its retry priced on the
// judge's engine, "another engine" offered when one passes the probe; no
// retry for a hand-run debate (it records no judge engine).
func (dv debateState) judgeMenu(f *frame, j engine.JudgeFailure, reply chan judgeAnswer) *menu {
	if j.Engine == "" {
		j.Engine = dv.deb.judge.engine
	}
	switchable := f.opts.Config != nil && len(engineOptions(j.Engines, j.Engine, f.opts.Config, f.opts.Status)) > 0
	return judgeMenu(j, reply, f.unpriced(j.Engine), switchable, !dv.deb.handRun)
}

// answered trusts the engines file and starts the probe, or leaves
// with an input error naming the file (exit 2) when it is not trusted.
func (trustDialog) answered(m Model, choice string) (Model, tea.Cmd) {
	req := m.opts.Untrusted
	m.dlg.menu = nil
	if choice == "trust" {
		if err := req.Trust(); err != nil {
			m.out.Err = err
			return m, tea.Quit
		}
		m.opts.Untrusted = nil
		if m.opts.Probe != nil {
			return m, probeCmd(m.opts.Probe)
		}
		return m, nil
	}
	m.out.Err = &bugfolder.InputError{Path: req.File, Msg: "is not trusted: read it, then run moot trust"}
	return m, tea.Quit
}

// needsPack is whether a setup still lacks the packet its protocol wraps P
// in (its inputs come from the wizard).
func needsPack(s engine.Setup) bool {
	_, ok := s.Protocol.(engine.Packer)
	return ok && s.Problem == nil
}
