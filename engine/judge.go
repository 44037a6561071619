package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/lazyre"
)

// finalInput is what the final step works from: the valid last-round
// files of the panel still in.
func (r *runner) finalInput() FinalInput {
	bodies := r.validAnswers(r.last)
	return FinalInput{Lang: r.lang, Mode: r.mode, Rubric: r.rubric, P: r.p, N: r.n, Panel: r.solvers, Answers: bodies, Names: r.engineNames(),
		Missing: r.missingStatuses(bodies), Lenses: maps.Clone(r.lensOf), Opening: r.validAnswers(0),
		Last: r.last, R: r.r, StopReason: r.stopReason, Rounds: r.roundAnswers(r.last)}
}

// validAnswers are round k's valid files of the panel still in, by id.
func (r *runner) validAnswers(k int) map[string]string {
	files := r.roundFiles(k)
	bodies := map[string]string{}
	for _, id := range r.panelIDs() {
		if f := files[id]; f != nil && f.Status == bugfolder.StatusOK {
			bodies[id] = f.Body
		}
	}
	return bodies
}

// missingStatuses gives each panel member without a valid last-round
// answer the status of its latest file (a member dropped after failing
// keeps its failing round's status; "" when it wrote none).
func (r *runner) missingStatuses(valid map[string]string) map[string]bugfolder.Status {
	out := map[string]bugfolder.Status{}
	for _, id := range r.solvers {
		if _, ok := valid[id]; ok {
			continue
		}
		out[id] = ""
		for k := r.last; k >= 0; k-- {
			if f := r.roundFiles(k)[id]; f != nil {
				out[id] = f.Status
				break
			}
		}
	}
	return out
}

// judgeAttempts counts the failed judge attempts already kept.
func (r *runner) judgeAttempts() int {
	ents, _ := os.ReadDir(filepath.Join(r.w.Dir, r.lang.Names().JudgeID))
	n := 0
	for _, e := range ents {
		if attemptRE.MatchString(e.Name()) {
			n++
		}
	}
	return n
}

var attemptRE = lazyre.New(`^(?:tentativa|attempt)-(\d+)\.md$`)

// lastJudgeAttempt is the number of the latest failed judge attempt kept
// (tentativa-K.md is numbered like its raw output, so K counts retries).
func (r *runner) lastJudgeAttempt() int {
	ents, _ := os.ReadDir(filepath.Join(r.w.Dir, r.lang.Names().JudgeID))
	last := 0
	for _, e := range ents {
		if m := attemptRE.FindStringSubmatch(e.Name()); m != nil {
			if n, _ := strconv.Atoi(m[1]); n > last {
				last = n
			}
		}
	}
	return last
}

// judgePending reports whether the event log ends with a judge failure
// that no decision settled (so resume asks again instead of calling), and
// the last judge failure logged (its judge_failed event).
func (r *runner) judgePending() (bool, Event) {
	pending, why := false, Event{}
	for _, rec := range r.loggedEvents() {
		switch {
		case rec.Type == EvJudgeFailed:
			pending, why = true, rec
		case rec.Type == EvDecision && rec.Point == bugfolder.PointJudge && resolves(rec.Choice):
			pending = false
		case rec.Type == EvJudgeStarted:
			pending = false
		}
	}
	return pending, why
}

func resolves(choice string) bool {
	return choice != string(JudgeCancel) && choice != string(JudgePause) && choice != ""
}

