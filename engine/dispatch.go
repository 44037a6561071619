package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
)

// The harness's words a protocol that walks its own calls (review's
// ladders) reads, so that no protocol imports the harness: the engine
// owns the calls.
type (
	// Config is the engines file as loaded.
	Config = harness.Config
	// EngineConfig is one engine of the file.
	EngineConfig = harness.EngineConfig
	// Kind is an engine's kind (openai, command, claude…).
	Kind = harness.Kind
	// CallResult is what one call returned.
	CallResult = harness.Result
	// Failure says how a call ended.
	Failure = harness.Failure
	// Limits are an engine's context window, answer cap and price.
	Limits = harness.Limits
)

// The harness's values such a protocol reads.
const (
	// KindReplay is the replay engine's kind (a cassette, never a juror).
	KindReplay = harness.KindReplay
	// FailTimeout is a call that ran past its hard limit.
	FailTimeout = harness.FailTimeout
)

// Kinds lists the engine kinds.
var Kinds = harness.Kinds

// SameFamily reports whether two vendor families are the same one.
func SameFamily(a, b string) bool { return harness.SameFamily(a, b) }

// KnownFamilies lists the vendor families moot knows.
func KnownFamilies() []string { return harness.KnownFamilies() }

// ModelFamily is the vendor family a model name says ("" when none).
func ModelFamily(model string) string { return harness.ModelFamily(model) }

// ModelWord is the family a single word names as a model's name does
// ("" when none).
func ModelWord(word string) string { return harness.ModelWord(word) }

// LimitsOf is an engine's context window, answer cap and price.
func LimitsOf(ec *harness.EngineConfig) Limits { return harness.LimitsOf(ec) }

// DispatchOptions configure a Dispatcher: the runner's call path for a
// protocol that walks its own calls (a review's ladders) instead of the
// runner's rounds.
type DispatchOptions struct {
	Config  *harness.Config
	Harness harness.Options
	// Engines replaces the adapters of the named engines (tests).
	Engines map[string]harness.Engine
	// Asker answers a reached budget (the TUI's budget menu; Policies'
	// --on-budget headless); nil: no one to ask.
	Asker BudgetAsker
	// Budget is the cap (zero: none); SpentTokens and SpentUSD are what
	// earlier sessions of the same work already spent.
	Budget      Budget
	SpentTokens int
	SpentUSD    float64
	// Parallel bounds the calls at once (at least 1); each engine's own
	// parallel: bounds it further.
	Parallel int
	// Timeout is --timeout (0: each engine's own, else DefaultTimeout).
	Timeout time.Duration
	// RoundTimeout is --round-timeout: the Dispatcher serves one round,
	// and a call still open when it passes (counted from NewDispatcher)
	// ends as timeout, as in the runner's rounds (0: no bound).
	RoundTimeout time.Duration
	// Group tags the calls' processes (the work's folder), so a killed
	// moot's leftovers are found (harness.ReapOrphans).
	Group string
	// Protocol names the protocol the calls belong to ("review"): a
	// command engine is told it as {protocol} and MOOT_PROTOCOL.
	Protocol string
}

// Dispatcher makes calls the way the runner makes them: bounded by the
// parallel limits, checked against the budget cap before they start (the
// Supervisor asked when one would cross it), each with its hard timeout,
// logged as call_started and call_finished with its tokens and cost
// (estimated when the engine reports none, priced from the engines file
// when it reports no cost).
type Dispatcher struct {
	opts     DispatchOptions
	mu       sync.Mutex
	adapters map[string]harness.Engine
	slots    *callSlots
	bud      *budget
	// roundDeadline is when RoundTimeout passes (zero: never).
	roundDeadline time.Time
}

// ErrBudgetStop ends the calls when the budget cap was reached and the
// answer was stop (or no one could be asked): resumable with a raised cap.
var ErrBudgetStop = errors.New("the budget cap was reached")

// ErrBudgetCancel ends the calls when the budget cap was reached and the
// answer was cancel.
var ErrBudgetCancel = errors.New("cancelled at the budget cap")

// NewDispatcher readies the call path: the semaphores and the budget.
// Adapters are made on an engine's first call.
func NewDispatcher(o DispatchOptions) *Dispatcher {
	d := &Dispatcher{opts: o, adapters: map[string]harness.Engine{}, slots: newCallSlots(o.Parallel)}
	if o.Budget.Set() {
		d.bud = &budget{cap: o.Budget, tok: o.SpentTokens, usd: o.SpentUSD}
	}
	if o.RoundTimeout > 0 {
		d.roundDeadline = time.Now().Add(o.RoundTimeout)
	}
	return d
}

// Spent is what the finished calls recorded, earlier sessions included.
func (d *Dispatcher) Spent() (tokens int, usd float64) {
	if d.bud == nil {
		return 0, 0
	}
	usd, tokens = d.bud.spent()
	return tokens, usd
}

