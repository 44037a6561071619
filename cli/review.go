package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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
	"github.com/reversa/moot/internal/gitcmd"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/internal/testgate"
	"github.com/reversa/moot/protocol/review"
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

--resume ID (or moot resume ID) continues the review. A round cut short —
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

// errRunLimit is the cause of a review stopped by --debate-timeout.
var errRunLimit = errors.New("the run's time limit was reached")

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
	// budget is the cap this session runs under.
	budget engine.Budget
	fix    *envelope.Fix // the bug's applied fix under review (reviewfix.go), nil otherwise
}

// runReview runs a review (or resumes one: f.resume) to the end of a round.
func runReview(cmd *cobra.Command, e *env, f reviewFlags, args []string) error {
	r, rd, plan, pol, err := prepareReview(cmd, e, f, args, false)
	if err != nil {
		return err
	}
	if r.live() { // the cost screen, then the live view (reviewlive.go)
		return r.runOnTerminal(plan, rd)
	}
	if err := r.accept(plan); err != nil {
		return err
	}
	// from here a stop signal stops the review: the test checks' process
	// group and worktree too (exit 3)
	ctx, cancel := signalContext()
	defer cancel()
	release, err := r.begin(ctx, rd)
	if err != nil {
		return err
	}
	defer release()
	ctx, stopAt := r.runLimit(ctx)
	defer stopAt()
	res, runErr := r.round(ctx, rd, pol, r.printer())
	r.report(res)
	r.reportFix(res)
	if err := r.writeReviewFormat(res); err != nil {
		return withCode(ExitInternal, err)
	}
	return r.exit(ctx, res, runErr)
}

// prepareReview is moot review's checks, envelope, routes and plan, up
// to the question whether to start; check stops once the change, the
// contract, the builder and the lenses are settled (the wizard's check
// as an answer is typed: no probe, no call, nothing written).
func prepareReview(cmd *cobra.Command, e *env, f reviewFlags, args []string, check bool) (*reviewRun, *reviewRound, reviewPlan, *engine.Policies, error) {
	fail := func(err error) (*reviewRun, *reviewRound, reviewPlan, *engine.Policies, error) {
		return nil, nil, reviewPlan{}, nil, err
	}
	if err := checkTimeouts(cmd); err != nil {
		return fail(err)
	}
	if err := checkParallel(f.parallel, f.parallel); err != nil {
		return fail(err)
	}
	if err := checkReviewFormat(f.format, f.run.asJSON); err != nil {
		return fail(err)
	}
	pol, err := f.run.budgetPolicies()
	if err != nil {
		return fail(err)
	}
	r := &reviewRun{e: e, f: f}
	if err := r.locate(args); err != nil {
		return fail(err)
	}
	if err := r.handoff(); err != nil {
		return fail(err)
	}
	if err := r.state(); err != nil {
		return fail(err)
	}
	cfg, err := askTrustInTUI(loadConfig(r.f.config, r.reg))(true)
	if err != nil {
		return fail(err)
	}
	r.cfg = cfg
	if err := r.capOf(cmd); err != nil {
		return fail(err)
	}
	if err := r.lensesOf(); err != nil {
		return fail(err)
	}
	if check {
		return r, nil, reviewPlan{}, pol, nil
	}
	env, err := r.envelope()
	if err != nil {
		return fail(err)
	}
	if err := r.scan(env); err != nil {
		return fail(err)
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
		return fail(withCode(ExitUsage, fmt.Errorf("only the builder's family (%s) is left on the ladders (%s): a builder never reviews its own work; add engines of another family, or pass --solo for the explicit blind same-family degradation; nothing was called or written",
			r.st.BuilderFamily, strings.Join(review.Excluded(routes), ", "))))
	case only:
		in.Solo = true // the explicit degradation: the builder's family sits blind
		routes = review.Plan(in)
	case solo:
		fmt.Fprintln(e.stderr, "moot: --solo unused: a family other than the builder's can sit, so the builder's stays excluded")
	}
	r.st.Solo = in.Solo
	r.announce(routes)
	r.announceRules(routes)
	if review.Callable(routes) == 0 {
		return fail(withCode(ExitUsage, fmt.Errorf("no lens has a rung moot can call (each is skipped above: capacity, unusable, restricted or the builder's family) in %s: a round would only hold; add engines that can sit; nothing was called or written", configName(cfg))))
	}
	plan, est := r.planOf(routes)
	return r, &reviewRound{env: env, routes: routes, prompt: prompt, est: est}, plan, pol, nil
}

