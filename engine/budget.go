package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/money"
	"go.yaml.in/yaml/v3"
)

// Budget is a debate's spending cap (harness.Budget): USD and tokens,
// in + out as moot records them; a zero field sets no limit.
type Budget = harness.Budget

// BudgetReach is what the Supervisor is told when the next call would
// take the debate past its cap: what is spent, what the calls in flight
// are estimated at, and what the refused call would add.
type BudgetReach struct {
	Cap Budget
	// SpentUSD and SpentTokens are what the finished calls recorded.
	SpentUSD    float64
	SpentTokens int
	// FlightUSD and FlightTokens estimate the calls in flight.
	FlightUSD    float64
	FlightTokens int
	// NextUSD and NextTokens estimate the call that was not started.
	NextUSD    float64
	NextTokens int
	// KeepUSD and KeepTokens are kept for the final step's call (0 for
	// the final step's own call).
	KeepUSD    float64
	KeepTokens int
	Round      int
	// Who is the participant whose call was held back; Final is set
	// when it is the final step's (stopping then writes no answer).
	Who   string
	Final bool
	// FinalWord is the protocol's word for its final step ("judge").
	FinalWord string
	// Now reads the spend and the calls in flight again: they move while
	// the question waits, as the calls in flight finish (nil: as asked).
	Now func() (spentUSD float64, spentTokens int, flightUSD float64, flightTokens int)
}

// Current is b with the spend and the calls in flight as they are now.
func (b BudgetReach) Current() BudgetReach {
	if b.Now != nil {
		b.SpentUSD, b.SpentTokens, b.FlightUSD, b.FlightTokens = b.Now()
	}
	return b
}

// BudgetChoice is an answer to a reached budget.
type BudgetChoice string

// The budget menu's answers, in the order they are offered.
const (
	// BudgetRaise sets a new cap (BudgetDecision.Cap) and goes on.
	BudgetRaise BudgetChoice = "raise"
	// BudgetStop skips the remaining rounds and runs the final step on
	// the last complete round, if the budget pays for it (a labelled
	// degraded result); else the debate stops there.
	BudgetStop BudgetChoice = "stop"
	// BudgetCancel cancels the debate (resumable).
	BudgetCancel BudgetChoice = "cancel"
)

// BudgetDecision is the Supervisor's answer at a reached budget.
type BudgetDecision struct {
	Choice BudgetChoice
	// Cap is the new cap of a raise.
	Cap Budget
	By  string
}

// BudgetAsker is a Supervisor that answers a reached budget (the TUI's
// menu, the --on-budget policy). A Supervisor without it cannot be
// asked: the debate stops there, resumable (exit 4).
type BudgetAsker interface {
	BudgetReached(ctx context.Context, b BudgetReach) (BudgetDecision, error)
}

// BudgetReached answers from --on-budget: stop or cancel (ask, the
// default, means no answer headless: exit 4).
func (p *Policies) BudgetReached(ctx context.Context, b BudgetReach) (BudgetDecision, error) {
	switch p.OnBudget {
	case string(BudgetStop), string(BudgetCancel):
		return BudgetDecision{Choice: BudgetChoice(p.OnBudget), By: "policy"}, nil
	}
	return BudgetDecision{}, ErrNeedHuman
}

// BudgetReached asks the budget question with a heartbeat, when the
// wrapped Supervisor can be asked.
func (b beatSupervisor) BudgetReached(ctx context.Context, r BudgetReach) (BudgetDecision, error) {
	ba, ok := b.Supervisor.(BudgetAsker)
	if !ok {
		return BudgetDecision{}, ErrNeedHuman
	}
	defer b.beat(ctx, bugfolder.PointBudget, r.Round)()
	return ba.BudgetReached(ctx, r)
}

// errBudgetCut ends the rounds when the budget was reached and the
// answer was to stop: the final step runs on the last complete round.
var errBudgetCut = errors.New("the budget cap was reached: the remaining rounds are skipped")

// budget tracks a debate's spending against its cap while it runs:
// what the finished calls recorded and what the calls in flight are
// estimated at. A call is admitted only when both fit under the cap.
type budget struct {
	// ask serializes the menu: calls that reach the cap together wait
	// for one answer.
	ask sync.Mutex
	mu  sync.Mutex
	cap Budget
	usd float64
	tok int
	// flightUSD and flightTok are the estimates of the calls in flight.
	flightUSD float64
	flightTok int
	// cut is set once a stop was chosen; cutRound is the round it
	// happened in.
	cut      bool
	cutRound int
	// ended is the stop a cancel (or no one to ask) decided: the calls
	// that reach the cap after it stop the same way, unasked.
	ended error
	// freed is signalled (on mu) when a call in flight ends and gives its
	// worst case back; inFlight counts those calls (the sums of their
	// dollars need not come back to exactly 0).
	freed    *sync.Cond
	inFlight int
}

