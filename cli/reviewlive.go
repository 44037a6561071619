package cli

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
	"github.com/reversa/moot/tui"
)

// live reports whether moot review shows its live panel: not headless
// (a terminal, no --headless, no --json) and without --yes (a --yes run
// is scripted: it prints its lines).
func (r *reviewRun) live() bool {
	return !r.f.run.isHeadless(r.e) && !r.f.run.yes
}

// liveView is the review view following the folder, and the budget menu
// it answers a reached cap with (as a debate's view does).
func (r *reviewRun) liveView() (*liveView, engine.BudgetAsker) {
	opts := tui.Options{NoColor: r.e.noColor(), Version: version(), Records: recordKeepers}
	p := tea.NewProgram(tui.NewReview(r.folder.Dir, opts), tea.WithoutSignalHandler())
	return &liveView{p}, tui.NewReviewBudget(p.Send)
}

// liveView is the review view's program, made before the round so that its
// budget menu can answer the round's calls.
type liveView struct{ p *tea.Program }

// runLive runs the round while the terminal UI shows the review view
// following the folder (one pane per lens, as the verdicts land). q or
// ctrl+c leaves the view; a round still running is then cancelled, as a
// stop signal cancels it (exit 3). The report is printed after the view
// closes, the exit code is the same as without it.
func (r *reviewRun) runLive(ctx context.Context, cancel context.CancelFunc, v *liveView, in review.RunInput) (review.RunResult, error) {
	p := v.p
	type ran struct {
		res review.RunResult
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, err := review.Run(ctx, in)
		done <- ran{res, err}
		p.Send(tui.ReviewDoneMsg{})
	}()
	go func() {
		<-ctx.Done() // a stop signal: leave the view too
		p.Quit()
	}()
	_, _ = p.Run()
	select {
	case out := <-done:
		return out.res, out.err
	default:
	}
	cancel() // q before the end stops the round (its verdicts so far are kept)
	out := <-done
	return out.res, out.err
}
