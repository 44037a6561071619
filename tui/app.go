package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/protocol/argue"
)

// Options configure the UI.
type Options struct {
	// Protocol is the protocol new debates run and resumes continue
	// (cli picks it).
	Protocol engine.Protocol
	Register *bugfolder.Register
	Config   *harness.Config
	Harness  harness.Options
	Version  string
	// Bug opens the UI on one bug: resuming its debate when Resume is set,
	// at the cost screen when Setup is complete (mode and engines), else at
	// the setup wizard. Without a bug the UI opens the browser.
	Bug    *bugfolder.Bug
	Setup  engine.Setup
	Resume bool
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
	// Known are every protocol moot runs (cli's table): a debate opened
	// from the browser is described in, and resumed with, the protocol its
	// problema.md names — argue's questions included, which the wizard
	// does not offer.
	Known []engine.Protocol
	// Lenses are the lenses a participant may take in the wizard (the
	// library and the project's own).
	Lenses []bugfolder.Lens
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
	return wizardChoices{protocols: o.Protocols, catalog: o.Lenses, proposals: o.Proposals}
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
)

// StopMsg is a stop signal (SIGTERM, SIGHUP, SIGQUIT, or SIGINT without a
// terminal) sent by the program's owner: a running debate is left as `q`
// leaves it (calls stopped, its end logged, the lock released, resumable);
// otherwise the UI quits, nothing started.
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
	}
	// convergenceMsg delivers the convergence rows read from disk.
	convergenceMsg struct {
		dir  string
		rows []convRow
	}
	// statusMsg shows a message in the status line for a while.
	statusMsg string
	// noteMsg shows a message too long for the status line, wrapped over
	// the bottom of the screen until a key.
	noteMsg string
)

// Model is the root model: it owns all state and routes every message.
type Model struct {
	// probing is set while the engines' probe runs in the background.
	probing bool
	opts    Options
	st      *Styles
	keys    keyMap
	w, h    int
	lay     layout
	dark    bool
	screen  screen

	// ask is the question before a new debate archives a result that
	// waits for a human decision (tui/pendingask.go); decideOnOpen opens
	// the decision form once the debate it loads is shown.
	ask          *pendingAsk
	decideOnOpen bool

	browser browser
	// acceptEngines is set once the engineer accepted changed engines as
	// an amendment; the resume then runs with them.
	acceptEngines bool
	bug           *bugfolder.Bug
	wiz           *wizard
	problem       *bugfolder.Problem
	probErr       error
	cost          costState
	// planSeq numbers the plans asked for: only the last one's answer is
	// taken.
	planSeq int

	deb *debateView
	// rev is the review view (scrReview).
	rev *reviewView
	// revAlone is the review NewReview follows (no browser behind it), and
	// revDone set once its run ended.
	revAlone string
	revDone  bool
	tab      int
	focus    int
	zoom     bool
	zoomVP   viewport.Model
	// zoomHold is set when the user scrolled the zoom up: text that
	// arrives, a finish or a re-render leave it where it is.
	zoomHold bool
	// find is the search inside the zoom (/).
	find find
	// fsw follows the folder of a debate shown but run elsewhere.
	fsw *fsWatch
	// holders follows the folders new bugs and questions appear in.
	holders *holderWatch
	conv    []convRow
	// argueView is an argue debate's scores, confidences and concessions
	// (nil for other protocols).
	argueView *argue.View
	// argueAt is when the read of argueView began (argueMsg.at).
	argueAt time.Time
	menu    *menu
	// menuHidden is set while the engineer reads the panes and the open
	// menu waits (esc on a decision menu; m brings it back).
	menuHidden bool
	// aside is the decision menu that waits while the quit question is
	// asked over it (q while it is stepped aside); "keep watching" puts
	// it back, stepped aside as it was.
	aside *menu
	// menuOff is how far a menu taller than the window is scrolled up
	// from its end (pgup/pgdn; ↑/↓ past its first or last choice).
	menuOff int
	help    bool
	// helpOff is the first row of keys the help shows (it scrolls when
	// the window is too short for it).
	helpOff int
	bridge  *bridge
	running bool
	// leaveToBrowser is set when the engineer left a running debate that
	// the browser opened: once it stops, the list comes back.
	leaveToBrowser bool

	docs    map[docKey]string
	pending map[docKey]bool
	spin    spinner.Model
	now     time.Time

	status      string
	statusUntil time.Time
	// heldNote is the bug folder the status line says another process
	// runs: the line is cleared as soon as that run is seen to end.
	heldNote string
	// errShown is set while the footer shows the error a run ended with:
	// it stays until a key, and that key dismisses it (and its exit code).
	errShown bool
	out      Outcome
}

// costState is the cost screen: the plan and the focused button.
type costState struct {
	setup  engine.Setup
	plan   *engine.Plan
	err    error
	button int
	// scroll is the first line shown of what stands above the buttons.
	scroll int
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
	m := Model{opts: opts, st: NewStyles(true), keys: newKeyMap(), dark: true, w: 100, h: 30,
		docs: map[docKey]string{}, pending: map[docKey]bool{}}
	m.relayout()
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.now = m.clock()
	m.probing = opts.Probe != nil
	m.browser = newBrowser(opts.Register)
	if opts.Untrusted != nil {
		m.menu = trustMenu(opts.Untrusted)
	}
	switch {
	case opts.Bug == nil:
		m.screen = scrBrowser
	case opts.Resume:
		m.bug = opts.Bug
		m.screen = scrDebate
	case (opts.Setup.Mode != "" || opts.Bug.IsQuestion) && len(opts.Setup.Solvers) > 0 && !needsPack(opts.Setup): // a question has no mode
		m.bug = opts.Bug
		m.cost.setup = opts.Setup
		m.screen = scrCost
	default:
		m.bug = opts.Bug
		m.wiz = newWizard(opts.Bug, opts.Config, opts.Status, opts.Setup, opts.choices())
		m.wiz.probing = opts.Probe != nil
		m.screen = scrWizard
	}
	if d := pendingResult(opts.Bug); d != nil && !opts.Resume {
		m.ask = newPendingAsk(opts.Bug, d)
	}
	return m
}

// relayout recomputes every region: on a resize, and when the register's
// size is known.
func (m *Model) relayout() {
	m.lay = newLayout(m.w, m.h, m.opts.Banner != "", len(m.browser.rows))
	m.browser.keepVisible(m.lay.rows)
}