// reservation is one admitted call's estimate, given back when it ends.
type reservation struct {
	b   *budget
	usd float64
	tok int
}

// done replaces the call's estimate with what it recorded.
func (res *reservation) done(tok int, usd float64) {
	if res == nil {
		return
	}
	b := res.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flightUSD -= res.usd
	b.flightTok -= res.tok
	b.inFlight--
	if b.inFlight == 0 {
		b.flightUSD, b.flightTok = 0, 0 // no rounding left behind
	}
	// a spend never refunds the cap (harness.SaneUsage refused it already)
	if usd > 0 { // not negative, not NaN
		b.usd += usd
	}
	b.tok += max(tok, 0)
	if b.freed != nil {
		b.freed.Broadcast()
	}
}

// waitFlight waits, when a call does not fit only because of the calls in
// flight, until one ends; it reports whether it waited (false: the call
// cannot fit even with nothing in flight, or nothing is in flight).
func (b *budget) waitFlight(tok int, usd float64, kt int, ku float64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	fits := func(flightTok int, flightUSD float64) bool {
		return !(b.cap.MaxUSD > 0 && b.usd+flightUSD+usd+ku > b.cap.MaxUSD ||
			b.cap.MaxTokens > 0 && b.tok+flightTok+tok+kt > b.cap.MaxTokens)
	}
	if b.inFlight == 0 || !fits(0, 0) {
		return false
	}
	if b.freed == nil {
		b.freed = sync.NewCond(&b.mu)
	}
	for b.inFlight > 0 && !fits(b.flightTok, b.flightUSD) {
		b.freed.Wait()
	}
	return true
}

// admit reserves an estimated call when it fits under the cap and leaves
// room (kt tokens, ku dollars) for the calls that must follow it: the
// final step's, or the order-swap check's second judge call.
func (b *budget) admit(tok int, usd float64, kt int, ku float64) (*reservation, BudgetReach, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	over := b.cap.MaxUSD > 0 && b.usd+b.flightUSD+usd+ku > b.cap.MaxUSD ||
		b.cap.MaxTokens > 0 && b.tok+b.flightTok+tok+kt > b.cap.MaxTokens
	if over {
		return nil, BudgetReach{Cap: b.cap, SpentUSD: b.usd, SpentTokens: b.tok, FlightUSD: b.flightUSD, FlightTokens: b.flightTok, NextUSD: usd, NextTokens: tok, KeepUSD: ku, KeepTokens: kt, Now: b.now}, false
	}
	b.flightUSD += usd
	b.flightTok += tok
	b.inFlight++
	return &reservation{b: b, usd: usd, tok: tok}, BudgetReach{}, true
}

// now is a reach's Now: the spend and the calls in flight as they are
// when it is read.
func (b *budget) now() (float64, int, float64, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usd, b.tok, b.flightUSD, b.flightTok
}

// spent is what the finished calls recorded.
func (b *budget) spent() (float64, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.usd, b.tok
}

// initBudget sets the debate's cap and what its finished calls already
// spent (a resume counts the earlier sessions).
func (r *runner) initBudget(c Budget) {
	if !c.Set() {
		return
	}
	r.bud = &budget{cap: c}
	if r.w != nil {
		_, r.bud.tok, r.bud.usd, _ = r.totals()
	}
	r.warnUnpriced()
}

// finalEstimate is the room kept for the final step's calls before round
// k: its real prompt over the last round before k with valid answers
// (instructions, P and those answers, as the final step would read them)
// and the role's expected answer (as learned), once per call of a judge
// attempt (twice with the order-swap check). Before any answer it is
// 0: a stop in round 0 has no complete round to hand to the final step,
// so nothing is kept for it (and a plan's guess never refuses a small cap).
func (r *runner) finalEstimate(k int) (int, float64) {
	prompt, ok := r.finalPromptBefore(k)
	if !ok {
		return 0, 0
	}
	lim := r.limits[r.judgeEngine]
	in, out := bugfolder.EstimateTokens(prompt), r.expectedOut(r.finalRole, lim)
	if f, learned := r.learned[r.judgeEngine]; learned && f.Out > 0 {
		out = scale(out, f.Out)
	}
	if lim.MaxOutputTokens > 0 {
		out = lim.MaxOutputTokens // the worst case: its max answer
	}
	usd := 0.0
	if lim.Price != nil {
		usd = lim.Price.Cost(in, out)
	}
	n := r.judgeCalls()
	return n * (in + out), float64(n) * usd
}

