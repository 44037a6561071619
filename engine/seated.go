package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
)

// The statuses of a seated run's record (docs/protocols/review.md,
// "Statuses and exit codes"): the runner's one vocabulary for a protocol
// whose round ends in a computed gate. The gate gives pass, refuse, hold
// or stalled; the runner settles the rest. Running, cancelled and
// interrupted are a debate's words (bugfolder.State) with their meaning.
const (
	SeatedRunning = string(bugfolder.StateRunning)
	SeatedPass    = "pass"
	SeatedRefuse  = "refuse"
	SeatedHold    = "hold"
	SeatedStalled = "stalled"
	// SeatedError is a round whose files could not all be saved: never
	// a pass, whatever its seats said.
	SeatedError = "error"
	// SeatedCancelled is a round cut short (a signal, q, --on-budget
	// cancel, --debate-timeout): no verdict, resumable.
	SeatedCancelled = string(bugfolder.StateCancelled)
	// SeatedBudgetCut is a round stopped at the budget cap: no verdict,
	// resumable with a raised cap.
	SeatedBudgetCut = "budget_cut"
	// SeatedInterrupted is how a record saying running is listed when no
	// live moot holds its folder's lock (its moot was killed).
	SeatedInterrupted = string(bugfolder.StateInterrupted)
)

// CutShort reports whether a seated run's status is a round cut short,
// which a resume continues in place (its finished seats kept).
func CutShort(status string) bool {
	switch status {
	case SeatedCancelled, SeatedBudgetCut, SeatedRunning, SeatedInterrupted, SeatedError:
		return true
	}
	return false
}

// SeatedOutcome is the event log's outcome of a seated run's status: done
// on a pass, cancelled on a cut round, else waiting (for a human or a
// resume).
func SeatedOutcome(status string) Outcome {
	switch status {
	case SeatedPass:
		return OutcomeDone
	case SeatedCancelled:
		return OutcomeCancelled
	}
	return OutcomeWaiting
}

// FolderLive reports whether a live moot holds dir's lock.
func FolderLive(dir string) bool {
	b, err := safefs.ReadFile(filepath.Join(dir, bugfolder.LockFile), 64<<10)
	if err != nil {
		return false
	}
	var info bugfolder.LockInfo
	if json.Unmarshal(b, &info) != nil {
		return false
	}
	return info.Alive()
}

// ListedStatus is a seated run's status as every list shows it: the
// record's, except running with no live writer, which is interrupted.
func ListedStatus(status, dir string) string {
	if status == SeatedRunning && !FolderLive(dir) {
		return SeatedInterrupted
	}
	return status
}

// Caller makes one call on the runner's call path (the Dispatcher; a
// test's scripted double).
type Caller interface {
	Call(ctx context.Context, c CallSpec, check Check) (CallResult, error)
}

// Seated is the contract of a protocol whose round is no batch of panel
// calls before a judge, but seats that each walk their own ladder of
// engines, closed by a computed gate instead of a final call (review,
// docs/protocols/review.md). RunSeated drives its rounds; the protocol
// supplies its files and its rules through these hooks.
type Seated interface {
	// Status is the status its record holds; Rounds how many rounds the
	// record holds (a round cut short included, a killed one not).
	Status() string
	Rounds() int
	// Keep reads what round k, cut short, keeps on a resume: cont is
	// false when it cannot continue in place (its inputs changed, or
	// were never written), so a new round runs; kept names the seats
	// whose sealed answers stay (never called again) and what they
	// spent (not in the record's totals when killed is set). A file that
	// does not verify is an error.
	Keep(k int, killed bool) (cont bool, kept []string, tokens int, usd float64, err error)
	// Begin writes round k's inputs and marks the record running; fresh
	// is set for a new round (its folder emptied first).
	Begin(k int, fresh bool) error
	// Seat runs round k's seats through calls (the kept ones are not
	// called) and writes each seat's file as it ends; emit is safe for
	// concurrent use. It returns what stopped the calls (the budget,
	// ctx) and every file it could not save.
	Seat(ctx context.Context, k int, calls Caller, emit func(Event)) (stop, saved error)
	// Gate is the computed final step over round k's seats: pass, refuse,
	// hold or stalled, and why.
	Gate(k int) (status, reason string)
	// End records round k as status (its record, its summary; unsaved
	// says what could not be saved when status is error) and returns the
	// record's totals, and every file it could not save.
	End(k int, status string, unsaved error) (SeatedTotals, error)
	// Log appends an event to the run's event log.
	Log(ev Event) error
}

