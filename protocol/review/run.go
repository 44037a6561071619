package review

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
)

// Name is the protocol's name (list --json's protocol).
const Name = "review"

// DefaultLenses are the eight lenses a review seats when --lens is not
// given (docs/protocols/review.md), library names.
var DefaultLenses = []string{"defect", "security", "regression", "spec", "tests", "simplicity", "performance", "operator-safety"}

// The statuses a review's record may have.
const (
	StatusRunning = "running"
	StatusPassed  = "pass"
	StatusRefused = "refuse"
	StatusHeld    = "hold"
	StatusStalled = "stalled"
	// StatusError is a round whose files could not all be saved: never
	// a pass, whatever the jurors said (the record's Error says what).
	StatusError = "error"
	// StatusCancelled is a round cut short (Ctrl-C, SIGTERM): its holds
	// are no verdict on the change.
	StatusCancelled = "cancelled"
	// StatusBudget is a round stopped at the budget cap: the lenses not
	// seated are no verdict on the change; a resume with a raised cap
	// calls them (never the lenses that sat).
	StatusBudget = "budget_cut"
)

// State is a review's record (review.json): what it reviews, who built
// it, its lenses and its rounds. --resume reads it back.
type State struct {
	ID       string `json:"id"`
	Protocol string `json:"protocol"`
	BugID    string `json:"bug_id,omitempty"`
	Repo     string `json:"repo"`
	Change   string `json:"change,omitempty"`
	// Base is the range's first end resolved at round 1 (a commit id), so
	// a resumed round reviews Base..HEAD however HEAD moved; Worktree says
	// round 1's range ended at the commit checked out (its files read
	// from disk, as a resumed round's are then).
	Base     string `json:"base,omitempty"`
	Worktree bool   `json:"worktree,omitempty"`
	// Touched are the files every round so far reviewed (not their test
	// files): a resumed round's envelope holds at least these.
	Touched []string `json:"touched,omitempty"`
	// Config is the engines file round 1 used ("" for the default), reused
	// by --resume unless --config is given.
	Config        string            `json:"config,omitempty"`
	Files         []string          `json:"files,omitempty"`
	Contract      envelope.Contract `json:"contract"`
	Builder       string            `json:"builder,omitempty"`
	BuilderFamily string            `json:"builder_family,omitempty"`
	Solo          bool              `json:"solo,omitempty"`
	Restricted    bool              `json:"restricted,omitempty"`
	Lenses        []bugfolder.Lens  `json:"lenses"`
	TestCmd       string            `json:"test_cmd,omitempty"`
	Red           string            `json:"red,omitempty"`
	Lang          string            `json:"lang"`
	Rounds        []RoundRecord     `json:"rounds"`
	// Status is running, pass, refuse, hold or stalled.
	Status string `json:"status"`
	// Error names what could not be saved (status error).
	Error string `json:"error,omitempty"`
	// Decision is pending on a stalled review until a human decides.
	Decision string `json:"decision,omitempty"`
	// Calls, Tokens and CostUSD add up every round's calls; CostUnknown
	// marks a call that recorded no cost (CostUSD then counts the rest).
	Calls       int     `json:"calls"`
	Tokens      int     `json:"tokens"`
	CostUSD     float64 `json:"cost_usd"`
	CostUnknown bool    `json:"cost_unknown,omitempty"`
	// Budget is the cap the review runs under (nil: none); a resume may
	// raise it.
	Budget    *Cap      `json:"budget,omitempty"`
	StartedAt time.Time `json:"started_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Cap is a review's budget cap: dollars and tokens (0: no limit).
type Cap struct {
	MaxUSD    float64 `json:"max_usd,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
}

// Spend is what the seats' calls recorded: tokens and dollars.
func Spend(seats map[string]Seat) (tokens int, usd float64) {
	var r RoundRecord
	for _, s := range seats {
		r.count([]Seat{s})
	}
	return r.Tokens, r.CostUSD
}

// RoundRecord is one round in the record.
type RoundRecord struct {
	Round int  `json:"round"`
	Gate  Gate `json:"gate"`
	// New are the identities of the findings no earlier round raised.
	New []string `json:"new_findings"`
	// Findings are the identities of every finding of the round.
	Findings    []string  `json:"findings"`
	EnvelopeSHA string    `json:"envelope_sha256"`
	At          time.Time `json:"at"`
	// Status is the round's end (the review's status after it).
	Status string `json:"status,omitempty"`
	// Calls, Tokens and CostUSD add up the round's calls (CostUnknown: a
	// call recorded no cost); the record's totals are their sums.
	Calls       int     `json:"calls"`
	Tokens      int     `json:"tokens"`
	CostUSD     float64 `json:"cost_usd"`
	CostUnknown bool    `json:"cost_unknown,omitempty"`
}

// LangOf is the record's language.
func (s *State) LangOf() bugfolder.Lang {
	if s.Lang == "pt" {
		return bugfolder.PT
	}
	return bugfolder.EN
}

