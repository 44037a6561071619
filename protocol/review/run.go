package review

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
// They are the runner's statuses of a seated run (engine.SeatedRunning…):
// one vocabulary, settled by the runner (engine.RunSeated).
const (
	StatusRunning = engine.SeatedRunning
	StatusPassed  = engine.SeatedPass
	StatusRefused = engine.SeatedRefuse
	StatusHeld    = engine.SeatedHold
	StatusStalled = engine.SeatedStalled
	// StatusError is a round whose files could not all be saved: never
	// a pass, whatever the jurors said (the record's Error says what).
	StatusError = engine.SeatedError
	// StatusCancelled is a round cut short (Ctrl-C, SIGTERM): its holds
	// are no verdict on the change.
	StatusCancelled = engine.SeatedCancelled
	// StatusBudget is a round stopped at the budget cap: the lenses not
	// seated are no verdict on the change; a resume with a raised cap
	// calls them (never the lenses that sat).
	StatusBudget = engine.SeatedBudgetCut
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
	// BuilderEngine is the engine the builder names (by its name or its
	// model), "" when it names a family or a model; BuilderFamilyUnknown
	// marks such an engine whose family moot cannot tell (excluded by
	// name). Reports say "Builder: ENGINE (engine, family …)".
	BuilderEngine        string `json:"builder_engine,omitempty"`
	BuilderFamilyUnknown bool   `json:"builder_family_unknown,omitempty"`
	// Fix marks the review of a bug's applied fix (fix/CHG-*.diff): a
	// resume reads the fix again and re-runs moot's own checks of it,
	// whatever lenses the review was given.
	Fix bool `json:"fix,omitempty"`
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

// RunInput is one session of a review: its folder and record, the
// envelope built from the current files, the routes, and how to call.
type RunInput struct {
	Folder   *Folder
	State    *State
	Envelope *envelope.Envelope
	// Round holds the routes, the prompt and the bug; its Calls, when set,
	// replace the runner's call path (tests).
	Round RoundInput
	// Emit receives every event after it is logged (--json, the live
	// sidecar), one at a time; may be nil.
	Emit func(engine.Event)
	// Plan, when set, is logged first: the round's calls, tokens and cost.
	Plan *engine.Event
	// Resume is set when this session resumes the record: the runner
	// continues a round cut short in place (its sealed seats kept), else
	// starts a new round.
	Resume bool
	// Dispatch is the runner's call path (its cap the one this session
	// runs under); CapBefore the cap the record held before it.
	Dispatch  engine.DispatchOptions
	CapBefore engine.Budget
	// RunLimit is --debate-timeout (0: none), the runner's to keep.
	RunLimit time.Duration
	// Warnings are what this session found before the round (a builder
	// its change's trailers contradict), logged as warning events.
	Warnings []string
}

// RunResult is what a round ended with.
type RunResult struct {
	Round   int
	Seats   []Seat
	Gate    Gate
	New     []string
	Stalled bool
	// Kept are the lenses a resumed round kept (never called again).
	Kept []string
	// TimedOut is set when the run's time limit stopped the round.
	TimedOut bool
}

// Run holds one round of a review on the runner (engine.RunSeated: the
// lock, the orphans, the resume, the events and the statuses are the
// runner's); the review supplies the round's files, its seats and its
// gate through tribunal (engine.Seated). Every verdict and the summary
// are written before any error is returned.
func Run(ctx context.Context, in RunInput) (RunResult, error) {
	t := &tribunal{in: in}
	out, err := engine.RunSeated(ctx, session(t))
	t.res.Round, t.res.TimedOut = out.Round, out.TimedOut
	if err != nil && out.Status != "" { // a round ran: name the review; else the refusal as it is
		err = fmt.Errorf("review %s: %w", in.Folder.ID, err)
	}
	return t.res, err
}

// session is the runner's session of t's review: a new review's first
// round (Run), or a resume (Kind.Reopen).
func session(t *tribunal) engine.SeatedRun {
	in := t.in
	sr := engine.SeatedRun{Dir: in.Folder.Dir, Protocol: t, Command: "moot review", Member: "juror", Resume: in.Resume,
		Dispatch: in.Dispatch, CapBefore: in.CapBefore, RunLimit: in.RunLimit, SpentTokens: in.State.Tokens, SpentUSD: in.State.CostUSD, Plan: in.Plan, Emit: in.Emit}
	if in.Round.Calls != nil {
		sr.Calls = in.Round.Calls
	}
	return sr
}

// tribunal is a review's side of the runner's seated round
// (engine.Seated): the envelope and route files, the ladders' seats, the
// gate and the record.
type tribunal struct {
	in       RunInput
	res      RunResult
	kept     map[string]Seat
	rendered string
	changed  string // why a killed round's seats were not kept
	rec      RoundRecord
	ended    bool
}

var _ engine.Seated = (*tribunal)(nil)

// Status is the record's status.
func (t *tribunal) Status() string { return t.in.State.Status }

// Rounds is how many rounds the record holds.
func (t *tribunal) Rounds() int { return len(t.in.State.Rounds) }

// Log appends an event to the review's event log.
func (t *tribunal) Log(ev engine.Event) error { return t.in.Folder.Append(ev) }

// Keep reads round k's sealed envelope and verdicts: the round continues
// when its envelope is the current one (a killed round's folder is
// moot's: it is written again in place, keeping what it can).
func (t *tribunal) Keep(k int, killed bool) (bool, []string, int, float64, error) {
	dir := t.in.Folder.Dir
	if killed {
		if _, err := os.Lstat(filepath.Join(dir, RoundDir(k))); err != nil {
			return false, nil, 0, 0, nil // killed before its round folder: a new round
		}
	}
	prev, err := ReadSealedEnvelope(dir, k)
	if errors.Is(err, fs.ErrNotExist) {
		return killed, nil, 0, 0, nil
	}
	if err != nil {
		return false, nil, 0, 0, err
	}
	if prev != t.in.Envelope.Render() {
		t.changed = fmt.Sprintf("the files changed since round %d was cut short: every juror is called on the current files, in a new round", k)
		if !killed {
			return false, nil, 0, 0, nil
		}
		return t.keepKilled(k, prev)
	}
	t.kept = map[string]Seat{}
	for _, l := range t.in.State.Lenses {
		s, err := ReadSealedSeat(dir, k, l.Name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, nil, 0, 0, err
		}
		if !s.Cut && s.Round == k && s.Lens == l.Name {
			t.kept[l.Name] = *s
		}
	}
	t.res.Kept = slices.Sorted(maps.Keys(t.kept))
	tok, usd := Spend(t.kept)
	return true, t.res.Kept, tok, usd, nil
}

// keepKilled closes round k, whose moot was killed and whose files then
// changed, as it was cut: the record gains its entry (status interrupted,
// its sealed verdicts' findings and spend), its folder stays as it is,
// and the resume runs a new round after it (docs/protocols/review.md).
func (t *tribunal) keepKilled(k int, prev string) (bool, []string, int, float64, error) {
	st := t.in.State
	sat := map[string]Seat{}
	var seats []Seat
	for _, l := range st.Lenses {
		s, err := ReadSealedSeat(t.in.Folder.Dir, k, l.Name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, nil, 0, 0, err
		}
		if !s.Cut && s.Round == k && s.Lens == l.Name {
			sat[l.Name], seats = *s, append(seats, *s)
		}
	}
	seen := map[string]bool{}
	for _, r := range st.Rounds {
		for _, id := range r.Findings {
			seen[id] = true
		}
	}
	files := envelopePaths(t.in.Envelope)
	sum := sha256.Sum256([]byte(prev))
	rec := RoundRecord{Round: k, Gate: Gate{Outcome: OutcomeHold, Reason: "cut short: its moot was killed, and the files changed before the resume"},
		New: nonNil(NewFindings(seats, files, seen)), Findings: nonNil(NewFindings(seats, files, nil)), EnvelopeSHA: hex.EncodeToString(sum[:]),
		Status: StatusInterrupted, At: time.Now().UTC()}
	rec.count(seats)
	st.Rounds = append(st.Rounds, rec)
	st.total()
	tok, usd := Spend(sat)
	return false, nil, tok, usd, nil
}

// Begin writes round k's envelope and planned route table and marks the
// record running; a cut round continued in place drops its old entry.
func (t *tribunal) Begin(k int, fresh bool) error {
	f, st := t.in.Folder, t.in.State
	if fresh {
		if err := f.FreshRound(k); err != nil {
			return err
		}
		t.kept = nil
	}
	if n := len(st.Rounds); !fresh && n > 0 && st.Rounds[n-1].Round == k {
		st.Rounds = st.Rounds[:n-1] // the cut round's entry is replaced by its continuation
	}
	t.rendered, t.res.Round = t.in.Envelope.Render(), k
	st.Status, st.UpdatedAt = StatusRunning, time.Now().UTC()
	return errors.Join(f.Write(filepath.Join(RoundDir(k), EnvelopeFile), []byte(t.rendered)),
		f.WriteJSON(StateFile, st),
		f.Write(filepath.Join(RoundDir(k), RoutesFile), []byte(RenderPlanned(st, k, t.in.Round.Routes))))
}

// Seat seats every lens's juror from its ladder (a kept lens is not
// called), writing each verdict file as its lens ends, then moot's own
// test checks.
func (t *tribunal) Seat(ctx context.Context, k int, calls engine.Caller, emit func(engine.Event)) (error, error) {
	f := t.in.Folder
	if t.changed != "" {
		emit(engine.Event{Type: engine.EvWarning, Text: t.changed})
	}
	for _, w := range t.in.Warnings {
		emit(engine.Event{Type: engine.EvWarning, Text: w})
	}
	var mu sync.Mutex
	var errs []error
	ri := t.in.Round
	ri.Round, ri.Emit, ri.Calls, ri.Kept = k, emit, calls, t.kept
	ri.Done = func(s Seat) { // called from every lens's goroutine
		if err := f.WriteSeat(s); err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	seats, stop := RunRound(ctx, ri)
	t.res.Seats = seats
	if ms := MootSeat(k, t.in.Envelope.Tests); ms != nil {
		errs = append(errs, f.WriteSeat(*ms))
		emit(engine.Event{Type: engine.EvVerdict, Round: k, SolverID: MootLens, Role: Role, Engine: MootLens, Choice: string(ms.Outcome), Reason: ms.Reason})
		t.res.Seats = append(t.res.Seats, *ms)
	}
	return stop, errors.Join(errs...)
}

// Gate is the review's computed final step: the unanimous gate over the
// round's seats (weakened by an unknown builder), stalled when new
// findings were stable or growing two rounds in a row.
func (t *tribunal) Gate(k int) (string, string) {
	st := t.in.State
	t.res.Gate = Weaken(Decide(t.res.Seats), st, t.res.Seats)
	files := envelopePaths(t.in.Envelope)
	seen := map[string]bool{}
	var news []int
	for _, r := range st.Rounds {
		for _, id := range r.Findings {
			seen[id] = true
		}
		news = append(news, len(r.New))
	}
	t.res.New = NewFindings(t.res.Seats, files, seen)
	news = append(news, len(t.res.New))
	sum := sha256.Sum256([]byte(t.rendered))
	t.rec = RoundRecord{Round: k, Gate: t.res.Gate, New: nonNil(t.res.New), Findings: nonNil(NewFindings(t.res.Seats, files, nil)), EnvelopeSHA: hex.EncodeToString(sum[:])}
	t.rec.count(t.res.Seats)
	if t.res.Gate.Outcome != OutcomePass && Stalled(news) {
		return StatusStalled, t.res.Gate.Reason
	}
	return string(t.res.Gate.Outcome), t.res.Gate.Reason
}

// End records round k as the runner settled it: the route table, the
// decision a status waits for, the summary and the record.
func (t *tribunal) End(k int, status string, unsaved error) (engine.SeatedTotals, error) {
	f, st := t.in.Folder, t.in.State
	// a pending decision was on an earlier round; a human's revise stays on
	// the record beside the rounds it sent the change back to
	prior := st.Decision
	if prior == "pending" {
		prior = ""
	}
	st.Status, st.Decision, st.Error, t.res.Stalled = status, prior, "", false
	switch status {
	case StatusStalled:
		st.Decision, t.res.Stalled = "pending", true
	case StatusHeld:
		st.Decision = "pending" // a hold waits for a human (moot decide), or a resumed round
	case StatusError:
		if unsaved != nil {
			st.Error = unsaved.Error()
		}
	}
	st.UpdatedAt = time.Now().UTC()
	err := f.Write(filepath.Join(RoundDir(k), RoutesFile), []byte(RenderRoutes(st, k, t.res.Seats)))
	err = errors.Join(err, f.Write(SummaryFile(st.LangOf()), []byte(RenderSummary(f.ID, st, t.res))))
	rec := t.rec
	rec.Status, rec.At = st.Status, time.Now().UTC()
	if t.ended {
		st.Rounds = st.Rounds[:len(st.Rounds)-1] // written again as error
	}
	st.Rounds, t.ended = append(st.Rounds, rec), true
	st.total()
	err = errors.Join(err, f.WriteJSON(StateFile, st))
	// the calls as list, show and the browser count them (Calls): a call
	// a killed moot left in flight is in the log, never in the record
	evs, _ := ReadEvents(f.Dir)
	return engine.SeatedTotals{Calls: Calls(st, evs), Tokens: st.Tokens, USD: st.CostUSD, CostUnknown: st.CostUnknown}, err
}

// Resumable reports whether a review's status is a round cut short that
// a resume continues on the same envelope (the lenses that sat are kept):
// the runner's rule (engine.CutShort).
func Resumable(status string) bool { return engine.CutShort(status) }

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