// finalPromptBefore is the size in bytes of the final step's prompt over
// the last round before k that has valid answers (false when none has).
func (r *runner) finalPromptBefore(k int) (int, bool) {
	if r.w == nil {
		return 0, false
	}
	for j := min(k, r.r+1) - 1; j >= 0; j-- {
		bodies := r.validAnswers(j)
		if len(bodies) == 0 {
			continue
		}
		in := FinalInput{Lang: r.lang, Mode: r.mode, Rubric: r.rubric, P: r.p, N: r.n, Panel: r.solvers, Answers: bodies, Names: r.engineNames(),
			Missing: r.missingStatuses(bodies), Lenses: maps.Clone(r.lensOf), Opening: r.validAnswers(0),
			Last: j, R: r.r, Rounds: r.roundAnswers(j)}
		return promptLen(r.splitAt(r.finalStep(in).Prompt(), pMark)), true
	}
	return 0, false
}

// worstOut is the answer size a call of role on engine is admitted on
// under a cap, and the size a counted answer is held to (HeldTo): the
// engine's max answer, else the role's expected answer as the plan
// learned it.
func (r *runner) worstOut(engine string, role bugfolder.Role) int {
	lim := r.limits[engine]
	out := r.expectedOut(role, lim)
	if f, ok := r.learned[engine]; ok && f.Out > 0 {
		out = int(float64(out)*f.Out + 0.5)
	}
	return HeldTo(lim, out)
}

// HeldTo is the answer size, in tokens, a call is admitted on under a
// budget cap and an answer moot counts itself is held to: the engine's
// max answer (max_output_tokens:, else the model catalogue's), else, for
// an engine that states none, the answer size the call expected — so an
// engine without a max cannot take the spend past the cap either.
func HeldTo(lim harness.Limits, expected int) int {
	if lim.MaxOutputTokens > 0 {
		return lim.MaxOutputTokens
	}
	return expected
}

// callEstimate is one call's figures for the budget's check: the prompt
// as written and its worst-case answer, the engine's max answer size (the
// role's expected answer, as the plan learned it, on an engine whose max
// is unknown: the plan and the run warn that such an engine can pass the
// cap).
func (r *runner) callEstimate(engine string, role bugfolder.Role, promptBytes int) (int, float64) {
	lim := r.limits[engine]
	in := bugfolder.EstimateTokens(promptBytes)
	out := r.worstOut(engine, role)
	usd := 0.0
	if lim.Price != nil {
		usd = lim.Price.Cost(in, out)
	}
	return in + out, usd
}

// admitCall is the budget's check before every call (panel, support,
// final step, retries): the runner's case of admitOrAsk, keeping room for
// the final step. A stop cuts the rounds (the final step reads the last
// complete round); a cancel, or no one to ask, stops the debate there.
// With no cap it admits everything (nil reservation).
func (r *runner) admitCall(ctx context.Context, k int, id string, role bugfolder.Role, engine string, prompt []string) (*reservation, error) {
	if r.bud == nil {
		return nil, nil
	}
	tok, usd := r.callEstimate(engine, role, promptLen(prompt))
	asker, _ := r.opts.Supervisor.(BudgetAsker)
	final := role == r.finalRole
	kt, ku := r.keepAfter(k, final, tok, usd)
	stopped := func(reach BudgetReach) error {
		if final {
			return r.budgetNoFinal(reach)
		}
		return errBudgetCut
	}
	return r.bud.admitOrAsk(ctx, budgetCheck{tok: tok, usd: usd, keepTok: kt, keepUSD: ku, round: k, who: id, final: final, finalWord: Describe(r.proto).Final,
		asker: asker, emit: r.emit, stopped: stopped,
		noOne: func(reach BudgetReach) error {
			return &errStop{OutcomeWaiting, fmt.Sprintf("%s (%s) and no human to ask: `moot resume %s --max-usd …` or `--max-tokens …` raises it and continues, or give --on-budget stop to finish on the last complete round", bugfolder.BudgetStopMark, reach.Text(), r.resumeTarget())}
		},
		cancelled: func(reach BudgetReach) error {
			return &errStop{OutcomeCancelled, fmt.Sprintf("cancelled at the budget cap (%s); everything is kept: `moot resume %s --max-usd …` or `--max-tokens …` raises the cap and continues", reach.Text(), r.resumeTarget())}
		}})
}

// budgetCheck is one call at the budget's check: its worst case, the room
// it must leave for the calls that must follow it, who it is, who answers
// a reached cap, and what each end means to the caller (the runner's
// rounds, a review's round).
type budgetCheck struct {
	tok              int
	usd              float64
	keepTok          int
	keepUSD          float64
	round            int
	who, finalWord   string
	final            bool
	asker            BudgetAsker // nil: no one to ask
	emit             func(Event)
	stopped          func(BudgetReach) error // the answer was stop (this call's or an earlier one's)
	cancelled, noOne func(BudgetReach) error // the answer was cancel; no one could answer
	// endsAll refuses every call once the budget ended (stop, cancel or no
	// one to ask), even one that fits: a review's round ends where the cap
	// stopped it. The runner's rounds let a call that fits run.
	endsAll bool
}