// runJudge runs the protocol's isolated final step until its answer is
// valid or the Supervisor decides otherwise.
func (r *runner) runJudge(ctx context.Context) error {
	// the rounds' spare call folders less the judge's own are removed
	// while the judge runs
	harness.PrepareScratch(callFolders(r.opts, []string{r.judgeEngine}, 1))
	in := r.finalInput()
	if len(in.Answers) == 0 {
		return &errStop{OutcomeWaiting, fmt.Sprintf("round %d has no valid proposal: there is nothing to judge", r.last)}
	}
	step := r.finalStep(in)
	choices := step.Choices()
	letters := make([]string, len(choices))
	for i, c := range choices {
		letters[i] = c.Label
	}
	prompt := r.splitAt(step.Prompt(), pMark)
	ask, failed := r.judgePending() // after a resume the menu still says why
	if failed.Reason == "" {
		failed.Reason = "the " + Describe(r.proto).Final + "'s last attempt failed"
	}
	reuse := !ask // only before this session's first judge call
	for {
		if !ask {
			done, why, err := r.judgeAgain(ctx, step, in, prompt, reuse)
			if done || err != nil {
				return err
			}
			reuse, failed = false, why
		}
		ask = false
		words := Describe(r.proto)
		reason := failed.Reason
		jf := JudgeFailure{Attempt: r.lastJudgeAttempt(), Reason: reason, Winner: failed.Winner, ReversedWinner: failed.ReversedWinner, Labels: choices, RetryUSD: float64(r.judgeCalls()) * r.estimateCall(r.judgeEngine, r.finalRole), RetryCalls: r.judgeCalls(),
			Engine: r.judgeEngine, Engines: r.swapEngines(r.judgeClash), Final: words.Final, NoWinner: !words.Winner}
		d, err := r.opts.Supervisor.JudgeFailed(ctx, jf)
		if errors.Is(err, ErrNeedHuman) {
			return &errStop{OutcomeWaiting, fmt.Sprintf("the %s failed (%s) and no human can be asked; %s", Describe(r.proto).Final, reason, FinalAdvice(r.proto, r.resumeTarget(), letters))}
		}
		if err != nil {
			return err
		}
		by := d.By
		if by == "" {
			by = "human"
		}
		dec := Event{Type: EvDecision, Point: bugfolder.PointJudge, Choice: string(d.Choice), By: by, Round: r.last}
		switch d.Choice {
		case JudgeRetry:
			dec.ExtraCalls, dec.ExtraUSD = r.judgeCalls(), jf.RetryUSD
			if d.Engine != "" && d.Engine != r.judgeEngine {
				err := r.judgeClash(d.Engine)
				if err == nil {
					err = r.useEngine(d.Engine)
				}
				if err != nil {
					r.emit(Event{Type: EvWarning, Text: err.Error()})
					ask = true
					continue
				}
				dec.Engine, dec.ExtraUSD = d.Engine, float64(r.judgeCalls())*r.estimateCall(d.Engine, r.finalRole)
				// the new judge is locked by what it is, like a swapped solver
				if ec, err := r.opts.Config.Engine(d.Engine); err == nil {
					dec.Identities = map[string]map[string]string{d.Engine: harness.IdentityOf(ec, r.opts.Config.Path).Map()}
				}
				r.amendJudge(d.Engine, r.last, by)
			}
			r.emit(dec)
		case JudgeHuman:
			doc, ok := step.Human(d.Winner, r.judgeAttempts())
			if !ok {
				r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("%s is not one of the labels (%s); choose again", r.lang.LabelName(d.Winner), strings.Join(letters, ", "))})
				ask = true
				if _, ok := unbeat(r.opts.Supervisor).(*Policies); ok { // headless: no one to choose again
					return &bugfolder.InputError{Field: "--winner", Msg: fmt.Sprintf("%s names no proposal: the labels are %s", d.Winner, strings.Join(letters, ", "))}
				}
				continue
			}
			dec.Winner = d.Winner
			r.emit(dec)
			return r.writeFinal(in, doc, "human", r.humanMeta(), nil)
		case JudgeCancel:
			r.emit(dec)
			return &errStop{OutcomeCancelled, fmt.Sprintf("cancelled after the %s failed; everything is kept and the choice is still open: %s", Describe(r.proto).Final, FinalAdvice(r.proto, r.resumeTarget(), letters))}
		case JudgePause:
			r.emit(dec)
			return &errStop{OutcomeWaiting, fmt.Sprintf("paused after the %s failed; %s", Describe(r.proto).Final, FinalAdvice(r.proto, r.resumeTarget(), letters))}
		default:
			return fmt.Errorf("unknown judge decision %q", d.Choice)
		}
	}
}

