package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Role is the role a juror's call carries ({role}, MOOT_ROLE).
const Role bugfolder.Role = "juror"

// MaxRawBytes bounds the raw answer a verdict file keeps.
const MaxRawBytes = 256 << 10

// Attempt is one rung of a lens's ladder in one round and what became of it.
type Attempt struct {
	Rung
	Status Status `json:"status"`
	// Reason says why (a skip's reason, a failure, the two lenses of a
	// wrong-lens answer).
	Reason string `json:"reason,omitempty"`
	// RawTail is the bounded end of a rejected or failed rung's answer.
	RawTail string `json:"raw_tail,omitempty"`
	// Raw is the whole answer of a rung that sat or verified (bounded).
	Raw        string   `json:"raw,omitempty"`
	Verdict    *Verdict `json:"verdict,omitempty"`
	DurationMS int64    `json:"duration_ms,omitempty"`
	TokensIn   int      `json:"tokens_in,omitempty"`
	TokensOut  int      `json:"tokens_out,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
}

// Seat is a lens's result in one round: the verdict file's content.
type Seat struct {
	Lens    string  `json:"lens"`
	Round   int     `json:"round"`
	Outcome Outcome `json:"outcome"`
	// Reason says why the rules made it so (a pass with a blocker, an
	// unreadable answer, UNVERIFIED, no rung left).
	Reason string `json:"reason,omitempty"`
	// Engine and Family are the rung that sat ("" for a hold with no seat).
	Engine string `json:"engine,omitempty"`
	Family string `json:"family,omitempty"`
	// Verifier is the engine of another family that verified a local
	// seat's pass ("" when none did).
	Verifier string `json:"verifier,omitempty"`
	// Unverified marks a local pass with no verifier of another family.
	Unverified bool `json:"unverified,omitempty"`
	// Dry marks a low-information pass.
	Dry bool `json:"dry,omitempty"`
	// Cut marks a seat whose ladder was cut short (the review cancelled,
	// or stopped at the budget cap): no verdict on the change, so a
	// resumed round calls its lens again.
	Cut bool `json:"cut,omitempty"`
	// Findings are the seat's (and its verifier's) findings.
	Findings []Finding `json:"findings"`
	Checked  []string  `json:"checked,omitempty"`
	// Attempts are every rung of the ladder, in order.
	Attempts []Attempt `json:"attempts"`
}

// Detailed reports a refuse that names at least one finding.
func (s *Seat) Detailed() bool { return s.Outcome == OutcomeRefuse && len(s.Findings) > 0 }

// Caller makes one juror's call: the engine's call path
// (engine.Dispatcher), which bounds the calls at once, checks the budget
// cap before each, gives each its hard timeout and logs call_started and
// call_finished. It returns an error only for a call it did not start
// (the budget's end, or ctx's).
type Caller = engine.Caller

// RoundInput is what one round of jurors needs.
type RoundInput struct {
	Round  int
	Routes []Route
	// Prompt writes a lens's prompt.
	Prompt func(l bugfolder.Lens) string
	Calls  Caller
	BugID  string
	// Emit receives the round's events (rung, call_started,
	// call_finished, verdict); it must be safe for concurrent use.
	Emit func(engine.Event)
	// Done receives each seat as soon as its lens is over (the verdict
	// file is written then, before anything else can fail).
	Done func(Seat)
	// Kept are the seats a continued round already has (its sealed
	// verdict files, by lens): their lenses are not called again.
	Kept map[string]Seat
}

// RunRound seats every lens's juror from its ladder and returns the seats
// in the routes' order, and the budget's end when it stopped a ladder.
// A juror is called once per round (no retry of an answered call); a
// rung that never answered, or answered for another lens, hands the seat
// to the next rung. Every lens walks its ladder at once: the Caller
// bounds the calls.
func RunRound(ctx context.Context, in RoundInput) ([]Seat, error) {
	seats := make([]Seat, len(in.Routes))
	errs := make([]error, len(in.Routes))
	var wg sync.WaitGroup
	for i, r := range in.Routes {
		if s, ok := in.Kept[r.Lens.Name]; ok {
			seats[i] = s
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			seats[i], errs[i] = in.seat(ctx, r)
			if in.Done != nil {
				in.Done(seats[i])
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return seats, err
		}
	}
	return seats, nil
}

// answer is one call's result as the ladder sees it.
type answer struct {
	att     Attempt
	verdict *Verdict
	judged  Judged
	ok      bool // a verdict for the lens (sat or verified)
}

// seat walks one lens's ladder. A call the Caller did not start (the
// budget's end, or the review cancelled) ends the walk: the rungs left are
// not reached, the seat holds and is marked Cut, and the error is
// returned.
func (in RoundInput) seat(ctx context.Context, r Route) (Seat, error) {
	s := Seat{Lens: r.Lens.Name, Round: in.Round}
	prompt := in.Prompt(r.Lens)
	var stop error
	for i := 0; i < len(r.Rungs); i++ {
		g := r.Rungs[i]
		if stop == nil && ctx.Err() != nil {
			stop = ctx.Err()
		}
		if stop != nil {
			// cut short: the rungs never called were not reached, not held
			for _, n := range r.Rungs[i:] {
				s.add(in, unreached(n, cutReason(stop)))
			}
			break
		}
		if g.Skip != "" {
			s.add(in, Attempt{Rung: g, Status: g.Skip, Reason: g.Why})
			continue
		}
		a, err := in.call(ctx, r.Lens, g, prompt)
		if err != nil {
			stop = err
			i-- // this rung too is not reached
			continue
		}
		if !a.ok {
			s.add(in, a.att)
			continue
		}
		a.att.Status = StatusSat
		s.add(in, a.att)
		s.Engine, s.Family, s.Findings, s.Checked = g.Engine, g.Family, a.verdict.findings(), a.verdict.checked()
		s.Outcome, s.Reason, s.Dry = a.judged.Outcome, a.judged.Reason, a.judged.Dry
		rest := r.Rungs[i+1:]
		if s.Outcome == OutcomePass && !g.External {
			rest, stop = in.verify(ctx, r.Lens, &s, g, rest, prompt)
		}
		for _, n := range rest {
			s.add(in, unreached(n, ""))
		}
		in.emitVerdict(s)
		return s, stop
	}
	s.Outcome = OutcomeHold
	s.Reason = holdReason(s.Attempts)
	if stop != nil {
		s.Cut = true
		s.Reason = cutReason(stop) + " before any rung gave a verdict (" + s.Reason + ")"
	}
	in.emitVerdict(s)
	return s, stop
}

// cutReason says why a ladder's walk stopped before its end.
func cutReason(err error) string {
	if errors.Is(err, engine.ErrBudgetStop) || errors.Is(err, engine.ErrBudgetCancel) {
		return "the budget cap was reached"
	}
	return "the review was cancelled"
}

// unreached is a rung the walk did not come to: one ruled out before
// dispatch keeps why (builder-family, capacity, restricted…), so the route
// table never says a builder's rung was merely not needed.
func unreached(g Rung, why string) Attempt {
	if g.Skip != "" {
		return Attempt{Rung: g, Status: g.Skip, Reason: g.Why}
	}
	return Attempt{Rung: g, Status: StatusNotReached, Reason: why}
}

// verify seeks, among the rungs below a local seat that passed, an
// external engine of another family to judge the same prompt: its pass
// verifies the seat, its refuse stands as the lens's; with none that
// answers, the pass is UNVERIFIED, a hold. It returns the rungs after the
// last one it used, and the error of a call the Caller did not start.
func (in RoundInput) verify(ctx context.Context, l bugfolder.Lens, s *Seat, seat Rung, rest []Rung, prompt string) ([]Rung, error) {
	var stop error
	for i, g := range rest {
		if stop == nil && ctx.Err() != nil {
			stop = ctx.Err()
		}
		if stop != nil {
			for _, n := range rest[i:] {
				s.add(in, unreached(n, cutReason(stop)))
			}
			break
		}
		if g.Skip != "" {
			s.add(in, Attempt{Rung: g, Status: g.Skip, Reason: g.Why})
			continue
		}
		if !g.External || engine.SameFamily(seat.Family, g.Family) {
			s.add(in, Attempt{Rung: g, Status: StatusNotReached, Reason: "not a verifier: a verifier is external and of another family than the seat"})
			continue
		}
		a, err := in.call(ctx, l, g, prompt)
		if err != nil {
			stop = err
			s.add(in, unreached(g, cutReason(stop)))
			continue
		}
		if !a.ok {
			a.att.Reason = "as verifier: " + a.att.Reason
			s.add(in, a.att)
			continue
		}
		a.att.Status = StatusVerifier
		s.add(in, a.att)
		s.Verifier = g.Engine
		s.Findings = append(s.Findings, a.verdict.findings()...)
		s.Checked = append(s.Checked, a.verdict.checked()...)
		if a.judged.Outcome != OutcomePass {
			s.Outcome, s.Reason, s.Dry = a.judged.Outcome, "the verifier "+g.Engine+" refused: "+cmp.Or(a.judged.Reason, "its verdict"), false
		} else {
			s.Dry = s.Dry && a.judged.Dry
		}
		return rest[i+1:], nil
	}
	s.Outcome, s.Unverified = OutcomeHold, true
	s.Reason = "UNVERIFIED: a pass from a local engine (" + seat.Engine + ") with no verifier of another family is a hold, never unanimity"
	if stop != nil {
		s.Cut = true
	}
	return nil, stop
}

// holdReason says why no rung sat.
func holdReason(atts []Attempt) string {
	if len(atts) == 0 {
		return "no rung on the ladder"
	}
	var parts []string
	for _, a := range atts {
		parts = append(parts, a.Engine+": "+string(a.Status))
	}
	all := func(st Status) bool {
		return !slices.ContainsFunc(atts, func(a Attempt) bool { return a.Status != st })
	}
	switch {
	case all(StatusBuilder):
		return "no rung left: every rung is of the builder's family (" + strings.Join(parts, ", ") + ")"
	case all(StatusWrongLens):
		return "every rung answered the wrong lens (" + strings.Join(parts, ", ") + ")"
	}
	return "no rung gave a verdict (" + strings.Join(parts, ", ") + ")"
}

// add records an attempt and emits its rung event.
func (s *Seat) add(in RoundInput, a Attempt) {
	s.Attempts = append(s.Attempts, a)
	in.emit(engine.Event{Type: engine.EvRung, Round: in.Round, SolverID: s.Lens, Role: Role, Engine: a.Engine, Choice: string(a.Status), Reason: a.Reason})
}

func (in RoundInput) emit(ev engine.Event) {
	if in.Emit != nil {
		ev.Time = time.Now().UTC()
		in.Emit(ev)
	}
}

func (in RoundInput) emitVerdict(s Seat) {
	in.emit(engine.Event{Type: engine.EvVerdict, Round: in.Round, SolverID: s.Lens, Role: Role, Engine: s.Engine, Choice: string(s.Outcome), Reason: s.Reason})
}

// call runs one rung once through the Caller and reads its answer; the
// error is the Caller's for a call it did not start.
func (in RoundInput) call(ctx context.Context, l bugfolder.Lens, g Rung, prompt string) (answer, error) {
	a := answer{att: Attempt{Rung: g}}
	start := time.Now()
	check := func(body string) (bugfolder.Status, string) {
		if _, kind, why := Parse(body, l.Name); kind == ParsedWrongLens {
			return bugfolder.StatusInvalidOutput, why
		}
		return bugfolder.StatusOK, ""
	}
	res, err := in.Calls.Call(ctx, engine.CallSpec{Round: in.Round, ID: l.Name, Role: Role, Engine: g.Engine, Lens: l.Name, BugID: in.BugID,
		Mode: "review", Prompt: prompt, ReasoningOff: true, ExpectedOut: AnswerTokens, Emit: in.Emit}, check)
	if err != nil {
		return a, err
	}
	a.att.DurationMS = time.Since(start).Milliseconds()
	a.att.TokensIn, a.att.TokensOut, a.att.CostUSD = res.TokensIn, res.TokensOut, res.CostUSD
	if !res.Answered() {
		a.att.Status = StatusHold
		a.att.Reason = fmt.Sprintf("never answered (%s): %s", res.Failure, res.Err)
		a.att.RawTail = rawTail(res.Body)
		return a, nil
	}
	v, kind, why := Parse(res.Body, l.Name)
	if kind == ParsedWrongLens {
		a.att.Status, a.att.Reason, a.att.RawTail = StatusWrongLens, why, rawTail(res.Body)
		return a, nil
	}
	a.ok, a.verdict, a.judged = true, v, Judge(v, kind, why)
	a.att.Verdict, a.att.Raw, a.att.Reason = v, capRaw(res.Body), a.judged.Reason
	return a, nil
}

// capRaw bounds a raw answer kept in a verdict file.
func capRaw(s string) string {
	if len(s) <= MaxRawBytes {
		return s
	}
	return s[:MaxRawBytes] + "\n[… cut at " + fmt.Sprint(MaxRawBytes) + " bytes]"
}

func (v *Verdict) findings() []Finding {
	if v == nil {
		return nil
	}
	return v.Findings
}

func (v *Verdict) checked() []string {
	if v == nil {
		return nil
	}
	return v.Checked
}