// admitOrAsk is the one budget check before any call, every protocol's: a
// call whose worst case would take the spend plus the worst cases of the
// calls in flight (plus the room it must leave) past the cap is not
// started. It waits when the calls in flight ending would make room;
// otherwise the Supervisor is asked (raise, stop, cancel), the answer is
// logged as a decision event, and a raise that does not lift the cap is
// asked again. Calls that reach the cap together wait for one answer.
func (b *budget) admitOrAsk(ctx context.Context, c budgetCheck) (*reservation, error) {
	b.ask.Lock()
	defer b.ask.Unlock()
	for {
		if c.endsAll && b.ended != nil {
			return nil, b.ended
		}
		res, reach, ok := b.admit(c.tok, c.usd, c.keepTok, c.keepUSD)
		if ok {
			return res, nil
		}
		if b.ended == nil && !b.cut && b.waitFlight(c.tok, c.usd, c.keepTok, c.keepUSD) {
			continue // it fits once calls in flight end: wait, never ask
		}
		if b.ended != nil {
			return nil, b.ended
		}
		reach.Round, reach.Who, reach.Final, reach.FinalWord = c.round, c.who, c.final, c.finalWord
		if b.cut {
			return nil, c.stopped(reach)
		}
		var d BudgetDecision
		err := ErrNeedHuman
		if c.asker != nil {
			d, err = c.asker.BudgetReached(ctx, reach)
		}
		if errors.Is(err, ErrNeedHuman) {
			b.ended = c.noOne(reach)
			return nil, b.ended
		}
		if err != nil {
			return nil, err
		}
		reach = reach.Current() // the spend as the Supervisor last read it, not as it was at the check
		by := d.By
		if by == "" {
			by = "human"
		}
		dec := Event{Type: EvDecision, Point: bugfolder.PointBudget, Choice: string(d.Choice), By: by, Round: c.round, Reason: reach.Text()}
		switch d.Choice {
		case BudgetRaise:
			if !raises(b.cap, d.Cap) {
				c.emit(Event{Type: EvWarning, Text: fmt.Sprintf("a new cap must be higher than %s; nothing changed", capText(b.cap))})
				continue
			}
			b.mu.Lock()
			b.cap = d.Cap
			b.mu.Unlock()
			dec.MaxUSD, dec.MaxTokens = d.Cap.MaxUSD, d.Cap.MaxTokens
			c.emit(dec)
		case BudgetStop:
			c.emit(dec)
			b.mu.Lock()
			b.cut, b.cutRound = true, c.round
			b.mu.Unlock()
			err := c.stopped(reach)
			if c.endsAll {
				b.ended = err
			}
			return nil, err
		case BudgetCancel:
			c.emit(dec)
			b.ended = c.cancelled(reach)
			return nil, b.ended
		default:
			return nil, fmt.Errorf("unknown budget decision %q", d.Choice)
		}
	}
}

// keepAfter is the room a call must leave: a round's call the final
// step's calls (from the answers it would read now); the first call of a
// judge attempt checked with --verify-judge its second call (the same
// prompt with the proposals moved: the same estimate), so the budget never pays a
// first answer it cannot check; the check's second call nothing.
func (r *runner) keepAfter(k int, final bool, tok int, usd float64) (int, float64) {
	switch {
	case !final:
		return r.finalEstimate(k)
	case r.judgeCalls() > 1 && !r.beyond.swapping:
		return tok, usd
	}
	return 0, 0
}

// budgetNoFinal stops a cut debate whose final step the budget cannot
// pay for: kept and resumable with a raised cap (exit 4).
func (r *runner) budgetNoFinal(reach BudgetReach) error {
	calls := "call"
	if r.judgeCalls() > 1 {
		calls = "two calls (the order-swap check)"
	}
	return &errStop{OutcomeWaiting, fmt.Sprintf("%s (%s): it cannot pay the %s's %s; `moot resume %s --max-usd …` or `--max-tokens …` raises it", bugfolder.BudgetStopMark, reach.Text(), Describe(r.proto).Final, calls, r.resumeTarget())}
}

