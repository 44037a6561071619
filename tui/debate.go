package tui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/termsafe"
)

// maxTail bounds the text a pane keeps in memory; the whole answer is on disk.
const maxTail = 16 << 10

// pane is one call's box: a solver or critic in a round, or the judge.
type pane struct {
	id, role, engine string
	// lens is the participant's frozen lens name ("" when none); with
	// options, the option cut to optionLabelMax for a pane's title, and
	// option the whole of it ("A: deduplicate the discount"), for the zoom.
	lens, option string
	// status is "" (not started), "running", a protocol status, or
	// "dropped" for a solver out of the debate.
	status    string
	attempt   int
	started   time.Time
	dur       time.Duration
	tokensIn  int
	tokensOut int
	estimated bool
	usd       float64
	err       string
	// path is the call's file once it is written.
	path string

	tail []byte
	wrap *streamWrap
	// streamed counts the bytes of a running call's answer so far.
	streamed int
}

// appendText adds streamed text (control characters dropped), keeping
// only the last maxTail bytes in memory; the whole answer is on disk.
func (p *pane) appendText(s string) {
	s = sanitize(s)
	p.tail = append(p.tail, s...)
	if len(p.tail) > maxTail {
		cut := len(p.tail) - maxTail
		if i := bytes.IndexByte(p.tail[cut:], '\n'); i >= 0 && i < 1024 {
			cut += i + 1
		}
		for cut < len(p.tail) && !utf8.RuneStart(p.tail[cut]) {
			cut++
		}
		// a re-slice, not a copy: an append past the capacity moves only
		// the kept text, so a streaming pane costs what its deltas cost
		p.tail = p.tail[cut:]
	}
	if p.wrap != nil {
		p.wrap.write(s)
	}
}

// setText replaces the pane's text (a finished file read from disk).
func (p *pane) setText(s string) {
	p.tail = p.tail[:0]
	p.wrap = nil
	p.appendText(s)
}

// lines returns the pane's whole text wrapped to width (the zoom uses it).
func (p *pane) lines(width int) []string {
	return p.lastLines(width, 0)
}

// lastLines returns the last n rows of the pane's text wrapped to width
// (all rows when n ≤ 0). Wrapping streams with the text, so a delta costs
// its own length; a new width re-wraps the kept tail once.
func (p *pane) lastLines(width, n int) []string {
	width = max(1, width)
	if p.wrap == nil || p.wrap.width != width {
		p.wrap = newStreamWrap(width)
		p.wrap.write(string(p.tail))
	}
	return p.wrap.last(n)
}

// round is one round's panes: the panel's solvers, then the critics.
type round struct {
	k     int
	panes []*pane
}

func (r *round) pane(id string) *pane {
	for _, p := range r.panes {
		if p.id == id {
			return p
		}
	}
	return nil
}