// judgeAgain is judgeOnce, first reusing (when reuse is set) an answer an
// earlier session paid for whose order-swap check never ran.
func (r *runner) judgeAgain(ctx context.Context, step Final, in FinalInput, prompt []string, reuse bool) (bool, Event, error) {
	if reuse {
		if reused, done, why, err := r.reuseJudge(ctx, step, in, prompt); reused {
			return done, why, err
		}
	}
	return r.judgeOnce(ctx, step, in, prompt)
}

// amendJudge switches the judge to another engine from round k's judge
// step on, recorded in the judge's files like a solver's swap.
func (r *runner) amendJudge(engine string, k int, by string) {
	jid := r.lang.Names().JudgeID
	r.amendment[jid] = joinAmendment(r.amendment[jid], fmt.Sprintf("engine %s → %s from round %d (decided by %s)", r.judgeEngine, engine, k, by))
	r.judgeEngine = engine
}

// judgeOnce calls the final step's engine once: a valid answer is written
// as the final answer (done); a failed one is kept as juiz/tentativa-K.md
// and logged, and why it failed is returned (its judge_failed event).
func (r *runner) judgeOnce(ctx context.Context, step Final, in FinalInput, prompt []string) (done bool, why Event, err error) {
	jid := r.lang.Names().JudgeID
	o, err := r.invokeStarted(ctx, r.last, jid, r.finalRole, func() []string { return prompt }, func() {
		r.emit(Event{Type: EvJudgeStarted, Round: r.last, Engine: r.judgeEngine, Attempt: r.peekAttempt(r.last, jid)})
		r.logJudgeOrder(step, false)
	})
	if err != nil {
		return false, Event{}, err
	}
	attempt := o.attempt // tentativa-K is numbered like its raw output
	if err := o.rawErr(); err != nil {
		return false, Event{}, err
	}
	meta := r.meta(r.last, jid, r.finalRole, o, o.status())
	meta.DebateID = r.bug.ID + "-final"
	var reason string
	if o.status() == bugfolder.StatusOK {
		doc, problems := step.Accept(o.res.Body)
		if len(problems) == 0 {
			if r.beyond.verify {
				// the first call is logged as finished, and its answer kept,
				// before the swap call starts: a kill or a budget stop during
				// that call loses none of its figures, and a resume reuses it
				if err := r.keepJudgeRaw(attempt, answerStream, o.res.Body); err != nil {
					return false, Event{}, err
				}
				r.finishedCall(meta, o, "")
				return r.verifyJudge(ctx, step, in, doc, meta, o)
			}
			// decided by the final step, in its role's word: a debate's
			// judge, a council's or a tradeoff's synthesizer
			return true, Event{}, r.writeFinal(in, doc, string(r.finalRole), meta, o)
		}
		o.res.Body = doc.Body
		meta.Status, meta.Invalid = bugfolder.StatusInvalidOutput, problems
		reason = "invalid answer: " + strings.Join(problems, "; ")
	} else {
		reason = fmt.Sprintf("%s: %s", o.status(), o.res.Err)
	}
	if _, err := r.w.WriteJudgeAttempt(attempt, meta, o.res.Body); err != nil {
		return false, Event{}, err
	}
	r.emit(Event{Type: EvCallFinished, Round: r.last, SolverID: jid, Role: r.finalRole, Engine: o.engine, Attempt: attempt,
		Status: meta.Status, DurationMS: meta.DurationMS, TokensIn: o.tokensIn, TokensOut: o.tokensOut, CostUSD: deref(o.cost), CostUnknown: o.cost == nil, Estimated: o.estimated, CacheRead: o.cache.read, CacheWrite: o.cache.write, CostUncachedUSD: o.cache.uncached, Error: reason})
	failed := Event{Type: EvJudgeFailed, Reason: reason, Attempt: attempt}
	r.emit(failed)
	return false, failed, nil
}