// RaiseRefusal says why next cannot answer the budget reached in b ("" when
// it can): it must lift the cap, and leave room for the call held back
// (the spend, the calls in flight and what is kept for the final step).
func RaiseRefusal(b BudgetReach, next Budget) string {
	if !raises(b.Cap, next) {
		return fmt.Sprintf("a new cap must be higher than %s (a blank limit lifts it); nothing changed", capText(b.Cap))
	}
	if need := b.SpentUSD + b.FlightUSD + b.NextUSD + b.KeepUSD; next.MaxUSD > 0 && next.MaxUSD < need {
		return fmt.Sprintf("a cap of %s does not pay the call held back: spent %s, and with the calls in flight and that call it needs ≈%s", money.USD(next.MaxUSD), money.USD(b.SpentUSD), money.USD(need))
	}
	if need := b.SpentTokens + b.FlightTokens + b.NextTokens + b.KeepTokens; next.MaxTokens > 0 && next.MaxTokens < need {
		return fmt.Sprintf("a cap of %s tokens does not pay the call held back: spent %s tokens, and with the calls in flight and that call it needs ≈%s", digits.Grouped(next.MaxTokens), digits.Grouped(b.SpentTokens), digits.Grouped(need))
	}
	return ""
}

// raises reports whether next lifts the cap: no limit that was set is
// lower (0 lifts it), and one is higher or lifted.
func raises(cur, next Budget) bool {
	if !next.Set() {
		return false
	}
	type dim struct{ c, n float64 }
	up := false
	for _, d := range []dim{{cur.MaxUSD, next.MaxUSD}, {float64(cur.MaxTokens), float64(next.MaxTokens)}} {
		if d.c == 0 {
			continue
		}
		if d.n > 0 && d.n < d.c {
			return false
		}
		up = up || d.n == 0 || d.n > d.c
	}
	return up
}

// countIn writes a count for l's readers: grouped by commas in English
// (40,000, as the plan's figures are), plain in Portuguese, where the
// comma is the decimal mark.
func countIn(l bugfolder.Lang, n int) string {
	if l == bugfolder.EN {
		return digits.Grouped(n)
	}
	return strconv.Itoa(n)
}

// capText says a cap as people read it ("$0.50 and 40000 tokens").
func capText(c Budget) string { return capIn(bugfolder.EN, c) }

// capIn says a cap in l's words ("$0.50 e 40000 tokens" in Portuguese).
func capIn(l bugfolder.Lang, c Budget) string {
	var parts []string
	if c.MaxUSD > 0 {
		parts = append(parts, money.USD(c.MaxUSD))
	}
	if c.MaxTokens > 0 {
		parts = append(parts, fmt.Sprintf("%s tokens", countIn(l, c.MaxTokens)))
	}
	if len(parts) == 0 {
		return l.Pick("sem teto", "no cap")
	}
	return strings.Join(parts, l.Pick(" e ", " and "))
}

// spentIn says a spend in l's words: its tokens, even none, after its
// dollars, even $0, under a dollar cap ("$0.00 and 1200 tokens").
func spentIn(l bugfolder.Lang, c Budget, usd float64, tok int) string {
	spent := fmt.Sprintf("%s tokens", countIn(l, tok))
	if c.MaxUSD > 0 {
		spent = money.USD(usd) + l.Pick(" e ", " and ") + spent
	}
	return spent
}

// Text says a reached budget in the one wording every place uses (the
// TUI's budget menu, the log's budget decision, the messages of a stop at
// the cap): the cap, the spend, the calls in flight, the call held back
// (named when Who is known) and what is kept for the final step. A dollar
// cap speaks dollars, each figure with its tokens.
func (b BudgetReach) Text() string {
	spent := spentIn(bugfolder.EN, b.Cap, b.SpentUSD, b.SpentTokens)
	fig := func(usd float64, tok int) string {
		if b.Cap.MaxUSD > 0 {
			return fmt.Sprintf("≈%s (%s tokens)", money.USD(usd), digits.Grouped(tok))
		}
		return fmt.Sprintf("≈%s tokens", digits.Grouped(tok))
	}
	next := "the next call"
	if b.Who != "" {
		next += " (" + b.Who + ")"
	}
	line := fmt.Sprintf("cap %s; spent %s; the calls in flight %s; %s %s", capText(b.Cap), spent, fig(b.FlightUSD, b.FlightTokens), next, fig(b.NextUSD, b.NextTokens))
	if b.KeepTokens > 0 {
		final := b.FinalWord
		if final == "" {
			final = "final step"
		}
		line += fmt.Sprintf("; kept for the %s %s", final, fig(b.KeepUSD, b.KeepTokens))
	}
	return line
}

// budgetHead is the line a final answer cut by the budget opens with:
// the cap, the spend (the final step's call included: it is written
// after that call), the round cut and the round the final step read.
func (r *runner) budgetHead() string {
	if r.bud == nil || !r.bud.cut {
		return ""
	}
	usd, tok := r.bud.spent()
	spent := spentIn(r.lang, r.bud.cap, usd, tok)
	return r.t(fmt.Sprintf("> **Cortado pelo orçamento (resultado degradado):** teto de %s; gasto %s ao todo; o debate parou na rodada %d e a etapa final leu a rodada %d, a última completa.\n\n", capIn(r.lang, r.bud.cap), spent, r.bud.cutRound, r.last),
		fmt.Sprintf("> **Cut by the budget (a degraded result):** cap of %s; spent %s in all; the debate stopped in round %d and the final step read round %d, the last complete one.\n\n", capIn(r.lang, r.bud.cap), spent, r.bud.cutRound, r.last))
}