// debateView is what the live view shows of a debate, live or past.
type debateView struct {
	bugID, title string
	// which says which of the bug's debates this is (bugfolder.DebateWords,
	// "" for a question's); also, the other result of the bug that waits
	// for a human decision too, in words with its folder ("" none known).
	which, also string
	// enginesFile is the engines file the debate's files say its last
	// session was given with --config ("" none recorded).
	enginesFile string
	dir         string
	lang        bugfolder.Lang
	mode        bugfolder.Mode
	n, r        int
	rounds      []*round
	judge       *pane
	current     int
	startedAt   time.Time
	finishedAt  time.Time
	// prior is the time the debate ran in earlier sessions; sessionStart
	// when this session started (zero for a debate only shown).
	prior        time.Duration
	sessionStart time.Time
	// noClock: nothing records how long the debate ran (written by hand,
	// no event log) and no session of it runs here; elapsed reads "—"
	noClock bool
	// callsDone are the model calls made (every attempt, a retried one
	// included); the planned total is computed by planned.
	callsDone int
	// resumedWhole is the whole a resume said it makes (the calls already
	// made and those left, engine.ResumeNeed): planned counts no fewer while
	// the debate runs, though a call still to make (an argue's scorer) has
	// no pane yet.
	resumedWhole int
	// logged counts the calls read from the files, then one per attempt a
	// call_finished event reports (counted names those attempts): the
	// count where the folder keeps no raw output.
	logged  int
	counted map[string]bool
	tokens  int
	usd     float64
	estUSD  float64
	// unpriced: a call made records no cost (an engine without a price,
	// a hand-run debate): the money reads "+unknown" (or "unknown"). It is
	// what the calls recorded (Debate.CostUnpriced, the events' null
	// cost), never whether the engines file prices an engine: list, show
	// and the browser give the same figure.
	unpriced bool
	// costed is set once a call recorded its cost: before, the money is
	// known only when the plan priced every engine (moneyUnknown).
	costed bool
	// state is running, waiting, judge-failed, cancelled or done.
	state  string
	reason string
	winner string
	live   bool
	notes  []string
	// handRun is set for a debate written by hand: it records no judge
	// engine, so its judge cannot be retried (only a human choice).
	handRun bool
	// protocol names the debate's protocol ("" is the debate protocol (docs/protocols/debate.md)).
	protocol string
	// judgeFailed is set while the judge's last attempt failed and no
	// verdict followed (a cancelled debate keeps it).
	judgeFailed bool
	// final is the parsed final answer once there is one.
	final *bugfolder.Final
	// anonymised is the file a host's judge read the anonymised proposals
	// from, relative to dir ("" when none).
	anonymised string
	// trend is each engine's estimate error, now and first recorded.
	trend []costTrend
	// decision is the human decision on the result as read from the
	// files (Debate.DecisionState), "" when not read or none waits.
	decision string
	// hasEstimate is set when the plan's estimate is known (a run shown live).
	hasEstimate bool
	// estUnknown is set when the plan said its money is partly unknown
	// (an engine it priced has no price): what decides the estimate's
	// "+unknown" (estimateWords), never the calls made since.
	estUnknown bool
	// nth and of place a debate read from disk among its bug's debates
	// (of is 0 when not counted).
	nth, of int
	// stamp is what its folder looked like when it was read.
	stamp string
	// folderCalls is the folder's count of calls made (CountModelCalls),
	// read off the UI goroutine with the engine's last batch of events.
	folderCalls int
	// problemPath and convPath are where its problem and convergence
	// documents are (bugfolder.DocPath), resolved where the debate and its
	// convergence are read; "" is the canonical name a run here writes.
	problemPath, convPath string
	// heldBy names the other moot process running this debate ("" when
	// none does).
	heldBy string
	// stopRule and stopRound are a recorded stop (a Stopper's rule or a
	// human's, argue): the rounds ended after stopRound ("" when none).
	stopRule  string
	stopRound int
	// cut is set when the budget menu's (or --on-budget's) stop cut the
	// rounds at cutRound: its calls not started, and the rounds after it,
	// never run.
	cut      bool
	cutRound int
	// supportFrom is the first round whose panes hold the support role
	// (debate's critics: 1; argue's scorer: 0).
	supportFrom int
}

// stopped reports whether a stop before the cap is recorded: the rounds
// after stopRound never run.
func (d *debateView) stopped() bool { return d.stopRule != "" && d.stopRound < d.r }

// lastRound is the last round the debate runs: the stop's round when a
// stop before the cap is recorded, else the cap.
func (d *debateView) lastRound() int {
	if d.stopped() {
		return d.stopRound
	}
	return d.r
}

// stopAsked reports whether the human asked this run to stop.
func (r runState) stopAsked() bool { return r.bridge != nil && r.bridge.stop.Load() }

// markDropped marks the panes of the members a decision at round k left
// out, in the rounds after k, as dropped: no call of theirs is to come.
func (d *debateView) markDropped(k int, dropped []string) {
	for _, id := range dropped {
		for _, rd := range d.rounds[min(max(0, k+1), len(d.rounds)):] {
			if p := rd.pane(id); p != nil && p.status == "" {
				p.status = "dropped"
			}
		}
	}
}

// syncCalls makes the calls made agree with the folder's count (moot show's:
// every attempt whose raw output was kept), which also counts a call the
// log never finished (stopped in flight when its round lost its quorum) and
// never counts twice a call a resume logs again.
func (d *debateView) syncCalls() {
	d.callsDone = max(d.callsDone, d.logged, d.folderCalls)
}

// problemDoc is the path of its problem document.
func (d *debateView) problemDoc() string {
	if d.problemPath != "" {
		return d.problemPath
	}
	return filepath.Join(d.dir, d.lang.Names().Problem)
}

// convDoc is the path of its convergence document.
func (d *debateView) convDoc() string {
	if d.convPath != "" {
		return d.convPath
	}
	return filepath.Join(d.dir, d.lang.Names().Convergence)
}

