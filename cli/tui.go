package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/label"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/review"
	"github.com/reversa/moot/tui"
)

// runTUI runs a debate in the terminal UI: at the cost screen when the
// flags give the mode, else at the setup wizard.
func runTUI(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, s engine.Setup, sf setupFlags, cmd *cobra.Command) error {
	opts := tuiOptions(e, reg, cfg)
	if s.Protocol != nil {
		opts.Protocol = s.Protocol
	}
	if !cmd.Flags().Changed("protocol") {
		s.Protocol = nil // the wizard asks for it
	}
	opts.Bug, opts.Setup, opts.Budget = bug, s, s.Budget
	opts.AcceptPlan, _ = cmd.Flags().GetBool("yes") // --yes accepts the plan here too: no cost screen
	e.resumeConfig = sf.config
	return runProgram(e, reg, opts)
}

// resumeTUI resumes a debate in the terminal UI.
func resumeTUI(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, config string, proto engine.Protocol, cap engine.Budget) error {
	opts := tuiOptions(e, reg, cfg)
	e.resumeConfig = config
	opts.Bug, opts.Resume, opts.Protocol, opts.ResumeBudget = bug, true, proto, cap
	return runProgram(e, reg, opts)
}

// runBrowser opens the browser of the register's debates and the
// project's questions (a project with questions only opens it too).
func runBrowser(e *env, config string) error {
	if !isTerminal(e.stdout) || !isTerminal(e.stdin) {
		return usageErr("the browser needs a terminal; without one, use moot list and moot show")
	}
	reg, err := registerOrQuestions(e)
	if err != nil {
		return err
	}
	cfg, err := askTrustInTUI(loadConfig(config, reg))(false)
	if err != nil {
		return err
	}
	e.resumeConfig = config
	return runProgram(e, reg, tuiOptions(e, reg, cfg))
}

// askTrustInTUI lets the TUI ask about an untrusted project engines file
// (tuiOptions turns it into the trust menu); headless, it stays an error
// naming moot trust (exit 2).
func askTrustInTUI(cfg *harness.Config, err error) func(headless bool) (*harness.Config, error) {
	return func(headless bool) (*harness.Config, error) {
		var ue *untrustedError
		if !headless && errors.As(err, &ue) {
			return cfg, nil
		}
		return cfg, err
	}
}

// trustRequest is the TUI's trust question for an untrusted project
// engines file; nil when there is nothing to ask.
func trustRequest(reg *bugfolder.Register, cfg *harness.Config) *tui.TrustRequest {
	reasons := harness.TrustReasons(cfg, reg.Project)
	sum := harness.TrustSum(cfg, reg.Project)
	if cfg.Path == "" || len(reasons) == 0 || !projectFile(reg, cfg.Path) || harness.DefaultTrustStore().Trusted(cfg.Path, sum) {
		return nil
	}
	path := cfg.Path
	return &tui.TrustRequest{File: reg.Rel(absPath(path)), Reasons: reasons,
		Trust: func() error { return harness.DefaultTrustStore().Trust(path, sum) }}
}

// recordKeepers are the protocols that keep their runs in folders of their
// own: the TUI lists and opens those runs through them (it imports no
// protocol package).
var recordKeepers = []engine.RecordKeeper{review.Keeper{}}

func tuiOptions(e *env, reg *bugfolder.Register, cfg *harness.Config) tui.Options {
	ho := harnessOptions(cfg, reg)
	return tui.Options{Protocol: protocols[debate.Name], Register: reg, Config: cfg, Harness: ho, Version: version(), NoColor: e.noColor(),
		Untrusted: trustRequest(reg, cfg), Protocols: protocolList(), Known: allProtocols(), Questions: []engine.Protocol{protocols[argue.Name]},
		Ask: askForWizard(e, &e.reservedQuestions), Review: reviewForWizard(e), Records: recordKeepers, Lenses: lensCatalog(reg, cfg), Proposals: repairOptions,
		Check: probeCheck(cfg, ho), Budget: cfg.Budget,
		Probe: func(ctx context.Context) map[string]tui.EngineStatus {
			out := map[string]tui.EngineStatus{}
			for _, r := range harness.ProbeEngines(ctx, cfg, cfg.Order, ho, harness.DefaultProbeCache(), false) {
				out[r.Engine] = tui.EngineStatus{OK: r.OK, Why: r.Why()}
			}
			return out
		}}
}

// lensCatalog is the project's lenses for the wizard's pickers; a bad lens
// file leaves them out here (moot run --lens names it and what to do).
func lensCatalog(reg *bugfolder.Register, cfg *harness.Config) []bugfolder.Lens {
	c, err := loadLenses(reg, cfg)
	if err != nil {
		return nil
	}
	var out []bugfolder.Lens
	for _, n := range c.Names() {
		if l, err := c.Resolve(n); err == nil {
			out = append(out, l)
		}
	}
	return out
}