// ReadState reads a review's record, refusing one whose seal does not
// verify (a record moot did not write for this user: VerifyFile).
func ReadState(dir string) (*State, error) {
	p := filepath.Join(dir, StateFile)
	b, err := readSealed(dir, StateFile, 4<<20)
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, &bugfolder.InputError{Path: p, Msg: "is not a review record: " + err.Error(), Err: err}
	}
	return &s, nil
}

// RunInput is one round of a review: its folder and record, the envelope
// built from the current files, the routes, and how to call.
type RunInput struct {
	Folder   *Folder
	State    *State
	Envelope *envelope.Envelope
	Round    RoundInput
	// Emit receives every event after it is logged (--json, the live
	// sidecar), one at a time; may be nil.
	Emit func(engine.Event)
	// Plan, when set, is logged first: the round's calls, tokens and cost.
	Plan *engine.Event
	// Continue is set when the round continues the record's last round,
	// cut short (cancelled, stopped at the budget cap, or its writer
	// killed) on the same envelope: its seats in Round.Kept are not
	// called again.
	Continue bool
}

// RunResult is what a round ended with.
type RunResult struct {
	Round   int
	Seats   []Seat
	Gate    Gate
	New     []string
	Stalled bool
}

// Run holds one round: it writes the envelope and the planned route
// table, seats every juror, writes each verdict file as its lens ends,
// then the route table, the summary and the record — every verdict and
// the summary before any error is returned.
func Run(ctx context.Context, in RunInput) (RunResult, error) {
	f, st := in.Folder, in.State
	k := len(st.Rounds) + 1
	if in.Continue && len(st.Rounds) > 0 && st.Rounds[len(st.Rounds)-1].Round == k-1 && Resumable(st.Status) && st.Status != StatusRunning {
		k-- // the cut round's record is replaced by its continuation
		st.Rounds = st.Rounds[:len(st.Rounds)-1]
	}
	res := RunResult{Round: k}
	if !in.Continue {
		if err := f.FreshRound(k); err != nil {
			return res, err
		}
	}
	var errs []error
	var mu sync.Mutex
	keep := func(err error) { // called from every lens's goroutine
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	var emitMu sync.Mutex
	emit := func(ev engine.Event) { // one event at a time: the log's order is the stream's
		emitMu.Lock()
		defer emitMu.Unlock()
		if ev.Time.IsZero() {
			ev.Time = time.Now().UTC()
		}
		if ev.Type != engine.EvOutput { // output deltas go to the front ends only
			keep(f.Append(ev))
		}
		if in.Emit != nil {
			in.Emit(ev)
		}
	}
	rendered := in.Envelope.Render()
	keep(f.Write(filepath.Join(RoundDir(k), EnvelopeFile), []byte(rendered)))
	st.Status, st.UpdatedAt = StatusRunning, time.Now().UTC()
	keep(f.WriteJSON(StateFile, st))
	if k == 1 && !in.Continue {
		emit(engine.Event{Type: engine.EvSetup, Path: f.Dir, Round: k})
	} else {
		emit(engine.Event{Type: engine.EvResumed, Path: f.Dir, Round: k, Reason: resumedWhy(in.Continue, len(in.Round.Kept))})
	}
	if in.Plan != nil {
		emit(*in.Plan)
	}
	keep(f.Write(filepath.Join(RoundDir(k), RoutesFile), []byte(RenderPlanned(st, k, in.Round.Routes))))
	emit(engine.Event{Type: engine.EvRoundStarted, Round: k})
	ri := in.Round
	ri.Round, ri.Emit = k, emit
	ri.Done = func(s Seat) { keep(f.WriteSeat(s)) }
	seats, stop := RunRound(ctx, ri)
	res.Seats = seats
	if ms := MootSeat(k, in.Envelope.Tests); ms != nil {
		keep(f.WriteSeat(*ms))
		emit(engine.Event{Type: engine.EvVerdict, Round: k, SolverID: MootLens, Role: Role, Engine: MootLens, Choice: string(ms.Outcome), Reason: ms.Reason})
		res.Seats = append(res.Seats, *ms)
	}
	res.Gate = Weaken(Decide(res.Seats), st, res.Seats)
	files := envelopePaths(in.Envelope)
	seen := map[string]bool{}
	var news []int
	for _, r := range st.Rounds {
		for _, id := range r.Findings {
			seen[id] = true
		}
		news = append(news, len(r.New))
	}
	res.New = NewFindings(res.Seats, files, seen)
	news = append(news, len(res.New))
	sum := sha256.Sum256([]byte(rendered))
	rec := RoundRecord{Round: k, Gate: res.Gate, New: nonNil(res.New), Findings: nonNil(NewFindings(res.Seats, files, nil)), EnvelopeSHA: hex.EncodeToString(sum[:]), At: time.Now().UTC()}
	rec.count(res.Seats)
	// a pending decision was on an earlier round; a human's revise stays on
	// the record beside the rounds it sent the change back to
	prior := st.Decision
	if prior == "pending" {
		prior = ""
	}
	st.Status, st.Decision = string(res.Gate.Outcome), prior
	if res.Gate.Outcome != OutcomePass && Stalled(news) {
		res.Stalled = true
		st.Status, st.Decision = StatusStalled, "pending"
	} else if res.Gate.Outcome == OutcomeHold {
		st.Decision = "pending" // a hold waits for a human (moot decide), or a resumed round
	}
	switch {
	case ctx.Err() != nil || errors.Is(stop, engine.ErrBudgetCancel) || errors.Is(stop, context.Canceled):
		// a round cut short proves nothing either way: resume it
		st.Status, st.Decision, res.Stalled = StatusCancelled, prior, false
	case errors.Is(stop, engine.ErrBudgetStop):
		st.Status, st.Decision, res.Stalled = StatusBudget, prior, false
	}
	st.UpdatedAt = time.Now().UTC()
	keep(f.Write(filepath.Join(RoundDir(k), RoutesFile), []byte(RenderRoutes(st, k, res.Seats))))
	st.Error = ""
	markError := func() bool {
		saved := savedErr(&mu, errs)
		if saved == nil {
			return false
		}
		// a verdict or a table that was not saved is no proof: never a pass
		st.Status, st.Decision, st.Error, res.Stalled = StatusError, prior, saved.Error(), false
		return true
	}
	markError()
	sumErr := f.Write(SummaryFile(st.LangOf()), []byte(RenderSummary(f.ID, st, res)))
	keep(sumErr)
	if sumErr != nil && markError() {
		keep(f.Write(SummaryFile(st.LangOf()), []byte(RenderSummary(f.ID, st, res))))
	}
	rec.Status = st.Status
	st.Rounds = append(st.Rounds, rec)
	st.total()
	keep(f.WriteJSON(StateFile, st))
	outcome := bugfolder.OutcomeWaiting
	switch {
	case res.Gate.Outcome == OutcomePass && st.Status == StatusPassed:
		outcome = bugfolder.OutcomeDone
	case st.Status == StatusCancelled:
		outcome = bugfolder.OutcomeCancelled
	}
	emit(engine.Event{Type: engine.EvDebateFinished, Round: k, Outcome: outcome, Path: f.Dir, Reason: st.Status + ": " + res.Gate.Reason,
		Calls: st.Calls, Tokens: st.Tokens, USD: st.CostUSD, CostUnknown: st.CostUnknown})
	if ctx.Err() != nil {
		errs = append(errs, fmt.Errorf("review %s: %w", f.ID, ctx.Err()))
	}
	if stop != nil && ctx.Err() == nil {
		errs = append(errs, fmt.Errorf("review %s: %w", f.ID, stop))
	}
	return res, errors.Join(errs...)
}

// resumedWhy says what a resumed round does.
func resumedWhy(cont bool, kept int) string {
	if cont {
		return fmt.Sprintf("continues the round cut short: %d lens(es) that sat are kept, the others are called", kept)
	}
	return "a new round on the current files: every juror is re-convened"
}

// Resumable reports whether a review's status is a round cut short that
// a resume continues on the same envelope (the lenses that sat are kept).
func Resumable(status string) bool {
	switch status {
	case StatusCancelled, StatusBudget, StatusRunning, StatusInterrupted, StatusError:
		return true
	}
	return false
}

// savedErr joins the write errors so far.
func savedErr(mu *sync.Mutex, errs []error) error {
	mu.Lock()
	defer mu.Unlock()
	return errors.Join(errs...)
}

// envelopePaths lists the envelope's file paths.
func envelopePaths(e *envelope.Envelope) []string {
	out := make([]string, 0, len(e.Files))
	for _, f := range e.Files {
		out = append(out, f.Path)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// count adds a round's calls, tokens and cost to its record.
func (r *RoundRecord) count(seats []Seat) {
	for _, seat := range seats {
		for _, a := range seat.Attempts {
			switch a.Status {
			case StatusSat, StatusVerifier, StatusWrongLens, StatusHold:
			default:
				continue // never called
			}
			r.Calls++
			r.Tokens += a.TokensIn + a.TokensOut
			if a.CostUSD != nil {
				r.CostUSD += *a.CostUSD
			} else {
				r.CostUnknown = true
			}
		}
	}
}

// total sums the rounds' calls, tokens and cost into the record's.
func (s *State) total() {
	s.Calls, s.Tokens, s.CostUSD, s.CostUnknown = 0, 0, 0, false
	for _, r := range s.Rounds {
		s.Calls += r.Calls
		s.Tokens += r.Tokens
		s.CostUSD += r.CostUSD
		s.CostUnknown = s.CostUnknown || r.CostUnknown
	}
}