// resumeTarget is the bug argument (and flags) that `moot resume` needs to
// find this debate and its engines again, as the engineer ran it.
func (r *runner) resumeTarget() string {
	if r.opts.ResumeTarget != "" {
		return r.opts.ResumeTarget
	}
	return ResumeArgs(r.bug.ID, r.opts.EnginesFile)
}

// FinalAdvice says what to run after protocol p's final step failed: a
// judge's advice (JudgeAdvice) when the step names a winner; else only
// what works: the retry, then moot decide on the synthesis it writes (no
// --winner: a synthesis names none).
func FinalAdvice(p Protocol, target string, labels []string) string {
	words := Describe(p)
	if words.Winner {
		return JudgeAdvice(target, labels)
	}
	if words.NoDecision {
		return fmt.Sprintf("to retry the %s run `moot resume %s --yes --on-judge-failure retry`; everything else is kept (`moot transcript %s` prints it), and a %s's answer waits for no human decision: there is nothing to decide",
			words.Final, target, target, words.Final)
	}
	subject, _, _ := strings.Cut(target, " --") // decide names the debate only: it reads no engines file
	return fmt.Sprintf("to retry the %s run `moot resume %s --yes --on-judge-failure retry`; once its synthesis is written, `moot decide %s approve|decline|revise` records the human decision (a %s names no winner, so there is no --winner)",
		words.Final, target, subject, words.Final)
}

// JudgeAdvice says exactly what to run after a judge failure: the retry
// (a model call, so --yes) or a human choice among the labels (no call).
// target is the bug (and flags) as `moot resume` takes them.
func JudgeAdvice(target string, labels []string) string {
	ls := strings.Join(labels, ", ")
	first := "A"
	if len(labels) > 0 {
		first = labels[0]
	}
	return fmt.Sprintf("to retry the judge run `moot resume %s --yes --on-judge-failure retry`; to choose the winner yourself run `moot resume %s --winner %s` (labels: %s)", target, target, first, ls)
}

// FinalLabels lists the labels the judge step of a debate offers: one
// letter per valid solver file of the last round.
func FinalLabels(d *bugfolder.Debate) []string {
	if d.Problem == nil {
		return nil
	}
	var out []string
	for _, rd := range d.Rounds {
		if rd.K != d.Problem.R {
			continue
		}
		for _, f := range rd.Files {
			if f.Role == bugfolder.RoleSolver && f.Status == bugfolder.StatusOK {
				out = append(out, string(rune('A'+len(out))))
			}
		}
	}
	return out
}

// keepRetriedJudge keeps a judge attempt that failed in transport and is
// retried at once as juiz/tentativa-K.md, like any failed judge attempt.
func (r *runner) keepRetriedJudge(k int, id string, o *outcome) error {
	meta := r.meta(k, id, r.finalRole, o, o.status())
	meta.DebateID = r.bug.ID + "-final"
	_, err := r.w.WriteJudgeAttempt(o.attempt, meta, o.res.Body)
	return err
}

// keepPrompt saves the judge's prompt for audit, beside its raw output.
func (r *runner) keepPrompt(prompt []string, attempt int) error {
	return r.keepJudgeRaw(attempt, "prompt", r.keptPrompt(prompt))
}