// resumeAdvice names a debate for a printed `moot resume`, with this
// command's explicit --config.
func resumeAdvice(e *env, id string) string { return resumeWords(e, id, e.resumeConfig) }

// runProgram runs the UI, then says where the debate was written and
// exits with the debate's code (0 done, 3 cancelled or left, 4 waiting).
// winnerWord names the winning proposal in the UI's language, as the TUI
// does ("proposal A"); the documents keep their own ("Proposta A").
func winnerWord(l string) string { return label.Proposal(l) }

func runProgram(e *env, reg *bugfolder.Register, opts tui.Options) error {
	// moot, not Bubble Tea, handles the stop signals: the first leaves a
	// running debate as q does (its calls stopped, its end logged, its lock
	// released, resumable), a second one kills the UI
	defer func() { askCleanup(e.reservedQuestions) }()   // a question the wizard set up and never started leaves no folder
	opts.EnginesFile = enginesFileArg(e, e.resumeConfig) // the runs it starts log it; its resume hints repeat it
	p := tea.NewProgram(tui.New(opts), tea.WithoutSignalHandler())
	e.uiSend = p.Send
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	var signalled atomic.Bool
	go func() {
		for n := 0; ; n++ {
			select {
			case <-sigs:
				signalled.Store(true)
				if n > 0 {
					p.Kill()
					return
				}
				p.Send(tui.StopMsg{})
			case <-done:
				return
			}
		}
	}()
	final, err := p.Run()
	stopped := &exitError{code: ExitCancelled, err: errors.New("stopped by a signal: everything is kept; moot resume continues it")}
	if m, ok := final.(tui.Model); ok && m.Outcome().BugID != "" {
		stopped.err = fmt.Errorf("stopped by a signal: everything is kept; `moot resume %s` continues it", resumeAdvice(e, m.Outcome().BugID))
	}
	if errors.Is(err, tea.ErrProgramKilled) {
		return stopped
	}
	if err != nil && !errors.Is(err, tea.ErrInterrupted) {
		return withCode(ExitInternal, fmt.Errorf("terminal UI: %w", err))
	}
	if m, ok := final.(tui.Model); ok && signalled.Load() {
		out := m.Outcome()
		if !out.Interrupted { // no run in flight when the signal came: nothing was stopped
			return signalledIdle(e, reg, out)
		}
		if out.Dir != "" {
			fmt.Fprintf(e.stdout, "debate in %s\n", reg.Rel(out.Dir))
		}
		return stopped
	}
	m, ok := final.(tui.Model)
	if !ok {
		return nil
	}
	return exitForOutcome(e, reg, m.Outcome())
}

// signalledIdle ends a UI a stop signal closed while no run was in
// flight (the browser, a past debate, a setup): a setup or a run that ended
// before says so as on any exit; otherwise moot leaves quietly with the
// signal's exit code (3, docs/cli.md), saying nothing was interrupted.
func signalledIdle(e *env, reg *bugfolder.Register, out tui.Outcome) error {
	if out.Cancelled || out.Result != nil || out.Err != nil {
		return exitForOutcome(e, reg, out)
	}
	return &exitError{code: ExitCancelled, quiet: true}
}

// exitForOutcome reports how the UI ended, in the words and exit codes of
// docs/cli.md: a setup cancelled before anything started is exit 3, nothing
// written; a finished debate names its winner as the UI does.
func exitForOutcome(e *env, reg *bugfolder.Register, out tui.Outcome) error {
	if out.Cancelled && out.Result == nil && out.Err == nil {
		return &exitError{code: ExitCancelled, err: errors.New("cancelled before anything started: nothing was written")}
	}
	if out.Dir != "" {
		where := out.Dir
		if bugfolder.Within(reg.Project, e.cwd) {
			where = reg.Rel(out.Dir)
		}
		fmt.Fprintf(e.stdout, "debate in %s\n", termsafe.Line(where))
	}
	if out.Err != nil {
		return exitFor(e, reg, out.Result, out.Err)
	}
	res := out.Result
	switch {
	case res == nil:
		return nil
	case out.Left:
		fmt.Fprintf(e.stdout, "left while it ran: everything is kept; `moot resume %s` continues it\n", resumeAdvice(e, out.BugID))
		return &exitError{code: ExitCancelled, quiet: true}
	case res.Reason != "":
		fmt.Fprintln(e.stdout, res.Reason)
	}
	if res.Outcome == engine.OutcomeDone {
		won := winnerWord(res.Winner) + " won"
		if res.Winner == "" { // a final step that names no winner (tradeoff)
			won = "final answer written"
		}
		fmt.Fprintf(e.stdout, "done: %s · %d calls · %s tokens · %s\n", won, res.Calls, digits.Grouped(res.Tokens), eventCost(res.USD, res.CostUnknown))
	}
	return exitFor(e, reg, res, nil)
}
