package engine

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
)

// Options configure a run or a resume.
type Options struct {
	// Protocol is the protocol of the debate a Resume continues (cli picks
	// it by what problema.md records); a Start runs its Setup's.
	Protocol Protocol
	// Folder, when set, is the folder a Resume continues instead of the
	// bug's debate: a seated run's, which the kind of Kinds that owns it
	// reopens (SeatedKind), handed Host; the bug may then be nil.
	Folder  string
	Kinds   []SeatedKind
	Host    any
	Config  *harness.Config
	Harness harness.Options
	// Engines replaces the adapters of the named engines (tests).
	Engines    map[string]harness.Engine
	Supervisor Supervisor
	// Sink receives every event. It is called from several goroutines, one
	// call at a time, and must not block for long.
	Sink func(Event)
	// Archived, when set, is told where a Start moved the bug's previous
	// debate (old, as Start read it; to, its new folder), before the new
	// debate's first event (ArchivedPendingNote says whether a decision
	// still waits there).
	Archived func(old *bugfolder.Debate, to string)
	// Command names the lock holder ("moot run").
	Command string
	Version string
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// Check, when set, vets the engines a debate uses before anything is
	// written (the front ends' probe); its error refuses the run.
	Check func(ctx context.Context, names []string) error
	// AcceptEngineChange lets a resume go on when an engine now resolves
	// to another kind, model, endpoint or argv than the debate locked: the
	// change is logged as an amendment decided by AcceptedBy.
	AcceptEngineChange bool
	AcceptedBy         string
	// ResumeTarget is what follows `moot resume` in printed advice: the
	// bug as the engineer named it, and the --config flag given ("" for
	// ResumeArgs of the bug's ID and EnginesFile).
	ResumeTarget string
	// EnginesFile is the engines file given with --config (absolute; ""
	// when moot found the project's or the user's itself). The setup and
	// resumed events record it (the path only), so a later moot show names
	// it in its moot resume hint.
	EnginesFile string
	// RoundTimeout bounds each round's member calls (0: no bound beyond
	// each call's own timeout): a call still open when its round's limit
	// passes ends as timeout, like a call over its own limit, and the
	// round goes on to its quorum. The limit starts when the round starts
	// in this run.
	RoundTimeout time.Duration
	// DebateTimeout bounds this run of the debate (0: none): when it
	// passes, the calls in flight are stopped and the debate stops
	// cancelled at a resumable point (nothing finished is repeated).
	DebateTimeout time.Duration
	// StopBy, set on a resume of a Stopper protocol's debate (argue), is a
	// manual stop by that human: the rounds end with the last complete
	// one and the final step runs on it (logged as a 'stop' decision).
	StopBy string
	// Budget, on a resume, sets a new cap (--max-usd, --max-tokens) over
	// the one the debate froze, logged as a decision.
	Budget Budget
	// Plan, on a Start, is the plan the front end priced and had accepted
	// for this very setup (NewPlan or NewPlanToRun, its Setup passed to
	// Start as is): Start runs on it rather than pricing the setup again,
	// which reads every past debate's final answer a second time before
	// the first call. A plan of another setup (another P) is ignored.
	Plan *Plan
}

// Outcome is how a run ended (bugfolder.Outcome: debate_finished logs it).
type Outcome = bugfolder.Outcome

// The outcomes of a run, and the exit codes front ends map them to.
const (
	// OutcomeDone: resposta-final.md was written (exit 0).
	OutcomeDone = bugfolder.OutcomeDone
	// OutcomeCancelled: cancelled by the engineer, a policy or an
	// interrupt; everything kept and resumable (exit 3).
	OutcomeCancelled = bugfolder.OutcomeCancelled
	// OutcomeWaiting: stopped at a decision (paused, or no human to ask);
	// kept and resumable (exit 4).
	OutcomeWaiting = bugfolder.OutcomeWaiting
)

// Result describes a finished run.
type Result struct {
	Outcome Outcome
	// Dir is the debate folder.
	Dir string
	// AlreadyDone is set when resume found a finished debate.
	AlreadyDone bool
	// Reason says why a debate stopped short of done.
	Reason string
	Calls  int
	Tokens int
	USD    float64
	// CostUnknown is set when some call recorded no cost (an engine
	// without a price): USD then counts only the priced calls (money.Total).
	CostUnknown  bool
	Winner       string
	Participants int
	N            int
	// TookOver names a stale lock's holder that was taken over.
	TookOver *bugfolder.LockInfo
	// Session is a resumed seated run's protocol session (its hooks, which
	// hold what the protocol reports of the round) and Seated how it
	// ended; Session is nil for a debate.
	Session Seated
	Seated  SeatedResult
}

// runner holds one debate's state while it runs.
type runner struct {
	opts  Options
	proto Protocol
	// beyond is docs/beyond.md's state (beyond.go).
	beyond beyond
	// panelRole, supportRole and finalRole are the protocol's roles.
	panelRole, supportRole, finalRole bugfolder.Role
	bug                               *bugfolder.Bug
	lang                              bugfolder.Lang
	mode                              bugfolder.Mode
	n, r                              int
	// last is the round the final step reads: r, or the round after which
	// the protocol's stop rule ended the debate.
	last   int
	p      string
	rubric []string

	solvers []string // agente-1..N
	critics []string // critic-1..C
	// engineOf maps a solver or critic id to its engine (amendments applied).
	engineOf    map[string]string
	judgeEngine string
	amendment   map[string]string
	// stopReason is why a Stopper (or a human) ended the debate early, after
	// round stopRound ("" when not).
	stopReason string
	stopRound  int
	// waived are the rounds that went on without their failed support
	// calls (SupportRequired).
	waived map[int]bool
	// lensOf is each participant's frozen lens (none: absent).
	lensOf      map[string]bugfolder.Lens
	timeoutOf   map[string]time.Duration
	flagTimeout time.Duration
	parallel    int
	// pFile is the debate's one shared copy of P for the calls' folders.
	pFile pShare

	// panel holds the solvers still in; narrowed is set once "continue
	// with fewer" has accepted a smaller panel.
	panel    map[string]bool
	narrowed bool

	adapters map[string]harness.Engine
	limits   map[string]harness.Limits
	w        *bugfolder.Writer
	slots    *callSlots
	// warm holds an engine's calls until its first call has written the
	// shared block to the provider's prompt cache.
	warm warmGate

	decisions []Event

	cacheMu sync.Mutex
	cache   map[int]map[string]*bugfolder.DebaterFile
	// artMu serializes the live rewrites of a protocol's own files.
	artMu sync.Mutex
	// ended is how the debate ended without its final step ("cancelled"),
	// for an Artifacts protocol's files (FinalInput.Ended).
	ended string
	// interrupted holds the calls an earlier session left cut off
	// (interruptedCalls), run again on resume.
	interrupted map[string]int
	// attempts holds the last attempt number per raw folder and id.
	attempts map[string]map[string]int
	// rows are the convergence metrics of the rounds measured so far.
	rows map[int]ConvergenceRow

	mu     sync.Mutex
	logErr error

	// logged is the event log as read so far (loggedEvents).
	logged eventLog

	// roundDeadline is the current round's limit (zero: none); it is set
	// before the round's calls start and read by them.
	roundDeadline time.Time

	// bud is the budget cap's state (nil: no cap); estimates are the
	// plan's figures per engine and learned their corrections.
	bud       *budget
	estimates []bugfolder.CostAccuracy
	learned   map[string]Learned
}

// errDebateLimit is the cause of a run stopped by Options.DebateTimeout.
var errDebateLimit = errors.New("the debate's time limit was reached")

func (r *runner) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

// durable lists the events that are synced to disk as they are logged:
// those a resume cannot rebuild from the files (the setup, decisions,
// judge outcomes, the end). Call and round events are appended without a
// sync; after a power loss, resume rebuilds them from the debater files.
var durable = map[EventType]bool{EvSetup: true, EvResumed: true, EvDecision: true, EvJudgeFailed: true, EvJudgeFinished: true, EvDebateFinished: true}