// keptPrompt is a judge prompt as keepPrompt saves it: P, kept once in
// problema.md, named instead of written again (bytes written stay ≤ 2×|P|).
func (r *runner) keptPrompt(prompt []string) string {
	var b strings.Builder
	body := strings.TrimRight(r.p, "\n")
	for _, piece := range prompt {
		if len(body) >= 4096 && len(piece) == len(body) && piece == body {
			// P is kept once, in problema.md: the kept prompt names it
			// instead of writing it again (bytes written stay ≤ 2×|P|)
			piece = pReference(body)
		}
		b.WriteString(piece)
	}
	return b.String()
}

// keepJudgeRaw writes one stream of a judge attempt under juiz/raw/.
func (r *runner) keepJudgeRaw(attempt int, stream, text string) error {
	f, err := r.w.CreateRaw(r.w.RawPath(r.last, r.lang.Names().JudgeID, attempt, stream))
	if err != nil {
		return fmt.Errorf("keep the %s's %s: %w", Describe(r.proto).Final, stream, err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Discard()
		return fmt.Errorf("keep the %s's %s: %w", Describe(r.proto).Final, stream, err)
	}
	return f.Commit()
}

// healthAdvice is the line a final answer opens with when its judge
// discarded almost everything (docs/protocols/debate.md: reduce N or R, or rewrite P): a
// judge's winner that took ideas from fewer than half of the k-1 other
// proposals; warn says it in English for the log. Both "" otherwise (a
// human's choice, a final step that names no winner, a lone proposal).
func (r *runner) healthAdvice(fm bugfolder.FinalMeta, by string, k, tokens int) (line, warn string) {
	if fm.Winner == "" || by != string(r.finalRole) || k < 2 || 2*fm.AcceptedContributions >= k-1 {
		return "", ""
	}
	per, perPT := "no idea", "nenhuma ideia"
	if fm.AcceptedContributions > 0 {
		per = fmt.Sprintf("%.0f tokens per idea", fm.HealthTokensPerContribution)
		perPT = fmt.Sprintf("%.0f tokens por ideia", fm.HealthTokensPerContribution)
	}
	warn = fmt.Sprintf("health: the judge took %d idea(s) from the %d other proposals (%d tokens in all; %s): the debate spent more than it yielded. Next time, reduce N or R, or rewrite P (the bug, its evidence) so the proposals differ where it matters",
		fm.AcceptedContributions, k-1, tokens, per)
	line = r.t(fmt.Sprintf("> Saúde: o juiz aproveitou %d ideia(s) das %d outras propostas (%d tokens ao todo; %s): o debate gastou mais do que rendeu. Da próxima vez, reduza N ou R, ou reescreva P (o bug, as evidências) para que as propostas divirjam no que importa.\n\n",
		fm.AcceptedContributions, k-1, tokens, perPT), "> H"+warn[1:]+".\n\n")
	return line, warn
}

// pReference stands for P in a kept prompt: where it is and its digest,
// so the prompt the engine read can be rebuilt byte for byte.
func pReference(body string) string {
	return fmt.Sprintf("[P: the problem statement of problema.md, %d bytes, sha256 %s, was here]", len(body), bugfolder.SHA256String(body))
}

// writeFinal writes resposta-final.md: the protocol's answer, preceded by
// the degraded line when fewer than N took part, with who decided, how
// many took part and the debate's totals in the front matter beside the
// protocol's own fields.
func (r *runner) writeFinal(in FinalInput, doc FinalDoc, by string, meta bugfolder.DebaterMeta, call *outcome) error {
	for _, w := range doc.Warnings {
		r.emit(Event{Type: EvWarning, Text: w})
	}
	k := len(in.Answers)
	var head strings.Builder
	var absent []string
	if k < r.n {
		fmt.Fprint(&head, degradedLine(r.lang, Describe(r.proto), k, r.n))
		for _, id := range in.Panel {
			if _, ok := in.Answers[id]; !ok {
				absent = append(absent, id)
			}
		}
	}
	head.WriteString(r.budgetHead())
	head.WriteString(doc.Head)
	if call != nil && r.callLogged(meta) {
		call = nil // its call_finished is logged already (the order-swap check's first call): counted once
	}
	_, tokens, usd, _ := r.totals()
	if call != nil {
		tokens += meta.TokensIn + meta.TokensOut
		usd += deref(meta.CostUSD)
	}
	var total *float64 // no cost recorded anywhere: unknown, never 0
	if meta.CostUSD != nil || r.costLogged() {
		total = &usd
	}
	fm := doc.Meta
	fm.DebaterMeta, fm.DecidedBy = meta, by
	fm.Participants, fm.Degraded, fm.Absent = bugfolder.Participants(r.lang, k, r.n), k < r.n, absent
	fm.TotalTokens, fm.TotalCostUSD = tokens, total
	if fm.AcceptedContributions > 0 {
		fm.HealthTokensPerContribution = float64(tokens) / float64(fm.AcceptedContributions)
	}
	fm.Status = bugfolder.StatusOK
	r.markBeyond(&fm, &head)
	if line, warn := r.healthAdvice(fm, by, k, tokens); line != "" {
		head.WriteString(line)
		r.emit(Event{Type: EvWarning, Text: warn})
	}
	var cache *cacheUse
	if call != nil {
		cache = &call.cache
	}
	r.costFields(&fm, meta, cache)
	if _, err := r.w.WriteFinal(fm, head.String()+strings.TrimLeft(doc.Body, "\n")); err != nil {
		return err
	}
	if k < r.n { // said where the run is watched too, not only in the file's first line
		r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("the final answer is degraded: %d of %d %s took part (out: %s); it says so in its first line", k, r.n, Describe(r.proto).Members, strings.Join(absent, ", "))})
	}
	if call != nil {
		r.emit(Event{Type: EvCallFinished, Round: r.last, SolverID: meta.SolverID, Role: r.finalRole, Engine: call.engine, Attempt: call.attempt,
			Status: bugfolder.StatusOK, DurationMS: meta.DurationMS, TokensIn: call.tokensIn, TokensOut: call.tokensOut, CostUSD: deref(call.cost), CostUnknown: call.cost == nil, Estimated: call.estimated,
			CacheRead: call.cache.read, CacheWrite: call.cache.write, CostUncachedUSD: call.cache.uncached})
	}
	winner := "" // a protocol whose final step names no winner (tradeoff) logs none
	if fm.Winner != "" {
		winner = r.lang.LabelName(fm.Winner)
	}
	r.emit(Event{Type: EvJudgeFinished, Winner: winner, By: by, Attempt: meta.Attempt})
	return nil
}

