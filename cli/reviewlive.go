package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
	"github.com/reversa/moot/tui"
)

// live reports whether moot review shows its cost screen and live view:
// not headless (a terminal, no --headless, no --json) and without --yes
// (a --yes run is scripted: it prints its lines).
func (r *reviewRun) live() bool {
	return !r.f.run.isHeadless(r.e) && !r.f.run.yes
}

// quietEnv is e for a command the wizard runs: the screen is the UI's, so
// nothing is printed on stderr.
func quietEnv(e *env) *env {
	quiet := *e
	quiet.stderr = io.Discard
	return &quiet
}

// parseWizardWords parses the words typed into the wizard with a
// command's own flags (after the engines file this moot was given), so
// the wizard refuses what the command refuses, in its words.
func parseWizardWords(e *env, cmd *cobra.Command, args []string) error {
	cmd.SetErr(io.Discard)
	if e.resumeConfig != "" {
		args = append([]string{"--config", e.resumeConfig}, args...)
	}
	if err := cmd.Flags().Parse(args); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// liveView is the review view's program on a terminal, kept while the
// runner drives a resumed round (watchFromCost, unwatch).
type liveView struct{ p *tea.Program }

// watchFromCost is a resumed review on a terminal: the cost screen of
// what is left (Start, Cancel), whose Start opens the live view that
// follows the round the runner then drives; the view's budget menu is the
// asker. q before the round ends cancels it (r.cancel, exit 3); a stop
// signal (ctx) leaves the view too. Cancel before Start calls nothing.
func (r *reviewRun) watchFromCost(ctx context.Context, plan reviewPlan, rd *reviewRound) (engine.BudgetAsker, error) {
	started := make(chan struct{})
	var once sync.Once
	var p *tea.Program
	asker := tui.NewReviewBudget(func(m tea.Msg) { p.Send(m) })
	start := func() (string, error) {
		once.Do(func() { close(started) })
		return r.folder.Dir, nil
	}
	opts := tui.Options{NoColor: r.e.noColor(), Version: version(), Records: recordKeepers, EnginesFile: r.st.Config} // its leave dialog names the engines file
	p = tea.NewProgram(tui.NewReviewCost(tui.ReviewStart{Plan: r.costCard(plan, rd), Start: start}, opts), tea.WithoutSignalHandler())
	r.view = &liveView{p}
	r.roundDone, r.viewDone = make(chan struct{}), make(chan struct{})
	go func() {
		<-ctx.Done()
		p.Quit()
	}()
	go func() {
		_, _ = p.Run()
		select {
		case <-r.roundDone:
		default:
			r.cancel() // q before the end stops the round (its verdicts so far are kept)
		}
		close(r.viewDone)
	}()
	select {
	case <-started:
		return asker, nil
	case <-r.viewDone:
		r.view, r.viewDone = nil, nil
		return nil, withCode(ExitCancelled, errors.New("review not resumed; nothing called"))
	}
}

// runOnTerminal is moot review on a terminal, as moot run is: the cost
// screen of the plan (Start, Edit, Cancel), then the live view following
// the folder (one pane per lens, as the verdicts land) until q. q or
// ctrl+c while the round runs asks, then stops it as a stop signal does
// (exit 3, what was written kept); the report is printed after the view
// closes, with the exit code the review has without it. Cancel before
// Start writes nothing (exit 3).
func (r *reviewRun) runOnTerminal(plan reviewPlan, rd *reviewRound) error {
	ctx, cancel := signalContext()
	defer cancel()
	type ran struct {
		ctx context.Context
		res review.RunResult
		err error
	}
	done := make(chan ran, 1)
	var p *tea.Program
	asker := tui.NewReviewBudget(func(m tea.Msg) { p.Send(m) }) // the budget menu, as a debate's view asks it
	startErr := make(chan error, 1)                             // why Start could not begin the round (shown on the cost screen)
	defer r.disarm()
	start := func() (string, error) {
		rin, err := r.launch(ctx, rd, asker, nil) // the screen is the UI's: no lines on stderr
		if err != nil {
			startErr <- err
			return "", err
		}
		go func() {
			res, err := review.Run(ctx, rin) // the runner drives the round (engine.RunSeated)
			done <- ran{ctx, res, err}
			p.Send(tui.ReviewDoneMsg{})
		}()
		return r.folder.Dir, nil
	}
	opts := tui.Options{NoColor: r.e.noColor(), Version: version(), Records: recordKeepers, EnginesFile: r.st.Config} // its leave dialog names the engines file
	p = tea.NewProgram(tui.NewReviewCost(tui.ReviewStart{Plan: r.costCard(plan, rd), Start: start}, opts), tea.WithoutSignalHandler())
	go func() {
		<-ctx.Done() // a stop signal: leave the view too
		p.Quit()
	}()
	final, err := p.Run()
	if err != nil && !errors.Is(err, tea.ErrInterrupted) && !errors.Is(err, tea.ErrProgramKilled) {
		cancel()
		return withCode(ExitInternal, fmt.Errorf("terminal UI: %w", err))
	}
	if m, ok := final.(tui.Model); !ok || m.ReviewStarted() == "" {
		select {
		case err := <-startErr:
			return err
		default:
		}
		return withCode(ExitCancelled, errors.New("review not started; nothing written"))
	}
	var out ran
	select {
	case out = <-done:
	default:
		cancel() // q before the end stops the round (its verdicts so far are kept)
		out = <-done
	}
	r.report(out.res)
	r.reportFix(out.res)
	if err := r.writeReviewFormat(out.res); err != nil {
		return withCode(ExitInternal, err)
	}
	return r.exit(out.ctx, out.res, out.err)
}

// costCard is the review's plan as the cost screen shows it: what is
// reviewed, the ladders, the calls, each first rung's engine priced (the
// protocol's estimate of its lenses) and the warnings moot review prints.
func (r *reviewRun) costCard(plan reviewPlan, rd *reviewRound) tui.ReviewPlan {
	c := tui.ReviewPlan{Title: r.st.Contract.Intent}
	if r.st.BugID != "" {
		c.Title = r.st.BugID + " — " + c.Title
	}
	what, _ := r.change()
	if what == "" { // the review's own files: a resume gives no --files
		what = strings.Join(r.st.Files, ", ")
	}
	if r.fix != nil {
		what = "the bug's applied fix"
	}
	c.Setup = append(c.Setup, [2]string{"change", what})
	builder := r.st.BuilderFamily
	if builder == "" {
		builder = "unknown (the gate is labelled weakened)"
	}
	if ex := plan.Excluded; len(ex) > 0 {
		builder += " (excluded: " + strings.Join(ex, ", ") + ")"
	}
	c.Setup = append(c.Setup, [2]string{"builder", builder})
	by := map[string]*tui.ReviewEngineCost{}
	for i, rt := range rd.routes {
		var rungs []string
		first := ""
		for _, g := range rt.Rungs {
			s := g.Engine
			if g.Skip != "" {
				s += " [" + string(g.Skip) + "]"
			} else if first == "" {
				first = g.Engine
			}
			rungs = append(rungs, s)
		}
		if len(rungs) == 0 {
			rungs = []string{"(no rung: hold)"}
		}
		k := ""
		if i == 0 {
			k = "lenses"
		}
		c.Setup = append(c.Setup, [2]string{k, rt.Lens.Name + ": " + strings.Join(rungs, " → ")})
		if first == "" {
			continue
		}
		e := by[first]
		if e == nil {
			ec := r.cfg.Engines[first]
			e = &tui.ReviewEngineCost{Name: first, PriceKnown: true, External: ec.External}
			by[first] = e
		}
		est := review.Estimated(r.cfg, rd.routes[i:i+1])
		e.Calls++
		e.Input += est.Input
		e.Output += est.Output
		e.USD += est.USD
		e.PriceKnown = e.PriceKnown && est.USDKnown
		e.Roles = strings.TrimPrefix(e.Roles+", "+rt.Lens.Name, ", ")
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Engines = append(c.Engines, *by[n])
	}
	est := rd.est
	c.Total = tui.ReviewEngineCost{Name: "total", Calls: est.MinCalls, Input: est.Input, Output: est.Output, USD: est.USD, PriceKnown: est.USDKnown}
	c.Formula = fmt.Sprintf("%d lens(es) × one juror = %d, at most %d (a rung that fails to answer passes to the next)",
		plan.Lenses, plan.Calls.Min, plan.Calls.Max) + r.resumedCalls(est.MaxCalls)
	if thin := review.ThinLadders(rd.routes); len(thin) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("ladders with fewer than %d external rungs to call before the local tail (a wrong lens and a failure could leave them on hold): %s", review.FloorRungs, strings.Join(thin, ", ")))
	}
	if none := review.NoSurvival(rd.routes); len(none) > 0 {
		c.Warnings = append(c.Warnings, "no local survival rung: "+strings.Join(none, ", ")+" (when every cloud rung fails, the lens holds)")
	}
	if r.st.Solo {
		c.Warnings = append(c.Warnings, review.SoloNote)
	}
	return c
}

