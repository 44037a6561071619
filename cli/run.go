package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/internal/shellword"
	"github.com/reversa/moot/internal/termsafe"
)

// runFlags are the flags run and resume share beyond the setup.
type runFlags struct {
	yes            bool
	headless       bool
	asJSON         bool
	onQuorumLoss   string
	onJudgeFailure string
	onBudget       string
	// roundTimeout and debateTimeout bound a round and this run.
	roundTimeout, debateTimeout time.Duration
}

// registerCommon registers the flags every long command takes (run,
// resume, ask, review): --yes, --headless, --json and --on-budget.
func (f *runFlags) registerCommon(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&f.yes, "yes", false, "accept the cost plan without asking (headless without it: the plan is printed and moot exits 4)")
	fl.BoolVar(&f.headless, "headless", false, "no TUI even on a terminal (automatic without one)")
	fl.BoolVar(&f.asJSON, "json", false, "headless: events as JSON lines on stdout")
	fl.StringVar(&f.onBudget, "on-budget", "ask", "the budget menu's answer, headless: ask (stop, exit 4), stop (skip the remaining rounds; the judge reads the last complete round, if the budget pays for it) or cancel (exit 3)")
}

func (f *runFlags) register(cmd *cobra.Command) {
	f.registerCommon(cmd)
	f.registerLimits(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.onQuorumLoss, "on-quorum-loss", "ask", "the quorum menu's answer, headless: ask, continue, retry or cancel")
	fl.StringVar(&f.onJudgeFailure, "on-judge-failure", "ask", "the judge-failure menu's answer, headless: ask, retry or cancel")
}

// registerLimits registers the time limits of a round and of this run
// (run, resume, ask, review).
func (f *runFlags) registerLimits(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.DurationVar(&f.roundTimeout, "round-timeout", 0, "limit per round: a call still open when it passes ends as timeout (default: none beyond --timeout)")
	fl.DurationVar(&f.debateTimeout, "debate-timeout", 0, "limit for this run: when it passes, calls in flight stop and the debate stops resumable, exit 3 (default: none)")
}

// limits applies --round-timeout and --debate-timeout (checked by
// policies) to a run's options.
func (f *runFlags) limits(o engine.Options) engine.Options {
	o.RoundTimeout, o.DebateTimeout = f.roundTimeout, f.debateTimeout
	return o
}

// budgetPolicies checks --on-budget: the one check, for every long command
// (review has no quorum or final-step menu, so it takes only this).
func (f *runFlags) budgetPolicies() (*engine.Policies, error) {
	if err := engine.ParsePolicy("--on-budget", f.onBudget, "ask", "stop", "cancel"); err != nil {
		return nil, usageErr("%v", err)
	}
	return &engine.Policies{OnBudget: f.onBudget}, nil
}

func (f *runFlags) policies(cmd *cobra.Command) (*engine.Policies, error) {
	if err := checkTimeouts(cmd); err != nil {
		return nil, err
	}
	if err := engine.ParsePolicy("--on-quorum-loss", f.onQuorumLoss, "ask", "continue", "retry", "cancel"); err != nil {
		return nil, usageErr("%v", err)
	}
	if err := engine.ParsePolicy("--on-judge-failure", f.onJudgeFailure, "ask", "retry", "cancel"); err != nil {
		return nil, usageErr("%v", err)
	}
	p, err := f.budgetPolicies()
	if err != nil {
		return nil, err
	}
	p.OnQuorumLoss, p.OnJudgeFailure = f.onQuorumLoss, f.onJudgeFailure
	return p, nil
}

// isHeadless decides whether to run without the TUI.
func (f *runFlags) isHeadless(e *env) bool {
	return f.headless || f.asJSON || !isTerminal(e.stdout) || !isTerminal(e.stdin)
}