func (m Model) clock() time.Time {
	if m.opts.Now != nil {
		return m.opts.Now()
	}
	return time.Now()
}

// Init starts what the first screen needs.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.menu != nil && m.menu.kind == menuTrust {
		cmds = append(cmds, m.menu.form.Init())
	} else if m.opts.Probe != nil {
		probe := m.opts.Probe
		cmds = append(cmds, func() tea.Msg { return probedMsg(probe(context.Background())) })
	}
	cmds = append(cmds, watchTick())
	switch m.screen {
	case scrBrowser:
		cmds = append(cmds, listBugDirsCmd(m.opts.Register))
	case scrWizard, scrCost:
		cmds = append(cmds, assemblePCmd(m.bug))
		if m.wiz != nil {
			cmds = append(cmds, m.wiz.form.Init())
		}
	case scrDebate:
		cmds = append(cmds, loadDebateCmd(m.bug))
	case scrReview:
		cmds = append(cmds, loadReviewCmd(m.revAlone, 0))
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
		return debateLoadedMsg{bug: full, deb: d, err: err}
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
		return debateLoadedMsg{bug: full, deb: ds[i], nth: i + 1, of: len(ds)}
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

// Update routes a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
		m.layoutZoom()
		m.sizeWizard()
		if m.menu != nil {
			m.fitMenu()
		}
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.st = NewStyles(m.dark)
		m.docs = map[docKey]string{} // rendered for the other background
	case tickMsg:
		m.now = time.Time(msg)
		if m.running {
			cmds = append(cmds, tick())
		}
	case spinner.TickMsg:
		if m.running {
			var c tea.Cmd
			m.spin, c = m.spin.Update(msg)
			cmds = append(cmds, c)
		}
	case probedMsg:
		m.opts.Status, m.probing = msg, false
		if m.wiz != nil {
			m.wiz.status, m.wiz.probing = msg, false
			if m.wiz.stage == stageEngines && m.screen == scrWizard {
				m.wiz.build() // offer only the engines that passed
				m.sizeWizard()
				return m, m.wiz.form.Init()
			}
		}
		return m, nil
	case statusMsg:
		m.status, m.statusUntil = string(msg), m.clock().Add(4*time.Second)
	case noteMsg:
		// too long for the status line: wrapped over the bottom until a key
		m.status, m.statusUntil, m.errShown = string(msg), m.clock().Add(24*time.Hour), true
	case bugDirsMsg:
		m.browser.setDirs(msg)
		m.relayout()
		if m.holders == nil {
			// its first wait goes out with the next watch tick: a wait sent
			// now would hold up whatever runs this batch's commands in turn
			m.holders = watchHolders(nil, m.browser.holders())
		}
		var first []int
		for i := 0; i < min(len(msg.dirs), m.h); i++ {
			first = append(first, i)
		}
		cmds = append(cmds, startIndexing(m.opts.Register, msg.dirs, first), listReviewsCmd(m.opts.Register))
	case reviewsMsg:
		m.browser.setReviews(msg)
		m.relayout() // the list's height follows its rows
	case ReviewDoneMsg:
		m.revDone = true
		if m.revAlone != "" {
			cmds = append(cmds, loadReviewCmd(m.revAlone, 0))
		}
	case reviewLoadedMsg:
		if m.screen == scrBrowser || (m.screen == scrReview && m.rev != nil && msg.data != nil && msg.data.dir == m.rev.dir) ||
			(m.revAlone != "" && msg.data != nil && msg.data.dir == m.revAlone) {
			m = m.openReview(msg)
		}
	case indexMsg:
		m.browser.addIndex(msg)
		if !msg.done {
			cmds = append(cmds, waitForIndex(msg.ch))
		}
	case problemMsg:
		m.problem, m.probErr = msg.p, msg.err
		if msg.bug != nil && m.bug != nil && msg.bug.Dir == m.bug.Dir {
			m.bug = msg.bug
			m.cost.setup.Bug = msg.bug
			if m.wiz != nil {
				m.wiz.bug = msg.bug
			}
		}
		if m.screen == scrCost {
			cmds = append(cmds, m.planCost())
			if m.probErr != nil {
				m.cost.startWhenReady = false
			}
		}
	case planMsg:
		var c tea.Cmd
		m, c = m.planArrived(msg)
		cmds = append(cmds, c)
	case watchTickMsg:
		var c tea.Cmd
		m, c = m.onWatchTick()
		cmds = append(cmds, c)
	case rowsChangedMsg:
		for _, n := range m.browser.applyRowChanges(msg) {
			cmds = append(cmds, notify(n))
		}
		m.clearStaleHeld()
	case fsWatchMsg:
		var c tea.Cmd
		m, c = m.onFolderChange(msg)
		cmds = append(cmds, c)
	case holderWatchMsg:
		if msg.hw == m.holders {
			watchHolders(m.holders, m.browser.holders()) // a new context's folders too
			cmds = append(cmds, scanNewDirsCmd(m.opts.Register, m.browser.knownDirs()))
			if m.holders.arm() {
				cmds = append(cmds, m.holders.next())
			}
		}
	case newRowsMsg:
		m.browser.addRows(msg.items, m.lay.rows)
		m.relayout()
		if m.holders != nil {
			watchHolders(m.holders, m.browser.holders())
		}
	case liveMsg:
		if m.watchingOther() && msg.dir == m.deb.dir {
			m.deb.applyLive(msg.st)
			m.now = m.clock()
		}
	case debateChangedMsg:
		if m.deb != nil && m.deb.dir == msg.dir && !m.running && m.bug != nil {
			m.deb.stamp = msg.stamp
			bug := m.bug
			cmds = append(cmds, func() tea.Msg {
				lm := loadDebateCmd(bug)().(debateLoadedMsg)
				lm.refresh = true
				return lm
			})
		}
	case debateLoadedMsg:
		if msg.refresh {
			var c tea.Cmd
			m, c = m.refreshDebate(msg)
			cmds = append(cmds, c)
			m.clearStaleHeld()
			break
		}
		m = m.openDebate(msg)
		if m.deb != nil {
			cmds = append(cmds, loadConvergenceCmd(m.deb.dir, m.deb.lang), loadArgueCmd(m.deb.dir), loadTrendCmd(m.opts.Register, m.deb.dir, m.deb.final))
		}
		if m.decideOnOpen && m.deb != nil && m.deb.awaitsDecision() {
			var c tea.Cmd
			m, c = m.openDecide()
			cmds = append(cmds, c)
		}
		m.decideOnOpen = false
		if m.opts.Resume && m.deb != nil && !m.running && msg.err == nil {
			cmds = append(cmds, m.startResume())
		}
	case engineMsg:
		var c tea.Cmd
		m, c = m.handleEngine(msg)
		cmds = append(cmds, c)
	case docMsg:
		delete(m.pending, msg.key)
		if msg.style != glamourStyle(m.dark, m.opts.NoColor) {
			break // rendered for the other background: asked again below
		}
		if msg.err != nil && m.zoom && m.zoomPane() != nil {
			break // keep showing the pane's text
		}
		m.docs[msg.key] = msg.out
		if m.zoom && m.zoomDocKey() == msg.key {
			off := m.zoomVP.YOffset()
			m.setZoom(msg.out)
			m.zoomVP.GotoTop()
			if m.zoomHold {
				m.zoomVP.SetYOffset(off) // the user's place, through the re-render
			}
		}
	case reviewDocMsg:
		m.gotReviewDoc(msg)
	case convergenceMsg:
		if m.deb != nil && msg.dir == m.deb.dir {
			m.conv = msg.rows
		}
	case argueMsg:
		// a read begun before the last one applied is older news: dropped
		if m.deb != nil && msg.dir == m.deb.dir && !msg.at.Before(m.argueAt) {
			m.argueView, m.argueAt = msg.view, msg.at
		}
	case decidedMsg:
		m = m.decided(msg)
		if m.screen == scrReview && m.rev != nil && m.rev.dir == msg.dir {
			cmds = append(cmds, loadReviewCmd(m.rev.dir, m.rev.round))
		}
	case finalMsg:
		if m.deb != nil && msg.dir == m.deb.dir {
			m.deb.final = msg.final
			cmds = append(cmds, loadTrendCmd(m.opts.Register, msg.dir, msg.final))
		}
	case trendMsg:
		if m.deb != nil && msg.dir == m.deb.dir {
			m.deb.trend = msg.rows
		}
	case StopMsg:
		if m.running {
			return m.leave()
		}
		if m.screen == scrWizard || m.screen == scrCost {
			m.out.Cancelled = true
		}
		return m, tea.Quit
	case tea.KeyPressMsg:
		var c tea.Cmd
		m, c = m.handleKey(msg)
		cmds = append(cmds, c)
	case tea.MouseWheelMsg:
		m = m.wheel(msg)
	case tea.MouseClickMsg:
		m = m.click(msg)
	default:
		if m.menu != nil {
			var c tea.Cmd
			m, c = m.updateMenu(msg)
			cmds = append(cmds, c)
		} else if m.screen == scrWizard && m.wiz != nil {
			var c tea.Cmd
			m, c = m.updateWizard(msg)
			cmds = append(cmds, c)
		}
	}
	cmds = append(cmds, m.wantDocs()...)
	var c tea.Cmd
	m, c = m.follow()
	cmds = append(cmds, c)
	return m, tea.Batch(cmds...)
}