// resumedCalls is what a resumed review's cost screen adds to its calls
// formula (more: the calls this session may make): the calls already made
// and the whole the live header then counts against, and how many of
// those were stopped before answering and are made again — a debate's
// resume question says the same (engine.ResumeNeed). "" for a new review.
func (r *reviewRun) resumedCalls(more int) string {
	if r.f.resume == "" || r.folder == nil {
		return ""
	}
	evs, err := review.ReadEvents(r.folder.Dir)
	if err != nil {
		return ""
	}
	if s := engine.MadeCalls(review.Calls(r.st, evs), more, len(bugfolder.OpenCalls(evs))); s != "" {
		return ";" + strings.TrimPrefix(s, ",")
	}
	return ""
}

// wizardWords name the change and its contract as the wizard asks them,
// by its fields (a refusal names no flag the wizard does not have).
var wizardWords = envelope.Words{Change: tui.ChangeField, Files: tui.ChangeField, Contract: tui.ContractField,
	Either: "in the " + tui.ChangeField + " field (a git range A..B, or the files it touches)"}

// wizardFields names, in a refusal the wizard shows, the field each of
// moot review's and moot ask's flags is typed into: the review ladder's
// and the lens catalog's refusals (--builder, --lens) and the persona
// catalog's and argue's (--persona) speak the commands' flags, which the
// wizard does not have (the change and the contract are worded by
// envelope.Words).
var wizardFields = strings.NewReplacer(
	"--builder ", tui.BuilderField+" ", "--lens ", tui.LensesField+" ",
	"--persona: ", tui.PersonasField+": ", "--persona ", tui.PersonasField+": ")