// CallSpec is one call a protocol asks the Dispatcher for.
type CallSpec struct {
	Round int
	// ID is who is called (a lens's name for a review).
	ID     string
	Role   bugfolder.Role
	Engine string
	Lens   string
	BugID  string
	Mode   string
	Prompt string
	// ReasoningOff asks for a structured answer with reasoning off where
	// the engine has a switch.
	ReasoningOff bool
	// ExpectedOut is the answer's expected size in tokens, for the
	// budget's estimate before the call.
	ExpectedOut int
	// Emit receives the call's events (call_started, output deltas,
	// call_finished, a budget decision or warning); it must be safe for
	// concurrent use. nil: none.
	Emit func(Event)
}

// Check reads an answer the engine gave: its status (ok, or
// invalid-output) and the problem that makes it invalid ("" when none).
type Check func(body string) (bugfolder.Status, string)

// Call makes one call, once (a review's ladder moves to its next rung on
// a failure: no automatic retry here). It returns the budget's end or
// ctx's error, when the call was not started, and otherwise the result
// with TokensIn/TokensOut and CostUSD as recorded. check, when set,
// gives an answered call its status in call_finished.
func (d *Dispatcher) Call(ctx context.Context, c CallSpec, check Check) (CallResult, error) {
	adapter, lim, err := d.adapter(c.Engine)
	if err != nil {
		return harness.Result{Failure: harness.FailStart, Err: err.Error()}, nil
	}
	release, err := d.slots.acquire(ctx, c.Engine)
	if err != nil {
		return harness.Result{}, err
	}
	if !d.roundDeadline.IsZero() && !time.Now().Before(d.roundDeadline) {
		release()
		// no time left in the round: nothing is started, as a call open
		// at that moment would have ended as timeout
		return harness.Result{Failure: harness.FailTimeout, Err: fmt.Sprintf("the round's limit (--round-timeout %s) had passed: not called", d.opts.RoundTimeout)}, nil
	}
	defer release()
	held := HeldTo(lim, c.ExpectedOut)
	resv, err := d.admit(ctx, c, lim, held)
	if err != nil {
		return harness.Result{}, err
	}
	d.emit(c.Emit, Event{Type: EvCallStarted, Round: c.Round, SolverID: c.ID, Role: c.Role, Engine: c.Engine, Attempt: 1})
	var stderr bytes.Buffer
	start := time.Now()
	res := adapter.Call(ctx, harness.Request{Protocol: d.opts.Protocol, Role: string(c.Role), SolverID: c.ID, Round: c.Round, BugID: c.BugID, Mode: c.Mode, Attempt: 1,
		Lens: c.Lens, Prompt: c.Prompt, CachePrefix: SharedPrefix([]string{c.Prompt}), ReasoningOff: c.ReasoningOff, Timeout: withinRound(engineTimeout(d.opts.Config, d.opts.Timeout, c.Engine, 0), d.roundDeadline), Stderr: &stderr, Group: d.opts.Group,
		OnOutput: func(delta string) {
			d.emit(c.Emit, Event{Type: EvOutput, Round: c.Round, SolverID: c.ID, Role: c.Role, Text: delta})
		}})
	dur := time.Since(start)
	var estimated bool
	var warn string
	res.TokensIn, res.TokensOut, res.CostUSD, estimated, warn = recorded(&res, len(c.Prompt), lim, d.bud != nil, held, c.ID, c.Engine)
	if warn != "" {
		d.emit(c.Emit, Event{Type: EvWarning, Round: c.Round, SolverID: c.ID, Text: warn})
	}
	resv.done(res.TokensIn+res.TokensOut, deref(res.CostUSD))
	fin := Event{Type: EvCallFinished, Round: c.Round, SolverID: c.ID, Role: c.Role, Engine: c.Engine, Attempt: 1,
		DurationMS: dur.Milliseconds(), TokensIn: res.TokensIn, TokensOut: res.TokensOut, CostUSD: deref(res.CostUSD),
		CacheRead: res.CacheRead, CacheWrite: res.CacheWrite, CostUncachedUSD: uncachedCost(res, res.TokensIn, res.TokensOut, res.CostUSD, lim),
		CostUnknown: res.CostUSD == nil, Estimated: estimated}
	switch {
	case res.Failure == harness.FailTimeout:
		fin.Status, fin.Error = bugfolder.StatusTimeout, res.Err
	case !res.Answered():
		fin.Status, fin.Error = bugfolder.StatusError, res.Err
	case check != nil:
		fin.Status, fin.Error = check(res.Body)
	default:
		fin.Status = bugfolder.StatusOK
	}
	d.emit(c.Emit, fin)
	return res, nil
}

