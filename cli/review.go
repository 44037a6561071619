package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/gitcmd"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/internal/testgate"
	"github.com/reversa/moot/protocol/review"
	"github.com/reversa/moot/tui"
)

const reviewLong = `The Blind Tribunal (docs/protocols/review.md): a panel of jurors reviews a change
blind, one lens each, and only a unanimous pass opens the gate.

The envelope is all a juror sees: the contract (--contract "intent | pass
criteria"), each file the change touches (--change A..B, or --files F...) whole
as it is now, their test files, and moot's own test checks; on a bug, what
must be true as context: its Expected Behavior and Acceptance Criteria and the
effective spec sections (never its Summary, Actual Behavior or a debate's
answer). moot review BUG with no --change/--files reviews the bug's applied
fix (fix/CHG-*.diff, fix/plan.html): see docs/reversa-handoff.md. Before any call,
moot scans all a juror reads (the envelope and every lens's text) for identity —
commit authors and emails of the range (a name however it is written: any
spaces, punctuation or nothing between its parts, reversed, with initials,
fullwidth), Co-authored-by/Signed-off-by trailers, builders' stamps, the
--builder engine (its name and model) or model, and every ladder engine's name
and model id — and exits 2 if anything leaks. Engine names that are plain
words ("local"), kinds or families ("openai"), and any shorter than four
characters, are not scanned for: code says them without naming anyone.

Lenses: defect, security, regression, spec, tests, simplicity, performance,
operator-safety by default; --lens picks (repeatable; library names, the
project's .moot/lenses/, or "name: text").

Ladders: each lens seats its juror from a ladder of engines, the engines file's
review: {ladders: {LENS: [ENGINE, ...], default: [...]}}, else every engine in
the file, external before local, larger known context window first, then file
order, each lens starting on another family (consecutive lenses sit on
different families whenever several can). A review always knows its builder: --builder FAMILY
(or an engine or model name: its family; an engine is also excluded by name), else the
change's commit trailers naming a known engine, model or family, else the engines file's
review: {builder: …}; with none, exit 2 before any call (--builder unknown reviews with
the gate labelled weakened in every report). The builder's family is excluded from every
ladder, printed before any call; an engine of unknown family neither sits nor verifies
(no proof of a cross-family review) unless --solo; a lens with no
rung left holds; a --builder moot cannot place (a typo) is exit 2 listing the
known families. With --builder unknown and every seat of one family, the reports
say "blind same-family, not cross-family" (or, when another family could have
sat, that the engines file's ladders chose one family). A rung whose context window cannot hold the prompt and the
answer is skipped (capacity); on a restricted bug no external engine sits;
structured verdicts run with reasoning off where the engine allows it: an
openai engine's verdict_reasoning_effort (sent as reasoning_effort, or think:
false on Ollama); every other rung at its engine's default, as the route
table says.

Verdicts (one JSON object: {"lens", "verdict": "pass"|"refuse", "findings":
[{"severity": "blocker|major|minor|info", "claim", "evidence", "file"}],
"checked": [...]}, findings required as an array, every value exact: no case
folding, so "Defect" is another lens; one leading byte-order mark and one
json fence are tolerated): a pass listing a blocker, major or minor finding is a refuse
(info never blocks); a verdict
for another lens is a rejected rung (raw tail kept) and the next rung sits;
garbage, prose or refusal text is a refuse; a juror that never answered
(transport, timeout) is a hold and the next rung sits; one call per juror per
round, never a retry. A local engine's pass (external: false) must be
verified by an external engine of another family further down its ladder on
the same prompt, else it is UNVERIFIED: a hold (a restricted bug, which no
external engine reads, so never passes on local seats alone). A pass with no finding and
nothing in "checked" is dry: it counts, but a gate of only dry passes holds,
and dry passes never outweigh a detailed refuse.

Exit 0 only on a unanimous pass; 4 on any refuse or hold (every finding
printed); 2 on an identity leak, or when only the builder's family is left and
--solo was not given (--solo seats the same family blind, and the report says
"blind same-family, not cross-family"). Headless, --yes accepts the plan
(without it the plan is printed and nothing is called, exit 4); on a terminal
the cost screen shows the plan (Start, Edit, Cancel: cancel is exit 3,
nothing written), then the live review view (one pane per lens, as the
verdicts land) until q; the report follows it, with the same exit code (q
before the round ends stops it: exit 3, what was written kept).

Output: <bug>/review/<ID>/ on a bug, else <git root>/.moot/reviews/<ID>/, ID
the stamp (UTC time): its stamp file, review.json, eventos.jsonl, per round
round-K/envelope.md, round-K/verdicts/LENS.json (raw answer, parsed verdict,
every rung) and round-K/routes.md, and summary.md (resumo.md in a Portuguese
register), all owner-only. moot never writes into a folder of that shape it
did not stamp.

Budget, flags and events: a review runs on moot's call path, as every long
command does. --yes accepts the plan (headless without it: the plan is printed,
nothing runs, exit 4); --headless keeps the terminal UI away even on a terminal;
--json streams the one typed event schema on stdout (the event log's, as moot
run --json); --max-usd and --max-tokens (else the engines file's budget:) cap the
spend: a juror's call that would cross the cap is not started, and --on-budget
answers: ask (the live view's budget menu on a terminal; headless the round
stops, exit 4), stop (the same: the gate never opens on a round the budget cut)
or cancel (exit 3). The cap is kept in the record; a resume may raise it with
--max-usd/--max-tokens. --parallel N bounds the calls at once (default 4, at
least 1); --timeout bounds each call (a positive duration; without it each
engine's own, else 10m); --round-timeout bounds the round (a juror still open
when it passes ends as timeout, and the next rung has no time left) and
--debate-timeout this run (the round stops resumable, exit 3). A ladder with fewer than
three external rungs to call before its local tail is warned about before any
call: a wrong lens and a failure could leave it on hold.

--test-cmd runs only once the plan is accepted; a signal while it runs stops the
review like any other stop (exit 3): the test's process group is killed and its
worktree removed.

--resume ID (or moot resume ID: the same path) continues the review on moot's
runner, as a debate is resumed: its lock, the jurors a killed moot left running
(killed, logged as a warning), a changed cap logged as a budget decision. A round cut short —
cancelled, stopped at the budget cap, or its moot killed — is continued on the
same files: the lenses that sat keep their verdicts (no finished call is
repeated) and only the others are called. Otherwise the envelope is rebuilt
from the current files and every juror is re-convened (a new round). New
findings (claim and file, normalized) are counted per round; when a round
raises new findings and no fewer than the round before, the review stops for a
human: moot decide ID approve|decline|revise. Everything moot reads back of a
review (its stamp, review.json, the verdicts and envelopes a resume keeps) is
sealed with an HMAC keyed by a secret in your config folder (seal.key beside
trusted.json): a review folder moot did not write for you — committed to a
repository, forged or edited — is refused naming the file (exit 2), nothing
run. A resume never takes the repository, the engines file or the bug's
visibility from the record: the repository is the git root you run in, the
engines file is --config or the usual one, and a bug's visibility is read
from its bug.md.`