// callKey names one attempt of one call.
func callKey(k int, id string, attempt int, final bool) string {
	return fmt.Sprintf("%d/%s/%d/%v", k, id, attempt, final)
}

// recordStop notes a stop decision: the rounds end after its round.
func (d *debateView) recordStop(ev engine.Event) {
	d.stopRule, d.stopRound = ev.Choice, ev.Round
	if d.stopRule == "" {
		d.stopRule = "stop"
	}
}

// recordPlan notes the plan's estimate and whether its money is partly
// unknown. The log writes a partly unknown plan's usd as null: read back,
// the priced part is the sum of its engines' estimates.
func (d *debateView) recordPlan(ev engine.Event) {
	d.estUSD, d.hasEstimate, d.estUnknown = ev.USD, true, ev.CostUnknown
	if ev.CostUnknown && ev.USD == 0 {
		for _, c := range ev.Estimates {
			d.estUSD += c.EstUSD
		}
	}
}

// recordCut notes a stop chosen at the budget cap.
func (d *debateView) recordCut(ev engine.Event) {
	if ev.Type == engine.EvDecision && ev.Point == bugfolder.PointBudget && ev.Choice == string(engine.BudgetStop) {
		d.cut, d.cutRound = true, ev.Round
	}
}

// newLiveView prepares the panes of a debate about to run.
func newLiveView(s engine.Setup) *debateView {
	d := &debateView{bugID: s.Bug.ID, title: termsafe.Line(s.Bug.Title), lang: s.Lang, mode: s.Mode, n: s.N, r: s.R, live: true, state: "running"}
	var solvers, critics []string
	engines := map[string]string{}
	for i, e := range s.Solvers {
		id := s.Lang.SolverID(i + 1)
		solvers = append(solvers, id)
		engines[id] = e
	}
	for j, e := range s.Critics {
		id := s.Lang.CriticID(j + 1)
		critics = append(critics, id)
		engines[id] = e
	}
	d.supportFrom = 1
	if s.Protocol != nil && len(critics) > 0 && len(s.Protocol.Batches(0, solvers, critics)) > 1 {
		d.supportFrom = 0 // the protocol runs its support role in round 0 too (argue's scorer)
	}
	d.build(solvers, critics, engines, s.Judge)
	if s.Protocol != nil {
		d.protocol = s.Protocol.Name()
	}
	d.setLenses(setupLenses(s), engine.Describe(s.Protocol).Options)
	return d
}

// build lays out the empty panes of every round.
func (d *debateView) build(solvers, critics []string, engines map[string]string, judge string) {
	d.rounds = nil
	for k := 0; k <= d.r; k++ {
		rd := &round{k: k}
		for _, id := range solvers {
			rd.panes = append(rd.panes, &pane{id: id, role: "solver", engine: engines[id]})
		}
		if k >= d.supportFrom {
			for _, id := range critics {
				rd.panes = append(rd.panes, &pane{id: id, role: "critic", engine: engines[id]})
			}
		}
		d.rounds = append(d.rounds, rd)
	}
	d.judge = &pane{id: d.lang.Names().JudgeID, role: "judge", engine: judge}
}

// isFinal reports whether an event is about the final step's call (the
// judge's, argue's synthesizer's: the judge's id, whatever its role).
func (d *debateView) isFinal(ev engine.Event) bool {
	return ev.Role == bugfolder.RoleJudge || d.judge != nil && ev.SolverID != "" && ev.SolverID == d.judge.id
}

// paneOf finds the pane an event is about.
func (d *debateView) paneOf(ev engine.Event) *pane {
	if d.isFinal(ev) {
		return d.judge
	}
	if ev.Round < 0 || ev.Round >= len(d.rounds) {
		return nil
	}
	return d.rounds[ev.Round].pane(ev.SolverID)
}

// moveTo sets the folder a run writes; the documents' paths resolved in
// another folder no longer hold.
func (d *debateView) moveTo(dir string) {
	if dir != d.dir {
		d.problemPath, d.convPath = "", ""
	}
	d.dir = dir
}