// inWizardFields is err worded with the wizard's fields for the commands'
// flags (nil stays nil).
func inWizardFields(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(wizardFields.Replace(err.Error()))
}

// reviewForWizard is moot review for the TUI's wizard: args are the words
// after "moot review", parsed by the command's own flags and checked by
// its own code (check: the change, contract, builder and lenses only, as
// an answer is typed); otherwise the review is planned and priced for the
// cost screen, and Start runs its round in the background (a reached
// budget cap stops the round, as headless; the lenses that sat are kept)
// while the view follows its folder; Stop stops it (Leave it on its view).
func reviewForWizard(e *env) func(args []string, check bool) (tui.ReviewStart, error) {
	return func(args []string, check bool) (tui.ReviewStart, error) {
		quiet := quietEnv(e)
		cmd, f := newReview(quiet)
		if err := parseWizardWords(e, cmd, args); err != nil {
			return tui.ReviewStart{}, err
		}
		f.words = wizardWords
		r, rd, plan, pol, err := prepareReview(cmd, quiet, *f, cmd.Flags().Args(), check)
		if err != nil || check {
			return tui.ReviewStart{}, inWizardFields(err)
		}
		ctx, cancel := context.WithCancel(context.Background()) // Leave it on its view stops it, as q stops moot review's
		var launched atomic.Bool
		ended := make(chan struct{})
		start := func() (string, error) {
			rin, err := r.launch(ctx, rd, wizardBudget(e, pol), nil)
			if err != nil {
				cancel()
				return "", err
			}
			launched.Store(true)
			go func() {
				defer close(ended)
				defer r.disarm()
				defer cancel()
				_, _ = review.Run(ctx, rin) // its record and summary say how it ended
			}()
			return r.folder.Dir, nil
		}
		stop := func() { // returns once the round has written how it ended
			cancel()
			if launched.Load() {
				<-ended
			}
		}
		return tui.ReviewStart{Plan: r.costCard(plan, rd), Start: start, Stop: stop}, nil
	}
}