// callLogged reports whether the log already records the final step's
// call meta as finished.
func (r *runner) callLogged(meta bugfolder.DebaterMeta) bool {
	for _, rec := range r.loggedEvents() {
		if rec.Type == EvCallFinished && rec.Round == meta.Round && rec.SolverID == meta.SolverID && rec.Attempt == meta.Attempt {
			return true
		}
	}
	return false
}

// costLogged reports whether some finished call logged a cost.
func (r *runner) costLogged() bool {
	for _, rec := range r.loggedEvents() {
		if rec.Type == EvCallFinished && !rec.Retrying && !rec.CostUnknown {
			return true
		}
	}
	return false
}

// humanMeta is the front matter of a final answer a human decided: no
// engine answered, and no call was made: it cost nothing, a figure known.
func (r *runner) humanMeta() bugfolder.DebaterMeta {
	now := bugfolder.Timestamp(r.now())
	zero := 0.0
	return bugfolder.DebaterMeta{CostUSD: &zero, ProtocolVersion: bugfolder.ProtocolVersion, DebateID: r.bug.ID + "-final", BugID: r.bug.ID,
		Role: r.finalRole, SolverID: r.lang.Names().JudgeID, Engine: "human", Round: r.last, Status: bugfolder.StatusOK,
		StartedAt: now, FinishedAt: now}
}