// apply updates the view with one engine event.
func (d *debateView) apply(ev engine.Event) {
	switch ev.Type {
	case engine.EvSetup:
		d.moveTo(ev.Path)
		d.startedAt, d.sessionStart = ev.Time, ev.Time
	case engine.EvResumed:
		d.moveTo(ev.Path)
		if d.startedAt.IsZero() {
			d.startedAt = ev.Time
		}
		d.sessionStart, d.finishedAt = ev.Time, time.Time{}
		d.state = "running"
	case engine.EvPlan:
		d.recordPlan(ev)
	case engine.EvRoundStarted:
		d.current = ev.Round
		d.state = "running"
	case engine.EvCallStarted:
		d.callStarted(ev)
	case engine.EvOutput:
		if p := d.paneOf(ev); p != nil {
			p.appendText(ev.Text)
			if p.status == "running" {
				p.streamed += len(ev.Text)
			}
		}
	case engine.EvCallFinished:
		d.callFinished(ev)
	case engine.EvQuorumLost:
		d.state = "waiting"
		d.syncCalls()      // the calls stopped in flight as the quorum was lost
		if ev.Role != "" { // only the support role failed: the quorum holds
			d.notes = append(d.notes, fmt.Sprintf("round %d: the %s failed (%s)", ev.Round, ev.Role, strings.Join(ev.Failed, ", ")))
		} else {
			d.notes = append(d.notes, fmt.Sprintf("round %d: quorum lost (%d valid, %d needed)", ev.Round, ev.Valid, ev.Needed))
		}
	case engine.EvDecision:
		d.decided(ev)
	case engine.EvJudgeStarted:
		d.judgeStarted(ev)
	case engine.EvJudgeFailed:
		d.state, d.judgeFailed = "judge-failed", true
		d.judge.err = ev.Reason
	case engine.EvJudgeFinished:
		d.winner, d.judgeFailed = ev.Winner, false
		if d.dir != "" {
			d.judge.path = filepath.Join(d.dir, d.lang.Names().Final)
		}
	case engine.EvWarning:
		d.notes = append(d.notes, ev.Text)
	case engine.EvDebateFinished:
		d.state = string(ev.Outcome)
		d.reason = ev.Reason
		d.finishedAt = ev.Time
		d.live = false
		if ev.Calls > 0 {
			// the engine's count of the files; never below the calls seen
			d.callsDone, d.tokens, d.usd, d.unpriced = max(d.callsDone, ev.Calls), ev.Tokens, ev.USD, ev.CostUnknown
			d.costed = d.costed || ev.USD > 0 || !ev.CostUnknown
		}
	}
}

// callStarted shows a call's new attempt running in its pane.
func (d *debateView) callStarted(ev engine.Event) {
	if p := d.paneOf(ev); p != nil {
		p.status, p.attempt, p.started, p.err, p.streamed = "running", ev.Attempt, ev.Time, "", 0
		p.clearFigures() // the new attempt's figures, never the last one's
		if ev.Engine != "" {
			p.engine = ev.Engine
		}
		if ev.Attempt > 1 {
			p.setText("")
		}
	}
}

// callFinished shows a call's end in its pane and counts it.
func (d *debateView) callFinished(ev engine.Event) {
	p := d.paneOf(ev)
	if p == nil {
		return
	}
	retrying := ev.Retrying
	p.streamed = 0
	p.status = string(ev.Status)
	p.dur = time.Duration(ev.DurationMS) * time.Millisecond
	p.tokensIn, p.tokensOut, p.estimated, p.usd = ev.TokensIn, ev.TokensOut, ev.Estimated, ev.CostUSD
	p.err = ev.ErrorText()
	d.tokens += ev.TokensIn + ev.TokensOut
	d.usd += ev.CostUSD
	d.unpriced = d.unpriced || ev.CostUnknown
	d.costed = d.costed || !ev.CostUnknown
	// a retried attempt is a call made too; a call a resume logs again
	// (its event was lost in a crash) is not counted twice
	if key := callKey(ev.Round, ev.SolverID, ev.Attempt, d.isFinal(ev)); !d.counted[key] {
		if d.counted == nil {
			d.counted = map[string]bool{}
		}
		d.counted[key] = true
		d.logged++
	}
	d.syncCalls()
	if !retrying {
		if d.dir != "" && !d.isFinal(ev) {
			p.path = filepath.Join(d.dir, d.lang.RoundDir(ev.Round), ev.SolverID+".md")
		}
	}
}