// harnessOptions are the adapter options for an engines file: relative
// paths start at its folder; an engine with read-only project access runs
// in the register's project.
func harnessOptions(cfg *harness.Config, reg *bugfolder.Register) harness.Options {
	o := harness.Options{}
	if cfg.Path != "" {
		if abs, err := filepath.Abs(cfg.Path); err == nil {
			o.ConfigDir = filepath.Dir(abs)
		}
	}
	if reg != nil {
		o.ProjectDir = reg.Project
	}
	return o
}

// probeCheck refuses, before anything is written, a debate whose engines
// failed their probe (results cached in the user's cache folder).
func probeCheck(cfg *harness.Config, o harness.Options) func(context.Context, []string) error {
	return func(ctx context.Context, names []string) error {
		refusals := harness.ProbeRefusals(harness.ProbeEngines(ctx, cfg, names, o, harness.DefaultProbeCache(), false))
		if len(refusals) > 0 {
			return &bugfolder.InputError{Msg: "refused before anything was written: " + strings.Join(refusals, "; ")}
		}
		return nil
	}
}

// signalContext is cancelled by SIGINT or SIGTERM: the debate stops,
// calls in flight are killed, and everything finished is kept.
// stopSignals stop a debate the way Ctrl-C does (exit 3, resumable): a
// closed terminal or a dropped ssh session (SIGHUP) and SIGQUIT included,
// so no engine is left running.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), stopSignals...)
}