// clearStaleHeld clears the status line saying another process runs a
// bug once that run is seen to have ended (its row or its debate read
// again without a live holder).
func (m *Model) clearStaleHeld() {
	if m.heldNote == "" {
		return
	}
	ended := false
	if i := slices.IndexFunc(m.browser.rows, func(r *browserRow) bool { return r.dir.Dir == m.heldNote }); i >= 0 && m.browser.rows[i].sum != nil {
		ended = !m.browser.rows[i].held()
	}
	if m.deb != nil && m.bug != nil && m.bug.Dir == m.heldNote {
		ended = m.deb.heldBy == ""
	}
	if ended {
		m.status, m.heldNote = "", ""
	}
}

// handleKey routes a key press: ctrl+c first, then an open menu, the help
// overlay, and the screen.
func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if key.Matches(msg, m.keys.ForceQuit) {
		if m.running {
			return m.leave()
		}
		m.out.Cancelled = m.screen == scrWizard || m.screen == scrCost
		return m, tea.Quit
	}
	if m.errShown { // a key dismisses the error: it no longer decides the exit
		m.errShown, m.status, m.out.Err = false, "", nil
		if m.deb != nil && m.deb.state == "error" {
			m.deb.reason = ""
		}
		return m, nil
	}
	if m.menu != nil && !m.menuHidden {
		if key.Matches(msg, m.keys.Back) {
			return m.menuBack()
		}
		return m.menuKey(msg)
	}
	if m.ask != nil {
		return m.pendingKey(msg)
	}
	if m.help { // ↑/↓ scroll a help taller than the window; any other key closes it
		switch {
		case key.Matches(msg, m.keys.Down, m.keys.PageDown):
			m.helpOff++
		case key.Matches(msg, m.keys.Up, m.keys.PageUp):
			m.helpOff = max(0, m.helpOff-1)
		default:
			m.help, m.helpOff = false, 0
		}
		return m, nil
	}
	switch m.screen {
	case scrBrowser:
		return m.browserKey(msg)
	case scrWizard:
		return m.wizardKey(msg)
	case scrCost:
		return m.costKey(msg)
	case scrDebate:
		return m.debateKey(msg)
	case scrReview:
		return m.reviewKey(msg)
	}
	return m, nil
}

// wizardKey handles the wizard's back keys, then feeds the form: shift+tab
// and esc go back a field, and from a page's first field to the last field
// of the page before; esc on the very first field cancels.
func (m Model) wizardKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	esc := key.Matches(msg, m.keys.Back)
	if !esc && msg.String() != "shift+tab" {
		return m.updateWizard(msg)
	}
	if m.wiz.form.GetFocusedField() != m.wiz.first {
		return m.updateWizard(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	}
	if !m.wiz.back() {
		if esc {
			return m.backFromSetup()
		}
		return m, nil
	}
	m.sizeWizard()
	cmd := m.wiz.form.Init()
	m.wiz.focusLast()
	return m, cmd
}

// backFromSetup leaves the wizard or the cost screen.
func (m Model) backFromSetup() (Model, tea.Cmd) {
	if m.opts.Bug != nil {
		m.out.Cancelled = true // nothing started: a cancel, not a success
		return m, tea.Quit
	}
	m.screen = scrBrowser
	m.wiz = nil
	return m, nil
}

