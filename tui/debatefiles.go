package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// A debate read from its folder (a past debate, or one another process
// runs) becomes the same view a live run fills from its events.

// folderFacts are what the view of a debate needs of its folder beyond
// bugfolder.Debate, read with it off the UI goroutine.
type folderFacts struct {
	// calls are the calls made as list and show count them
	// (bugfolder.CountModelCalls: the log's started attempts and the
	// folder's raw outputs); stamp is debateStamp.
	calls int
	stamp string
	// problem and convergence are its documents' paths (bugfolder.DocPath).
	problem, convergence string
}

// readFolderFacts reads deb's folderFacts (in a command).
func readFolderFacts(deb *bugfolder.Debate) folderFacts {
	return folderFacts{calls: deb.ModelCalls(), stamp: debateStamp(deb.Dir),
		problem: bugfolder.DocPath(deb.Dir, deb.Lang.Names().Problem), convergence: bugfolder.DocPath(deb.Dir, deb.Lang.Names().Convergence)}
}

// viewFromFiles builds the view of a debate from its folder (a past or an
// interrupted debate) and the facts read with it.
func viewFromFiles(bug *bugfolder.Bug, deb *bugfolder.Debate, facts folderFacts) *debateView {
	d := &debateView{bugID: bug.ID, title: termsafe.Line(bug.Title), dir: deb.Dir, lang: deb.Lang, state: string(deb.State), decision: deb.DecisionState(),
		problemPath: facts.problem, convPath: facts.convergence, stamp: facts.stamp, enginesFile: deb.EnginesFile()}
	if deb.Anonymised != "" {
		if rel, err := filepath.Rel(deb.Dir, deb.Anonymised); err == nil {
			d.anonymised = filepath.ToSlash(rel)
		}
	}
	cast := d.castOf(deb)
	d.build(cast.solvers, cast.critics, cast.engines, cast.judge)
	if deb.Problem != nil {
		d.protocol = deb.Problem.ProtocolName()
		d.setLenses(deb.Problem.Lenses, len(deb.Problem.Lenses) == 2 && deb.Problem.Lenses[d.lang.SolverID(1)].Name == "A")
	}
	d.fillRounds(deb)
	d.replayDecisions(deb)
	d.fillJudge(deb)
	d.countCalls(deb, facts.calls)
	d.readClock(deb)
	if deb.Holder != nil && deb.HolderAlive {
		d.heldBy = holderLine(deb.Holder)
		d.watchSession(deb.Events)
		d.followInFlight(deb.Events)
	}
	return d
}

// watchSession makes the elapsed time of a debate another process runs
// tick: the sessions before its last start count as prior time, the
// running one counts from its start to now.
func (d *debateView) watchSession(evs []bugfolder.Event) {
	for i := len(evs) - 1; i >= 0; i-- {
		if t := evs[i].Type; (t == engine.EvSetup || t == engine.EvResumed) && !evs[i].Time.IsZero() {
			d.prior, d.sessionStart, d.finishedAt = bugfolder.SessionsTotal(evs[:i]), evs[i].Time, time.Time{}
			return
		}
	}
}

// clearFigures forgets the time, tokens and cost of a pane's last
// attempt, as a new one starts.
func (p *pane) clearFigures() {
	p.dur, p.tokensIn, p.tokensOut, p.estimated, p.usd = 0, 0, 0, false, 0
}

func fillFromFile(p *pane, f *bugfolder.DebaterFile) {
	p.status = string(f.Status)
	if f.Engine != "" {
		p.engine = f.Engine
	}
	p.attempt = f.Attempt
	p.started = f.StartedAt
	p.dur = f.Duration()
	p.tokensIn, p.tokensOut, p.estimated, p.usd = f.TokensIn, f.TokensOut, f.TokensEstimated, f.CostUSD
	p.err = f.Error
	if len(f.Invalid) > 0 {
		p.err = strings.Join(f.Invalid, "; ")
	}
	p.path = f.Path
	p.setText(f.Body)
}

// cast is a debate's participants: its solvers and critics in order, the
// engine of each, and its judge's engine.
type cast struct {
	solvers, critics []string
	engines          map[string]string
	judge            string
}