// interruptContext is signalContext for a headless debate whose protocol
// stops early (argue, docs/protocols/argue.md): the first Ctrl-C (SIGINT) asks pol to
// stop after the round in flight and synthesize it, and says so; a second
// Ctrl-C, or any other stop signal, cancels as usual (exit 3, resumable).
func interruptContext(e *env, proto engine.Protocol, pol *engine.Policies, target string) (context.Context, context.CancelFunc) {
	if _, ok := proto.(engine.Stopper); !ok {
		return signalContext()
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, stopSignals...)
	go func() {
		asked := false
		for {
			select {
			case sig := <-ch:
				if sig == os.Interrupt && !asked {
					asked = true
					pol.AskStop()
					fmt.Fprintf(e.stderr, "\nmoot: interrupt: the debate stops after the round in flight and the synthesizer writes the answer; press Ctrl-C again to cancel instead (resumable: moot resume %s)\n", target)
					continue
				}
				cancel()
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

// exitFor maps a run's result to an exit code and a closing line.
func exitFor(e *env, reg *bugfolder.Register, res *engine.Result, err error) error {
	if err != nil {
		if bugfolder.IsInputError(err) {
			return err
		}
		where := ""
		if res != nil {
			where = " (the debate is kept in " + reg.Rel(res.Dir) + ")"
		}
		return withCode(ExitInternal, fmt.Errorf("%v%s", err, where))
	}
	if res.TookOver != nil {
		fmt.Fprintf(e.stderr, "moot: took over a stale lock left by %s\n", res.TookOver)
	}
	switch res.Outcome {
	case engine.OutcomeDone:
		printDecisionHint(e, reg, res.Dir)
		return nil
	case engine.OutcomeCancelled:
		return &exitError{code: ExitCancelled, quiet: true}
	default:
		return &exitError{code: ExitNeedHuman, quiet: true}
	}
}

func newRunCmd(e *env) *cobra.Command {
	var sf setupFlags
	var rf runFlags
	cmd := &cobra.Command{
		Use:   "run BUG [flags]",
		Short: "Plan, show the cost, and run a debate (TUI on a terminal)",
		Long: `Run a debate on a bug: N solvers answer in round 0 and R more rounds, each
round reading only the frozen snapshot of the last (critics of a round run
first, and that round's solvers read their critiques); then the isolated
judge writes resposta-final.md. Everything is written into the bug's debate/
folder.

In spec mode the final answer states the recommended verdict (spec-correta,
spec-desatualizada or spec-gap; recorded as recommended_verdict in its front
matter, with decision: pending) and says the decision is the human's; a spec
judge answer without a verdict is a judge failure.

--verify-judge calls the judge a second time with every proposal moved one
slot on and relabelled by its new slot (one more call, in the plan), so a
judge drawn to a slot or a letter picks another: the same proposal winning is
recorded as stable; another winner is an unstable verdict, both answers are kept in juiz/
and the judge-failure menu opens. By default the judge (synthesizer, scorer)
may not share a vendor family with a solver: exit 2 naming the family and both
engines; --allow-same-family lifts that, and the final answer records it.
Every reader's order of the snapshot is logged (reading_order). See
docs/beyond.md.

Headless (no terminal, or --headless/--json) the cost plan must be accepted
with --yes, --mode is required, and the quorum and judge-failure menus are
answered by --on-quorum-loss and --on-judge-failure (each answers a decision
point once; when the same point comes back, moot stops with exit 4 and the
debate stays resumable).

--protocol tradeoff (docs/protocols/tradeoff.md) reviews one decision between two options
instead: --option-a and --option-b (testable statements; on a bug with a
finished repair debate, leave both out to take its winner and runner-up),
--criteria, -r the rebuttal cap (default 1), --solver the two reviewers'
engine, --synthesizer the synthesizer's; 2×(R+1)+1 calls; the final answer
always waits for a human decision (moot decide). See docs/protocols/tradeoff.md.

--protocol council (docs/protocols/council.md) convenes one member per --lens (at least 2;
library, project or "name: text" lenses): round 0 positions, then -r
cross-rebuttal rounds (at most 3), then an isolated synthesizer (--synthesizer)
that sees the members by lens only; N×(R+1)+1 calls. Convergence is measured
in convergencia.md; under 70 % (or a synthesis confidence under 70 %, or a
critical divergence) the result is flagged escalate and waits for a human
decision (moot decide); under 50 % confidence it goes straight to a human.
--round-timeout and --debate-timeout bound a round and the whole run. See
docs/protocols/council.md.

--max-usd and --max-tokens (or budget: in the engines file; each flag
overrides its limit) cap the spend, tokens being in + out as moot records
them: before every call moot adds its estimate to the spend and to the calls
in flight, and a call that would cross the cap is not started (a round's call
also leaves room for the final step's). The TUI then asks: raise the cap,
stop now (the remaining rounds are skipped, the judge reads the last complete
round, and resposta-final.md says budget_cut: true and why), or cancel.
Headless, --on-budget answers: ask (exit 4), stop (exit 0 with the labelled
answer; exit 4 if even the final call does not fit) or cancel (exit 3). The
cap is frozen in problema.md; moot resume --max-usd/--max-tokens sets a new
one. Each final answer records every engine's estimate against its actuals
(cost_accuracy), and later plans learn from them.

A debate on a closed bug (DONE.md), a restricted bug with an external engine,
or a bug whose debate/ moot can continue (interrupted, judge-failed, stopped
at a menu: moot resume BUG continues it) is refused with exit 2, nothing
written. The bug's previous debate/ is otherwise archived beside it as
debate-<time>/ when this one starts, as moot plan says first: a finished
one, a cancelled one, or an unfinished one run by hand (no event log, so
moot cannot continue it call by call); a result that still waits for a
human decision stays decidable there (moot decide).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pol, err := rf.policies(cmd)
			if err != nil {
				return err
			}
			headless := rf.isHeadless(e)
			var past *engine.PastCosts
			if headless {
				// what the plan learns from past debates is read while
				// the bug, the engines file, the setup and P are (the
				// plan takes it only for the register the bug is in)
				if root, err := bugfolder.FindRoot(e.cwd); err == nil {
					past = engine.LearnAhead(root)
				}
			}
			reg, bug, err := resolveBug(e, args[0])
			if err != nil {
				return err
			}
			if !headless {
				// a closed bug gets no wizard (nor a trust question): the
				// lock is said at once (exit 2)
				if err := bugfolder.CheckWritable(bug.Dir); err != nil {
					return err
				}
				// nor does one whose debate/ is unfinished: said before any
				// wizard or cost screen, as headless says it (exit 2)
				if err := engine.CheckNoUnfinished(bug, reg.Lang); err != nil {
					return err
				}
			}
			cfg, err := askTrustInTUI(loadConfig(sf.config, reg))(headless)
			if err != nil {
				return err
			}
			sf.wizard = !headless
			s, err := sf.setup(cmd, reg, bug, cfg, headless)
			if err != nil {
				return err
			}
			if !headless {
				return runTUI(e, reg, bug, cfg, s, sf, cmd)
			}
			s.Past = past
			plan, err := acceptedPlan(e, reg, bug, cfg, s, rf.yes, rf.asJSON)
			if err != nil {
				return err
			}
			ctx, cancel := signalContext()
			defer cancel()
			pr := newProgress(e, reg, rf.asJSON, s.Protocol)
			pr.restricted, pr.bugDir = bug.Restricted(), bug.Dir
			live := livefile.New() // streamed figures for a browser watching this run
			defer live.Close()
			res, err := engine.Start(ctx, plan.Setup, rf.limits(engine.Options{
				Protocol: plan.Setup.Protocol, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: pol, Sink: live.Wrap(pr.sink), Check: probeCheck(cfg, harnessOptions(cfg, reg)),
				Command: "moot run " + bug.ID, Version: version(), ResumeTarget: resumeTarget(e, args[0], bug, sf.config), EnginesFile: enginesFileArg(e, sf.config),
				Archived: func(old *bugfolder.Debate, to string) { sayArchivedPending(e, bug, old, to) },
				Plan:     plan,
			}))
			return exitFor(e, reg, res, err)
		},
	}
	sf.register(cmd)
	rf.register(cmd)
	return cmd
}

func newResumeCmd(e *env) *cobra.Command {
	var rf runFlags
	var bf budgetFlags
	var winner, config string
	var acceptEngines, stop bool
	cmd := &cobra.Command{
		Use:   "resume BUG [flags]",
		Short: "Continue an interrupted debate where it stopped",
		Long: `Continue the bug's unfinished debate exactly where it stopped — after a
crash, a kill -9, a pause or a cancel: finished calls are never repeated,
calls without a finished file are run, a pending decision is asked again.
A problema.md changed since setup is refused. BUG may also be a question's ID
(moot ask): it resumes as a bug's debate does, in the TUI on a terminal,
headless with --headless, --json or no terminal.

--winner LABEL records a human judge choice after the judge failed (LABEL is
the letter or the full label, any case: A, "Proposta A", "Proposal A"). It
makes no model call, so it needs no --yes; a label that names no proposal is
exit 2 with nothing written.

A debate is locked to what its engines are (kind, model, endpoint host, argv
digest, the program as resolved and its file's digest — recorded in
problema.md). When the engines file now resolves a name
differently, resume stops with exit 2 naming the difference;
--accept-engine-change accepts it as an amendment, logged like a swap and
recorded in every file written from then on (the TUI asks instead).

--max-usd and --max-tokens set a new budget cap over the one the debate
froze (logged as a budget decision); a debate stopped at its cap continues.

--stop (argue only) is the manual stop: the debate ends with its last
complete round, the stop is recorded (by human) and the synthesizer runs on
that round. Ctrl-C during an argue debate offers it beside a plain resume.

On a finished debate it says there is nothing to resume and exits 0.

BUG may also be a review's ID (moot review): the runner resumes it (moot
review --resume ID is the same code) — a round cut short continues without
repeating a juror that sat, else a new round re-convenes every juror (see
moot help review).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir := reviewTarget(e, args[0]); dir != "" {
				if winner != "" || stop || acceptEngines {
					return usageErr("--winner, --stop and --accept-engine-change are a debate's: a review has no judge, no early stop and no locked engines; resume it with moot resume %s (and the run flags); nothing was called or written", shellword.Quote(args[0]))
				}
				return resumeReview(cmd, e, dir, config, rf, bf)
			}
			pol, err := rf.policies(cmd)
			if err != nil {
				return err
			}
			resumeCap, err := bf.cap(cmd, harness.Budget{})
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("winner") {
				if strings.TrimSpace(winner) == "" {
					return usageErr("--winner needs a label (the letter or the full label: A, \"Proposta A\"); nothing was written")
				}
				w, err := engine.ParseWinner(winner)
				if err != nil {
					return usageErr("%v", err)
				}
				pol.Winner = w
			}
			reg, bug, err := resolveSubject(e, args[0])
			if err != nil {
				return err
			}
			cfg, err := askTrustInTUI(loadConfig(config, reg))(rf.isHeadless(e))
			if err != nil {
				return err
			}
			if err := bugfolder.CheckWritable(bug.Dir); err != nil {
				return err
			}
			d, err := bugfolder.ReadDebate(bug.DebateFolder(), reg.Lang)
			if err != nil {
				return err
			}
			if d.State == bugfolder.StateDone {
				// a moot killed right after the final answer left its end unlogged
				if err := engine.CompleteLog(bug, d, engine.Options{Command: "moot resume " + bug.ID}); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s: the debate is already finished (%s); nothing to resume\n", termsafe.Line(bug.ID), termsafe.Line(reg.Rel(d.Dir)))
				return nil
			}
			proto, err := protocolOf(d)
			if err != nil {
				return err
			}
			if words := engine.Describe(proto); winner != "" && !words.Winner && words.NoDecision {
				return usageErr("--winner: this %s debate's %s names no winner, so there is none to choose; retry it with `moot resume %s --yes --on-judge-failure retry` (its answer waits for no human decision); nothing was written",
					proto.Name(), words.Final, bug.ID)
			}
			if words := engine.Describe(proto); winner != "" && !words.Winner {
				return usageErr("--winner: this %s debate's %s names no winner, so there is none to choose; retry it with `moot resume %s --yes --on-judge-failure retry`, then record the human decision with `moot decide %s approve|decline|revise`; nothing was written",
					proto.Name(), words.Final, bug.ID, bug.ID)
			}
			if winner != "" {
				// a judge failure answered cancel or pause is still open; a
				// hand-run debate records its failed judge only in juiz/, and
				// one with every round and no judge waits for a choice
				handJudge := d.HandRun() && (d.State == bugfolder.StateJudgeFailed || d.State == bugfolder.StateWaiting)
				if d.PendingDecision() != "judge" && !handJudge {
					return usageErr("--winner records a choice after the judge failed, and this debate is %s", d.State)
				}
				if labels := engine.FinalLabels(d); !slices.Contains(labels, pol.Winner) {
					return usageErr("--winner %s names no proposal: the labels are %s; nothing was written", winner, strings.Join(labels, ", "))
				}
			}
			if stop {
				if _, ok := proto.(engine.Stopper); !ok {
					return usageErr("--stop: protocol %s never stops early (its rounds are fixed); resume without --stop; nothing was written", proto.Name())
				}
				if err := engine.StopRefusal(d, proto); err != nil {
					return err // before the cost question: nothing written, nothing asked
				}
			}
			// the TUI resumes bugs and questions alike (its live view, its decision form)
			if !rf.isHeadless(e) {
				return resumeTUI(e, reg, bug, cfg, config, proto, resumeCap)
			}
			need, left := engine.ResumeNeed(d, proto, stop)
			if winner != "" || d.HandRun() {
				left = 0 // a human choice is no model call, and moot makes none on a hand-run debate: no --yes
			}
			if !rf.yes && left > 0 {
				accept := "Run again with --yes to accept."
				if f := termsafe.Line(d.EnginesFile()); config == "" && f != "" {
					// said before the engines file is needed: the run reads its engines from it
					accept = fmt.Sprintf("It was started with --config %s, which a resume takes again: accept with moot resume %s --yes.", shellword.Quote(f), engine.ResumeArgs(args[0], f))
				}
				fmt.Fprintf(e.stdout, "Resuming %s needs %s (%s). %s\n", bug.ID, need, reg.Rel(d.Dir), accept)
				return withCode(ExitNeedHuman, errors.New("not resumed: nothing was called or written")) // the line above says how to accept
			}
			ctx, cancel := interruptContext(e, proto, pol, resumeTarget(e, args[0], bug, config))
			defer cancel()
			pr := newProgress(e, reg, rf.asJSON, proto)
			pr.restricted, pr.bugDir = bug.Restricted(), bug.Dir
			live := livefile.New()
			defer live.Close()
			res, err := engine.Resume(ctx, bug, rf.limits(engine.Options{
				Protocol: proto, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: pol, Sink: live.Wrap(pr.sink), Check: probeCheck(cfg, harnessOptions(cfg, reg)),
				Command: "moot resume " + bug.ID, Version: version(), AcceptEngineChange: acceptEngines, AcceptedBy: "human",
				ResumeTarget: resumeTarget(e, args[0], bug, config), EnginesFile: enginesFileArg(e, config), StopBy: stopBy(stop), Budget: resumeCap,
			}))
			if err == nil && res.AlreadyDone {
				fmt.Fprintf(e.stdout, "%s: %s\n", bug.ID, res.Reason)
			}
			if errors.Is(err, harness.ErrUnknownEngine) && config == "" {
				if f := d.EnginesFile(); f != "" { // its files name the engines file it was started with
					return usageErr("%v: a debate started with --config FILE resumes with it again, and this one was started with %s (moot resume %s); nothing was called", err, shellword.Quote(termsafe.Line(f)), engine.ResumeArgs(args[0], termsafe.Line(f)))
				}
				return usageErr("%v: a debate started with --config FILE resumes with it again (moot resume %s --config FILE); nothing was called", err, shellword.Quote(args[0]))
			}
			return exitFor(e, reg, res, err)
		},
	}
	rf.register(cmd)
	bf.register(cmd)
	cmd.Flags().StringVar(&winner, "winner", "", "record a human judge choice: a label letter or full label")
	cmd.Flags().StringVar(&config, "config", "", "engines file")
	cmd.Flags().BoolVar(&stop, "stop", false, "argue: stop after the last complete round and synthesize it (a manual stop, recorded)")
	cmd.Flags().BoolVar(&acceptEngines, "accept-engine-change", false, "accept engines that now resolve to another kind, model, endpoint or command as an amendment (logged like a swap)")
	return cmd
}

// sayArchivedPending prints one line on stderr when the debate started
// archived a result that still waits for a human decision: which, and the
// moot decide that still records it (moot list says it too).
func sayArchivedPending(e *env, bug *bugfolder.Bug, old *bugfolder.Debate, to string) {
	if note := engine.ArchivedPendingNote(bug, old, to); note != "" {
		fmt.Fprintf(e.stderr, "moot: %s: %s\n", bug.ID, termsafe.Line(note))
	}
}

// ms converts milliseconds to a duration.
func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

// acceptedPlan probes and prices the setup and returns its plan once the
// engineer has accepted it with --yes: a refused plan is exit 2 and an
// unaccepted one is printed (or written as JSON) and exit 4, nothing
// written either way.
func acceptedPlan(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, s engine.Setup, yes, asJSON bool) (*engine.Plan, error) {
	plan, err := probedPlan(reg, bug, cfg, s, !yes)
	if err != nil {
		return nil, err
	}
	if len(plan.Refusals) > 0 {
		printPlan(e.stderr, plan)
		return nil, withCode(ExitUsage, fmt.Errorf("refused, nothing written: %s", plan.Refusals[0]))
	}
	if !yes {
		if asJSON {
			writePlanJSON(e.stdout, plan)
		} else {
			printPlan(e.stdout, plan)
		}
		return nil, withCode(ExitNeedHuman, errors.New("not started: the cost plan needs accepting; run again with --yes to accept it"))
	}
	return plan, nil
}

// stopBy is who stops a debate by hand (resume --stop), "" for no stop.
func stopBy(stop bool) string {
	if stop {
		return "human"
	}
	return ""
}