func (m Model) browserKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	b := &m.browser
	listH := m.lay.rows
	if b.filtering {
		switch msg.String() {
		case "enter", "esc":
			b.filtering = false
			b.filter.Blur()
			if msg.String() == "esc" {
				b.filter.SetValue("")
				b.refilter()
				b.keepVisible(listH)
			}
			return m, nil
		}
		var c tea.Cmd
		b.filter, c = b.filter.Update(msg)
		b.refilter()
		b.keepVisible(listH)
		return m, c
	}
	switch {
	case key.Matches(msg, m.keys.Back):
		// esc clears an applied filter; on the plain list it does nothing
		// (q quits)
		if b.filter.Value() != "" {
			b.filter.SetValue("")
			b.refilter()
			b.keepVisible(listH)
		}
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.help = true
	case key.Matches(msg, m.keys.Up):
		b.move(-1, listH)
	case key.Matches(msg, m.keys.Down):
		b.move(1, listH)
	case key.Matches(msg, m.keys.PageUp):
		b.move(-listH, listH)
	case key.Matches(msg, m.keys.PageDown):
		b.move(listH, listH)
	case key.Matches(msg, m.keys.Top):
		b.move(-len(b.visible), listH)
	case key.Matches(msg, m.keys.Bottom):
		b.move(len(b.visible), listH)
	case msg.String() == "o":
		if r := b.selected(); r != nil {
			return m, m.openFile(r.recordPath())
		}
	case msg.String() == "y":
		return m, m.copyPath(m.focusedPath())
	case key.Matches(msg, m.keys.Sort):
		b.cycleSort(listH)
		return m, statusCmd("sorted: " + b.sortName())
	case key.Matches(msg, m.keys.Filter):
		b.filtering = true
		return m, b.filter.Focus()
	case key.Matches(msg, m.keys.Enter):
		if r := b.selected(); r != nil && r.rev != nil {
			return m, loadReviewCmd(r.dir.Dir, 0)
		}
		if r := b.selected(); r != nil && r.sum == nil && r.err == nil {
			// not read yet: read it now, then open it
			return m, indexAndLoadCmd(m.opts.Register, r.dir)
		}
		if r := b.selected(); r != nil && r.sum != nil {
			if r.sum.Count == 0 {
				return m, statusCmd(fmt.Sprintf("%s has no debate yet: n starts one", r.sum.Bug.ID))
			}
			return m, loadNthDebateCmd(r.sum.Bug, 0) // the newest, archived or not
		}
	case key.Matches(msg, m.keys.New):
		r := b.selected()
		switch {
		case r == nil || r.sum == nil:
		case r.sum.Bug.Done:
			return m, statusCmd(fmt.Sprintf("%s is closed by DONE.md: moot starts no debate there", r.sum.Bug.ID))
		case r.dir.Question:
			return m, statusCmd(fmt.Sprintf("%s is a question: its folder holds one debate; moot ask asks another", r.sum.Bug.ID))
		case r.resumable():
			return m, statusCmd(fmt.Sprintf("%s has an unfinished debate: r resumes it", r.sum.Bug.ID))
		case r.pendingDecision() && pendingResult(r.sum.Bug) != nil:
			m.ask = newPendingAsk(r.sum.Bug, pendingResult(r.sum.Bug))
			return m, nil
		default:
			return m.beginSetup(r.sum.Bug)
		}
	case key.Matches(msg, m.keys.Resume):
		r := b.selected()
		if r != nil && r.held() {
			m.status, m.statusUntil = fmt.Sprintf("%s is run by %s: enter watches it", r.sum.Bug.ID, holderLine(r.sum.Latest.Holder)), m.clock().Add(4*time.Second)
			m.heldNote = r.dir.Dir // the line goes when that run ends
			return m, nil
		}
		if r == nil || !r.resumable() {
			return m, func() tea.Msg { return noteMsg(notResumable(r)) }
		}
		m.bug = r.sum.Bug
		m.opts.Resume = true
		return m, loadDebateCmd(m.bug)
	}
	return m, nil
}

// beginSetup opens the setup wizard for a new debate on bug.
func (m Model) beginSetup(bug *bugfolder.Bug) (Model, tea.Cmd) {
	m.bug = bug
	m.problem, m.probErr = nil, nil
	m.wiz = newWizard(m.bug, m.opts.Config, m.opts.Status, engine.Setup{}, m.opts.choices())
	m.wiz.probing = m.probing
	m.sizeWizard()
	m.screen = scrWizard
	return m, tea.Batch(assemblePCmd(m.bug), m.wiz.form.Init())
}

func statusCmd(s string) tea.Cmd { return func() tea.Msg { return statusMsg(s) } }

// updateWizard feeds the wizard's form and moves through its stages.
func (m Model) updateWizard(msg tea.Msg) (Model, tea.Cmd) {
	f, c := m.wiz.form.Update(msg)
	if form, ok := f.(*huh.Form); ok {
		m.wiz.form = form
	}
	switch m.wiz.form.State {
	case huh.StateAborted:
		return m.backFromSetup()
	case huh.StateCompleted:
		if m.wiz.advance() {
			m.cost = costState{setup: m.wiz.setup(m.bug), criteria: m.wiz.criteriaList()}
			m.screen = scrCost
			return m, m.planCost()
		}
		m.sizeWizard()
		return m, m.wiz.form.Init()
	}
	return m, c
}

// menuKey scrolls a menu taller than the window: pgup/pgdn, ↑ on its
// first choice (instead of wrapping to the last), and ↑/↓ while it is
// scrolled up; else the key goes to the menu.
func (m Model) menuKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	page := max(1, (m.h-4)/2)
	up, down := key.Matches(msg, m.keys.Up), key.Matches(msg, m.keys.Down)
	if m.menuTyping() && msg.Text != "" {
		return m.updateMenu(msg) // a letter or a space typed in a field, never a scroll key
	}
	switch {
	case key.Matches(msg, m.keys.PageUp):
		m.menuOff = m.clampMenuOff(m.menuOff + page)
		return m, nil
	case key.Matches(msg, m.keys.PageDown):
		m.menuOff = m.clampMenuOff(m.menuOff - page)
		return m, nil
	case m.menuOff > 0 && (up || down):
		m.menuOff = m.clampMenuOff(m.menuOff + map[bool]int{true: 1, false: -1}[up])
		return m, nil
	}
	before := cursorLine(m.menu.form.View())
	nm, cmd := m.updateMenu(msg)
	if up && nm.menu == m.menu && cursorLine(nm.menu.form.View()) > before && m.clampMenuOff(1) > 0 {
		// ↑ on the first choice wrapped to the last: undo it, scroll up
		nm, _ = nm.updateMenu(tea.KeyPressMsg{Code: tea.KeyDown})
		nm.menuOff = 1
	}
	return nm, cmd
}

