package cli

import (
	"bufio"
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
	"github.com/reversa/moot/internal/gitcmd"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/internal/testgate"
	"github.com/reversa/moot/protocol/review"
)

const reviewLong = `The Blind Tribunal (DESIGN §7, seed 004): a panel of jurors reviews a change
blind, one lens each, and only a unanimous pass opens the gate.

The envelope is all a juror sees: the contract (--contract "intent | pass
criteria"), each file the change touches (--change A..B, or --files F...) whole
as it is now, their test files, and moot's own test checks; on a bug, its
title, its Summary section and its latest debate's final answer as context. Before any call,
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
different families whenever several can). --builder FAMILY (or an engine or model name: its family) excludes every
rung of that family from every ladder, printed before any call; a lens with no
rung left holds; a --builder moot cannot place (a typo) is exit 2 listing the
known families. With no --builder and every seat of one family, the reports
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
json fence are tolerated): a pass listing a blocker or major is a refuse; a verdict
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
moot asks, then shows the live review view (one pane per lens, as the
verdicts land) until q; the report follows it, with the same exit code (q
before the round ends stops it: exit 3, what was written kept).

Output: <bug>/review/<ID>/ on a bug, else <git root>/.moot/reviews/<ID>/, ID
the stamp (UTC time): its stamp file, review.json, eventos.jsonl, per round
round-K/envelope.md, round-K/verdicts/LENS.json (raw answer, parsed verdict,
every rung) and round-K/routes.md, and summary.md (resumo.md in a Portuguese
register), all owner-only. moot never writes into a folder of that shape it
did not stamp.

--resume ID rebuilds the envelope from the current files and re-convenes every
juror (a new round). New findings (claim and file, normalized) are counted per
round; when a round raises new findings and no fewer than the round before, the
review stops for a human: moot decide ID approve|decline|revise.

--test-cmd CMD and --red COMMIT run the project's tests in a separate worktree;
a failed check is a refuse in moot's own name (lens "moot").

--parallel N runs N lenses at once (default 4, at least 1); --timeout bounds
each call (a positive duration; without it each engine's own, else 10m). A
ladder with fewer than three external rungs to call before its local tail is
warned about before any call: a wrong lens and a failure could leave it on
hold.`

// reviewFlags are moot review's flags.
type reviewFlags struct {
	change, contract, builder, resume, config, testCmd, red string
	files, lenses                                           []string
	solo, yes, asJSON                                       bool
	timeout                                                 time.Duration
	parallel                                                int
}

func newReviewCmd(e *env) *cobra.Command {
	var f reviewFlags
	cmd := &cobra.Command{
		Use:   "review [BUG] (--change A..B | --files F...) --contract \"intent | criteria\" [flags]",
		Short: "The Blind Tribunal: lensed jurors review a change blind; unanimity opens the gate",
		Long:  reviewLong,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkTimeout(f.timeout, cmd.Flags().Changed("timeout")); err != nil {
				return err
			}
			if err := checkParallel(f.parallel, f.parallel); err != nil {
				return err
			}
			return runReview(cmd.Context(), e, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.change, "change", "", "the change as a git range A..B")
	fl.StringArrayVar(&f.files, "files", nil, "a touched file (repeatable; instead of --change)")
	fl.StringVar(&f.contract, "contract", "", "\"intent in one line | pass criteria\"")
	fl.StringVar(&f.builder, "builder", "", "the builder's family, or an engine or model name (its family is excluded)")
	fl.StringArrayVar(&f.lenses, "lens", nil, "a juror's lens (repeatable; default the eight review lenses)")
	fl.StringVar(&f.testCmd, "test-cmd", "", "the project's test command, run by moot in a separate worktree")
	fl.StringVar(&f.red, "red", "", "the commit holding the failing contract test (red first)")
	fl.BoolVar(&f.solo, "solo", false, "allow the builder's family when it is the only one: blind same-family, not cross-family")
	fl.StringVar(&f.resume, "resume", "", "re-convene every juror of review ID on the current files")
	fl.BoolVar(&f.yes, "yes", false, "accept the plan without asking")
	fl.BoolVar(&f.asJSON, "json", false, "events as JSON lines on stdout")
	fl.StringVar(&f.config, "config", "", "engines file")
	fl.DurationVar(&f.timeout, "timeout", 0, "hard limit per call (default: each engine's own, else 10m)")
	fl.IntVar(&f.parallel, "parallel", 4, "lenses at once")
	return cmd
}

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
}