// castOf reads the participants from the debate's problem, then the
// rounds' files (a participant the problem does not name, a hand-run
// debate's); it sets the mode, N, R and the round support roles start.
func (d *debateView) castOf(deb *bugfolder.Debate) cast {
	c := cast{engines: map[string]string{}}
	if p := deb.Problem; p != nil {
		d.mode, d.n, d.r = p.Mode, p.N, p.R
		for _, kv := range p.Solvers {
			c.solvers = append(c.solvers, kv.Key)
			c.engines[kv.Key] = kv.Value
		}
		for _, kv := range p.Critics {
			c.critics = append(c.critics, kv.Key)
			c.engines[kv.Key] = kv.Value
		}
		c.judge = p.Judge
	}
	seen := map[string]bool{}
	for _, id := range append(append([]string{}, c.solvers...), c.critics...) {
		seen[id] = true
	}
	d.supportFrom = 1
	for _, rd := range deb.Rounds {
		d.r = max(d.r, rd.K)
		for _, f := range rd.Files {
			if !seen[f.SolverID] {
				seen[f.SolverID] = true
				if f.Role == bugfolder.RoleCritic {
					c.critics = append(c.critics, f.SolverID)
				} else {
					c.solvers = append(c.solvers, f.SolverID)
				}
				c.engines[f.SolverID] = f.Engine
			}
		}
	}
	for _, rd := range deb.Rounds {
		for _, f := range rd.Files {
			if rd.K == 0 && slices.Contains(c.critics, f.SolverID) {
				d.supportFrom = 0 // its support role ran in round 0 (argue's scorer)
			}
		}
	}
	if d.n == 0 {
		d.n = len(c.solvers)
	}
	return c
}

// fillRounds fills each round's panes from its files.
func (d *debateView) fillRounds(deb *bugfolder.Debate) {
	for _, rd := range deb.Rounds {
		if rd.K >= len(d.rounds) {
			continue
		}
		for _, f := range rd.Files {
			if p := d.rounds[rd.K].pane(f.SolverID); p != nil {
				fillFromFile(p, f)
				d.current = rd.K
			}
		}
	}
}

// replayDecisions replays the log's rounds and decisions: the current
// round, a stop, a cut, the participants dropped.
func (d *debateView) replayDecisions(deb *bugfolder.Debate) {
	for _, ev := range deb.Events {
		// the round the log started last is the current one, before any
		// of its calls has written a file (a watcher is not a round behind)
		if ev.Type == engine.EvRoundStarted && ev.Round < len(d.rounds) {
			d.current = max(d.current, ev.Round)
		}
		if ev.Type == engine.EvDecision && ev.Point == engine.PointStop {
			d.recordStop(ev)
		}
		d.recordCut(ev)
		if ev.Type == engine.EvDecision {
			d.markDropped(ev.Round, ev.Dropped) // a continue without them: no call of theirs is to come
		}
	}
}

// fillJudge fills the judge's pane from its attempts and the final answer.
func (d *debateView) fillJudge(deb *bugfolder.Debate) {
	for _, f := range deb.JudgeAttempts {
		fillFromFile(d.judge, f)
	}
	if deb.Final != nil {
		fillFromFile(d.judge, &deb.Final.DebaterFile)
		d.winner = deb.Lang.LabelName(deb.Final.Winner)
		d.final = deb.Final
	}
	d.handRun = deb.HandRun()
	d.judgeFailed = deb.Final == nil && (deb.State == bugfolder.StateJudgeFailed || deb.PendingDecision() == "judge")
}

// countCalls takes the calls made (folderFacts.calls) and counts their
// cost as list and show count them, and which of them the view has seen.
func (d *debateView) countCalls(deb *bugfolder.Debate, calls int) {
	d.tokens, d.usd = deb.Totals()
	d.unpriced = deb.CostUnpriced()
	d.costed = deb.CostKnown()
	if !d.costed && len(deb.Calls()) == 0 {
		d.unpriced = false // no call made yet: the plan says whether its money is known (moneyUnknown)
	}
	d.callsDone = calls
	d.logged, d.counted = d.callsDone, map[string]bool{}
	for _, rd := range deb.Rounds {
		for _, f := range rd.Files {
			d.counted[callKey(rd.K, f.SolverID, f.Attempt, false)] = true
		}
	}
	for _, ev := range deb.Events { // the attempts the log reports, a retried one included
		if ev.Type == engine.EvCallFinished {
			d.counted[callKey(ev.Round, ev.SolverID, ev.Attempt, ev.Role == bugfolder.RoleJudge || ev.SolverID == d.judge.id)] = true
		}
	}
}

// readClock reads when the debate started and last finished a call, its
// elapsed time and its plan's estimate.
func (d *debateView) readClock(deb *bugfolder.Debate) {
	for _, f := range deb.Calls() {
		if f.FinishedAt.After(d.finishedAt) {
			d.finishedAt = f.FinishedAt
		}
	}
	d.startedAt = deb.StartedAt()
	var clocked bool
	d.prior, clocked = deb.Elapsed()
	d.noClock = !clocked
	for _, ev := range deb.Events { // the plan's estimate, for "actual vs estimated"
		if ev.Type == bugfolder.EvPlan {
			d.recordPlan(ev)
		}
	}
}