// menuTyping reports whether the menu's focused field takes text (a note,
// a timeout), where letters and the space are text, not keys.
func (m Model) menuTyping() bool {
	switch m.menu.form.GetFocusedField().(type) {
	case *huh.Input, *huh.Text:
		return true
	}
	return false
}

// cursorLine is the line of a menu's view that holds its cursor (-1).
func cursorLine(view string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, "> ") {
			return i
		}
	}
	return -1
}

// clampMenuOff keeps a menu's scroll within what stands above its end.
func (m Model) clampMenuOff(off int) int {
	_, off = menuWindow(m.menu.form.WithWidth(m.lay.menuFormW).View()+"\n"+m.menuKeys(), m.h-2, off)
	return off
}

// openMenu shows n over the view, fitted to the window, and returns its
// form's first command.
func (m *Model) openMenu(n *menu) tea.Cmd {
	m.menu, m.menuHidden, m.menuOff = n, false, 0
	cmd := n.form.Init()
	m.fitMenu()
	return cmd
}

// fitMenu sizes the open menu's form to the window.
func (m *Model) fitMenu() { m.menu.form = m.fitForm(m.menu.form, m.lay.menuFormW, 0) }

// fitForm sizes a huh form: huh lays a form out only when the form itself
// receives a window size, so it gets one at the size it is drawn.
func (m Model) fitForm(f *huh.Form, w, h int) *huh.Form {
	f = f.WithWidth(w)
	if h > 0 {
		f = f.WithHeight(h)
	}
	if nf, _ := f.Update(tea.WindowSizeMsg{Width: w, Height: max(h, m.h)}); nf != nil {
		if form, ok := nf.(*huh.Form); ok {
			f = form
		}
	}
	return f
}

// sizeWizard fits the wizard's form to the window.
func (m *Model) sizeWizard() {
	if m.wiz != nil {
		h := m.lay.wizH
		if note := m.wiz.restrictedNote(); note != "" { // it stands above the form
			h = max(4, h-lipgloss.Height(wrapLines(note, m.w)))
		}
		m.wiz.form = m.fitForm(m.wiz.form, m.lay.wizW, h)
	}
}

// plan prices a setup (Options.planOf, else engine.NewPlan). It reads
// every past final answer of the register (what the plan learns from):
// never on the UI's goroutine.
func (o Options) plan(s engine.Setup, cfg *harness.Config) (*engine.Plan, error) {
	if o.planOf != nil {
		return o.planOf(s, cfg)
	}
	return engine.NewPlan(s, cfg)
}

// planMsg carries a plan priced in the background; seq says which
// request it answers (an older one, for choices since changed, is
// dropped).
type planMsg struct {
	seq   int
	setup engine.Setup
	plan  *engine.Plan
	err   error
}

// planCost prepares the setup once P is there and returns the command
// that prices it in the background (the cost screen says it is
// estimating until the plan arrives).
func (m *Model) planCost() tea.Cmd {
	if m.problem == nil && m.probErr == nil && m.cost.setup.Problem == nil {
		return nil
	}
	if m.probErr != nil && m.cost.setup.Problem == nil { // a question's P comes made (moot ask)
		m.cost.err = m.probErr
		return nil
	}
	s := m.cost.setup
	if s.Protocol == nil {
		s.Protocol = m.opts.Protocol
	}
	if pk, ok := s.Protocol.(engine.Packer); ok && s.Problem == nil {
		s.Problem = pk.Pack(s, m.problem, m.cost.criteria) // the protocol's own P (tradeoff's evidence packet)
		s.Criteria = m.cost.criteria
	}
	if s.Problem == nil {
		s.Problem = m.problem
	}
	if s.Parallel == 0 {
		s.Parallel = engine.DefaultParallel(s)
	}
	if s.Protocol == nil {
		s.Protocol = m.opts.Protocol
	}
	if !s.Budget.Set() {
		s.Budget = m.opts.Budget // the wizard's setup takes the flags' and the engines file's cap
	}
	m.cost.setup = s
	m.cost.plan, m.cost.err, m.cost.button, m.cost.scroll = nil, nil, 0, 0
	m.planSeq++
	m.cost.estimating = true
	seq, cfg, opts := m.planSeq, m.opts.Config, m.opts
	return func() tea.Msg {
		p, err := opts.plan(s, cfg)
		return planMsg{seq: seq, setup: s, plan: p, err: err}
	}
}

// planArrived takes the plan the cost screen waits for (one for earlier
// choices, or that arrives after the screen was left, is dropped) and
// starts the debate if Start was chosen while it was being priced.
func (m Model) planArrived(msg planMsg) (Model, tea.Cmd) {
	if msg.seq != m.planSeq || m.screen != scrCost || !m.cost.estimating {
		return m, nil
	}
	m.cost.estimating = false
	m.cost.setup, m.cost.plan, m.cost.err = msg.setup, msg.plan, msg.err
	if m.cost.plan == nil || len(m.cost.plan.Refusals) > 0 {
		m.cost.button, m.cost.startWhenReady = 1, false // it cannot start: Edit is where Enter leads
	}
	if m.cost.startWhenReady {
		m.cost.startWhenReady = false
		if m.cost.plan != nil && len(m.cost.plan.Refusals) == 0 {
			return m.startRun()
		}
	}
	return m, nil
}

func (m Model) costKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	page := max(1, m.costAvail()-1)
	switch {
	case key.Matches(msg, m.keys.Up):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll - 1)
	case key.Matches(msg, m.keys.Down):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll + 1)
	case key.Matches(msg, m.keys.PageUp):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll - page)
	case key.Matches(msg, m.keys.PageDown):
		m.cost.scroll = m.clampCostScroll(m.cost.scroll + page)
	case key.Matches(msg, m.keys.Left), msg.String() == "shift+tab":
		m.cost.button = (m.cost.button + 2) % 3
	case key.Matches(msg, m.keys.Right), msg.String() == "tab":
		m.cost.button = (m.cost.button + 1) % 3
	case key.Matches(msg, m.keys.Back) && m.wiz != nil:
		m.wiz.stage = stageEngines // back one step: the wizard's last page
		m.wiz.build()
		m.sizeWizard()
		m.screen = scrWizard
		cmd := m.wiz.form.Init()
		m.wiz.focusLast()
		return m, cmd
	case key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Quit):
		return m.backFromSetup()
	case key.Matches(msg, m.keys.Enter):
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