func runReview(ctx context.Context, e *env, f reviewFlags, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	r := &reviewRun{e: e, f: f}
	if err := r.locate(args); err != nil {
		return err
	}
	if err := r.state(); err != nil {
		return err
	}
	cfg, err := askTrustInTUI(loadConfig(r.f.config, r.reg))(true)
	if err != nil {
		return err
	}
	r.cfg = cfg
	if err := r.lensesOf(); err != nil {
		return err
	}
	env, err := r.envelope(ctx)
	if err != nil {
		return err
	}
	if err := r.scan(env); err != nil {
		return err
	}
	nonce := engine.Nonce()
	rendered := env.Render()
	prompt := func(l bugfolder.Lens) string { return review.Prompt(l, rendered, nonce) }
	solo := r.st.Solo
	unusable, ollama := r.probe(ctx)
	in := review.RouteInput{Config: cfg, Lenses: r.st.Lenses, Builder: r.st.BuilderFamily, Restricted: r.st.Restricted,
		Unusable: unusable, Ollama: ollama, Prompt: prompt}
	routes := review.Plan(in)
	switch only := review.OnlyBuilderLeft(in, routes); {
	case only && !solo:
		return withCode(ExitUsage, fmt.Errorf("only the builder's family (%s) is left on the ladders (%s): a builder never reviews its own work; add engines of another family, or pass --solo for the explicit blind same-family degradation; nothing was called or written",
			r.st.BuilderFamily, strings.Join(review.Excluded(routes), ", ")))
	case only:
		in.Solo = true // the explicit degradation: the builder's family sits blind
		routes = review.Plan(in)
	case solo:
		fmt.Fprintln(e.stderr, "moot: --solo unused: a family other than the builder's can sit, so the builder's stays excluded")
	}
	r.st.Solo = in.Solo
	r.announce(routes)
	if review.Callable(routes) == 0 {
		return withCode(ExitUsage, fmt.Errorf("no lens has a rung moot can call (each is skipped above: capacity, unusable, restricted or the builder's family) in %s: a round would only hold; add engines that can sit; nothing was called or written", configName(cfg)))
	}
	plan, est := r.planOf(routes)
	if err := r.accept(plan); err != nil {
		return err
	}
	if err := r.open(); err != nil {
		return err
	}
	if err := r.folder.FreshRound(len(r.st.Rounds) + 1); err != nil {
		return err
	}
	lock, err := bugfolder.AcquireLock(r.folder.Dir, "moot review")
	if err != nil {
		if errors.Is(err, bugfolder.ErrBusy) {
			return withCode(ExitUsage, fmt.Errorf("review %s: %s; nothing was called", r.folder.ID, strings.ReplaceAll(err.Error(), "writing this debate", "running this review")))
		}
		return err
	}
	defer lock.Release()
	ctx, cancel := signalContext()
	defer cancel()
	planEv := engine.Event{Type: engine.EvPlan, Calls: est.MaxCalls, Tokens: est.Input + est.Output, USD: est.USD, CostUnknown: !est.USDKnown,
		Formula: fmt.Sprintf("%d lens(es), one juror each per round; up to %d rung(s) in all", len(routes), est.MaxCalls)}
	rin := review.RunInput{Folder: r.folder, State: r.st, Envelope: env, Emit: r.printer(), Plan: &planEv,
		Round: review.RoundInput{Routes: routes, Config: cfg, Prompt: prompt, Call: r.caller(), Timeout: f.timeout, Parallel: f.parallel, BugID: r.st.BugID, Group: r.folder.Dir}}
	var res review.RunResult
	var runErr error
	if r.live() {
		res, runErr = r.runLive(ctx, cancel, rin)
	} else {
		res, runErr = review.Run(ctx, rin)
	}
	r.report(res)
	if runErr != nil {
		if ctx.Err() != nil {
			return withCode(ExitCancelled, fmt.Errorf("review cancelled; what was written is kept in %s", r.folder.Dir))
		}
		return withCode(ExitInternal, fmt.Errorf("%v (the review is kept in %s)", runErr, r.folder.Dir))
	}
	if res.Gate.Outcome == review.OutcomePass {
		return nil
	}
	return &exitError{code: ExitNeedHuman, quiet: true}
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
		if f.change != "" || len(f.files) > 0 || f.contract != "" || f.builder != "" || len(f.lenses) > 0 {
			return usageErr("--resume re-uses the review's own change, contract, builder and lenses; give only --resume ID (and --yes, --json, --config, --timeout)")
		}
		dir := filepath.Join(r.parent, filepath.Base(f.resume))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			// a bug's review resumed without naming the bug
			if dir = review.Find(f.resume, reviewParents(r.e, r.reg)); dir == "" {
				return usageErr("no review %q in %s (nor under any bug's review/)", f.resume, r.parent)
			}
		}
		folder, err := review.OpenFolder(dir)
		if err != nil {
			return err
		}
		st, err := review.ReadState(dir)
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
		if r.f.config == "" {
			r.f.config = st.Config // the engines round 1 used
		}
		if st.BugID != "" && r.bug == nil {
			if reg, bug, err := resolveBug(r.e, st.BugID); err == nil {
				r.reg, r.bug = reg, bug
			}
		}
		return nil
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
	if err := review.CheckBuilder(r.cfg, r.st.Builder); err != nil {
		return usageErr("%v; nothing was called or written", err)
	}
	r.st.BuilderFamily = review.BuilderFamily(r.cfg, r.st.Builder)
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

