package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/reversa/moot/bugfolder"
)

// resumeHandRun continues what moot can of a debate run by hand (the debate
// skill followed by a host agent: no event log, no p_sha256). After a failed
// judge (juiz/ holds its attempts) it records a human choice among the last
// round's proposals — --winner headless, the menu in the TUI — and writes
// resposta-final.md. Anything else it explains: `moot run` archives the
// debate and starts a new one, so a hand-run debate is never a dead end.
func resumeHandRun(ctx context.Context, bug *bugfolder.Bug, d *bugfolder.Debate, opts Options) (*Result, error) {
	archive := bug.Register.Rel(bugfolder.ArchivePath(bug.Dir, d.ArchiveTime()))
	if len(d.JudgeAttempts) == 0 && d.State != bugfolder.StateWaiting || len(d.Rounds) == 0 {
		gap := ""
		if g := d.HandRunGap(); g != "" && d.State == bugfolder.StateInterrupted {
			gap = "; " + g
		}
		return nil, &bugfolder.InputError{Path: d.Dir, Msg: fmt.Sprintf("holds a debate run by hand (%s, with no event log%s): moot cannot continue it call by call. `moot run %s --mode MODE` archives it as %s/ and starts a new debate (its plan says so); or finish it by hand", d.State, gap, bug.ID, archive)}
	}
	last := d.Rounds[len(d.Rounds)-1]
	mode := d.Mode()
	if mode == "" {
		mode = bugfolder.Diagnosis
	}
	n := last.Solvers
	if d.Problem != nil && d.Problem.N > n {
		n = d.Problem.N
	}
	p := ""
	if d.Problem != nil {
		p = d.Problem.P
	}
	w, err := bugfolder.OpenWriter(bug.Dir, d.Dir, d.Lang, opts.Command)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	r := newRunner(opts.Protocol, opts, bug, d.Lang, mode, n, last.K, p, 0, 0) // r.w stays nil until a choice is recorded: nothing is logged before
	for _, f := range last.Files {
		if f.Role == bugfolder.RoleSolver {
			r.solvers = append(r.solvers, f.SolverID)
			r.panel[f.SolverID] = true
		}
	}
	bodies := map[string]string{}
	for _, f := range last.Files { // read as the browser reads them: no status is ok
		if f.Role == bugfolder.RoleSolver && f.Status == bugfolder.StatusOK {
			bodies[f.SolverID] = f.Body
		}
	}
	in := FinalInput{Lang: r.lang, Mode: mode, Rubric: r.rubric, P: p, N: n, Panel: r.solvers, Answers: bodies, Names: r.engineNames()}
	step := r.proto.Final(in)
	choices := step.Choices()
	if len(choices) == 0 {
		return nil, &bugfolder.InputError{Path: last.Dir, Msg: fmt.Sprintf("holds no valid proposal to choose from; `moot run %s --mode MODE` archives this hand-run debate as %s/ and starts a new one", bug.ID, archive)}
	}
	jf := JudgeFailure{Attempt: len(d.JudgeAttempts), Reason: "the judge of this hand-run debate failed (see its juiz/ folder)"}
	if len(d.JudgeAttempts) == 0 {
		jf.Reason = "this hand-run debate has every round and no judge's answer"
	}
	var letters []string
	jf.Labels = choices
	for _, c := range choices {
		letters = append(letters, c.Label)
	}
	started := r.now() // the session: the time at the menu counts, as the TUI's header counts it
	dec, err := opts.Supervisor.JudgeFailed(ctx, jf)
	if errors.Is(err, ErrNeedHuman) {
		reason := fmt.Sprintf("%s, and it records no judge engine to run: `moot resume %s --winner A` records your choice among %s, or `moot run %s --mode MODE` archives it as %s/ and starts a new debate", jf.Reason, bug.ID, labelList(d.Lang, letters), bug.ID, archive)
		r.emit(Event{Type: EvDebateFinished, Outcome: OutcomeWaiting, Path: d.Dir, CostUnknown: true, Reason: reason})
		return &Result{Outcome: OutcomeWaiting, Dir: d.Dir, Reason: reason}, nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// left at the menu (q, ctrl+c, a signal): a cancel, as an interrupted
		// run's (runner.stop), not a failure of moot; nothing was recorded
		reason := fmt.Sprintf("left at the judge menu: nothing recorded; `moot resume %s` asks again", bug.ID)
		r.emit(Event{Type: EvDebateFinished, Outcome: OutcomeCancelled, Path: d.Dir, CostUnknown: true, Reason: reason})
		return &Result{Outcome: OutcomeCancelled, Dir: d.Dir, CostUnknown: true, Reason: reason}, nil
	}
	if err != nil {
		return nil, err
	}
	switch dec.Choice {
	case JudgeHuman:
		r.w = w // judgeAttempts reads its folder; nothing is logged before the choice is known valid
		doc, ok := step.Human(dec.Winner, r.judgeAttempts())
		if !ok {
			return nil, &bugfolder.InputError{Field: "--winner", Msg: fmt.Sprintf("%s names no proposal: the labels are %s", dec.Winner, labelList(d.Lang, letters))}
		}
		r.emit(Event{Type: EvResumed, Path: d.Dir, Time: started, EnginesFile: r.opts.EnginesFile})
		r.emit(Event{Type: EvDecision, Point: bugfolder.PointJudge, Choice: string(dec.Choice), By: "human", Round: r.last, Winner: dec.Winner})
		if err := r.writeFinal(in, doc, "human", r.humanMeta(), nil); err != nil {
			return nil, err
		}
		// a human choice: no model call was made, and none is counted
		res := &Result{Outcome: OutcomeDone, Dir: d.Dir, CostUnknown: true, Winner: r.lang.LabelName(dec.Winner), N: n}
		r.emit(Event{Type: EvDebateFinished, Outcome: OutcomeDone, Path: d.Dir, CostUnknown: true, Reason: "a human choice; no model call was made"})
		return res, r.check()
	case JudgeRetry:
		return nil, &bugfolder.InputError{Path: d.Dir, Msg: fmt.Sprintf("was run by hand and records no judge engine, so moot cannot retry its judge: record a human choice with `moot resume %s --winner A`, or start a new debate with `moot run %s` (it archives this one as %s/)", bug.ID, bug.ID, archive)}
	}
	reason := fmt.Sprintf("nothing recorded; `moot resume %s` asks again", bug.ID)
	r.emit(Event{Type: EvDebateFinished, Outcome: OutcomeWaiting, Path: d.Dir, CostUnknown: true, Reason: reason})
	return &Result{Outcome: OutcomeWaiting, Dir: d.Dir, Reason: reason}, nil
}

func labelList(l bugfolder.Lang, letters []string) string {
	out := ""
	for i, x := range letters {
		if i > 0 {
			out += ", "
		}
		out += l.LabelName(x)
	}
	return out
}