// reviewRound is a round ready to run once its plan is accepted: the
// envelope, the routes and the prompt, and what begin found on disk.
type reviewRound struct {
	env    *envelope.Envelope
	routes []review.Route
	prompt func(bugfolder.Lens) string
	est    review.Estimate
	// cont and kept: a round cut short continues, its seats kept.
	cont bool
	kept map[string]review.Seat
}

// begin readies an accepted round: the test checks, the folder, its
// lock (release frees it), the orphans of a killed moot, and whether it
// continues a round cut short.
func (r *reviewRun) begin(ctx context.Context, rd *reviewRound) (release func(), err error) {
	if err := r.testChecks(ctx, rd.env); err != nil {
		return nil, err
	}
	if err := r.scan(rd.env); err != nil { // the test checks' tails joined the envelope
		return nil, err
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	lock, err := bugfolder.AcquireLock(r.folder.Dir, "moot review")
	if err != nil {
		if errors.Is(err, bugfolder.ErrBusy) {
			return nil, withCode(ExitUsage, fmt.Errorf("review %s: %s; nothing was called", r.folder.ID, strings.ReplaceAll(err.Error(), "writing this debate", "running this review")))
		}
		return nil, err
	}
	if pids := harness.ReapOrphans(r.folder.Dir); len(pids) > 0 {
		fmt.Fprintf(r.e.stderr, "moot: killed %d juror process(es) an earlier moot of this review left running when it was killed\n", len(pids))
	}
	rd.cont, rd.kept, err = r.continuation(rd.env.Render())
	if err == nil && !rd.cont {
		err = r.folder.FreshRound(len(r.st.Rounds) + 1)
	}
	if err != nil {
		lock.Release()
		return nil, err
	}
	return func() { lock.Release() }, nil
}

// runLimit is --debate-timeout over ctx, as a debate's: its round stops
// resumable, exit 3.
func (r *reviewRun) runLimit(ctx context.Context) (context.Context, context.CancelFunc) {
	if d := r.f.run.debateTimeout; d > 0 {
		return context.WithTimeoutCause(ctx, d, errRunLimit)
	}
	return ctx, func() {}
}

// round runs a begun round to its end: asker answers a reached budget
// cap, emit sees every event (a browser watching it reads the live file).
func (r *reviewRun) round(ctx context.Context, rd *reviewRound, asker engine.BudgetAsker, emit func(engine.Event)) (review.RunResult, error) {
	spentTok, spentUSD := r.st.Tokens, r.st.CostUSD
	if rd.cont && r.st.Status == review.StatusRunning { // a killed round's kept seats are not in the totals yet
		t, u := review.Spend(rd.kept)
		spentTok, spentUSD = spentTok+t, spentUSD+u
	}
	f, est := r.f, rd.est
	calls := engine.NewDispatcher(engine.DispatchOptions{Protocol: "review", Config: r.cfg, Harness: harnessOptions(r.cfg, r.reg), Asker: asker, Budget: r.budget,
		SpentTokens: spentTok, SpentUSD: spentUSD, Parallel: f.parallel, Timeout: f.timeout, RoundTimeout: f.run.roundTimeout, Group: r.folder.Dir})
	planEv := engine.Event{Type: engine.EvPlan, Calls: est.MaxCalls, Tokens: est.Input + est.Output, USD: est.USD, CostUnknown: !est.USDKnown,
		Formula: fmt.Sprintf("%d lens(es), one juror each per round; up to %d rung(s) in all", len(rd.routes), est.MaxCalls)}
	live := livefile.New() // streamed figures for a browser watching this review
	defer live.Close()
	rin := review.RunInput{Folder: r.folder, State: r.st, Envelope: rd.env, Emit: live.Wrap(emit), Plan: &planEv, Continue: rd.cont,
		Round: review.RoundInput{Routes: rd.routes, Prompt: rd.prompt, Calls: calls, BugID: r.st.BugID, Kept: rd.kept}}
	return review.Run(ctx, rin)
}

// exit maps a round's end to moot's exit codes: 0 on a unanimous pass, 3
// when cancelled (a signal, q, --on-budget cancel), 4 when it waits for a
// human (a refuse, a hold, a stall, a round stopped at the budget cap), 1
// when a file could not be saved.
func (r *reviewRun) exit(ctx context.Context, res review.RunResult, runErr error) error {
	switch {
	case r.st.Status == review.StatusCancelled || ctx.Err() != nil:
		why := "review cancelled"
		if errors.Is(context.Cause(ctx), errRunLimit) {
			why = "the run's time limit (--debate-timeout) was reached: review cancelled"
		}
		return withCode(ExitCancelled, fmt.Errorf("%s; what was written is kept in %s; continue it: moot resume %s", why, r.folder.Dir, r.folder.ID))
	case r.st.Status == review.StatusBudget:
		return withCode(ExitNeedHuman, fmt.Errorf("%v; the lenses that sat are kept: moot resume %s --max-usd … (or --max-tokens …) calls the others", runErr, r.folder.ID))
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
		base = engine.Budget{}
		if b := r.st.Budget; b != nil {
			base = engine.Budget{MaxUSD: b.MaxUSD, MaxTokens: b.MaxTokens}
		}
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

// continuation decides whether a resumed review continues its last round,
// cut short on the same envelope, and which seats it keeps: the sealed
// verdicts of the lenses that sat (never a forged or edited file: that is
// refused, exit 2). A round whose moot was killed is always written
// again in place (its folder is moot's), keeping what it can.
func (r *reviewRun) continuation(rendered string) (bool, map[string]review.Seat, error) {
	st := r.st
	if r.f.resume == "" || !review.Resumable(st.Status) {
		return false, nil, nil
	}
	killed := st.Status == review.StatusRunning
	k := len(st.Rounds)
	if killed {
		k++
		if _, err := os.Lstat(filepath.Join(r.folder.Dir, review.RoundDir(k))); err != nil {
			return false, nil, nil // killed before its round folder: a fresh round
		}
	}
	if k < 1 {
		return false, nil, nil
	}
	prev, err := review.ReadSealedEnvelope(r.folder.Dir, k)
	if errors.Is(err, fs.ErrNotExist) {
		return killed, nil, nil
	}
	if err != nil {
		return false, nil, err
	}
	if prev != rendered {
		fmt.Fprintf(r.e.stderr, "moot: review %s: the files changed since round %d was cut short: every juror is called on the current files\n", r.folder.ID, k)
		return killed, nil, nil
	}
	kept := map[string]review.Seat{}
	for _, l := range st.Lenses {
		s, err := review.ReadSealedSeat(r.folder.Dir, k, l.Name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, nil, err
		}
		if !s.Cut && s.Round == k && s.Lens == l.Name {
			kept[l.Name] = *s
		}
	}
	if len(kept) > 0 {
		fmt.Fprintf(r.e.stderr, "moot: review %s: round %d continues: %d lens(es) keep their verdicts (%s); the others are called\n",
			r.folder.ID, k, len(kept), strings.Join(slices.Sorted(maps.Keys(kept)), ", "))
	}
	return true, kept, nil
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
			return usageErr("--change needs a git repository: %v", err)
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

// state builds the record of a new review, or reads a resumed one's
// (its stamp checked before anything is read).
func (r *reviewRun) state() error {
	f := r.f
	if f.resume != "" {
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
		folder, err := review.OpenFolder(dir) // its stamp verified first
		if err != nil {
			return err
		}
		st, err := review.ReadState(dir) // its seal verified
		if err != nil {
			return err
		}
		if review.Decided(st) {
			return usageErr("review %s was decided by a human: %s (moot decide; %s): a resumed round would override that decision, so moot does not resume it; nothing was called or written. For a new candidate, start a new review (moot review --change …)",
				folder.ID, st.Decision, filepath.Join(dir, review.DecisionFile))
		}
		if st.Status == review.StatusStalled && st.Decision == "pending" {
			return usageErr("review %s stalled and waits for a human decision: moot decide %s approve|decline|revise", folder.ID, folder.ID)
		}
		r.folder, r.st = folder, st
		return r.rederive()
	}
	if (f.change == "") == (len(f.files) == 0) {
		return usageErr("give the change as --change A..B or as --files F... (one of them)")
	}
	c, err := envelope.ParseContract(f.contract)
	if err != nil {
		return usageErr("%v", err)
	}
	st := &review.State{Protocol: review.Name, Repo: r.repo, Change: f.change, Files: f.files, Contract: c, Builder: f.builder,
		Solo: f.solo, TestCmd: f.testCmd, Red: f.red, Lang: "en", StartedAt: time.Now().UTC(), Rounds: []review.RoundRecord{}}
	if r.reg != nil && r.reg.Lang == bugfolder.PT && r.reg.Root != "" {
		st.Lang = "pt"
	}
	if r.bug != nil {
		st.BugID, st.Restricted = r.bug.ID, r.bug.Restricted()
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
			return &bugfolder.InputError{Msg: err.Error(), Err: err}
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
	st.Config = r.f.config
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
	return nil
}

// change is the range this round reviews and whether its end is read
// from its commit (not the disk): round 1's as given; a resumed round's
// from round 1's resolved base to HEAD, read from disk when round 1's
// range ended at the working tree.
func (r *reviewRun) change() (string, bool) {
	st := r.st
	if r.f.resume == "" || st.Base == "" || st.Change == "" {
		return st.Change, false
	}
	return st.Base + "..HEAD", !st.Worktree
}

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
// when a file of its envelope belongs to a restricted bug
// (bugfolder.RestrictedEvidence: the nearest bug.md decides), whatever the
// bug under review or the change named it, and says so.
func (r *reviewRun) restrictedFiles(env *envelope.Envelope) error {
	if r.st.Restricted {
		return nil
	}
	paths := make([]string, 0, len(env.Files))
	for _, f := range env.Files {
		paths = append(paths, filepath.Join(r.st.Repo, filepath.FromSlash(f.Path)))
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
	parts, err := r.bugContract()
	if err != nil {
		return nil, err
	}
	src := envelope.Source{Repo: st.Repo, Change: change, Files: st.Files, Contract: st.Contract, Context: parts, Committed: committed}
	if change != "" {
		src.Also = st.Touched // a file of an earlier round stays (listed deleted when gone)
	}
	env, err := envelope.Build(src)
	if err != nil {
		return nil, &bugfolder.InputError{Msg: "the envelope cannot be built: " + err.Error(), Err: err}
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

// announce prints, before any call, the builder's exclusion (loudly) and
// the planned route table.
func (r *reviewRun) announce(routes []review.Route) {
	w := r.e.stderr
	switch ex := review.Excluded(routes); {
	case r.st.Solo:
		// its rungs were excluded, then let sit: one message says both
		fmt.Fprintf(w, "moot: builder family %s: solo rig: only the builder's family is available, so its rungs sit blind (%s) — %s\n",
			r.st.BuilderFamily, strings.Join(review.OfFamily(routes, r.st.BuilderFamily), ", "), review.SoloNote)
	case len(ex) > 0:
		fmt.Fprintf(w, "moot: builder family %s: excluded from every ladder: %s\n", r.st.BuilderFamily, strings.Join(ex, ", "))
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

// accept shows the plan; headless it needs --yes (on a terminal the cost
// screen asks: runOnTerminal).
func (r *reviewRun) accept(p reviewPlan) error {
	usd := "unknown (an engine has no price)"
	if p.USD != nil {
		usd = fmt.Sprintf("≈$%.4f (estimated)", *p.USD)
	}
	line := fmt.Sprintf("Review plan: %d juror(s), %d to %d call(s) (one per lens; more only when a rung fails to answer), ≈%d tokens in + %d out, %s",
		p.Lenses, p.Calls.Min, p.Calls.Max, p.Tokens.Input, p.Tokens.Output, usd)
	if r.f.run.yes {
		fmt.Fprintln(r.e.stderr, line)
		return nil
	}
	if r.f.run.asJSON {
		enc := json.NewEncoder(r.e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(p)
	} else {
		fmt.Fprintln(r.e.stdout, line)
	}
	// on a terminal the cost screen asks (runOnTerminal): here it is headless
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
		fmt.Fprintf(r.e.stderr, "moot: no builder was declared and %s\n", note)
		if w != r.e.stderr {
			fmt.Fprintf(w, "gate weakened: %s\n", note)
		}
	}
	fmt.Fprintf(w, "summary: %s\n", filepath.Join(r.folder.Dir, review.SummaryFile(r.st.LangOf())))
	switch {
	case r.st.Status == review.StatusCancelled:
		fmt.Fprintf(w, "cancelled: this round is no verdict on the change; to continue it (the lenses that sat are kept): moot resume %s\n", r.folder.ID)
	case r.st.Status == review.StatusBudget:
		fmt.Fprintf(w, "stopped at the budget cap: this round is no verdict on the change; the lenses that sat are kept; raise the cap to call the others: moot resume %s --max-usd … (or --max-tokens …)\n", r.folder.ID)
	case res.Stalled:
		fmt.Fprintf(w, "stalled: new findings stable or growing two rounds in a row; waits for a human decision: moot decide %s approve|decline|revise\n", r.folder.ID)
	case r.st.Status == review.StatusHeld:
		fmt.Fprintf(w, "holds: waits for a human decision (moot decide %s approve|decline|revise), or fix what held it, then: moot review %s--resume %s\n", r.folder.ID, bugArg(r.st), r.folder.ID)
	case res.Gate.Outcome != review.OutcomePass:
		fmt.Fprintf(w, "fix the findings, then: moot review %s--resume %s\n", bugArg(r.st), r.folder.ID)
	}
}

func bugArg(st *review.State) string {
	if st.BugID == "" {
		return ""
	}
	return shellQuote(st.BugID) + " "
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