// SeatedTotals are a seated run's calls, tokens and cost so far.
type SeatedTotals struct {
	Calls       int
	Tokens      int
	USD         float64
	CostUnknown bool
}

// SeatedRun is one session of a seated run: a new run's first round, or
// a resume.
type SeatedRun struct {
	Dir      string
	Protocol Seated
	// Command names the session in the folder's lock ("moot review").
	Command string
	// Member names one seat's engine in messages ("juror").
	Member string
	// Resume is set when the session resumes the record (a round cut
	// short continues in place, else a new round).
	Resume bool
	// Dispatch configures the call path (Budget is the cap this session
	// runs under; the spend so far is the runner's to add); Calls, when
	// set, replaces it (tests).
	Dispatch DispatchOptions
	Calls    Caller
	// CapBefore is the cap the record held before this session; a resume
	// that changes it logs the change as a budget decision.
	CapBefore Budget
	// Spent is what the record's finished rounds spent.
	SpentTokens int
	SpentUSD    float64
	// RunLimit is --debate-timeout (0: none): when it passes, the calls in
	// flight stop and the round is cancelled, resumable.
	RunLimit time.Duration
	// Plan, when set, is logged after setup or resumed.
	Plan *Event
	// Emit receives every event after it is logged; may be nil.
	Emit func(Event)
}

// SeatedResult is how a session ended.
type SeatedResult struct {
	Round  int
	Status string
	Reason string
	// TimedOut is set when RunLimit stopped the round.
	TimedOut bool
	// Totals are the record's after the round (debate_finished's).
	Totals SeatedTotals
}