// envelope builds the envelope from the current files and runs the test
// checks into it.
func (r *reviewRun) envelope(ctx context.Context) (*envelope.Envelope, error) {
	st := r.st
	change, committed := r.change()
	src := envelope.Source{Repo: st.Repo, Change: change, Files: st.Files, Contract: st.Contract, Context: r.bugContext(), Committed: committed}
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
	for _, f := range env.Files {
		if !f.Test && !slices.Contains(st.Touched, f.Path) {
			st.Touched = append(st.Touched, f.Path)
		}
	}
	slices.Sort(st.Touched)
	if st.TestCmd == "" {
		if st.Red != "" {
			return nil, usageErr("--red needs --test-cmd (moot runs the tests to check the red commit)")
		}
		return env, nil
	}
	o := testgate.Options{Repo: st.Repo, Red: st.Red, Cmd: st.TestCmd, Timeout: r.f.timeout, TestFiles: env.TestFiles()}
	if change != "" {
		// the candidate is the working tree when the range ends at HEAD, so
		// the tests run on the bytes the jurors read
		if o.Base, o.Candidate, err = envelope.RangeEnds(st.Repo, change); err == nil && committed && o.Candidate == "" {
			o.Candidate, err = envelope.Resolve(st.Repo, change, "HEAD")
		}
		if err != nil {
			return nil, &bugfolder.InputError{Msg: "--change: " + err.Error(), Err: err}
		}
	}
	checks, err := testgate.Run(ctx, o)
	if err != nil {
		return nil, &bugfolder.InputError{Msg: "--test-cmd: the test checks could not run: " + err.Error(), Err: err}
	}
	env.Tests = checks
	return env, nil
}