// decided notes a decision taken at a menu: a stop, a cut, participants
// left out.
func (d *debateView) decided(ev engine.Event) {
	if ev.Point == engine.PointStop {
		d.recordStop(ev)
		d.notes = append(d.notes, fmt.Sprintf("stopped after round %d (%s): %s", ev.Round, ev.By, ev.Reason))
		return
	}
	d.state = "running"
	d.recordCut(ev)
	if ev.Point == engine.PointOpening {
		d.notes = append(d.notes, fmt.Sprintf("round %d: %s left out (%s): %s", ev.Round, strings.Join(ev.Dropped, ", "), ev.By, ev.Reason))
	} else {
		d.notes = append(d.notes, fmt.Sprintf("round %d: %s chose %s at the %s menu", ev.Round, ev.By, ev.Choice, ev.Point))
	}
	d.markDropped(ev.Round, ev.Dropped)
	d.syncCalls()
}

// judgeStarted shows the final step running on the round it reads.
func (d *debateView) judgeStarted(ev engine.Event) {
	d.current = d.r
	if d.stopRule != "" {
		d.current = d.stopRound // the final step reads the stop's round
	}
	if d.cut {
		d.current = ev.Round // the last complete round, which it reads
	}
	d.judge.status, d.judge.started, d.judge.attempt = "running", ev.Time, ev.Attempt
	d.judge.clearFigures() // a retried judge shows its own figures, not the failed attempt's
	if ev.Engine != "" {
		d.judge.engine = ev.Engine // a judge switched at the menu
	}
	d.judge.setText("")
}

// planned is the debate's planned total of calls: the calls made plus the
// calls still to make (a call running, a pane not started and not
// dropped, a judge without a verdict). Retries and swaps add to it as they
// start, dropped solvers take from it, and it is never below callsDone.
func (d *debateView) planned() int {
	n := d.callsDone
	if d.final != nil || d.state == string(bugfolder.StateDone) {
		return n // at the end, the actual
	}
	outstanding := func(p *pane) bool { return p.status == "" || p.status == "running" }
	for _, r := range d.rounds {
		if d.stopRule != "" && r.k > d.stopRound {
			break // the rounds after a stop never run
		}
		for _, p := range r.panes {
			if d.cut && r.k >= d.cutRound && p.status != "running" {
				continue // cut by the budget: only the calls in flight end
			}
			if outstanding(p) {
				n++
			}
		}
	}
	if d.judge != nil && d.final == nil && d.winner == "" && outstanding(d.judge) {
		n++
	}
	return max(n, d.resumedWhole)
}

// finishedRounds counts the rounds whose every pane has ended (ok,
// failed, dropped): none running, none still to start.
func (d *debateView) finishedRounds() int {
	n := 0
	for _, r := range d.rounds {
		if r.k > d.lastRound() || len(r.panes) == 0 {
			break
		}
		if slices.ContainsFunc(r.panes, func(p *pane) bool { return p.status == "" || p.status == "running" }) {
			break
		}
		n++
	}
	return n
}

// elapsedText is elapsed as the header writes it: "—" when nothing
// records it (bugfolder.Debate.Elapsed), never a span from a wrong origin.
// While a session runs — here or watched from another moot, both timed
// from its setup or resumed event — it is counted in whole seconds, as
// the header ticks once a second, so the runner and a watcher read alike
// ("9s", "10s", never "10s" beside "9.6s"); a finished debate keeps the
// precision moot list gives it.
func (d *debateView) elapsedText(now time.Time) string {
	e := d.elapsed(now)
	if d.running() {
		e = e.Truncate(time.Second)
	}
	return bugfolder.ElapsedText(e, !d.noClock || !d.sessionStart.IsZero(), humantime.Duration)
}

// running reports whether a session of the debate is under way: started
// and not finished.
func (d *debateView) running() bool { return !d.sessionStart.IsZero() && d.finishedAt.IsZero() }

// elapsed is how long the debate has run over all its sessions: the
// earlier ones, then this one up to now or to its end.
func (d *debateView) elapsed(now time.Time) time.Duration {
	total := d.prior
	if !d.sessionStart.IsZero() {
		end := now
		if !d.finishedAt.IsZero() && !d.finishedAt.Before(d.sessionStart) {
			end = d.finishedAt
		}
		total += max(0, end.Sub(d.sessionStart))
	}
	return total
}

// liveTokens are the tokens of finished calls plus an estimate of what the
// calls in flight have streamed so far (about four bytes a token).
func (d *debateView) liveTokens() int {
	n := d.tokens
	for _, r := range d.rounds {
		for _, p := range r.panes {
			n += p.streamed / 4
		}
	}
	if d.judge != nil {
		n += d.judge.streamed / 4
	}
	return n
}