// replayBudget applies the caps the log records (a raise at the menu, a
// cap moot resume set) over the cap problema.md froze: a resume keeps the
// last cap in force.
func replayBudget(c Budget, records []Event) Budget {
	for _, ev := range records {
		if ev.Type == EvDecision && ev.Point == bugfolder.PointBudget && (ev.Choice == string(BudgetRaise) || ev.Choice == budgetSet) {
			c = Budget{MaxUSD: ev.MaxUSD, MaxTokens: ev.MaxTokens}
		}
	}
	return c
}

// budgetSet is the budget decision of a resume whose flags lower a limit.
const budgetSet = "set"

// overrideCap is cur with each limit next sets replaced (resume's
// --max-usd and --max-tokens each override their own limit; the other
// stays frozen), and the log's words for what changed.
func overrideCap(cur, next Budget) (Budget, string) {
	c := cur
	var what []string
	if next.MaxUSD > 0 {
		c.MaxUSD = next.MaxUSD
		what = append(what, fmt.Sprintf("--max-usd %s → %s", limitText(money.USD(cur.MaxUSD), cur.MaxUSD > 0), money.USD(next.MaxUSD)))
	}
	if next.MaxTokens > 0 {
		c.MaxTokens = next.MaxTokens
		what = append(what, fmt.Sprintf("--max-tokens %s → %d", limitText(strconv.Itoa(cur.MaxTokens), cur.MaxTokens > 0), next.MaxTokens))
	}
	if cur.MaxUSD > 0 && next.MaxUSD == 0 {
		what = append(what, "the dollar cap "+money.USD(cur.MaxUSD)+" stays")
	}
	if cur.MaxTokens > 0 && next.MaxTokens == 0 {
		what = append(what, fmt.Sprintf("the token cap %d stays", cur.MaxTokens))
	}
	return c, fmt.Sprintf("cap %s → %s (moot resume: %s)", capText(cur), capText(c), strings.Join(what, "; "))
}

// limitText is a limit as the log says it, "none" when it was not set.
func limitText(s string, set bool) string {
	if !set {
		return "none"
	}
	return s
}

// budgetNode is problema.md's budget: (nil without a cap).
func budgetNode(c Budget) *yaml.Node {
	if !c.Set() {
		return nil
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k, tag, v string) {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v})
	}
	if c.MaxUSD > 0 {
		add("max_usd", "!!float", strconv.FormatFloat(c.MaxUSD, 'f', -1, 64))
	}
	if c.MaxTokens > 0 {
		add("max_tokens", "!!int", strconv.Itoa(c.MaxTokens))
	}
	return n
}

// problemBudget reads problema.md's budget: (none: no cap).
func problemBudget(pf *bugfolder.ProblemFile) Budget {
	n := bugfolder.Lookup(pf.Meta, "budget")
	var c Budget
	if n == nil {
		return c
	}
	if v := bugfolder.Lookup(n, "max_usd"); v != nil {
		c.MaxUSD, _ = strconv.ParseFloat(v.Value, 64)
	}
	if v := bugfolder.Lookup(n, "max_tokens"); v != nil {
		c.MaxTokens, _ = strconv.Atoi(v.Value)
	}
	if c.MaxUSD < 0 || math.IsNaN(c.MaxUSD) || math.IsInf(c.MaxUSD, 0) {
		c.MaxUSD = 0
	}
	c.MaxTokens = max(c.MaxTokens, 0)
	return c
}

// resumeBudget restores a resumed debate's cap (problema.md's, then the
// caps the log records) and applies resume's --max-usd/--max-tokens,
// each over its own limit, logged as a decision; it also restores the plan's
// estimates for the cost accuracy and the per-call estimate.
func (r *runner) resumeBudget(pf *bugfolder.ProblemFile, records []Event) {
	r.estimates = planEstimates(records)
	r.learned = learnedOf(r.estimates)
	c := replayBudget(problemBudget(pf), records)
	if next := r.opts.Budget; next.Set() {
		merged, why := overrideCap(c, next)
		choice := string(BudgetRaise)
		if c.Set() && !raises(c, merged) {
			choice = budgetSet
		}
		r.emit(Event{Type: EvDecision, Point: bugfolder.PointBudget, Choice: choice, By: "human", Round: r.resumeRound(),
			Reason: why, MaxUSD: merged.MaxUSD, MaxTokens: merged.MaxTokens})
		c = merged
	}
	r.initBudget(c)
}