// RunSeated drives one round of a seated protocol, as the runner drives a
// debate's: it takes the folder's lock (one writer), kills the engine
// processes a killed moot left running, decides from the record whether a
// resume continues a round cut short (keeping its finished seats: no
// finished call is repeated) or starts a new one, logs setup or resumed,
// the plan, the budget decision of a changed cap and round_started, runs
// the seats through the call path, closes the round with the protocol's
// gate and settles its status (a cut round is cancelled or budget_cut, a
// round with an unsaved file is error), then logs debate_finished with
// the totals. Every event goes through one serialized emitter: logged
// (output deltas excepted), then handed to Emit.
func RunSeated(ctx context.Context, in SeatedRun) (SeatedResult, error) {
	p := in.Protocol
	lock, err := bugfolder.AcquireLock(in.Dir, in.Command)
	if err != nil {
		if errors.Is(err, bugfolder.ErrBusy) {
			return SeatedResult{}, &bugfolder.InputError{Path: in.Dir, Msg: err.Error() + "; nothing was called", Err: err}
		}
		return SeatedResult{}, err
	}
	defer lock.Release()
	var errs []error
	var mu sync.Mutex
	keep := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	var emitMu sync.Mutex
	emit := func(ev Event) { // one event at a time: the log's order is the stream's
		emitMu.Lock()
		defer emitMu.Unlock()
		if ev.Time.IsZero() {
			ev.Time = time.Now().UTC()
		}
		if ev.Type != EvOutput {
			keep(p.Log(ev))
		}
		if in.Emit != nil {
			in.Emit(ev)
		}
	}
	reaped, anyReaped := reapOrphans(in.Dir, in.Member, "")

	k, cont, kept := p.Rounds()+1, false, []string(nil)
	spentTok, spentUSD := in.SpentTokens, in.SpentUSD
	if st := p.Status(); in.Resume && CutShort(st) {
		killed := st == SeatedRunning
		if !killed {
			k--
		}
		if k >= 1 {
			var tok int
			var usd float64
			if cont, kept, tok, usd, err = p.Keep(k, killed); err != nil {
				return SeatedResult{}, err
			}
			if killed {
				spentTok, spentUSD = spentTok+tok, spentUSD+usd
			}
		}
		if !cont {
			k = p.Rounds() + 1 // a new round after the record's last
		}
	}
	if err := p.Begin(k, !cont); err != nil {
		return SeatedResult{Round: k}, err
	}
	switch {
	case k == 1 && !cont && !in.Resume:
		emit(Event{Type: EvSetup, Path: in.Dir, Round: k})
	default:
		emit(Event{Type: EvResumed, Path: in.Dir, Round: k, Reason: resumedWhy(cont, kept)})
	}
	if anyReaped {
		emit(reaped)
	}
	if in.Plan != nil {
		emit(*in.Plan)
	}
	capNow := in.Dispatch.Budget
	if in.Resume && capNow.Set() && capNow != in.CapBefore {
		choice := string(BudgetRaise)
		if in.CapBefore.Set() && !raises(in.CapBefore, capNow) {
			choice = budgetSet
		}
		_, why := overrideCap(in.CapBefore, capNow)
		emit(Event{Type: EvDecision, Point: bugfolder.PointBudget, Choice: choice, By: "human", Round: k, Reason: why, MaxUSD: capNow.MaxUSD, MaxTokens: capNow.MaxTokens})
	}
	emit(Event{Type: EvRoundStarted, Round: k})
	if in.RunLimit > 0 { // the run's limit, as a debate's: its round stops resumable
		var stopAt context.CancelFunc
		ctx, stopAt = context.WithTimeoutCause(ctx, in.RunLimit, errDebateLimit)
		defer stopAt()
	}
	calls := in.Calls
	if calls == nil {
		o := in.Dispatch
		o.SpentTokens, o.SpentUSD, o.Group = spentTok, spentUSD, in.Dir
		calls = NewDispatcher(o)
	}
	stop, saved := p.Seat(ctx, k, calls, emit)
	keep(saved)
	status, reason := p.Gate(k)
	timedOut := errors.Is(context.Cause(ctx), errDebateLimit)
	if timedOut {
		reason = "the run's time limit (--debate-timeout) was reached: " + reason
	}
	switch {
	case ctx.Err() != nil || errors.Is(stop, ErrBudgetCancel) || errors.Is(stop, context.Canceled):
		status = SeatedCancelled // a round cut short proves nothing either way: resume it
	case errors.Is(stop, ErrBudgetStop):
		status = SeatedBudgetCut
	}
	if joined(&mu, errs) != nil {
		status = SeatedError // a seat that was not saved is no proof: never a pass
	}
	tot, err := p.End(k, status, joined(&mu, errs))
	if err != nil && status != SeatedError {
		keep(err)
		status = SeatedError
		tot, err = p.End(k, status, joined(&mu, errs))
	}
	keep(err)
	emit(Event{Type: EvDebateFinished, Round: k, Outcome: SeatedOutcome(status), Path: in.Dir, Reason: status + ": " + reason,
		Calls: tot.Calls, Tokens: tot.Tokens, USD: tot.USD, CostUnknown: tot.CostUnknown})
	out := joined(&mu, errs)
	if ctx.Err() != nil {
		out = errors.Join(out, ctx.Err())
	} else if stop != nil {
		out = errors.Join(out, stop)
	}
	return SeatedResult{Round: k, Status: status, Reason: reason, TimedOut: timedOut, Totals: tot}, out
}

// resumedWhy says what a resumed round does.
func resumedWhy(cont bool, kept []string) string {
	if cont {
		if len(kept) == 0 {
			return "continues the round cut short: no seat had sat, every one is called"
		}
		return fmt.Sprintf("continues the round cut short: %d seat(s) that sat keep their answers (%s), the others are called", len(kept), strings.Join(kept, ", "))
	}
	return "a new round on the current inputs: every seat is called again"
}

// joined joins the errors kept so far.
func joined(mu *sync.Mutex, errs []error) error {
	mu.Lock()
	defer mu.Unlock()
	return errors.Join(errs...)
}