// probedMsg carries the background probe's result.
type probedMsg map[string]EngineStatus

// engineOptions are the options of a run driven by this UI.
func (m Model) engineOptions(b *bridge, command string) engine.Options {
	proto := m.opts.Protocol
	if p := m.protocol(); p != nil {
		proto = p // a debate resumed from the browser runs the protocol its problema.md names
	}
	return engine.Options{Protocol: proto, Config: m.opts.Config, Harness: m.opts.Harness, Supervisor: b, Sink: b.sink, Command: command, Version: m.opts.Version, Now: m.opts.Now, Check: m.opts.Check,
		AcceptEngineChange: m.acceptEngines, AcceptedBy: "human", Budget: m.opts.ResumeBudget}
}

// startRun starts the debate of the cost screen.
func (m Model) startRun() (Model, tea.Cmd) {
	s := m.cost.setup
	b := newBridge()
	m.bridge, m.running = b, true
	m.out.BugID = s.Bug.ID
	m.deb = newLiveView(s)
	m.forgetDocsIn(s.Bug.DebateFolder())
	// until the run logs its plan: the same estimate
	m.deb.estUSD, m.deb.estUnknown, m.deb.hasEstimate = m.cost.plan.USD, !m.cost.plan.USDKnown, true
	m.deb.startedAt = m.clock()
	m.deb.sessionStart = m.deb.startedAt
	m.screen, m.tab, m.focus, m.zoom, m.conv = scrDebate, 1, 0, false, nil
	opts := m.engineOptions(b, "moot run "+s.Bug.ID)
	live := livefile.New() // streamed figures for another moot watching
	opts.Sink = live.Wrap(opts.Sink)
	go func() {
		res, err := engine.Start(b.ctx, s, opts)
		live.Close()
		b.ch <- runDoneMsg{res, err}
	}()
	return m, tea.Batch(waitForEngine(b.ch), tick(), m.spin.Tick)
}

// startResume resumes the debate on screen.
func (m *Model) startResume() tea.Cmd {
	b := newBridge()
	m.bridge, m.running = b, true
	m.out.BugID = m.bug.ID
	m.deb.live, m.deb.state = true, "running"
	m.deb.sessionStart, m.deb.finishedAt = m.clock(), time.Time{}
	bug := m.bug
	opts := m.engineOptions(b, "moot resume "+bug.ID)
	live := livefile.New()
	opts.Sink = live.Wrap(opts.Sink)
	go func() {
		res, err := engine.Resume(b.ctx, bug, opts)
		live.Close()
		b.ch <- runDoneMsg{res, err}
	}()
	return tea.Batch(waitForEngine(b.ch), tick(), m.spin.Tick)
}

// openDebate shows a debate read from disk.
func (m Model) openDebate(msg debateLoadedMsg) Model {
	if msg.err != nil { // shown wrapped until a key
		m.status, m.statusUntil, m.errShown = msg.err.Error(), m.clock().Add(24*time.Hour), true
		m.opts.Resume = false
		return m
	}
	if m.opts.Resume && msg.deb.State == bugfolder.StateDone {
		m.status, m.statusUntil = "the debate is already finished; nothing to resume", m.clock().Add(6*time.Second)
		m.opts.Resume = false
	}
	m.bug = msg.bug
	m.deb = viewFromFiles(msg.bug, msg.deb)
	m.deb.nth, m.deb.of = msg.nth, msg.of
	m.now = m.clock() // a debate run elsewhere counts its elapsed time to now
	m.out.Dir = msg.deb.Dir
	m.screen, m.focus, m.zoom, m.conv = scrDebate, 0, false, nil
	m.tab = 1 + m.deb.current
	if msg.deb.Final != nil {
		m.tab = m.finalTab()
	}
	return m
}

// refreshDebate shows the debate on screen read again (another process
// writes it), keeping the tab, the focus and the zoom.
// A debate another moot process runs notifies the terminal when it comes
// to wait for a decision or ends (watchedNote), as a debate run here does.
func (m Model) refreshDebate(msg debateLoadedMsg) (Model, tea.Cmd) {
	if msg.err != nil || m.deb == nil || m.running || msg.deb.Dir != m.deb.dir {
		return m, nil
	}
	was, other := bugfolder.State(m.deb.state), m.deb.heldBy != ""
	tab, focus := m.tab, m.focus
	m.deb = viewFromFiles(msg.bug, msg.deb)
	m.tab, m.focus = min(tab, m.finalTab()), focus
	if m.zoom {
		m.refreshZoom()
	}
	if n := watchedNote(m.deb.bugID, was, msg.deb.State); other && n != "" {
		return m, notify(n)
	}
	return m, nil
}

// leave stops a running debate (it stays resumable) and exits when the
// engine has written its last event.
func (m Model) leave() (Model, tea.Cmd) {
	m.menu, m.aside = nil, nil
	if !m.running { // it finished meanwhile: nothing to stop, nothing to resume
		if m.leaveToBrowser {
			return m.leftToBrowser()
		}
		return m, tea.Quit
	}
	m.out.Left = true
	if m.bridge != nil {
		m.bridge.cancel()
	}
	m.status, m.statusUntil = "stopping the calls in flight…", m.clock().Add(time.Minute)
	return m, nil
}

// leftToBrowser is the end of a debate left from the browser: its calls
// stopped and its end logged, the list comes back (its row read again, it
// shows the debate as resumable) and the browser's exit is its own again.
func (m Model) leftToBrowser() (Model, tea.Cmd) {
	id := m.out.BugID
	m.leaveToBrowser, m.running, m.bridge, m.errShown = false, false, nil, false
	m, cmd := m.backToBrowser()
	m.status, m.statusUntil = fmt.Sprintf("left %s: everything is kept; r resumes it", id), m.clock().Add(6*time.Second)
	return m, cmd
}