// cutByBudget ends the rounds where the budget stopped round k: the
// final step reads the last complete round (k-1).
func (r *runner) cutByBudget(k int) error {
	if k == 0 {
		return &errStop{OutcomeWaiting, fmt.Sprintf("%s (%s) in round 0: there is no complete round to hand to the %s; `moot resume %s --max-usd …` or `--max-tokens …` raises it", bugfolder.BudgetStopMark, capText(r.bud.cap), Describe(r.proto).Final, r.resumeTarget())}
	}
	r.last = k - 1
	return r.writeArtifacts("", false)
}

// costFields records in the final answer whether the budget cut the
// debate (a cut answer is degraded: it reads an earlier round than
// planned) and each engine's estimate against its actuals.
func (r *runner) costFields(fm *bugfolder.FinalMeta, meta bugfolder.DebaterMeta, cache *cacheUse) {
	fm.BudgetCut = r.bud != nil && r.bud.cut
	fm.Degraded = fm.Degraded || fm.BudgetCut
	var extra *Event
	if cache != nil {
		extra = &Event{Type: EvCallFinished, Engine: meta.Engine, TokensIn: meta.TokensIn, TokensOut: meta.TokensOut, CostUSD: deref(meta.CostUSD),
			CacheRead: cache.read, CacheWrite: cache.write, CostUncachedUSD: cache.uncached}
	}
	if len(r.estimates) > 0 {
		fm.CostAccuracy = bugfolder.CostAccuracyNode(costAccuracy(r.estimates, r.loggedEvents(), extra))
	}
}

// Estimates are the plan's figures per engine as the final answer's
// cost_accuracy records them: the estimate shown (learned) and the
// uncorrected base.
func (p *Plan) Estimates() []bugfolder.CostAccuracy {
	out := make([]bugfolder.CostAccuracy, 0, len(p.Engines))
	for _, e := range p.Engines {
		out = append(out, bugfolder.CostAccuracy{Engine: e.Name, EstTokensIn: e.Input, EstTokensOut: e.Output, EstTokens: e.Input + e.Output,
			BaseIn: e.BaseInput, BaseOut: e.BaseOutput, EstUSD: e.USD, EstCalls: e.Calls, EstCachedIn: e.CachedInput, EstUSDUncached: e.USDUncached})
	}
	return out
}

// OverBudget reports whether the plan's estimate exceeds its setup's
// cap (USD, tokens).
func (p *Plan) OverBudget() bool {
	c := p.Setup.Budget
	return c.MaxUSD > 0 && p.USD > c.MaxUSD || c.MaxTokens > 0 && p.Input+p.Output > c.MaxTokens
}

// applyLearned corrects an engine's estimate by what past debates
// taught (LearnFactors), keeping the uncorrected base.
func applyLearned(e *EngineEstimate, learned map[string]Learned) {
	e.BaseInput, e.BaseOutput = e.Input, e.Output
	if f, ok := learned[e.Name]; ok && f.N > 0 {
		e.Input, e.Output, e.LearnedFrom = scale(e.Input, f.In), scale(e.Output, f.Out), f.N
	}
}

// pastLearning learns from the register's finished debates (none for a
// setup without a bug): what s.Past read ahead for that register, or a
// reading of its own.
func pastLearning(s Setup) map[string]Learned {
	if s.Bug == nil {
		return nil
	}
	if s.Past != nil && s.Bug.Register != nil && s.Past.root == s.Bug.Register.Root {
		<-s.Past.done
		return s.Past.learned
	}
	return learnFrom(s.Bug.Register)
}

// learnFrom is what a plan learns from reg's finished debates.
func learnFrom(reg *bugfolder.Register) map[string]Learned {
	return LearnFactors(bugfolder.PastCostRecords(reg), LearnWindow)
}

// PastCosts is what a plan learns from a register's finished debates
// (every final answer's cost_accuracy read), read in the background.
type PastCosts struct {
	root    string
	done    chan struct{}
	learned map[string]Learned
}

// LearnAhead starts reading reg's past cost records in the background
// and returns them as Setup.Past: a front end that will price a plan
// starts it as soon as it knows the register, and the reading (every
// final answer's front matter, a few ms on a used register) overlaps
// the engines file, the setup and P instead of delaying the first call.
// Nothing is written; a plan never made leaves it unread.
func LearnAhead(reg *bugfolder.Register) *PastCosts {
	pc := &PastCosts{done: make(chan struct{})}
	if reg == nil {
		close(pc.done)
		return pc
	}
	pc.root = reg.Root
	go func() {
		defer close(pc.done)
		pc.learned = learnFrom(reg)
	}()
	return pc
}