// emit records an event in the log (all but output deltas) and hands it to
// the sink.
func (r *runner) emit(ev Event) {
	if ev.Time.IsZero() {
		ev.Time = r.now()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Type != EvOutput && r.w != nil {
		logged := ev
		logged.Path = r.rel(ev.Path) // the log stores paths relative to the bug
		b, err := json.Marshal(logged)
		if err == nil {
			err = r.w.AppendEvent(b, durable[ev.Type])
		}
		if err != nil && r.logErr == nil {
			r.logErr = err
		}
	}
	if r.opts.Sink != nil {
		r.opts.Sink(ev)
	}
}

// rel makes a path relative to the bug folder, so the event log stays
// true when the register moves or is cloned elsewhere.
func (r *runner) rel(p string) string { return RelToBug(r.bug.Dir, p) }

// RelToBug makes an absolute path inside bugDir relative to it (others are
// returned as they are): how events name paths, in the log and on the
// --json stream alike.
func RelToBug(bugDir, p string) string {
	if p == "" || !filepath.IsAbs(p) || bugDir == "" {
		return p
	}
	if rel, err := filepath.Rel(bugDir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

// check reports a failure to write the event log (disk full, DONE.md…).
func (r *runner) check() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logErr
}

// prepareEngines readies the engines a debate (or its resume) uses: a
// restricted bug never reaches an external one, each passes its check (the
// probe) when Options has one, and each gets its adapter and limits.
func prepareEngines(ctx context.Context, opts Options, bug *bugfolder.Bug, names []string) (map[string]harness.Engine, map[string]harness.Limits, error) {
	if err := checkExternal(opts.Config, bug, names); err != nil {
		return nil, nil, err
	}
	if err := checkProjectAccess(opts.Config, names); err != nil {
		return nil, nil, err
	}
	if opts.Check != nil {
		if err := opts.Check(ctx, uniq(names)); err != nil {
			return nil, nil, err
		}
	}
	return buildAdapters(opts, names)
}

// buildAdapters makes an adapter for every engine the debate uses.
func buildAdapters(opts Options, names []string) (map[string]harness.Engine, map[string]harness.Limits, error) {
	adapters := map[string]harness.Engine{}
	limits := map[string]harness.Limits{}
	for _, name := range names {
		if _, ok := adapters[name]; ok {
			continue
		}
		ec, err := opts.Config.Engine(name)
		if err != nil {
			return nil, nil, err
		}
		limits[name] = harness.LimitsOf(ec)
		if a, ok := opts.Engines[name]; ok {
			adapters[name] = a
			continue
		}
		a, err := harness.New(ec, opts.Harness)
		if err != nil {
			return nil, nil, err
		}
		adapters[name] = a
	}
	return adapters, limits, nil
}

// refuse turns plan refusals into an input error.
func refuse(bug *bugfolder.Bug, reasons []string) error {
	return &bugfolder.InputError{Path: bug.Dir, Msg: "refused before anything was written: " + strings.Join(reasons, "; ")}
}

// checkExternal refuses external engines on a restricted bug.
func checkExternal(cfg *harness.Config, bug *bugfolder.Bug, names []string) error {
	if !bug.Restricted() {
		return nil
	}
	var ext []string
	seen := map[string]bool{}
	for _, n := range names {
		ec, err := cfg.Engine(n)
		if err != nil {
			return err
		}
		if ec.External && !seen[n] {
			seen[n] = true
			ext = append(ext, n)
		}
	}
	if len(ext) > 0 {
		return &bugfolder.InputError{Path: bug.Path(), Field: "visibility", Msg: fmt.Sprintf("restricted: the bug never reaches an external engine, and %s %s external; choose local engines", strings.Join(ext, ", "), pluralIs(len(ext)))}
	}
	return nil
}

func pluralIs(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// Start sets up a new debate on setup.Bug and runs it to its end (or to a
// decision that stops it). Everything that would refuse the debate is
// checked before anything is written.
func Start(ctx context.Context, s Setup, opts Options) (*Result, error) {
	if s.Protocol == nil {
		return nil, errors.New("start: the setup names no protocol")
	}
	bug := s.Bug
	if err := bugfolder.CheckWritable(bug.Dir); err != nil {
		return nil, err
	}
	if s.Problem == nil {
		p, err := bugfolder.AssembleP(bug)
		if err != nil {
			return nil, err
		}
		s.Problem = p
	}
	if s.Mode == "" && !bug.IsQuestion { // a question has no mode
		return nil, &bugfolder.InputError{Msg: "no mode: give diagnosis, repair or spec"}
	}
	limitMemory(len(s.Problem.Text))
	plan := opts.Plan
	if plan == nil || plan.Setup.Problem != s.Problem {
		var err error
		plan, err = newPlan(s, opts.Config, false) // the debate folder is read below
		if err != nil {
			return nil, err
		}
	}
	s.Problem = plan.Setup.Problem // redacted: what is written and sent
	if len(plan.Refusals) > 0 {
		return nil, refuse(bug, plan.Refusals)
	}
	all := append(append(append([]string{}, s.Solvers...), s.Critics...), s.Judge)
	adapters, limits, err := prepareEngines(ctx, opts, bug, all)
	if err != nil {
		return nil, err
	}
	// round 0's call folders are made while the debate is set up
	harness.PrepareScratch(callFolders(opts, s.Solvers, s.Parallel))
	dir := bug.DebateFolder()
	// a finished debate whose start problema.md records is moved aside on
	// that alone (the state and the start are all a new debate needs of
	// it); any other is read in full, its calls included
	old, err := bugfolder.ReadDebateState(dir, s.Lang)
	if err != nil || old.State != bugfolder.StateDone || old.Problem == nil || old.Problem.CreatedAt.IsZero() {
		if old, err = bugfolder.ReadDebate(dir, s.Lang); err != nil {
			return nil, err
		}
	}
	if err := unfinished(bug, old); err != nil {
		return nil, err
	}
	switch {
	case old.State == bugfolder.StateNoDebate, !old.Archivable():
	default:
		// a finished debate is never overwritten: move it aside, under its lock
		lk, err := bugfolder.AcquireLock(dir, opts.Command)
		if err != nil {
			return nil, err
		}
		// durable with problema.md (WriteProblem syncs the bug folder)
		to, err := bugfolder.MoveDebateAside(bug.Dir, old.ArchiveTime())
		lk.Release()
		if err != nil {
			return nil, err
		}
		if to != "" && opts.Archived != nil {
			opts.Archived(old, to)
		}
	}
	w, err := bugfolder.OpenWriter(bug.WriterRoot(), dir, s.Lang, opts.Command)
	if err != nil {
		return nil, err
	}
	defer w.Close()

	r := newRunner(s.Protocol, opts, bug, s.Lang, s.Mode, s.N, s.R, s.Problem.Text, s.Parallel, s.Timeout)
	r.w, r.adapters, r.limits = w, adapters, limits
	for i, e := range s.Solvers {
		id := r.lang.SolverID(i + 1)
		r.solvers = append(r.solvers, id)
		r.engineOf[id] = e
		r.panel[id] = true
		if i < len(s.Lenses) && s.Lenses[i].Name != "" {
			r.lensOf[id] = s.Lenses[i]
		}
	}
	for j, e := range s.Critics {
		id := r.lang.CriticID(j + 1)
		r.critics = append(r.critics, id)
		r.engineOf[id] = e
	}
	r.judgeEngine = s.Judge
	r.initSemaphores()
	r.beyond.started = bugfolder.Timestamp(r.now())
	r.beyond.seed = orderSeed(bug.ID, r.beyond.started)
	r.beyond.verify, r.beyond.sameFamily = s.VerifyJudge, s.AllowSameFamily

	// an earlier moot's orphans are looked for (every process's
	// environment read) while problema.md is written and waits on the
	// disk; the warning is logged after the setup, as it always was
	reaped := reapAhead(w.Dir, "engine", "of this debate ")
	// and the calls' copy of P is written (execute removes it; a setup
	// that fails removes it here)
	pReady := make(chan struct{})
	go func() { defer close(pReady); r.pFile.file(r.p) }()
	dropP := func() { <-pReady; r.pFile.drop() }
	data, err := r.renderProblem(s)
	if err != nil {
		dropP()
		return nil, err
	}
	sum, err := w.WriteProblem(data)
	if err != nil {
		dropP()
		return nil, err
	}
	r.emit(Event{Type: EvSetup, Path: dir, ProblemSHA: sum, Calls: plan.Calls.Total, Formula: plan.Formula, EnginesFile: r.opts.EnginesFile})
	if ev, ok := <-reaped; ok {
		r.emit(ev)
	}
	r.estimates, r.learned = plan.Estimates(), learnedOf(plan.Estimates())
	r.emit(Event{Type: EvPlan, Calls: plan.Calls.Total, Tokens: plan.Input + plan.Output, USD: plan.USD, CostUnknown: len(plan.unpricedEngines()) > 0, Formula: plan.Formula, Estimates: r.estimates})
	r.initBudget(s.Budget)
	res, err := r.execute(ctx)
	if res != nil {
		res.TookOver = w.TookOver()
	}
	return res, err
}

func newRunner(proto Protocol, opts Options, bug *bugfolder.Bug, lang bugfolder.Lang, mode bugfolder.Mode, n, rounds int, p string, parallel int, timeout time.Duration) *runner {
	panel, support, final := proto.Roles()
	r := &runner{
		opts: opts, proto: proto, panelRole: panel, supportRole: support, finalRole: final,
		bug: bug, lang: lang, mode: mode, n: n, r: rounds, last: rounds, p: p,
		rubric:   proto.Rubric(lang, mode),
		engineOf: map[string]string{}, amendment: map[string]string{}, timeoutOf: map[string]time.Duration{}, lensOf: map[string]bugfolder.Lens{},
		panel: map[string]bool{}, parallel: parallel, flagTimeout: timeout,
	}
	r.opts.Supervisor = withBeat(opts.Supervisor, r.emit) // a wait at a menu is logged
	if tl, ok := proto.(TimeLimited); ok {
		lim := tl.TimeLimits()
		r.opts.RoundTimeout = cmp.Or(r.opts.RoundTimeout, lim.Round)
		r.opts.DebateTimeout = cmp.Or(r.opts.DebateTimeout, lim.Debate)
	}
	return r
}

func (r *runner) initSemaphores() {
	if r.parallel < 1 {
		// the largest stage (DefaultParallel): every stage runs at once
		r.parallel = max(r.n, len(r.critics), 1)
	}
	r.slots = newCallSlots(r.parallel)
	for _, name := range append(mapValues(r.engineOf), r.judgeEngine) {
		if ec, err := r.opts.Config.Engine(name); err == nil {
			r.slots.bound(ec, name)
		}
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// timeoutOfEngine is the hard limit of a call on an engine for a debater:
// an amended timeout, else --timeout, else the engine's, else 10 minutes.
func (r *runner) timeoutFor(id, engine string) time.Duration {
	if d, ok := r.timeoutOf[id]; ok {
		return d
	}
	var protoCall time.Duration
	if tl, ok := r.proto.(TimeLimited); ok {
		protoCall = tl.TimeLimits().Call
	}
	return engineTimeout(r.opts.Config, r.flagTimeout, engine, protoCall)
}

// engineTimeout is the one rule of a call's hard limit, every protocol's:
// --timeout, else the engine's timeout:, else the protocol's own call
// limit (protoCall, zero for none: docs/protocols/council.md), else
// DefaultTimeout.
func engineTimeout(cfg *harness.Config, flag time.Duration, engine string, protoCall time.Duration) time.Duration {
	if flag > 0 {
		return flag
	}
	if ec, err := cfg.Engine(engine); err == nil && ec.Timeout > 0 {
		return ec.Timeout
	}
	if protoCall > 0 {
		return protoCall
	}
	return DefaultTimeout
}

func (r *runner) renderProblem(s Setup) (*bugfolder.ProblemDoc, error) {
	var solvers, critics, timeouts []bugfolder.KV
	uniform := ""
	same := true
	for _, id := range append(append([]string{}, r.solvers...), r.critics...) {
		if contains(r.solvers, id) {
			solvers = append(solvers, bugfolder.KV{Key: id, Value: r.engineOf[id]})
		} else {
			critics = append(critics, bugfolder.KV{Key: id, Value: r.engineOf[id]})
		}
	}
	seen := map[string]bool{}
	for _, name := range append(mapValues(r.engineOf), r.judgeEngine) {
		if seen[name] {
			continue
		}
		seen[name] = true
		d := r.timeoutFor("", name).String()
		timeouts = append(timeouts, bugfolder.KV{Key: name, Value: d})
		if uniform == "" {
			uniform = d
		} else if uniform != d {
			same = false
		}
	}
	tnode := bugfolder.ScalarNode(uniform)
	if !same {
		tnode = bugfolder.OrderedMap(timeouts)
	}
	meta := bugfolder.ProblemMeta{
		ProtocolVersion: bugfolder.ProtocolVersion, Protocol: recordedProtocol(r.proto), BugID: r.bug.ID, Mode: r.mode, N: r.n, R: r.r,
		Solvers: bugfolder.OrderedMap(solvers), Critics: bugfolder.OrderedMap(critics), Judge: r.judgeEngine,
		Lenses:  bugfolder.LensesNode(r.solvers, r.lensOf),
		Engines: r.identityNode(),
		Timeout: tnode, Parallel: r.parallel, Language: r.lang.String(), Budget: budgetNode(s.Budget),
		PBytes: s.Problem.Bytes(), PTokensEstimated: s.Problem.Tokens(), PSHA256: s.Problem.SHA256,
		CreatedAt: r.beyond.started, MootVersion: r.opts.Version,
		VerifyJudge: r.beyond.verify, AllowSameFamily: r.beyond.sameFamily,
	}
	if r.bug.IsQuestion { // a question's folder names it by question_id and freezes its text
		meta.BugID, meta.QuestionID, meta.Question = "", r.bug.ID, s.Question
		if r.bug.Restricted() {
			meta.Visibility = bugfolder.VisibilityRestricted
		}
	}
	return bugfolder.RenderProblem(r.lang, meta, r.rubric, s.Problem.Text)
}

// CheckNoUnfinished refuses a new debate on a bug whose folder holds an
// unfinished one moot can continue (a front end asks it before showing a
// cost screen; Start asks it again): an input error saying how to
// continue it, or who runs it.
func CheckNoUnfinished(bug *bugfolder.Bug, l bugfolder.Lang) error {
	old, err := bugfolder.ReadDebate(bug.DebateFolder(), l)
	if err != nil {
		return err
	}
	return unfinished(bug, old)
}

// unfinished is CheckNoUnfinished on a debate already read.
func unfinished(bug *bugfolder.Bug, old *bugfolder.Debate) error {
	if old.State == bugfolder.StateNoDebate || old.Archivable() || old.Problem == nil && len(old.Rounds) == 0 {
		return nil
	}
	if old.State == bugfolder.StateRunning && old.Holder != nil {
		return &bugfolder.InputError{Path: old.Dir, Msg: fmt.Sprintf("holds a debate that %s is running now; watch it from the browser (moot), or wait for it to end", old.Holder)}
	}
	return &bugfolder.InputError{Path: old.Dir, Msg: fmt.Sprintf("holds an unfinished debate (%s); continue it with: moot resume %s", old.State, ResumeArgs(bug.ID, termsafe.Line(old.EnginesFile())))}
}

// recordedProtocol is the protocol field problema.md gets: the protocol's
// name, left out for the default protocol (a debate's file is unchanged).
func recordedProtocol(p Protocol) string {
	if p.Name() == bugfolder.DefaultProtocol {
		return ""
	}
	return p.Name()
}

// identityNode records what each engine of the debate is (kind, model,
// endpoint host, argv digest), so a resume answered by another program or
// model is caught.
func (r *runner) identityNode() *yaml.Node {
	names := uniq(append(mapValues(r.engineOf), r.judgeEngine))
	fields := map[string][]bugfolder.KV{}
	for _, name := range names {
		if ec, err := r.opts.Config.Engine(name); err == nil {
			for _, kv := range harness.IdentityOf(ec, r.opts.Config.Path).Fields() {
				fields[name] = append(fields[name], bugfolder.KV{Key: kv[0], Value: kv[1]})
			}
		}
	}
	return bugfolder.NestedMap(names, fields)
}

// engineChanges compares what each engine name resolves to now with what
// the debate locked (problema.md, then any accepted amendment), and
// describes every difference ("engine x: model a → b"). Engines the
// debate recorded no identity for are not compared.
func engineChanges(cfg *harness.Config, locked map[string]map[string]string, names []string) ([]string, map[string]map[string]string, error) {
	var diffs []string
	now := map[string]map[string]string{}
	for _, name := range uniq(names) {
		was, ok := locked[name]
		if !ok {
			continue
		}
		ec, err := cfg.Engine(name)
		if err != nil {
			return nil, nil, err
		}
		cur := harness.IdentityOf(ec, cfg.Path).Map()
		now[name] = cur
		var parts []string
		for _, k := range harness.IdentityKeys() {
			if _, recorded := was[k]; !recorded && (k == "program" || k == "program_sha256") {
				continue // a debate locked before the program was recorded
			}
			if was[k] != cur[k] {
				parts = append(parts, fmt.Sprintf("%s %s → %s", k, orNone(was[k]), orNone(cur[k])))
			}
		}
		if len(parts) > 0 {
			diffs = append(diffs, fmt.Sprintf("engine %s: %s", name, strings.Join(parts, ", ")))
		}
	}
	return diffs, now, nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	if len(s) == 64 {
		return short(s) // an argv digest
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// needed is the quorum of the current panel.
func (r *runner) needed() int {
	if r.narrowed {
		return PanelQuorum(len(r.panel))
	}
	return Quorum(r.n)
}

// panelIDs lists the solvers still in, in order.
func (r *runner) panelIDs() []string {
	var out []string
	for _, id := range r.solvers {
		if r.panel[id] {
			out = append(out, id)
		}
	}
	return out
}

// errStop ends a run early with an outcome.
type errStop struct {
	outcome Outcome
	reason  string
}

func (e *errStop) Error() string { return e.reason }

// execute runs the rounds that are not complete, round after round up to
// r (the stop rule may end them earlier), then the final step.
func (r *runner) execute(ctx context.Context) (*Result, error) {
	defer r.pFile.drop()
	if d := r.opts.DebateTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errDebateLimit)
		defer cancel()
	}
	for k := 0; k <= r.r; k++ {
		if r.stopReason != "" && k > r.stopRound {
			break // stopped early: the final step reads the stop's round
		}
		r.last = k
		if k == 1 {
			r.leaveOutUnopened()
		}
		if err := r.runRound(ctx, k); errors.Is(err, errStopBeforeRound) {
			r.last = k - 1 // the human's stop: the final step reads the last complete round
			if err := r.writeArtifacts("", false); err != nil {
				return nil, err
			}
			break
		} else if errors.Is(err, errBudgetCut) {
			if err := r.cutByBudget(k); err != nil {
				return r.stopAt(ctx, err)
			}
			break
		} else if err != nil {
			return r.stopAt(ctx, err)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		if err := r.writeArtifacts("", false); err != nil {
			return nil, err
		}
		// the rules first (the cap's last round included), then a human's stop
		if r.stopEarly(k) || r.stopAsked(k) || !r.proto.Continue(k, r.r) {
			break
		}
	}
	if err := r.runJudge(ctx); err != nil {
		return r.stopAt(ctx, err)
	}
	_, final := r.judgeFiles()
	if final != nil {
		if err := r.writeArtifacts(final.Body, false); err != nil {
			return nil, err
		}
	}
	return r.finish(OutcomeDone, "")
}

// stopAt is stop, naming the debate's time limit when it was the cause.
func (r *runner) stopAt(ctx context.Context, err error) (*Result, error) {
	if errors.Is(context.Cause(ctx), errDebateLimit) && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return r.finish(OutcomeCancelled, fmt.Sprintf("the debate's time limit (%s, --debate-timeout) was reached; calls in flight were stopped and run again on `moot resume %s`", humantime.Duration(r.opts.DebateTimeout), r.resumeTarget()))
	}
	return r.stop(err)
}

// stopEarly asks a Stopper protocol whether the debate ends after round k
// and logs its reason once (a resume finds it in the log).
// A stop already recorded (a resume read it from the log) is kept as it
// was: the rule is never asked again over it.
func (r *runner) stopEarly(k int) bool {
	st, ok := r.proto.(Stopper)
	if !ok {
		return false
	}
	if r.stopReason != "" {
		return k >= r.stopRound
	}
	choice, reason := st.Stop(k, r.r, r.solvers, r.roundAnswers(k))
	if reason == "" {
		return false
	}
	r.emit(Event{Type: EvDecision, Point: PointStop, Choice: choice, By: "moot", Round: k, Reason: reason})
	r.stopReason, r.stopRound = reason, k
	return true
}

// stopRequested reports whether a human asked a Stopper protocol's
// debate to stop through the Supervisor (StopRequester) and no stop is
// recorded yet.
func (r *runner) stopRequested() bool {
	sr, ok := r.opts.Supervisor.(StopRequester)
	_, stopper := r.proto.(Stopper)
	return ok && stopper && r.stopReason == "" && sr.StopRequested()
}

// errStopBeforeRound ends the rounds when a human's stop is asked and the
// round in flight then loses its quorum: the stop is recorded after the
// round before, whose answers the final step reads.
var errStopBeforeRound = errors.New("stopped by human before the round in flight completed")

// stopBeforeRound records a human's stop asked while round k ran (k ≥ 1)
// after round k-1, when round k lost its quorum: the human asked to stop
// and synthesize, so the lost round is not asked about, and the request is
// never lost to the quorum menu.
func (r *runner) stopBeforeRound(k int) error {
	reason := fmt.Sprintf("manual: stopped by human after round %d (round %d, in flight when the stop was asked, lost its quorum)", k-1, k)
	r.emit(Event{Type: EvDecision, Point: PointStop, Choice: "manual", By: "human", Round: k - 1, Reason: reason})
	r.stopReason, r.stopRound = reason, k-1
	return errStopBeforeRound
}

// stopAsked records a human's stop asked through the Supervisor while
// round k ran (StopRequester): the debate ends after round k.
func (r *runner) stopAsked(k int) bool {
	if k >= r.r || !r.stopRequested() {
		return false
	}
	reason := fmt.Sprintf("manual: stopped by human after round %d", k)
	r.emit(Event{Type: EvDecision, Point: PointStop, Choice: "manual", By: "human", Round: k, Reason: reason})
	r.stopReason, r.stopRound = reason, k
	return true
}

// stopManually records a human's stop after the last complete round
// (StopBy): the debate goes straight to its final step on that round.
func (r *runner) stopManually() error {
	if r.stopReason != "" {
		return nil // already stopped: the final step runs on that round
	}
	k := r.resumeRound()
	if !r.roundComplete(k) {
		k--
	}
	if k < 0 {
		return &bugfolder.InputError{Msg: stopRefused}
	}
	// a rule that holds on that round (its log line lost, or the cap's last
	// round of a debate written before the cap was logged) is the true
	// reason, not the human's stop
	if r.stopEarly(k) {
		return nil
	}
	reason := fmt.Sprintf("manual: stopped by %s after round %d", r.opts.StopBy, k)
	r.emit(Event{Type: EvDecision, Point: PointStop, Choice: "manual", By: r.opts.StopBy, Round: k, Reason: reason})
	r.stopReason, r.stopRound = reason, k
	return nil
}

// roundComplete reports whether every call of round k has a valid file.
func (r *runner) roundComplete(k int) bool {
	files := r.roundFiles(k)
	for _, id := range slices.Concat(r.proto.Batches(k, r.panelIDs(), r.critics)...) {
		if f := files[id]; f == nil || f.Status != bugfolder.StatusOK {
			return false
		}
	}
	return true
}

// roundAnswers lists the valid answers (panel and support) of rounds 0..k.
func (r *runner) roundAnswers(k int) []RoundAnswers {
	out := make([]RoundAnswers, 0, k+1)
	for j := 0; j <= k; j++ {
		ra := RoundAnswers{}
		for id, f := range r.roundFiles(j) {
			if f.Status == bugfolder.StatusOK {
				ra[id] = f.Body
			}
		}
		out = append(out, ra)
	}
	return out
}

// writeArtifacts writes an Artifacts protocol's own files (final is the
// final answer's body, "" before it exists; live is set while the round
// r.last is still running).
func (r *runner) writeArtifacts(final string, live bool) error {
	a, ok := r.proto.(Artifacts)
	if !ok {
		return nil
	}
	in := r.finalInput()
	in.Live, in.Ended = live, r.ended
	files := a.Artifacts(in, final)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if files[rel] == nil {
			if err := r.w.RemoveExtra(rel); err != nil {
				return err
			}
			continue
		}
		if _, err := r.w.WriteExtra(rel, files[rel]); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	return nil
}

// liveArtifacts rewrites an Artifacts protocol's files as a call of the
// round in flight lands, so a live view (argue's confidences and scores)
// moves with each answer, not once a round. Calls land in parallel: the
// lock makes the last writer the one that read the most files.
func (r *runner) liveArtifacts() error {
	if _, ok := r.proto.(Artifacts); !ok {
		return nil
	}
	r.artMu.Lock()
	defer r.artMu.Unlock()
	return r.writeArtifacts("", true)
}

// waive records that round k went on without its failed support calls.
func (r *runner) waive(k int) {
	if r.waived == nil {
		r.waived = map[int]bool{}
	}
	r.waived[k] = true
}

// stop ends the run on an error: a decision that stops it, an interrupt,
// or a failure of moot itself.
func (r *runner) stop(err error) (*Result, error) {
	var es *errStop
	switch {
	case errors.As(err, &es):
		return r.finish(es.outcome, es.reason)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		reason := "interrupted; calls in flight were stopped and will run again on resume"
		if _, ok := r.proto.(Stopper); ok && !r.canStopHere() {
			// resume --stop would refuse: nothing to synthesize yet
			reason = fmt.Sprintf("interrupted; calls in flight were stopped and run again on `moot resume %s` (round 0 is not complete: there is nothing to synthesize yet)", r.resumeTarget())
		} else if ok {
			t := r.resumeTarget()
			reason = fmt.Sprintf("interrupted; calls in flight were stopped. Choose: `moot resume %s --stop` stops the debate here and synthesizes the last complete round, `moot resume %s` continues it (the stopped calls run again)", t, t)
		}
		return r.finish(OutcomeCancelled, reason)
	}
	return nil, err
}

// canStopHere reports whether `moot resume --stop` could stop the debate
// as it stands: a stop is logged, or round 0 is complete (StopRefusal).
func (r *runner) canStopHere() bool {
	d, err := bugfolder.ReadDebate(r.w.Dir, r.lang)
	return err == nil && StopRefusal(d, r.proto) == nil
}

// judgeFiles reads the failed judge attempts and the final answer.
func (r *runner) judgeFiles() (attempts []*bugfolder.DebaterFile, final *bugfolder.Final) {
	dir := filepath.Join(r.w.Dir, r.lang.Names().JudgeID)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !attemptRE.MatchString(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if raw, err := safefs.ReadFile(p, 0); err == nil {
			if f, err := bugfolder.ParseDebaterFile(p, raw); err == nil {
				attempts = append(attempts, f)
			}
		}
	}
	p := filepath.Join(r.w.Dir, r.lang.Names().Final)
	if raw, err := safefs.ReadFile(p, 0); err == nil {
		final, _ = bugfolder.ParseFinal(p, raw)
	}
	return attempts, final
}

// totals sums the calls, tokens and cost of the debate: the calls its
// files and its event log record (bugfolder.CallTotals).
// A debate in which no file records a cost (its calls stopped in flight,
// or its engines have no price) costs "unknown", never $0.00: the same
// figure list and show give it (bugfolder.Debate.CostKnown).
func (r *runner) totals() (calls, tokens int, usd float64, unpriced bool) {
	recorded := false
	var files []*bugfolder.DebaterFile
	add := func(f *bugfolder.DebaterFile) {
		files = append(files, f)
		unpriced = unpriced || !f.CostRecorded
		recorded = recorded || f.CostRecorded
	}
	for k := 0; k <= r.r; k++ {
		for _, f := range r.roundFiles(k) {
			add(f)
		}
	}
	attempts, final := r.judgeFiles()
	for _, f := range attempts {
		add(f)
	}
	if final != nil {
		add(&final.DebaterFile)
	}
	// the figures of every call made, earlier attempts and sessions too:
	// what the header, list and show read (bugfolder.CallTotals)
	evs := r.loggedEvents()
	tokens, usd = bugfolder.CallTotals(evs, files)
	// calls are the model calls made, by the rule list and show follow:
	// every attempt started, one cut in flight included
	calls = bugfolder.CountModelCalls(&bugfolder.Debate{Dir: r.w.Dir, Lang: r.lang, Events: evs, JudgeAttempts: attempts, Final: final})
	return calls, tokens, usd, unpriced || !recorded
}

// finish records the end of the run and sums up the debate from its files.
func (r *runner) finish(o Outcome, reason string) (*Result, error) {
	if o == OutcomeCancelled {
		// a cancelled debate's own files say so, not "running"
		r.ended = string(o)
		if err := r.writeArtifacts("", false); err != nil {
			return nil, err
		}
	}
	res := &Result{Outcome: o, Dir: r.w.Dir, Reason: reason, N: r.n}
	res.Calls, res.Tokens, res.USD, res.CostUnknown = r.totals()
	if _, final := r.judgeFiles(); final != nil {
		if final.Winner != "" { // a final step that names no winner (tradeoff) leaves it empty
			res.Winner = r.lang.LabelName(final.Winner)
		}
		res.Participants = final.Participants
	}
	r.emit(Event{Type: EvDebateFinished, Outcome: o, Path: r.w.Dir, Calls: res.Calls, Tokens: res.Tokens, USD: res.USD, CostUnknown: res.CostUnknown, Participants: res.Participants, Reason: reason})
	if err := r.check(); err != nil {
		return res, err
	}
	return res, nil
}

// Resume is the runner's one resume. It continues the bug's unfinished
// debate where it stopped: finished calls are never repeated, calls
// without a file are run, a pending decision is asked again; a changed
// problema.md is refused. With opts.Folder it continues that seated run's
// folder instead (a review's): the kind that owns it reopens it, and
// RunSeated continues its round cut short in place, else a new round.
func Resume(ctx context.Context, bug *bugfolder.Bug, opts Options) (*Result, error) {
	if opts.Folder != "" {
		return resumeSeated(ctx, opts) // one resume: a seated run's folder is reopened by its kind
	}
	if opts.Protocol == nil {
		return nil, errors.New("resume: the options name no protocol")
	}
	if _, ok := opts.Protocol.(Stopper); opts.StopBy != "" && !ok {
		return nil, &bugfolder.InputError{Msg: fmt.Sprintf("protocol %s never stops early (its rounds are fixed); resume without --stop", opts.Protocol.Name())}
	}
	if err := bugfolder.CheckWritable(bug.Dir); err != nil {
		return nil, err
	}
	dir := bug.DebateFolder()
	d, err := bugfolder.ReadDebate(dir, bug.Register.Lang)
	if err != nil {
		return nil, err
	}
	switch {
	case d.State == bugfolder.StateNoDebate:
		return nil, &bugfolder.InputError{Path: dir, Msg: fmt.Sprintf("there is no debate to resume; start one with: moot run %s", bug.ID)}
	case d.State == bugfolder.StateDone:
		if d.HandRun() { // nothing of moot's to complete: leave the hand-run folder as it is
			return &Result{Outcome: OutcomeDone, Dir: dir, AlreadyDone: true, Reason: "the debate is already finished; nothing to resume"}, nil
		}
		if err := CompleteLog(bug, d, opts); err != nil {
			return nil, err
		}
		return &Result{Outcome: OutcomeDone, Dir: dir, AlreadyDone: true, Reason: "the debate is already finished; nothing to resume"}, nil
	case d.HandRun():
		return resumeHandRun(ctx, bug, d, opts)
	case d.Translated():
		return nil, &bugfolder.InputError{Path: dir, Msg: fmt.Sprintf("is written with the translated names (problem.md, round-K/agent-i.md); moot now writes only the canonical ones (problema.md, rodada-K/agente-i.md) and cannot continue it in place: `moot run %s --mode MODE` archives it as %s/ and starts a new debate (its plan says so)", bug.ID, bug.Register.Rel(bugfolder.ArchivePath(bug.Dir, d.ArchiveTime())))}
	case d.Problem == nil:
		return nil, &bugfolder.InputError{Path: dir, Msg: fmt.Sprintf("has no %s: the debate never finished its setup; start it again with moot run %s", d.Lang.Names().Problem, bug.ID)}
	}
	for _, p := range d.Problems {
		return nil, p
	}
	pf := d.Problem
	if (pf.Mode == "" && pf.QuestionID == "") || pf.N < 1 || len(pf.Solvers) == 0 {
		return nil, &bugfolder.InputError{Path: pf.Path, Msg: "lacks mode, n or solvers: moot cannot resume a debate whose setup it cannot read"}
	}
	if name := pf.ProtocolName(); name != opts.Protocol.Name() {
		return nil, &bugfolder.InputError{Path: pf.Path, Field: "protocol", Msg: fmt.Sprintf("this debate runs protocol %s, and the resume was asked to run %s: a debate's protocol never changes", name, opts.Protocol.Name())}
	}
	if err := CheckSize(opts.Protocol, pf.N, pf.R, len(pf.Critics)); err != nil {
		return nil, &bugfolder.InputError{Path: pf.Path, Msg: err.Error() + "; this setup was not written by moot"}
	}
	if opts.StopBy != "" {
		if err := StopRefusal(d, opts.Protocol); err != nil {
			return nil, err // refused before anything is written: no resumed event
		}
	}
	w, err := bugfolder.OpenWriter(bug.WriterRoot(), dir, d.Lang, opts.Command)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	records := readLog(dir, d.Lang)
	for _, rec := range records {
		if rec.Type == EvSetup && rec.ProblemSHA != "" && rec.ProblemSHA != pf.SHA256 {
			return nil, &bugfolder.InputError{Path: pf.Path, Msg: fmt.Sprintf("changed since setup (sha256 %s, recorded %s); problema.md never changes mid-debate: restore it, or start a new debate", short(pf.SHA256), short(rec.ProblemSHA))}
		}
	}
	// without the event log, P's own digest still tells
	if raw, err := safefs.ReadFile(pf.Path, 0); err == nil && !bugfolder.ProblemIntact(pf, raw) {
		return nil, &bugfolder.InputError{Path: pf.Path, Field: "p_sha256", Msg: "P no longer matches the sha256 this file records: problema.md never changes mid-debate; restore it, or start a new debate"}
	}
	if raw, err := safefs.ReadFile(pf.Path, 0); err == nil && !bugfolder.SetupIntact(raw) {
		return nil, &bugfolder.InputError{Path: pf.Path, Field: "setup_sha256", Msg: "the setup (mode, rounds, engines, rubric or P) no longer matches the sha256 this file records: problema.md never changes mid-debate; restore it, or start a new debate"}
	}
	r := newRunner(opts.Protocol, opts, bug, d.Lang, pf.Mode, pf.N, pf.R, pf.P, 0, 0)
	for _, kv := range pf.Solvers {
		r.solvers = append(r.solvers, kv.Key)
		r.engineOf[kv.Key] = kv.Value
		r.panel[kv.Key] = true
	}
	for _, kv := range pf.Critics {
		r.critics = append(r.critics, kv.Key)
		r.engineOf[kv.Key] = kv.Value
	}
	r.judgeEngine = pf.Judge
	r.beyond.started = bugfolder.Timestamp(pf.CreatedAt)
	r.beyond.seed = orderSeed(bug.ID, r.beyond.started)
	r.beyond.verify, r.beyond.sameFamily = pf.VerifyJudge, pf.AllowSameFamily
	for id, l := range pf.Lenses {
		r.lensOf[id] = l // the frozen lens, never the current file's
	}
	if r.judgeEngine == "" {
		r.judgeEngine = pf.Solvers[0].Value
	}
	if len(pf.Rubric) > 0 {
		r.rubric = pf.Rubric // the frozen rubric, as written
	}
	if p := problemParallel(pf); p > 0 {
		r.parallel = p
	}
	if d, ok := problemTimeout(pf); ok {
		r.flagTimeout = d
	}
	locked := r.replayDecisions(records, pf.Engines)
	r.interrupted = interruptedCalls(records)
	used := append(mapValues(r.engineOf), r.judgeEngine)
	diffs, current, err := engineChanges(opts.Config, locked, used)
	if err != nil {
		return nil, err
	}
	if len(diffs) > 0 && !opts.AcceptEngineChange {
		return nil, &EngineChangeError{Path: pf.Path, Diffs: diffs}
	}
	// the judge family rule, against the engines file as it is now (a
	// family: added since setup, a swap made before it)
	if err := r.familyClash("", "", r.judgeEngine); err != nil {
		return nil, &bugfolder.InputError{Path: opts.Config.Path, Msg: "refused on resume: " + err.Error()}
	}
	adapters, limits, err := prepareEngines(ctx, opts, bug, used)
	if err != nil {
		return nil, err
	}
	r.w, r.adapters, r.limits = w, adapters, limits
	r.initSemaphores()
	r.reconcileLog(d)
	r.emit(Event{Type: EvResumed, Path: dir, ProblemSHA: pf.SHA256, EnginesFile: r.opts.EnginesFile})
	r.resumeBudget(pf, records)
	r.reapOrphans()
	if len(diffs) > 0 {
		r.acceptEngineChange(diffs, current, opts.AcceptedBy)
	}
	if opts.StopBy != "" {
		if err := r.stopManually(); err != nil {
			return nil, err
		}
	}
	res, err := r.execute(ctx)
	if res != nil {
		res.TookOver = w.TookOver()
	}
	return res, err
}

// uniq drops repeated names, keeping the first order.
func uniq(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// projectAccessRefusal says why an engine with read-only project access
// may not take part in a debate: it could read debate/ — the other
// participants' files, and in round 0 break the blind — and no engine's
// sandbox can hide that folder. "" when the engine has none.
func projectAccessRefusal(ec *harness.EngineConfig) string {
	if ec.ProjectAccess != "read-only" {
		return ""
	}
	return fmt.Sprintf("engine %s has project_access: read-only, so it could read the debate folder (the other participants' files; round 0 would not be blind) and moot cannot mask it: set project_access: none for debates", ec.Name)
}

// checkProjectAccess refuses engines that would read the project.
func checkProjectAccess(cfg *harness.Config, names []string) error {
	for _, n := range uniq(names) {
		ec, err := cfg.Engine(n)
		if err != nil {
			return err
		}
		if why := projectAccessRefusal(ec); why != "" {
			return &bugfolder.InputError{Field: "project_access", Msg: "refused before anything was written: " + why}
		}
	}
	return nil
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// problemParallel reads parallel: from problema.md.
func problemParallel(pf *bugfolder.ProblemFile) int {
	n := bugfolder.Lookup(pf.Meta, "parallel")
	if n == nil {
		return 0
	}
	var v int
	fmt.Sscan(n.Value, &v)
	return v
}

// problemTimeout reads a uniform timeout: from problema.md; per-engine
// timeouts come from the engines file again.
func problemTimeout(pf *bugfolder.ProblemFile) (time.Duration, bool) {
	if pf.Timeout == "" {
		return 0, false
	}
	d, err := time.ParseDuration(pf.Timeout)
	return d, err == nil && d > 0
}

// readLog reads the decisions and setup records of the event log.
func readLog(dir string, l bugfolder.Lang) []Event {
	raw, err := safefs.ReadFile(filepath.Join(dir, l.Names().Events), 0)
	if err != nil {
		return nil
	}
	return appendEvents(nil, raw)
}

// eventLog is a debate's event log as read so far: the events of its
// whole lines and the offset after the last one. The log is append-only
// and only the run holding the debate's lock appends to it, so what was
// read stays true and a later read parses only what was appended since.
type eventLog struct {
	mu     sync.Mutex
	offset int64
	events []Event
}

// loggedEvents is readLog of the debate this run writes, reading only
// what was appended since the last call (the final step reads the log
// several times: totals, costs, the judge's state).
func (r *runner) loggedEvents() []Event {
	l := &r.logged
	l.mu.Lock()
	defer l.mu.Unlock()
	raw, err := r.w.EventsFrom(l.offset)
	if err != nil {
		return l.events[:len(l.events):len(l.events)]
	}
	// read under the log's lock: raw ends with a whole line
	l.events = appendEvents(l.events, raw)
	l.offset += int64(len(raw))
	return l.events[:len(l.events):len(l.events)]
}

// appendEvents appends the events of the log lines in raw to out (a line
// that is not an event, torn by a crash, is skipped).
func appendEvents(out []Event, raw []byte) []Event {
	for line := range bytes.SplitSeq(raw, []byte("\n")) {
		var rec Event
		if json.Unmarshal(line, &rec) == nil && rec.Type != "" {
			out = append(out, rec)
		}
	}
	return out
}

// replayDecisions applies the decisions of an earlier run: solvers dropped
// by "continue", swapped engines, changed timeouts and accepted engine
// changes. It returns the engine identities the debate is locked to:
// problema.md's, updated by every accepted amendment.
func (r *runner) replayDecisions(records []Event, recorded map[string]map[string]string) map[string]map[string]string {
	locked := maps.Clone(recorded)
	if locked == nil {
		locked = map[string]map[string]string{}
	}
	for _, rec := range records {
		if rec.Type != EvDecision {
			continue
		}
		for name, id := range rec.Identities {
			if _, ok := locked[name]; !ok || rec.Point == PointEngines {
				locked[name] = id // a swap's new engine, or an accepted change
			}
		}
		if rec.Point == PointEngines {
			for _, id := range rec.Affected {
				r.amendment[id] = joinAmendment(r.amendment[id], rec.Reason)
			}
			continue
		}
		if rec.Point == "judge" {
			if rec.Choice == string(JudgeRetry) && rec.Engine != "" {
				r.amendJudge(rec.Engine, rec.Round, rec.By)
			}
			continue
		}
		if rec.Point == PointStop {
			r.stopReason, r.stopRound = rec.Reason, rec.Round
			continue
		}
		if rec.Point == bugfolder.PointBudget {
			continue // the cap in force is replayed by resumeBudget
		}
		r.decisions = append(r.decisions, rec)
		switch QuorumChoice(rec.Choice) {
		case QuorumContinue:
			for _, id := range rec.Dropped {
				delete(r.panel, id)
			}
			r.narrowed = r.narrowed || len(rec.Dropped) > 0
			r.waive(rec.Round)
		case QuorumSwap:
			if rec.SolverID != "" && rec.Engine != "" {
				r.amend(rec.SolverID, rec.Engine, 0, rec.Round, rec.By)
			}
		case QuorumSetTimeout:
			if rec.Timeout > 0 && rec.SolverID != "" {
				r.amend(rec.SolverID, "", rec.Timeout, rec.Round, rec.By)
			}
		}
	}
	return locked
}

// PointEngines is the decision point of an engine whose identity changed
// since setup, accepted on resume as an amendment.
const PointEngines = bugfolder.PointEngines

// PointStop is the decision point of a protocol's early stop (Stopper).
const PointStop = bugfolder.PointStop

// PointOpening is the decision point of the members an OpeningRequired
// protocol leaves out after round 0, having no opening position.
const PointOpening = bugfolder.PointOpening

// leaveOutUnopened leaves out of the rounds after round 0 the panel
// members of an OpeningRequired protocol that have no valid round-0
// answer, and logs it once (a resume replays the decision and finds none
// left to drop).
func (r *runner) leaveOutUnopened() {
	if o, ok := r.proto.(OpeningRequired); !ok || !o.OpeningRequired() {
		return
	}
	files := r.roundFiles(0)
	var out, why []string
	for _, id := range r.panelIDs() {
		if f := files[id]; f == nil || f.Status != bugfolder.StatusOK {
			st := bugfolder.Status("no file")
			if f != nil {
				st = f.Status
			}
			out = append(out, id)
			why = append(why, fmt.Sprintf("%s %s", id, st))
		}
	}
	if len(out) == 0 {
		return
	}
	words := Describe(r.proto)
	reason := fmt.Sprintf("no valid round-0 position (%s): with no position to defend, not called in rounds 1..%d; absent from the %s's reading",
		strings.Join(why, ", "), r.r, words.Final)
	dec := Event{Type: EvDecision, Point: PointOpening, Choice: string(QuorumContinue), By: "moot", Round: 0, Dropped: out, Reason: reason}
	r.emit(dec)
	r.decisions = append(r.decisions, dec)
	for _, id := range out {
		delete(r.panel, id)
	}
	r.narrowed = true
}

// EngineChangeError stops a resume whose engines file resolves an engine
// differently than the debate locked (exit 2): another program or model
// would answer under the old name.
type EngineChangeError struct {
	Path  string
	Diffs []string
}

func (e *EngineChangeError) Error() string { return e.Unwrap().Error() }

// Unwrap makes the change an input error (exit 2).
func (e *EngineChangeError) Unwrap() error {
	return &bugfolder.InputError{Path: e.Path, Msg: fmt.Sprintf("the engines now resolve differently than this debate locked: %s; restore the engines file, or accept the change as an amendment with --accept-engine-change (logged like a swap)", strings.Join(e.Diffs, "; "))}
}

// acceptEngineChange logs the engineer's acceptance of changed engines as
// an amendment, recorded in the event log and in the files of every
// debater that runs on them from now on.
func (r *runner) acceptEngineChange(diffs []string, current map[string]map[string]string, by string) {
	if by == "" {
		by = "human"
	}
	changed := map[string]bool{}
	for name := range current {
		for _, d := range diffs {
			if strings.HasPrefix(d, "engine "+name+":") {
				changed[name] = true
			}
		}
	}
	ids := map[string]map[string]string{}
	var affected []string
	for name := range changed {
		ids[name] = current[name]
	}
	for _, id := range append(append([]string{}, r.solvers...), r.critics...) {
		if changed[r.engineOf[id]] {
			affected = append(affected, id)
		}
	}
	if changed[r.judgeEngine] {
		affected = append(affected, r.lang.Names().JudgeID)
	}
	reason := strings.Join(diffs, "; ") + " (accepted on resume, decided by " + by + ")"
	for _, id := range affected {
		r.amendment[id] = joinAmendment(r.amendment[id], reason)
	}
	r.emit(Event{Type: EvDecision, Point: PointEngines, Choice: "amend", By: by, Reason: reason, Identities: ids, Affected: affected, Round: r.resumeRound()})
}

// resumeRound is the round a resume goes on in (where an amendment takes
// effect): the first whose panel or critics lack a valid file, else the
// last round, whose proposals the judge reads.
func (r *runner) resumeRound() int {
	for k := 0; k <= r.r; k++ {
		files := r.roundFiles(k)
		for _, id := range slices.Concat(r.proto.Batches(k, r.panelIDs(), r.critics)...) {
			if f := files[id]; f == nil || f.Status != bugfolder.StatusOK {
				return k
			}
		}
	}
	return r.r
}

func joinAmendment(prev, next string) string {
	if prev == "" {
		return next
	}
	return prev + "; " + next
}

// amend records a swapped engine or a changed timeout for a solver.
func (r *runner) amend(id, engine string, timeout time.Duration, round int, by string) {
	var parts []string
	if prev := r.amendment[id]; prev != "" {
		parts = append(parts, prev)
	}
	if engine != "" {
		parts = append(parts, fmt.Sprintf("engine %s → %s from round %d (decided by %s)", r.engineOf[id], engine, round, by))
		r.engineOf[id] = engine
	}
	if timeout > 0 {
		parts = append(parts, fmt.Sprintf("timeout %s from round %d (decided by %s)", timeout, round, by))
		r.timeoutOf[id] = timeout
	}
	r.amendment[id] = strings.Join(parts, "; ")
}

// reconcileLog appends a call_finished record for any debater file whose
// event was lost in a crash (the file is written first, then the event),
// so the log agrees with the files.
func (r *runner) reconcileLog(d *bugfolder.Debate) {
	logged, hasSetup := map[string]bool{}, false
	raw, _ := safefs.ReadFile(filepath.Join(d.Dir, d.Lang.Names().Events), 0)
	for _, line := range strings.Split(string(raw), "\n") {
		var ev Event
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		switch ev.Type {
		case EvSetup:
			hasSetup = true
		case EvCallFinished:
			logged[fmt.Sprintf("%d/%s/%d", ev.Round, ev.SolverID, ev.Attempt)] = true
		}
	}
	// a kill between writing problema.md and logging the setup left the log
	// without it: the setup is recovered from problema.md itself
	if !hasSetup && d.Problem != nil {
		r.emit(Event{Type: EvSetup, Path: d.Dir, ProblemSHA: d.Problem.SHA256, Reason: "recovered from problema.md after an interruption"})
	}
	for _, rd := range d.Rounds {
		for _, f := range rd.Files {
			if logged[fmt.Sprintf("%d/%s/%d", rd.K, f.SolverID, f.Attempt)] {
				continue
			}
			r.emit(Event{Type: EvCallFinished, Round: rd.K, SolverID: f.SolverID, Role: f.Role, Engine: f.Engine, Attempt: f.Attempt,
				Status: f.Status, DurationMS: f.Duration().Milliseconds(), TokensIn: f.TokensIn, TokensOut: f.TokensOut,
				CostUSD: f.CostUSD, CostUnknown: !f.CostRecorded, Estimated: f.TokensEstimated, Error: "recovered from the file after an interruption"})
		}
	}
}

// CompleteLog appends the judge_finished and debate_finished events a
// debate lacks when moot was killed between writing the final answer and
// logging its end, rebuilt from the final answer's front matter, so the
// log agrees with the files. A complete log is left untouched.
func CompleteLog(bug *bugfolder.Bug, d *bugfolder.Debate, opts Options) error {
	seen := map[EventType]bool{}
	raw, _ := safefs.ReadFile(filepath.Join(d.Dir, d.Lang.Names().Events), 0)
	for _, line := range strings.Split(string(raw), "\n") {
		var ev Event
		if json.Unmarshal([]byte(line), &ev) == nil {
			seen[ev.Type] = true
		}
	}
	if seen[EvJudgeFinished] && seen[EvDebateFinished] || d.Final == nil {
		return nil
	}
	w, err := bugfolder.OpenWriter(bug.WriterRoot(), d.Dir, d.Lang, opts.Command)
	if err != nil {
		return err
	}
	defer w.Close()
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	f := d.Final
	note := "recovered from " + d.Lang.Names().Final + " after an interruption"
	var evs []Event
	if !seen[EvJudgeFinished] {
		evs = append(evs, Event{Type: EvJudgeFinished, Winner: d.Lang.LabelName(f.Winner), By: f.DecidedBy, Attempt: f.Attempt, Reason: note})
	}
	if !seen[EvDebateFinished] {
		rel, _ := filepath.Rel(bug.Dir, d.Dir)
		evs = append(evs, Event{Type: EvDebateFinished, Outcome: OutcomeDone, Path: rel, Calls: d.ModelCalls(),
			Tokens: f.TotalTokens, USD: f.TotalCostUSD, CostUnknown: !d.CostKnown(), Participants: f.Participants, Reason: note})
	}
	for _, ev := range evs {
		ev.Time = now()
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		if err := w.AppendEvent(b, true); err != nil {
			return err
		}
	}
	return nil
}

// stopRefused is why a stop cannot be taken before round 0 is complete.
const stopRefused = "--stop: round 0 is not complete: there is nothing to synthesize yet; resume without --stop; nothing was written"

// StopRefusal says why resume --stop cannot stop d: no stop is logged and
// a call round 0 runs has no valid answer (nothing to synthesize). cli
// checks it before the cost question, Resume before anything is written.
func StopRefusal(d *bugfolder.Debate, proto Protocol) error {
	if d.Problem == nil || d.Final != nil {
		return nil
	}
	dropped, stopped, _ := loggedStops(d)
	if stopped {
		return nil
	}
	valid := map[string]bool{}
	for _, rd := range d.Rounds {
		for _, f := range rd.Files {
			if rd.K == 0 && f.Status == bugfolder.StatusOK {
				valid[f.SolverID] = true
			}
		}
	}
	panel, support := recordedPanel(d, dropped)
	for _, id := range slices.Concat(proto.Batches(0, panel, support)...) {
		if !valid[id] {
			return &bugfolder.InputError{Path: d.Dir, Msg: stopRefused}
		}
	}
	return nil
}

// loggedStops reads the log's decisions: the participants a continue
// dropped, whether a stop is recorded, and the last round that runs (the
// stop's, else the cap).
func loggedStops(d *bugfolder.Debate) (dropped map[string]bool, stopped bool, last int) {
	dropped, last = map[string]bool{}, d.Problem.R
	for _, rec := range readLog(d.Dir, d.Lang) {
		if rec.Type != EvDecision {
			continue
		}
		if rec.Point == PointStop {
			last, stopped = rec.Round, true
			continue
		}
		if QuorumChoice(rec.Choice) == QuorumContinue {
			for _, id := range rec.Dropped {
				dropped[id] = true
			}
		}
	}
	return dropped, stopped, last
}

// recordedPanel is the panel members problema.md records, less those a
// logged decision dropped, and its support calls.
func recordedPanel(d *bugfolder.Debate, dropped map[string]bool) (panel, support []string) {
	for _, kv := range d.Problem.Solvers {
		if !dropped[kv.Key] {
			panel = append(panel, kv.Key)
		}
	}
	for _, kv := range d.Problem.Critics {
		support = append(support, kv.Key)
	}
	return panel, support
}

// Remaining counts the calls a resume of d makes at least: every call of
// the protocol's batches (proto.Batches: the support role where the
// protocol runs it, round 0 included for argue's scorer) without a file,
// in the rounds still to run, and the final step. The rounds end with a
// stop the log records, or, when stop is set (resume --stop), with the
// rounds already written. upTo is set when the count is a maximum: a
// Stopper protocol whose stop rules may end the rounds earlier (its failed
// calls are counted too, as a retry would make them).
func Remaining(d *bugfolder.Debate, proto Protocol, stop bool) (n int, upTo bool) {
	if d.Problem == nil || d.Final != nil {
		return 0, false
	}
	dropped, stopped, last := loggedStops(d)
	if stop && !stopped {
		return 1, false // the final step, on the rounds written
	}
	// a failed call is asked about again (retry, swap or go on without it):
	// a maximum counts it, a minimum does not
	_, stopper := proto.(Stopper)
	due := interruptedCalls(readLog(d.Dir, d.Lang))
	have := map[string]bool{}
	for _, rd := range d.Rounds {
		for _, f := range rd.Files {
			if (!stopper || f.Status == bugfolder.StatusOK) && !cutOff(due, rd.K, f.SolverID, f) {
				have[fmt.Sprintf("%d/%s", rd.K, f.SolverID)] = true
			}
		}
	}
	panel, support := recordedPanel(d, dropped)
	n = 1 // the final step
	for k := 0; k <= last; k++ {
		for _, batch := range proto.Batches(k, panel, support) {
			for _, id := range batch {
				if !have[fmt.Sprintf("%d/%s", k, id)] {
					n++
				}
			}
		}
	}
	return n, stopper && !stopped && n > 1
}

// reapOrphans kills the engine processes of this debate that a moot killed
// with SIGKILL left running, and says so.
func (r *runner) reapOrphans() {
	if ev, ok := reapOrphans(r.w.Dir, "engine", "of this debate "); ok {
		r.emit(ev)
	}
}

// reapOrphans kills the processes of the work in dir that a moot killed
// with SIGKILL left running (harness.ReapOrphans), and returns the
// warning that says so (ok false when there were none): the one rule of
// the runner's rounds and of a seated run's (RunSeated).
func reapOrphans(dir, member, of string) (Event, bool) {
	pids := harness.ReapOrphans(dir)
	if len(pids) == 0 {
		return Event{}, false
	}
	return Event{Type: EvWarning, Text: fmt.Sprintf("killed %d %s process(es) an earlier moot %sleft running when it was killed (pids %s)", len(pids), member, of, joinInts(pids))}, true
}

// callFolders is how many of a stage's calls, on engines, run in a call
// folder of their own made by the harness (a command engine's; an
// engine handed in by Options.Engines makes none): how many to make ahead
// (harness.PrepareScratch). parallel bounds it when set.
func callFolders(opts Options, engines []string, parallel int) int {
	n := 0
	for _, name := range engines {
		if _, given := opts.Engines[name]; given || opts.Config == nil {
			continue
		}
		if ec, err := opts.Config.Engine(name); err == nil && ec.Kind == harness.KindCommand {
			n++
		}
	}
	if parallel > 0 {
		n = min(n, parallel)
	}
	return n
}

// reapAhead is reapOrphans in the background: the channel yields its
// warning, or closes without one when there were no orphans.
func reapAhead(dir, member, of string) <-chan Event {
	out := make(chan Event, 1)
	go func() {
		defer close(out)
		if ev, ok := reapOrphans(dir, member, of); ok {
			out <- ev
		}
	}()
	return out
}

// joinInts writes numbers for a person: "26533, 26535".
func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