// handleEngine applies a batch of events, then a question or the end.
func (m Model) handleEngine(msg engineMsg) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, ev := range msg.events {
		fromFinal := m.finalTab() - m.tab // the Convergence and Final tabs move up when a stop drops the rounds after it
		m.deb.apply(ev)
		if fromFinal >= 0 && fromFinal <= 1 {
			m.tab = m.finalTab() - fromFinal
		}
		if ev.Type == engine.EvRoundStarted && !m.zoom && m.tab >= 1 && m.tab <= m.deb.lastRound()+1 {
			m.tab, m.focus = 1+ev.Round, 0
		}
		if ev.Type == engine.EvConvergence {
			cmds = append(cmds, loadConvergenceCmd(m.deb.dir, m.deb.lang))
		}
		if ev.Type == engine.EvRoundStarted || ev.Type == engine.EvDecision || ev.Type == engine.EvJudgeStarted ||
			ev.Type == engine.EvCallFinished && m.keepsArtifacts() {
			cmds = append(cmds, loadArgueCmd(m.deb.dir)) // argue rewrites its files as each call lands
		}
		if ev.Type == engine.EvJudgeStarted && !m.zoom {
			m.tab = m.finalTab()
		}
		if m.zoom && m.zoomPane() != nil && ev.Type == engine.EvOutput {
			m.refreshZoom()
		}
		if ev.Type == engine.EvCallFinished {
			cmds = append(cmds, m.refreshBudget()) // its spend and calls in flight moved
		}
	}
	if m.deb.dir != "" {
		m.out.Dir = m.deb.dir
	}
	switch then := msg.then.(type) {
	case askQuorumMsg:
		cmds = append(cmds, notify(m.deb.bugID+" needs a decision: the quorum was lost"))
		if m.out.Left {
			then.reply <- quorumAnswer{err: errors.New("left")}
		} else {
			cmds = append(cmds, m.openMenu(quorumMenu(then.q, then.reply, m.unpriced, m.lay.menuFormW)))
			m.zoom, m.help = false, false
		}
	case askJudgeMsg:
		cmds = append(cmds, notify(m.deb.bugID+" needs a decision: the "+finalWord(then.j)+" failed"))
		if m.out.Left {
			then.reply <- judgeAnswer{err: errors.New("left")}
		} else {
			cmds = append(cmds, m.openMenu(m.judgeMenu(then.j, then.reply)))
			m.zoom, m.help = false, false
		}
	case askBudgetMsg:
		var cmd tea.Cmd
		m, cmd = m.askBudget(then)
		cmds = append(cmds, cmd)
	case runDoneMsg:
		m.running = false
		if m.menu != nil && m.menu.kind == menuQuit {
			m.menu, m.aside = nil, nil // "leave this debate?" has no object any more
		}
		var changed *engine.EngineChangeError
		if errors.As(then.err, &changed) && !m.acceptEngines && !m.out.Left {
			m.out.Err = then.err // leaving without accepting exits 2
			return m, m.openMenu(engineChangeMenu(changed.Diffs))
		}
		m.out.Result, m.out.Err = then.res, then.err
		if then.res != nil {
			m.out.Dir = then.res.Dir
			m.deb.state = string(then.res.Outcome)
			m.deb.reason = then.res.Reason
		}
		if then.err != nil {
			m.deb.state = "error"
			m.deb.reason = then.err.Error()
			if !m.out.Left {
				m.status, m.statusUntil, m.errShown = then.err.Error(), m.clock().Add(24*time.Hour), true
			}
		}
		m.deb.live = false
		if m.deb.finishedAt.IsZero() {
			m.deb.finishedAt = m.clock()
		}
		if m.out.Left && m.leaveToBrowser {
			return m.leftToBrowser()
		}
		if m.out.Left {
			return m, tea.Quit
		}
		cmds = append(cmds, notify(m.deb.bugID+" finished: "+m.deb.state))
		if then.res != nil && then.res.Outcome == engine.OutcomeDone {
			if !m.zoom { // a zoom stays on what the user opened
				m.tab = m.finalTab()
			}
			m.deb.judge.path = filepath.Join(m.deb.dir, m.deb.lang.Names().Final)
			cmds = append(cmds, loadFinalCmd(m.deb.dir, m.deb.judge.path))
		}
		cmds = append(cmds, loadConvergenceCmd(m.deb.dir, m.deb.lang), loadArgueCmd(m.deb.dir))
		return m, tea.Batch(cmds...)
	}
	if m.running {
		cmds = append(cmds, waitForEngine(msg.ch))
	}
	return m, tea.Batch(cmds...)
}

// updateMenu feeds the open menu's form and acts on its answer.
func (m Model) updateMenu(msg tea.Msg) (Model, tea.Cmd) {
	f, c := m.menu.form.Update(msg)
	if form, ok := f.(*huh.Form); ok {
		m.menu.form = form
	}
	switch m.menu.form.State {
	case huh.StateAborted:
		return m.reopenMenu()
	case huh.StateCompleted:
		return m.menuDone()
	}
	return m, c
}