// PlanBudgetLines describe a plan's cap and learned estimates for moot
// plan and the TUI's cost screen: the cap and whether the estimate
// exceeds it; the engines whose estimates past debates corrected.
func PlanBudgetLines(p *Plan) []SetupLine {
	var out []SetupLine
	if c := p.Setup.Budget; c.Set() {
		est := fmt.Sprintf("≈%s tokens", digits.Grouped(p.Input+p.Output))
		if c.MaxUSD > 0 {
			est = money.Estimate(p.USD, !p.USDKnown) + ", " + est // Estimate says ≈ itself
		}
		unpriced := p.unpricedEngines()
		verdict := "is within it"
		switch {
		case p.OverBudget():
			verdict = "EXCEEDS it: the debate stops at the cap unless it is raised"
		case c.MaxUSD > 0 && len(unpriced) > 0:
			verdict = "cannot be checked against the dollar cap: part of its cost is unknown"
		}
		out = append(out, SetupLine{Key: "budget", Text: fmt.Sprintf("cap %s; the estimate (%s) %s", capText(c), est, verdict)})
		out = append(out, SetupLine{Key: "worst case", Text: fmt.Sprintf("≈%s tokens if every answer runs to its engine's max answer; each call starts only if the spend, the worst cases of the calls in flight and its own fit under the cap", digits.Grouped(p.WorstTokens()))})
		if w := UnpricedCapWarning(c, unpriced); w != "" {
			out = append(out, SetupLine{Key: "WARNING", Text: w})
		}
		if w := UnboundedCapWarning(c, p.unboundedEngines()); w != "" {
			out = append(out, SetupLine{Key: "WARNING", Text: w})
		}
	}
	for _, e := range p.Engines {
		if e.LearnedFrom > 0 {
			out = append(out, SetupLine{Key: "learned", Text: fmt.Sprintf("%s: estimate learned from %d past debate(s) (tokens in ×%.2f, out ×%.2f of the formula)",
				e.Name, e.LearnedFrom, ratio(e.Input, e.BaseInput), ratio(e.Output, e.BaseOutput))})
		}
	}
	return out
}

// UnpricedCapWarning is what the plan and the run say loudly when a
// dollar cap covers engines without a price ("" when it does not).
func UnpricedCapWarning(c Budget, unpriced []string) string {
	if c.MaxUSD <= 0 || len(unpriced) == 0 {
		return ""
	}
	return fmt.Sprintf("the dollar cap CANNOT be enforced for %s: no price is known, so their calls count $0 against it; --max-tokens caps them (or set price: in the engines file)",
		strings.Join(unpriced, ", "))
}

// UnboundedCapWarning is what the plan says when a cap covers engines
// whose max answer size is unknown ("" when it does not): their calls are
// admitted on their expected answer, and a counted answer is held to it
// (HeldTo).
func UnboundedCapWarning(c Budget, unbounded []string) string {
	if !c.Set() || len(unbounded) == 0 {
		return ""
	}
	return fmt.Sprintf("engine(s) %s state no max answer size: under the cap their calls are admitted on their expected answer, and an answer moot counts itself (an engine that reports no tokens) is cut there, priced as cut; set max_output_tokens: in the engines file to admit each call on it and hold the answer to it",
		strings.Join(unbounded, ", "))
}

// WorstTokens is the plan's tokens if every answer ran to its engine's
// max answer size.
func (p *Plan) WorstTokens() int {
	n := 0
	for _, e := range p.Engines {
		n += e.WorstTokens()
	}
	return n
}

// unboundedEngines names the plan's engines whose max answer is unknown.
func (p *Plan) unboundedEngines() []string {
	var out []string
	for _, e := range p.Engines {
		if e.MaxAnswer <= 0 {
			out = append(out, e.Name)
		}
	}
	return out
}

// warnUnpriced says, as the debate starts or resumes, that its dollar cap
// cannot be enforced for its engines without a price.
func (r *runner) warnUnpriced() {
	if r.bud == nil {
		return
	}
	var unpriced []string
	for _, name := range uniq(append(mapValues(r.engineOf), r.judgeEngine)) {
		if lim, ok := r.limits[name]; ok && lim.Price == nil {
			unpriced = append(unpriced, name)
		}
	}
	slices.Sort(unpriced)
	if w := UnpricedCapWarning(r.bud.cap, unpriced); w != "" {
		r.emit(Event{Type: EvWarning, Text: w})
	}
}

// unpricedEngines names the plan's engines without a known price.
func (p *Plan) unpricedEngines() []string {
	var out []string
	for _, e := range p.Engines {
		if !e.PriceKnown {
			out = append(out, e.Name)
		}
	}
	return out
}

// ratio is a/b (1 when b is 0).
func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