// recorded is what a call that ran records, every protocol's rule: its
// usage, and under a budget cap (capped) an answer whose size moot counts
// itself (an engine that reported no tokens: a command or vendor CLI) held
// to the engine's max answer, as an HTTP engine's answer stops at the
// max_tokens moot sends it: the text past the max is dropped from
// res.Body (the raw output keeps it whole) and counted no more, priced as
// cut, so a verbose answer cannot take the spend past the cap its worst
// case was admitted under. held is that worst case's answer (HeldTo: the
// engine's max, else the answer the call expected, for an engine that
// states no max). warn is the warning to log ("" when not cut).
func recorded(res *harness.Result, promptBytes int, lim harness.Limits, capped bool, held int, who, engine string) (in, out int, cost *float64, estimated bool, warn string) {
	reported := res.CostUSD != nil
	in, out, cost, estimated = usage(*res, promptBytes, lim)
	limit := held
	if !capped || !estimated || reported || limit <= 0 || out <= limit {
		return in, out, cost, estimated, ""
	}
	body := res.Body[:min(len(res.Body), limit*4)]
	for len(body) > 0 && !utf8.ValidString(body) {
		body = body[:len(body)-1]
	}
	warn = fmt.Sprintf("%s's answer (≈%s tokens) ran past engine %s's max answer of %s tokens (max_output_tokens): under the budget cap it is cut there, as an HTTP engine's answer would be; the raw output keeps it whole",
		who, digits.Grouped(out), engine, digits.Grouped(limit))
	if lim.MaxOutputTokens <= 0 {
		warn = fmt.Sprintf("%s's answer (≈%s tokens) ran past the %s tokens its call was admitted on: engine %s states no max answer (max_output_tokens), so under the budget cap its answer is held to its expected size and cut there; the raw output keeps it whole",
			who, digits.Grouped(out), digits.Grouped(limit), engine)
	}
	res.Body, out = body, limit
	if lim.Price != nil {
		c := lim.Price.Cost(in, out)
		cost = &c
	}
	return in, out, cost, estimated, warn
}

// usage is what a call that ran records, for every protocol alike: the
// engine's tokens and cost; estimated tokens (and so reported) when it
// reported none; the engines file's price when it reported no cost. A
// negative count or cost is no discount on the cap: it is not taken.
func usage(res harness.Result, promptBytes int, lim harness.Limits) (in, out int, cost *float64, estimated bool) {
	in, out, cost = max(res.TokensIn, 0), max(res.TokensOut, 0), res.CostUSD
	if in == 0 && out == 0 {
		in, out, estimated = bugfolder.EstimateTokens(promptBytes), bugfolder.EstimateTokens(len(res.Body)), true
	}
	if cost != nil && *cost < 0 {
		cost = nil
	}
	if cost == nil && lim.Price != nil {
		c := lim.Price.CostCached(in, res.CacheRead, res.CacheWrite, out)
		cost = &c
	}
	return in, out, cost, estimated
}

// uncachedCost is what a call that used the provider's prompt cache would
// have cost with every input token at the input price (its cost as
// recorded when it used no cache, or its engine has no price).
func uncachedCost(res harness.Result, in, out int, cost *float64, lim harness.Limits) float64 {
	if cost == nil || res.CacheRead+res.CacheWrite == 0 || lim.Price == nil {
		return deref(cost)
	}
	p := lim.Price
	return *cost + p.Cost(in, out) - p.CostCached(in, res.CacheRead, res.CacheWrite, out)
}

// emit hands an event to a call's sink, stamped with the time.
func (d *Dispatcher) emit(sink func(Event), ev Event) {
	if sink == nil {
		return
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now().UTC()
	}
	sink(ev)
}

// adapter is an engine's adapter (made once) and limits.
func (d *Dispatcher) adapter(name string) (harness.Engine, harness.Limits, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ec, err := d.opts.Config.Engine(name)
	if err != nil {
		return nil, harness.Limits{}, err
	}
	lim := harness.LimitsOf(ec)
	if a, ok := d.adapters[name]; ok {
		return a, lim, nil
	}
	adapters, _, err := buildAdapters(Options{Config: d.opts.Config, Harness: d.opts.Harness, Engines: d.opts.Engines}, []string{name})
	if err != nil {
		return nil, lim, err
	}
	d.adapters[name] = adapters[name]
	d.slots.bound(ec, name)
	return adapters[name], lim, nil
}

// admit is the budget's check before a call: the runner's admitOrAsk,
// where a stop, a cancel or no one to ask ends every later call of the
// round the same way, unasked.
func (d *Dispatcher) admit(ctx context.Context, c CallSpec, lim harness.Limits, out int) (*reservation, error) {
	if d.bud == nil {
		return nil, nil
	}
	// the worst case, as the runner's callEstimate: out is the engine's max
	// answer when it is known, else the expected answer (HeldTo)
	in := bugfolder.EstimateTokens(len(c.Prompt))
	usd := 0.0
	if lim.Price != nil {
		usd = lim.Price.Cost(in, out)
	}
	end := func(e error, how string) func(BudgetReach) error {
		return func(reach BudgetReach) error { return fmt.Errorf("%w (%s)%s", e, reach.Text(), how) }
	}
	return d.bud.admitOrAsk(ctx, budgetCheck{tok: in + out, usd: usd, round: c.Round, who: c.ID, asker: d.opts.Asker, endsAll: true,
		emit:    func(ev Event) { d.emit(c.Emit, ev) },
		stopped: end(ErrBudgetStop, ""), cancelled: end(ErrBudgetCancel, ""), noOne: end(ErrBudgetStop, " and no human to ask")})
}