// reviewFlags are moot review's flags: its own, and those every long
// command takes (runFlags' --yes, --headless, --json and --on-budget;
// budgetFlags' --max-usd and --max-tokens).
type reviewFlags struct {
	change, contract, builder, resume, config, testCmd, red string
	format                                                  string
	files, lenses                                           []string
	solo                                                    bool
	timeout                                                 time.Duration
	parallel                                                int
	run                                                     runFlags
	budget                                                  budgetFlags
	// words name the change's inputs in a refusal: the flags (the zero
	// value), or the wizard's fields (reviewForWizard).
	words envelope.Words
}

// changeWords are the words a refusal of the change or its contract uses
// (Words.Say).
func (f reviewFlags) changeWords() envelope.Words {
	if f.words.Change == "" {
		return envelope.Flags
	}
	return f.words
}

func newReviewCmd(e *env) *cobra.Command {
	cmd, _ := newReview(e)
	return cmd
}

// newReview is moot review's command and the flags it parses into (the
// TUI's wizard parses the words typed into it with them).
func newReview(e *env) (*cobra.Command, *reviewFlags) {
	var f reviewFlags
	cmd := &cobra.Command{
		Use:   "review [BUG] (--change A..B | --files F...) --contract \"intent | criteria\" [flags]",
		Short: "The Blind Tribunal: lensed jurors review a change blind; unanimity opens the gate",
		Long:  reviewLong,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReview(cmd, e, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.change, "change", "", "the change as a git range A..B")
	fl.StringArrayVar(&f.files, "files", nil, "a touched file (repeatable; instead of --change)")
	fl.StringVar(&f.contract, "contract", "", "\"intent in one line | pass criteria\"")
	fl.StringVar(&f.builder, "builder", "", "the builder's family, or an engine or model name (its family is excluded)")
	fl.StringArrayVar(&f.lenses, "lens", nil, "a juror's lens (repeatable; default the eight review lenses)")
	fl.StringVar(&f.testCmd, "test-cmd", "", "the project's test command, run by moot in a separate worktree once the plan is accepted")
	fl.StringVar(&f.red, "red", "", "the commit holding the failing contract test (red first)")
	fl.BoolVar(&f.solo, "solo", false, "allow the builder's family when it is the only one: blind same-family, not cross-family")
	fl.StringVar(&f.resume, "resume", "", "continue review ID: a round cut short on the same files, else a new round on the current files")
	fl.StringVar(&f.config, "config", "", "engines file (never taken from a review's record)")
	fl.DurationVar(&f.timeout, "timeout", 0, "hard limit per call (default: each engine's own, else 10m)")
	fl.IntVar(&f.parallel, "parallel", defaultReviewParallel, "juror calls at once")
	fl.StringVar(&f.format, "format", formatText, "the report on stdout: text, sarif (SARIF 2.1.0) or github (workflow annotations); exit codes unchanged")
	f.run.registerCommon(cmd)
	f.run.registerLimits(cmd)
	// a review has no judge to keep room for: stop ends the round where it is
	cmd.Flags().Lookup("on-budget").Usage = "the budget menu's answer, headless: ask (stop, exit 4), stop (the round stops where it is, the lenses that sat are kept: exit 4, resumable with a raised cap) or cancel (exit 3)"
	f.budget.register(cmd)
	return cmd, &f
}

// resumeReview resumes review dir through the runner's one resume
// (engine.Resume, by way of resumeOnRunner: a round cut short continues
// in place, no finished call repeated): moot resume ID and moot review
// --resume ID are this one path.
func resumeReview(cmd *cobra.Command, e *env, dir, config string, rf runFlags, bf budgetFlags) error {
	return runReview(cmd, e, reviewFlags{resume: dir, config: config, parallel: defaultReviewParallel, format: formatText, run: rf, budget: bf}, nil)
}

// defaultReviewParallel is --parallel's default for a review.
const defaultReviewParallel = 4

// reviewRun is a review being prepared.
type reviewRun struct {
	e      *env
	f      reviewFlags
	reg    *bugfolder.Register
	bug    *bugfolder.Bug
	repo   string
	parent string
	cfg    *harness.Config
	st     *review.State
	folder *review.Folder
	// budget is the cap this session runs under; capBefore the record's
	// before it (a resume that changes it logs a budget decision).
	budget, capBefore engine.Budget
	fix               *envelope.Fix // the bug's applied fix under review (reviewfix.go), nil otherwise
	cmd               *cobra.Command
	pol               *engine.Policies
	// cancel stops the round (a stop signal once armed, q in the live
	// view); unarm and closeLive are undone at the end (disarm).
	cancel           context.CancelFunc
	unarm, closeLive func()
	// view is the live view on a terminal; roundDone and viewDone pace it
	// around a resumed round (watch).
	view                *liveView
	roundDone, viewDone chan struct{}
	// warnings are what was found before the round (a builder its
	// trailers contradict): said on stderr, and logged as warning events
	warnings []string
}

// runReview runs a review (or resumes one: f.resume) to the end of a round.
func runReview(cmd *cobra.Command, e *env, f reviewFlags, args []string) error {
	if f.resume != "" {
		r, err := newReviewRun(cmd, e, f, args)
		if err != nil {
			return err
		}
		return r.resumeOnRunner()
	}
	r, rd, plan, _, err := prepareReview(cmd, e, f, args, false)
	if err != nil {
		return err
	}
	if r.live() { // the cost screen, then the live view (reviewlive.go)
		return r.runOnTerminal(plan, rd)
	}
	if err := r.accept(plan); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.cancel = cancel
	defer r.disarm()
	// from here a stop signal stops the review: the test checks' process
	// group and worktree too (exit 3)
	r.armSignals()
	rin, err := r.launch(ctx, rd, r.pol, r.printer())
	if err != nil {
		return err
	}
	res, runErr := review.Run(ctx, rin)
	return r.finish(ctx, res, runErr)
}

// newReviewRun checks moot review's flags and finds where the review
// lives (the register, the bug, the repository).
func newReviewRun(cmd *cobra.Command, e *env, f reviewFlags, args []string) (*reviewRun, error) {
	if err := checkTimeouts(cmd); err != nil {
		return nil, err
	}
	if err := checkParallel(f.parallel, f.parallel); err != nil {
		return nil, err
	}
	if err := checkReviewFormat(f.format, f.run.asJSON); err != nil {
		return nil, err
	}
	pol, err := f.run.budgetPolicies()
	if err != nil {
		return nil, err
	}
	r := &reviewRun{e: e, f: f, cmd: cmd, pol: pol}
	if err := r.locate(args); err != nil {
		return nil, err
	}
	return r, nil
}

// prepareReview is a new review's checks, envelope, routes and plan, up
// to the question whether to start; check stops once the change, the
// contract, the builder and the lenses are settled (the wizard's check
// as an answer is typed: no probe, no call, nothing written).
func prepareReview(cmd *cobra.Command, e *env, f reviewFlags, args []string, check bool) (*reviewRun, *reviewRound, reviewPlan, *engine.Policies, error) {
	fail := func(err error) (*reviewRun, *reviewRound, reviewPlan, *engine.Policies, error) {
		return nil, nil, reviewPlan{}, nil, err
	}
	r, err := newReviewRun(cmd, e, f, args)
	if err != nil {
		return fail(err)
	}
	if err := r.handoff(); err != nil {
		return fail(err)
	}
	if err := r.state(); err != nil {
		return fail(err)
	}
	rd, plan, err := r.plan(check)
	if err != nil {
		return fail(err)
	}
	return r, rd, plan, r.pol, nil
}

// reviewRound is a round ready to run once its plan is accepted: the
// envelope, the routes and the prompt, and the estimate.
type reviewRound struct {
	env    *envelope.Envelope
	routes []review.Route
	prompt func(bugfolder.Lens) string
	est    review.Estimate
}

// resumeOnRunner resumes the review --resume names through the runner's
// one resume (engine.Resume): it finds the folder is a review's and
// reopens it (review.Kind), and this run, its review.Host, prepares the
// round (Prepare: what needs the engines file, git and the terminal).
func (r *reviewRun) resumeOnRunner() error {
	f := r.f
	if f.change != "" || len(f.files) > 0 || f.contract != "" || f.builder != "" || len(f.lenses) > 0 || f.testCmd != "" || f.red != "" || f.solo {
		return usageErr("--resume re-uses the review's own change, contract, builder, lenses and test command; give only --resume ID (and the run flags: --yes, --headless, --json, --config, --timeout, --parallel, --max-usd, --max-tokens, --on-budget)")
	}
	dir := filepath.Join(r.parent, filepath.Base(f.resume))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		// a bug's review resumed without naming the bug
		if dir = review.Find(f.resume, reviewParents(r.e, r.reg)); dir == "" {
			return usageErr("no review %q in %s (nor under any bug's review/)", f.resume, r.parent)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.cancel = cancel
	defer r.disarm()
	res, err := engine.Resume(ctx, r.bug, engine.Options{Folder: dir, Kinds: seatedKinds, Host: r})
	r.unwatch()
	rr, ok := review.ResultOf(res)
	if !ok {
		return err // refused before its round: nothing called
	}
	return r.finish(ctx, rr, err)
}

// Prepare is the review.Host a resume hands engine.Resume: the reopened
// record's surroundings taken from this invocation (rederive), then the
// round planned as a new review's is and accepted (--yes headless; on a
// terminal the cost screen, whose Start opens the live view that then
// follows the round the runner drives).
func (r *reviewRun) Prepare(ctx context.Context, f *review.Folder, st *review.State) (review.RunInput, error) {
	r.folder, r.st = f, st
	if err := r.rederive(); err != nil {
		return review.RunInput{}, err
	}
	rd, plan, err := r.plan(false)
	if err != nil {
		return review.RunInput{}, err
	}
	var asker engine.BudgetAsker = r.pol // headless: --on-budget
	emit := r.printer()
	if r.live() {
		if asker, err = r.watchFromCost(ctx, plan, rd); err != nil {
			return review.RunInput{}, err
		}
		emit = nil // the screen is the UI's: no lines on stderr
	} else if err := r.accept(plan); err != nil {
		return review.RunInput{}, err
	}
	r.armSignals()
	return r.launch(ctx, rd, asker, emit)
}

// plan readies a round once the record is read: the engines file, the
// cap, the lenses (check stops there), the envelope and its identity
// scan, the probes and the routes, printed, and the plan.
func (r *reviewRun) plan(check bool) (*reviewRound, reviewPlan, error) {
	cfg, err := askTrustInTUI(loadConfig(r.f.config, r.reg))(true)
	if err != nil {
		return nil, reviewPlan{}, err
	}
	r.cfg = cfg
	if err := r.capOf(r.cmd); err != nil {
		return nil, reviewPlan{}, err
	}
	if err := r.lensesOf(); err != nil {
		return nil, reviewPlan{}, err
	}
	if check {
		return nil, reviewPlan{}, nil
	}
	env, err := r.envelope()
	if err != nil {
		return nil, reviewPlan{}, err
	}
	if err := r.scan(env); err != nil {
		return nil, reviewPlan{}, err
	}
	nonce := engine.Nonce()
	prompt := func(l bugfolder.Lens) string { return review.Prompt(l, env.Render(), nonce) }
	solo := r.st.Solo
	probeCtx, probeCancel := signalContext()
	unusable, ollama := r.probe(probeCtx)
	probeCancel()
	in := review.RouteInput{Config: cfg, Lenses: r.st.Lenses, Builder: r.st.BuilderFamily, Restricted: r.st.Restricted,
		Unusable: unusable, Ollama: ollama, Prompt: prompt,
		BuilderEngine: review.BuilderEngine(cfg, r.st.Builder), AllowUnknownFamily: solo}
	routes := review.Plan(in)
	switch only := review.OnlyBuilderLeft(in, routes); {
	case only && !solo:
		return nil, reviewPlan{}, withCode(ExitUsage, fmt.Errorf("only the builder's family (%s) is left on the ladders (%s)%s: a builder never reviews its own work; add engines of another family, or pass --solo for the explicit blind same-family degradation; nothing was called or written",
			r.st.BuilderFamily, strings.Join(review.Excluded(routes), ", "), otherSkips(routes)))
	case only:
		in.Solo = true // the explicit degradation: the builder's family sits blind
		routes = review.Plan(in)
	case solo:
		if unknown := unknownFamilyRungs(routes); len(unknown) > 0 {
			fmt.Fprintf(r.e.stderr, "moot: --solo: a family other than the builder's can sit, so the builder's stays excluded; engines of unknown family may sit (%s), and a gate they sit on is labelled weakened\n", strings.Join(unknown, ", "))
		} else {
			fmt.Fprintln(r.e.stderr, "moot: --solo unused: a family other than the builder's can sit, so the builder's stays excluded, and no engine of unknown family is on the ladders")
		}
	}
	r.st.Solo = in.Solo
	r.announce(routes)
	r.announceRules(routes)
	if review.Callable(routes) == 0 {
		return nil, reviewPlan{}, withCode(ExitUsage, fmt.Errorf("no lens has a rung moot can call in %s: %s; a round would only hold: add engines that can sit (an engine of another family than the builder's, with its true family: in the engines file), or run moot review with --solo to let an engine of unknown family sit with the gate labelled weakened; nothing was called or written", configName(cfg), skippedRungs(routes)))
	}
	plan, est := r.planOf(routes)
	r.warnCap(routes)
	return &reviewRound{env: env, routes: routes, prompt: prompt, est: est}, plan, nil
}

// launch readies an accepted round: the test checks, the folder and the
// call path; asker answers a reached budget cap, emit sees every event
// (nil: none printed; a browser watching it reads the live file). The
// runner then drives the round (review.Run, engine.RunSeated): the lock,
// the orphans a killed moot left, the resume of a round cut short, the
// statuses.
func (r *reviewRun) launch(ctx context.Context, rd *reviewRound, asker engine.BudgetAsker, emit func(engine.Event)) (review.RunInput, error) {
	f := r.f
	if err := r.testChecks(ctx, rd.env); err != nil {
		return review.RunInput{}, err
	}
	if err := r.scan(rd.env); err != nil { // the test checks' tails joined the envelope
		return review.RunInput{}, err
	}
	if err := r.open(); err != nil {
		return review.RunInput{}, err
	}
	est := rd.est
	calls := engine.DispatchOptions{Protocol: "review", Config: r.cfg, Harness: harnessOptions(r.cfg, r.reg), Asker: asker, Budget: r.budget,
		Parallel: f.parallel, Timeout: f.timeout, RoundTimeout: f.run.roundTimeout}
	planEv := engine.Event{Type: engine.EvPlan, Calls: est.MaxCalls, Tokens: est.Input + est.Output, USD: est.USD, CostUnknown: !est.USDKnown,
		Formula: fmt.Sprintf("%d lens(es), one juror each per round; up to %d rung(s) in all", len(rd.routes), est.MaxCalls)}
	live := livefile.New() // streamed figures for a browser watching this review
	r.closeLive = live.Close
	return review.RunInput{Folder: r.folder, State: r.st, Envelope: rd.env, Emit: live.Wrap(emit), Plan: &planEv, Resume: f.resume != "",
		Dispatch: calls, CapBefore: r.capBefore, RunLimit: f.run.debateTimeout, Warnings: r.warnings,
		Round: review.RoundInput{Routes: rd.routes, Prompt: rd.prompt, BugID: r.st.BugID}}, nil
}

// armSignals makes a stop signal cancel the run's context (r.cancel) from
// now on; disarm stops listening and closes the live sidecar.
func (r *reviewRun) armSignals() {
	sctx, stop := signalContext()
	after := context.AfterFunc(sctx, r.cancel)
	r.unarm = func() { after(); stop() }
}

// disarm undoes armSignals and closes the live sidecar, at the end.
func (r *reviewRun) disarm() {
	if r.closeLive != nil {
		r.closeLive()
	}
	if r.unarm != nil {
		r.unarm()
	}
}

// unwatch tells the live view the round ended and waits for it to close
// (q); nothing when no view was shown.
func (r *reviewRun) unwatch() {
	if r.viewDone == nil {
		return
	}
	close(r.roundDone)
	r.view.p.Send(tui.ReviewDoneMsg{})
	<-r.viewDone
}

// finish reports a round's end (every finding, the fix's terms, the
// --format report) and maps it to the exit code; a runner that refused
// the folder before any call (its lock, a round it did not create) is
// exit 2 with nothing to report.
func (r *reviewRun) finish(ctx context.Context, res review.RunResult, runErr error) error {
	var refused *bugfolder.InputError
	if errors.As(runErr, &refused) && len(res.Seats) == 0 {
		return runErr
	}
	r.report(res)
	r.reportFix(res)
	if err := r.writeReviewFormat(res); err != nil {
		return withCode(ExitInternal, err)
	}
	return r.exit(ctx, res, runErr)
}

// exit maps a round's end to moot's exit codes: 0 on a unanimous pass, 3
// when cancelled (a signal, q, --on-budget cancel), 4 when it waits for a
// human (a refuse, a hold, a stall, a round stopped at the budget cap), 1
// when a file could not be saved.
func (r *reviewRun) exit(ctx context.Context, res review.RunResult, runErr error) error {
	switch {
	case r.st.Status == review.StatusCancelled || ctx.Err() != nil:
		why := "review cancelled"
		if res.TimedOut {
			why = "the run's time limit (--debate-timeout) was reached: review cancelled"
		}
		return withCode(ExitCancelled, fmt.Errorf("%s; what was written is kept in %s; continue it: moot resume %s", why, r.folder.Dir, r.resumeArgs()))
	case r.st.Status == review.StatusBudget:
		return withCode(ExitNeedHuman, fmt.Errorf("%v; the lenses that sat are kept: moot resume %s --max-usd … (or --max-tokens …) calls the others", runErr, r.resumeArgs()))
	case runErr != nil:
		return withCode(ExitInternal, fmt.Errorf("%v (the review is kept in %s)", runErr, r.folder.Dir))
	case res.Gate.Outcome == review.OutcomePass && r.st.Status == review.StatusPassed:
		return nil
	}
	return &exitError{code: ExitNeedHuman, quiet: true}
}

// capOf is the budget cap: a new review's is the engines file's budget:,
// each limit overridden by its flag; a resumed one's is its record's, a
// flag raising or setting a limit.
func (r *reviewRun) capOf(cmd *cobra.Command) error {
	base := r.cfg.Budget
	if r.f.resume != "" {
		base = r.st.Cap()
		r.capBefore = base
	}
	c, err := r.f.budget.cap(cmd, base)
	if err != nil {
		return err
	}
	r.budget = c
	if c.Set() {
		r.st.Budget = &review.Cap{MaxUSD: c.MaxUSD, MaxTokens: c.MaxTokens}
	}
	return nil
}

// locate finds the bug (when given), the git root and the reviews' folder.
func (r *reviewRun) locate(args []string) error {
	if len(args) == 1 {
		reg, bug, err := resolveBug(r.e, args[0])
		if err != nil {
			return err
		}
		if bug.Locked() {
			return usageErr("%s is closed (DONE.md): its folder is read-only for every tool, so no review is written there; nothing was written", bug.ID)
		}
		r.reg, r.bug = reg, bug
		r.parent = filepath.Join(bug.Dir, review.BugReviewDir)
	}
	root, err := gitRoot(r.e.cwd)
	if err != nil {
		if r.f.change != "" {
			return usageErr("%s needs a git repository: %v", r.f.changeWords().Change, err)
		}
		root = bugfolder.ProjectRoot(r.e.cwd)
	}
	r.repo = root
	if r.reg == nil {
		r.reg = projectRegister(r.e, root)
	}
	if r.parent == "" {
		r.parent = filepath.Join(root, review.ReviewsDir)
	}
	return nil
}

// gitRoot is the top of the git work tree holding dir.
func gitRoot(dir string) (string, error) {
	out, err := gitcmd.Output(context.Background(), dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git work tree", dir)
	}
	return strings.TrimSpace(string(out)), nil
}

// state builds the record of a new review (a resumed one's is read by
// review.OpenRecord when engine.Resume reopens it).
func (r *reviewRun) state() error {
	f := r.f
	if (f.change == "") == (len(f.files) == 0) {
		return usageErr("give the change %s", f.changeWords().Either)
	}
	if len(f.files) > 0 { // said before the contract, the builder and the plan: a wizard checks it as typed
		if err := envelope.CheckFiles(r.repo, f.files, f.changeWords()); err != nil {
			return usageErr("%v; nothing was called or written", err)
		}
	}
	c, err := envelope.ParseContract(f.contract)
	if err != nil {
		return usageErr("%v", f.changeWords().Say(err))
	}
	st := &review.State{Protocol: review.Name, Repo: r.repo, Change: f.change, Files: f.files, Contract: c, Builder: f.builder,
		Solo: f.solo, TestCmd: f.testCmd, Red: f.red, Lang: "en", StartedAt: time.Now().UTC(), Rounds: []review.RoundRecord{}}
	if r.reg != nil && r.reg.Lang == bugfolder.PT && r.reg.Root != "" {
		st.Lang = "pt"
	}
	if r.bug != nil {
		st.BugID, st.Restricted = r.bug.ID, r.bug.Restricted()
		st.Fix = r.fix != nil // a fix review stays one on every resume (isFixReview)
	}
	if f.config != "" {
		st.Config = f.config
		if !filepath.IsAbs(st.Config) {
			st.Config = filepath.Join(r.e.cwd, st.Config)
		}
	}
	if f.change != "" {
		// the base is kept as a commit id: a resumed round reviews
		// base..HEAD, however HEAD~1 or a branch moved since
		a, _, err := envelope.SplitRange(f.change)
		if err == nil {
			st.Base, err = envelope.Resolve(r.repo, f.change, a)
		}
		var cand string
		if err == nil {
			_, cand, err = envelope.RangeEnds(r.repo, f.change)
		}
		if err != nil {
			return &bugfolder.InputError{Msg: f.changeWords().Say(err).Error(), Err: err}
		}
		st.Worktree = cand == ""
	}
	r.st = st
	return nil
}

// rederive replaces what a resumed record says of its surroundings by
// what this invocation finds: the repository is the git root moot runs
// in, the engines file is --config or the usual one (never the record's),
// and a bug's visibility is its bug.md's (restricted when either says so).
// A record on a bug moot cannot find is refused: its visibility is unknown.
func (r *reviewRun) rederive() error {
	st := r.st
	if st.Repo != r.repo {
		fmt.Fprintf(r.e.stderr, "moot: review %s: reviewing the repository moot runs in (%s), not the one its record names\n", r.folder.ID, termsafe.Line(r.repo))
	}
	st.Repo = r.repo
	if st.Config != "" && r.f.config == "" {
		fmt.Fprintf(r.e.stderr, "moot: review %s was started with --config %s; a resume takes the engines file from its own flags (pass --config to use that one again)\n", r.folder.ID, termsafe.Line(st.Config))
	}
	st.Config = enginesFileArg(r.e, r.f.config) // absolute, as at its start: its resume hints work from anywhere
	if st.BugID == "" {
		if r.bug != nil {
			return usageErr("review %s is not a review of %s; resume it without naming a bug; nothing was called or written", r.folder.ID, r.bug.ID)
		}
		return nil
	}
	if r.bug == nil {
		reg, bug, err := resolveBug(r.e, st.BugID)
		if err != nil || bug == nil {
			return usageErr("review %s is on bug %s, which moot cannot find in this register (%v): its visibility cannot be checked, so nothing is sent; nothing was called or written", r.folder.ID, st.BugID, err)
		}
		r.reg, r.bug = reg, bug
	}
	if r.bug.ID != st.BugID {
		return usageErr("review %s is on bug %s, not %s; nothing was called or written", r.folder.ID, st.BugID, r.bug.ID)
	}
	st.Restricted = st.Restricted || r.bug.Restricted()
	if isFixReview(st) {
		// a fix review stays one: its fix is read again, and moot's own
		// checks of it re-run on this round (fixChecks)
		fix, err := envelope.ReadFix(r.bug.Dir)
		if err != nil || fix == nil {
			return usageErr("review %s is a review of %s's applied fix, and its fix cannot be read now (%v): restore %s; nothing was called or written", r.folder.ID, st.BugID, err, filepath.Join(r.bug.Dir, envelope.FixDir))
		}
		r.fix = fix
	}
	return nil
}

// change is the range this round reviews and whether its end is read
// from its commit (the record's rule: review.State.Range).
func (r *reviewRun) change() (string, bool) { return r.st.Range(r.f.resume != "") }

// lensesOf resolves the lenses (a resumed review keeps its own).
func (r *reviewRun) lensesOf() error {
	if r.f.resume != "" {
		return nil
	}
	if err := r.resolveBuilder(); err != nil {
		return err
	}
	cat, err := loadLenses(r.reg, r.cfg)
	if err != nil {
		return err
	}
	names := r.f.lenses
	if len(names) == 0 {
		names = review.DefaultLenses
	}
	seen := map[string]bool{}
	for _, n := range names {
		l, err := cat.Resolve(n)
		if err != nil {
			return usageErr("%v", err)
		}
		if l.Name == review.MootLens || seen[l.Name] {
			return usageErr("--lens %s: given twice, or the name moot keeps for its own checks", l.Name)
		}
		seen[l.Name] = true
		r.st.Lenses = append(r.st.Lenses, l)
	}
	warnReplacedLenses(r.e.stderr, r.reg, cat, r.st.Lenses)
	return nil
}

// restrictedFiles makes the review restricted (no external engine sits)
// when a file of its envelope, or a bug register's file the change
// touched and the envelope left out, belongs to a restricted bug
// (bugfolder.RestrictedEvidence: the nearest bug.md decides), whatever the
// bug under review or the change named it, and says so.
func (r *reviewRun) restrictedFiles(env *envelope.Envelope) error {
	if r.st.Restricted {
		return nil
	}
	paths := make([]string, 0, len(env.Files)+len(env.Records))
	for _, f := range env.Files {
		paths = append(paths, filepath.Join(r.st.Repo, filepath.FromSlash(f.Path)))
	}
	for _, rel := range env.Records { // left out, but the change is about that bug
		paths = append(paths, filepath.Join(r.st.Repo, filepath.FromSlash(rel)))
	}
	dir, err := bugfolder.RestrictedEvidence(r.st.Repo, paths)
	if err != nil {
		return &bugfolder.InputError{Msg: "the envelope's files: " + err.Error(), Err: err}
	}
	if dir != "" {
		r.st.Restricted = true
		fmt.Fprintf(r.e.stderr, "moot: warning: the change holds a file of the restricted %s: the review is restricted, and no external engine sits\n", termsafe.Line(dir))
	}
	return nil
}

// envelope builds the envelope from the current files (the test checks
// join it once the plan is accepted: testChecks).
func (r *reviewRun) envelope() (*envelope.Envelope, error) {
	st := r.st
	change, committed := r.change()
	parts, omitted, err := r.bugContract()
	if err != nil {
		return nil, err
	}
	omitted = append(omitted, r.fixLeftOut()...)
	src := envelope.Source{Repo: st.Repo, Change: change, Files: st.Files, Contract: st.Contract, Context: parts, Omitted: omitted, Committed: committed}
	if change != "" {
		src.Also = st.Touched // a file of an earlier round stays (listed deleted when gone)
	}
	src.Records = r.recordFolders()
	env, err := envelope.Build(src)
	if err != nil {
		return nil, &bugfolder.InputError{Msg: "the envelope cannot be built: " + err.Error(), Err: err}
	}
	for _, o := range env.Omitted[len(omitted):] {
		fmt.Fprintf(r.e.stderr, "moot: warning: left out of the envelope: %s\n", termsafe.Line(o))
	}
	if !showsSomething(env) {
		return nil, usageErr("nothing to review: every file of the change is a symbolic link, a binary file or a submodule, which jurors are never shown (%d file(s)); review text files; nothing was called or written", len(env.Files))
	}
	if err := r.restrictedFiles(env); err != nil {
		return nil, err
	}
	for _, f := range env.Files {
		if !f.Test && !slices.Contains(st.Touched, f.Path) {
			st.Touched = append(st.Touched, f.Path)
		}
	}
	slices.Sort(st.Touched)
	if st.TestCmd == "" && st.Red != "" {
		return nil, usageErr("--red needs --test-cmd (moot runs the tests to check the red commit)")
	}
	return env, nil
}

// testChecks runs the project's tests (--test-cmd, the record's on a
// resume: sealed, so moot's own) into the envelope, once the plan is
// accepted. A stop signal while they run kills their process group and
// removes their worktree (testgate), and the review stops: exit 3.
func (r *reviewRun) testChecks(ctx context.Context, env *envelope.Envelope) error {
	st := r.st
	if st.TestCmd == "" {
		return nil
	}
	change, committed := r.change()
	o := testgate.Options{Repo: st.Repo, Red: st.Red, Cmd: st.TestCmd, Timeout: r.f.timeout, TestFiles: env.TestFiles()}
	var err error
	if change != "" {
		// the candidate is the working tree when the range ends at HEAD, so
		// the tests run on the bytes the jurors read
		if o.Base, o.Candidate, err = envelope.RangeEnds(st.Repo, change); err == nil && committed && o.Candidate == "" {
			o.Candidate, err = envelope.Resolve(st.Repo, change, "HEAD")
		}
		if err != nil {
			return &bugfolder.InputError{Msg: "--change: " + err.Error(), Err: err}
		}
	}
	checks, err := testgate.Run(ctx, o)
	if ctx.Err() != nil {
		return withCode(ExitCancelled, errors.New("review stopped by a signal while --test-cmd ran: its processes were killed and its worktree removed; nothing was called"))
	}
	if err != nil {
		return &bugfolder.InputError{Msg: "--test-cmd: the test checks could not run: " + err.Error(), Err: err}
	}
	env.Tests = checks
	return nil
}

// showsSomething reports whether the envelope shows a juror any file: a
// body, or a deletion.
func showsSomething(env *envelope.Envelope) bool {
	return slices.ContainsFunc(env.Files, func(f envelope.File) bool { return f.Deleted || f.Body != "" || f.Omitted == "" })
}

// probe returns why an engine may not be called (its probe failed) and
// whether its server is Ollama, probing once per engine (results cached
// in the user's cache folder).
func (r *reviewRun) probe(ctx context.Context) (unusable func(string) string, ollama func(string) bool) {
	var names []string
	seen := map[string]bool{}
	for _, l := range r.st.Lenses {
		for _, n := range review.LadderOf(r.cfg, l.Name) {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	why, isOllama := map[string]string{}, map[string]bool{}
	for _, res := range harness.ProbeEngines(ctx, r.cfg, names, harnessOptions(r.cfg, r.reg), harness.DefaultProbeCache(), false) {
		if !res.OK {
			why[res.Engine] = "failed its probe: " + res.Why()
		}
		isOllama[res.Engine] = res.Ollama
	}
	return func(n string) string { return why[n] }, func(n string) bool { return isOllama[n] }
}

// otherSkips says why the ladders' other engines may not sit (a probe
// that failed, a restricted bug, a window too small), so a refusal that
// names only the builder's family does not hide them: "; juror-a may not
// sit either (failed its probe: …)".
func otherSkips(routes []review.Route) string {
	var out []string
	seen := map[string]bool{}
	for _, r := range routes {
		for _, g := range r.Rungs {
			if g.Skip != "" && g.Skip != review.StatusBuilder && !seen[g.Engine] {
				seen[g.Engine] = true
				out = append(out, fmt.Sprintf("%s (%s)", g.Engine, g.Why))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "; " + strings.Join(out, ", ") + " may not sit either"
}

// recordFolders are the repo-relative folders of the bug register, when
// it is not named _reversa_bugs (envelope.Source.Records).
func (r *reviewRun) recordFolders() []string {
	if r.reg != nil {
		if rel, err := filepath.Rel(r.st.Repo, r.reg.Root); err == nil && filepath.IsLocal(rel) {
			return []string{filepath.ToSlash(rel)}
		}
	}
	return nil
}

// builderSaid names the builder in a message as the summary does:
// "builder ENGINE (engine, family unknown)" for an engine whose family
// is unknown — never its name as a family — else "builder family F".
func (r *reviewRun) builderSaid() string {
	if r.st.BuilderEngine != "" && r.st.BuilderFamilyUnknown {
		return "builder " + r.st.BuilderEngine + " (engine, family unknown)"
	}
	return "builder family " + r.st.BuilderFamily
}

// announce prints, before any call, the builder's exclusion (loudly) and
// the planned route table.
func (r *reviewRun) announce(routes []review.Route) {
	w := r.e.stderr
	switch ex := review.Excluded(routes); {
	case r.st.Solo:
		// its rungs were excluded, then let sit: one message says both
		fmt.Fprintf(w, "moot: %s: solo rig: only the builder's family is available, so its rungs sit blind (%s) — %s\n",
			r.builderSaid(), strings.Join(review.OfFamily(routes, r.st.BuilderFamily), ", "), review.SoloNote)
	case len(ex) > 0:
		fmt.Fprintf(w, "moot: %s: excluded from every ladder: %s\n", r.builderSaid(), strings.Join(ex, ", "))
	case r.st.BuilderFamilyUnknown:
		fmt.Fprintf(w, "moot: %s: no rung of its family; nothing excluded\n", r.builderSaid())
	case r.st.BuilderFamily != "":
		fmt.Fprintf(w, "moot: builder family %s: no rung of family %s; nothing excluded\n", r.st.BuilderFamily, r.st.BuilderFamily)
	}
	if thin := review.ThinLadders(routes); len(thin) > 0 {
		fmt.Fprintf(w, "moot: warning: ladders with fewer than %d external rungs to call before the local tail (a wrong lens and a failure could leave them on hold): %s\n", review.FloorRungs, strings.Join(thin, ", "))
	}
	for _, rt := range routes {
		var parts []string
		for _, g := range rt.Rungs {
			s := g.Engine
			if g.Skip != "" {
				s += " [" + string(g.Skip) + "]"
			}
			parts = append(parts, s)
		}
		if len(parts) == 0 {
			parts = []string{"(no rung: hold)"}
		}
		fmt.Fprintf(w, "  %-16s %s\n", rt.Lens.Name, strings.Join(parts, " → "))
	}
}

// skippedRungs names each skipped rung once, why it was skipped and the
// lenses whose ladders hold it: what the refusal of a round with no
// rung to call says, wherever it is shown (a screen has no plan above it).
func skippedRungs(routes []review.Route) string {
	type skip struct{ engine, why string }
	var order []skip
	lenses := map[skip][]string{}
	for _, rt := range routes {
		for _, g := range rt.Rungs {
			k := skip{g.Engine, string(g.Skip) + ": " + g.Why}
			if _, seen := lenses[k]; !seen {
				order = append(order, k)
			}
			lenses[k] = append(lenses[k], rt.Lens.Name)
		}
	}
	if len(order) == 0 {
		return "no ladder has a rung (the engines file names no engine a lens may try)"
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s skipped on the ladders of %s (%s)", k.engine, strings.Join(lenses[k], ", "), k.why))
	}
	return strings.Join(parts, "; ")
}

// reviewPlan is the plan --json prints when it is not accepted.
type reviewPlan struct {
	Protocol string            `json:"protocol"`
	Lenses   int               `json:"lenses"`
	Calls    planCalls         `json:"calls"`
	Tokens   planTokens        `json:"tokens"`
	USD      *float64          `json:"usd"`
	Excluded []string          `json:"excluded"`
	Ladders  map[string][]rung `json:"ladders"`
}

type planCalls struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type rung struct {
	Engine string `json:"engine"`
	Family string `json:"family"`
	Skip   string `json:"skip,omitempty"`
}

// planOf is the review's plan: calls, estimated tokens and cost, ladders.
func (r *reviewRun) planOf(routes []review.Route) (reviewPlan, review.Estimate) {
	est := review.Estimated(r.cfg, routes)
	p := reviewPlan{Protocol: review.Name, Lenses: len(routes), Excluded: review.Excluded(routes), Ladders: map[string][]rung{},
		Calls: planCalls{Min: est.MinCalls, Max: est.MaxCalls}, Tokens: planTokens{Input: est.Input, Output: est.Output, Estimated: true}}
	if est.USDKnown {
		p.USD = ptr(est.USD)
	}
	for _, rt := range routes {
		for _, g := range rt.Rungs {
			p.Ladders[rt.Lens.Name] = append(p.Ladders[rt.Lens.Name], rung{Engine: g.Engine, Family: g.Family, Skip: string(g.Skip)})
		}
	}
	if p.Excluded == nil {
		p.Excluded = []string{}
	}
	return p, est
}

// unknownFamilyRungs are the engines of unknown family that may be called
// on the routes (--solo lets them sit), once each, in ladder order.
func unknownFamilyRungs(routes []review.Route) []string {
	var out []string
	for _, rt := range routes {
		for _, g := range rt.Rungs {
			if g.Skip == "" && g.Family == "" && !slices.Contains(out, g.Engine) {
				out = append(out, g.Engine)
			}
		}
	}
	return out
}

// warnCap says, before the plan, what a debate's plan says of its cap
// (engine.UnpricedCapWarning, engine.UnboundedCapWarning) for the rungs
// that may be called: an engine without a price counts $0, one without a
// max answer is admitted on a juror's expected answer and held to it.
func (r *reviewRun) warnCap(routes []review.Route) {
	if !r.budget.Set() {
		return
	}
	var unpriced, unbounded []string
	for _, rt := range routes {
		for _, g := range rt.Rungs {
			if g.Skip != "" {
				continue
			}
			lim := engine.LimitsOf(r.cfg.Engines[g.Engine])
			if lim.Price == nil && !slices.Contains(unpriced, g.Engine) {
				unpriced = append(unpriced, g.Engine)
			}
			if lim.MaxOutputTokens <= 0 && !slices.Contains(unbounded, g.Engine) {
				unbounded = append(unbounded, g.Engine)
			}
		}
	}
	slices.Sort(unpriced)
	slices.Sort(unbounded)
	for _, w := range []string{engine.UnpricedCapWarning(r.budget, unpriced), engine.UnboundedCapWarning(r.budget, unbounded)} {
		if w != "" {
			fmt.Fprintf(r.e.stderr, "moot: warning: %s\n", w)
		}
	}
}

// accept shows the plan; headless it needs --yes (on a terminal the cost
// screen asks: runOnTerminal, watchFromCost).
func (r *reviewRun) accept(p reviewPlan) error {
	usd := "unknown (an engine has no price)"
	if p.USD != nil {
		usd = fmt.Sprintf("≈$%.4f (estimated)", *p.USD)
	}
	line := fmt.Sprintf("Review plan: %d juror(s), %d to %d call(s) (one per lens; more only when a rung fails to answer), ≈%s tokens in + %s out, %s",
		p.Lenses, p.Calls.Min, p.Calls.Max, digits.Grouped(p.Tokens.Input), digits.Grouped(p.Tokens.Output), usd)
	if r.f.run.yes {
		fmt.Fprintln(r.e.stderr, fitLine(r.e.stderr, line, len("Review plan: ")))
		return nil
	}
	if r.f.run.asJSON {
		enc := json.NewEncoder(r.e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(p)
	} else {
		fmt.Fprintln(r.e.stdout, fitLine(r.e.stdout, line, len("Review plan: ")))
	}
	return withCode(ExitNeedHuman, errors.New("not started: the review plan needs accepting; run again with --yes to accept it"))
}

// open creates the stamped folder of a new review (a resumed one is open).
func (r *reviewRun) open() error {
	if r.folder != nil {
		return nil
	}
	f, err := review.NewFolder(r.parent, time.Now())
	if err != nil {
		return err
	}
	r.folder, r.st.ID = f, f.ID
	return nil
}

// printer prints events: JSON lines with --json, else a line per verdict
// and per rejected or skipped rung on stderr.
func (r *reviewRun) printer() func(engine.Event) {
	var mu sync.Mutex
	pr := &progress{json: r.e.stdout, restricted: r.st.Restricted}
	if r.bug != nil {
		pr.bugDir = r.bug.Dir
	}
	return func(ev engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		if r.f.run.asJSON {
			// the one event schema, as moot run --json writes it (a
			// restricted bug's texts replaced by their sizes)
			if b, err := pr.marshal(ev); err == nil {
				fmt.Fprintln(r.e.stdout, string(b))
			}
			return
		}
		switch ev.Type {
		case engine.EvResumed:
			fmt.Fprintf(r.e.stderr, "moot: review %s: resumed at round %d: %s\n", r.folder.ID, ev.Round, termsafe.Line(ev.Reason))
		case engine.EvWarning:
			fmt.Fprintf(r.e.stderr, "moot: review %s: %s\n", r.folder.ID, termsafe.Line(ev.Text))
		case engine.EvRoundStarted:
			fmt.Fprintf(r.e.stderr, "review %s: round %d\n", r.folder.ID, ev.Round)
		case engine.EvRung:
			if ev.Choice != string(review.StatusNotReached) {
				fmt.Fprintf(r.e.stderr, "  %s: %s %s %s\n", ev.SolverID, ev.Engine, ev.Choice, termsafe.Line(ev.Reason))
			}
		case engine.EvVerdict:
			fmt.Fprintf(r.e.stderr, "  %s: %s %s\n", ev.SolverID, strings.ToUpper(ev.Choice), termsafe.Line(ev.Reason))
		}
	}
}

// report prints the round's end: every finding, the gate and what next.
func (r *reviewRun) report(res review.RunResult) {
	w := r.textOut()
	for _, s := range res.Seats {
		for _, f := range s.Findings {
			fmt.Fprintf(w, "[%s] %s: %s — %s\n", s.Lens, f.Severity, termsafe.Line(oneLineText(f.Claim)), termsafe.Line(oneLineText(f.Evidence)))
		}
		if s.Outcome != review.OutcomePass && len(s.Findings) == 0 {
			fmt.Fprintf(w, "[%s] %s: %s\n", s.Lens, s.Outcome, termsafe.Line(s.Reason))
		}
	}
	if r.st.Status == review.StatusError {
		fmt.Fprintf(w, "review %s round %d: ERROR — a file of the round could not be saved, so the gate stays closed (the jurors' gate was %s): %s\n",
			r.folder.ID, res.Round, res.Gate.Outcome, termsafe.Line(oneLineText(r.st.Error)))
	} else {
		fmt.Fprintf(w, "review %s round %d: %s — %s\n", r.folder.ID, res.Round, strings.ToUpper(r.st.Status), termsafe.Line(res.Gate.Reason))
	}
	if r.st.Solo {
		fmt.Fprintf(w, "gate weakened: %s\n", review.SoloNote)
	} else if note := review.PanelNote(r.st, res.Seats); note != "" {
		fmt.Fprintf(r.e.stderr, "moot: warning: gate weakened: %s\n", note)
		if w != r.e.stderr {
			fmt.Fprintf(w, "gate weakened: %s\n", note)
		}
	}
	fmt.Fprintf(w, "summary: %s\n", filepath.Join(r.folder.Dir, review.SummaryFile(r.st.LangOf())))
	switch {
	case r.st.Status == review.StatusCancelled:
		fmt.Fprintf(w, "cancelled: this round is no verdict on the change; to continue it (the lenses that sat are kept): moot resume %s\n", r.resumeArgs())
	case r.st.Status == review.StatusBudget:
		fmt.Fprintf(w, "stopped at the budget cap: this round is no verdict on the change; the lenses that sat are kept; raise the cap to call the others: moot resume %s --max-usd … (or --max-tokens …)\n", r.resumeArgs())
	case res.Stalled:
		fmt.Fprintf(w, "stalled: new findings stable or growing two rounds in a row; waits for a human decision: moot decide %s approve|decline|revise\n", r.folder.ID)
	case r.st.Status == review.StatusHeld:
		fmt.Fprintf(w, "holds: waits for a human decision (moot decide %s approve|decline|revise), or fix what held it, then: moot resume %s\n", r.folder.ID, r.resumeArgs())
	case res.Gate.Outcome != review.OutcomePass:
		fmt.Fprintf(w, "fix the findings, then: moot resume %s\n", r.resumeArgs())
	}
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// resumeArgs are the words after `moot resume` that continue this review:
// its ID, and the engines file it runs on when --config named one
// (engine.ResumeArgs, the one rule of every resume hint).
func (r *reviewRun) resumeArgs() string {
	return engine.ResumeArgs(r.folder.ID, termsafe.Line(r.st.Config))
}