// showsSomething reports whether the envelope shows a juror any file: a
// body, or a deletion.
func showsSomething(env *envelope.Envelope) bool {
	return slices.ContainsFunc(env.Files, func(f envelope.File) bool { return f.Deleted || f.Body != "" || f.Omitted == "" })
}

// bugContext is what joins the contract on a bug (DESIGN §7): the bug's
// title, its Summary section (Resumo in Portuguese) when it has one and,
// when its latest debate has one, the final answer (its body,
// without the front matter that names engines).
func (r *reviewRun) bugContext() []envelope.Part {
	if r.bug == nil {
		return nil
	}
	parts := []envelope.Part{{Title: "The bug", Body: r.bug.Title}}
	if b, err := r.bug.Full(); err == nil {
		sum := strings.TrimSpace(b.Section("Summary"))
		if sum == "" {
			sum = strings.TrimSpace(b.Section("Resumo"))
		}
		if sum != "" {
			parts = append(parts, envelope.Part{Title: "The bug's summary", Body: sum})
		}
	}
	d, err := bugfolder.ReadDebate(filepath.Join(r.bug.Dir, bugfolder.DebateDir), r.reg.Lang)
	if err == nil && d.Final != nil && strings.TrimSpace(d.Final.Body) != "" {
		parts = append(parts, envelope.Part{Title: "The debate's final answer", Body: d.Final.Body})
	}
	return parts
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

// accept shows the plan; headless it needs --yes, on a terminal moot asks.
func (r *reviewRun) accept(p reviewPlan) error {
	usd := "unknown (an engine has no price)"
	if p.USD != nil {
		usd = fmt.Sprintf("≈$%.4f (estimated)", *p.USD)
	}
	line := fmt.Sprintf("Review plan: %d juror(s), %d to %d call(s) (one per lens; more only when a rung fails to answer), ≈%d tokens in + %d out, %s",
		p.Lenses, p.Calls.Min, p.Calls.Max, p.Tokens.Input, p.Tokens.Output, usd)
	if r.f.yes {
		fmt.Fprintln(r.e.stderr, line)
		return nil
	}
	if r.f.asJSON {
		enc := json.NewEncoder(r.e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(p)
	} else {
		fmt.Fprintln(r.e.stdout, line)
	}
	if !isTerminal(r.e.stdin) || !isTerminal(r.e.stdout) || r.f.asJSON {
		return withCode(ExitNeedHuman, errors.New("not started: the review plan needs accepting; run again with --yes to accept it"))
	}
	fmt.Fprint(r.e.stdout, "Start the review? [y/N] ")
	answer, _ := bufio.NewReader(r.e.stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return withCode(ExitCancelled, errors.New("review not started; nothing written"))
	}
	return nil
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

// caller calls engines through the harness's adapters, one per engine.
func (r *reviewRun) caller() review.Caller {
	var mu sync.Mutex
	adapters := map[string]harness.Engine{}
	opts := harnessOptions(r.cfg, r.reg)
	return func(ctx context.Context, name string, req harness.Request) harness.Result {
		mu.Lock()
		a, ok := adapters[name]
		if !ok {
			var err error
			a, err = harness.New(r.cfg.Engines[name], opts)
			if err != nil {
				mu.Unlock()
				return harness.Result{Failure: harness.FailStart, Err: err.Error()}
			}
			adapters[name] = a
		}
		mu.Unlock()
		return a.Call(ctx, req)
	}
}

// printer prints events: JSON lines with --json, else a line per verdict
// and per rejected or skipped rung on stderr.
func (r *reviewRun) printer() func(engine.Event) {
	var mu sync.Mutex
	return func(ev engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		if r.f.asJSON {
			b, err := json.Marshal(ev)
			if err == nil {
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
	w := r.e.stdout
	if r.f.asJSON {
		w = r.e.stderr
	}
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
		fmt.Fprintf(w, "cancelled: this round is no verdict on the change; to re-convene every juror: moot review %s--resume %s\n", bugArg(r.st), r.folder.ID)
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