// menuBack is esc in a menu: a decision menu steps aside so the panes can
// be read (m brings it back); a follow-up menu goes back to the one it
// came from; the quit question closes.
func (m Model) menuBack() (Model, tea.Cmd) {
	mn := m.menu
	switch mn.kind {
	case menuBudget, menuBudgetRaise:
		return m.budgetBack(mn)
	case menuQuorum, menuJudge:
		m.menuHidden = true
		return m, nil
	case menuQuorumOther:
		if mn.first != nil && mn.form.GetFocusedField() != mn.first {
			return m, m.openMenu(otherMenu(mn)) // its second page: back to its first
		}
		return m, m.openMenu(quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
	case menuSwapEngine, menuTimeout:
		return m, m.openMenu(otherMenu(mn))
	case menuSwapConfirm:
		return m, m.openMenu(swapMenu(mn, m.opts.Config, m.opts.Status))
	case menuJudgeHuman, menuJudgeEngine:
		return m, m.openMenu(m.judgeMenu(mn.j, mn.jReply))
	case menuJudgeConfirm:
		return m, m.openMenu(judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
	case menuQuit:
		m.menu, m.menuHidden, m.aside = m.aside, m.aside != nil, nil
		return m, nil
	}
	m.menu = nil
	return m, nil
}

// reopenMenu puts a question back when its form was aborted: a decision
// must be answered (or the debate left with ctrl+c).
func (m Model) reopenMenu() (Model, tea.Cmd) {
	mn := m.menu
	switch mn.kind {
	case menuQuit:
		m.menu, m.menuHidden, m.aside = m.aside, m.aside != nil, nil
		return m, nil
	case menuDecide:
		m.menu = nil
		return m, nil
	case menuEngineChange:
		m.menu = nil
		return m, tea.Quit
	case menuTrust:
		return m.trustAnswered("quit")
	case menuJudge, menuJudgeHuman, menuJudgeEngine, menuJudgeConfirm:
		cmd := m.openMenu(m.judgeMenu(mn.j, mn.jReply))
		return m, cmd
	case menuBudget, menuBudgetRaise:
		return m, m.openMenu(budgetMenu(mn.bud))
	default:
		cmd := m.openMenu(quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
		return m, cmd
	}
}

// menuDone acts on a completed menu.
func (m Model) menuDone() (Model, tea.Cmd) {
	mn := m.menu
	answerQ := func(d engine.QuorumDecision) (Model, tea.Cmd) {
		d.By = "human"
		mn.qReply <- quorumAnswer{d: d}
		m.menu = nil
		m.deb.state = "running"
		return m, nil
	}
	answerJ := func(d engine.JudgeDecision) (Model, tea.Cmd) {
		d.By = "human"
		mn.jReply <- judgeAnswer{d: d}
		m.menu = nil
		m.deb.state = "running"
		return m, nil
	}
	next := func(n *menu) (Model, tea.Cmd) {
		cmd := m.openMenu(n)
		return m, cmd
	}
	switch mn.kind {
	case menuBudget, menuBudgetRaise:
		return m.budgetDone(mn)
	case menuQuorum:
		switch mn.choice {
		case "continue":
			return answerQ(engine.QuorumDecision{Choice: engine.QuorumContinue})
		case "retry":
			return answerQ(engine.QuorumDecision{Choice: engine.QuorumRetry})
		case "cancel":
			return answerQ(engine.QuorumDecision{Choice: engine.QuorumCancel})
		default:
			return next(otherMenu(mn))
		}
	case menuQuorumOther:
		switch mn.choice {
		case "back":
			return next(quorumMenu(mn.q, mn.qReply, m.unpriced, m.lay.menuFormW))
		case "swap":
			return next(swapMenu(mn, m.opts.Config, m.opts.Status))
		case "timeout":
			return next(timeoutMenu(mn))
		default:
			return answerQ(engine.QuorumDecision{Choice: engine.QuorumPause})
		}
	case menuSwapEngine:
		if mn.engine == "" { // "choose to go back": one step, as esc
			return next(otherMenu(mn))
		}
		if ec, ok := m.opts.Config.Engines[mn.engine]; ok && ec.External {
			return next(swapConfirmMenu(mn))
		}
		return answerQ(engine.QuorumDecision{Choice: engine.QuorumSwap, SolverID: mn.solver, Engine: mn.engine})
	case menuSwapConfirm:
		if !mn.confirm { // no: back to the engines, as esc
			return next(swapMenu(mn, m.opts.Config, m.opts.Status))
		}
		return answerQ(engine.QuorumDecision{Choice: engine.QuorumSwap, SolverID: mn.solver, Engine: mn.engine})
	case menuTimeout:
		d, _ := time.ParseDuration(mn.timeout)
		return answerQ(engine.QuorumDecision{Choice: engine.QuorumSetTimeout, SolverID: mn.solver, Timeout: d})
	case menuJudge:
		switch mn.choice {
		case "retry":
			return answerJ(engine.JudgeDecision{Choice: engine.JudgeRetry})
		case "cancel":
			return answerJ(engine.JudgeDecision{Choice: engine.JudgeCancel})
		case "engine":
			return next(judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
		default:
			return next(humanMenu(mn, m.lay.menuFormW))
		}
	case menuJudgeEngine:
		if mn.engine == "" {
			return next(m.judgeMenu(mn.j, mn.jReply))
		}
		if ec, ok := m.opts.Config.Engines[mn.engine]; ok && ec.External {
			return next(judgeConfirmMenu(mn))
		}
		return answerJ(engine.JudgeDecision{Choice: engine.JudgeRetry, Engine: mn.engine})
	case menuJudgeConfirm:
		if !mn.confirm { // no: back to the engines, as esc
			return next(judgeEngineMenu(mn, m.opts.Config, m.opts.Status))
		}
		return answerJ(engine.JudgeDecision{Choice: engine.JudgeRetry, Engine: mn.engine})
	case menuJudgeHuman:
		if mn.label == "" {
			return next(m.judgeMenu(mn.j, mn.jReply))
		}
		return answerJ(engine.JudgeDecision{Choice: engine.JudgeHuman, Winner: mn.label})
	case menuQuit:
		m.menu, m.menuHidden, m.aside = m.aside, m.aside != nil, nil // keep watching: the decision still waits
		if mn.choice == "leave" {
			m.leaveToBrowser = m.fromBrowser() // the list stays open: r resumes it there
			return m.leave()
		}
	case menuEngineChange:
		m.menu = nil
		if mn.choice != "accept" {
			return m, tea.Quit
		}
		m.acceptEngines, m.out.Err = true, nil
		return m, m.startResume()
	case menuTrust:
		return m.trustAnswered(mn.choice)
	case menuDecide:
		return m.decideAnswered(mn)
	}
	return m, nil
}

// judgeMenu builds the judge-failure menu: its retry priced on the
// judge's engine, "another engine" offered when one passes the probe; no
// retry for a hand-run debate (it records no judge engine).
func (m Model) judgeMenu(j engine.JudgeFailure, reply chan judgeAnswer) *menu {
	if j.Engine == "" {
		j.Engine = m.deb.judge.engine
	}
	switchable := m.opts.Config != nil && len(engineOptions(j.Engines, j.Engine, m.opts.Config, m.opts.Status)) > 0
	return judgeMenu(j, reply, m.unpriced(j.Engine), switchable, !m.deb.handRun)
}

// trustAnswered trusts the engines file and starts the probe, or leaves
// with an input error naming the file (exit 2) when it is not trusted.
func (m Model) trustAnswered(choice string) (Model, tea.Cmd) {
	req := m.opts.Untrusted
	m.menu = nil
	if choice == "trust" {
		if err := req.Trust(); err != nil {
			m.out.Err = err
			return m, tea.Quit
		}
		m.opts.Untrusted = nil
		if probe := m.opts.Probe; probe != nil {
			return m, func() tea.Msg { return probedMsg(probe(context.Background())) }
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
