package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/safefs"
)

// OrderSwapper is an optional part of a Final whose answer names a winner
// among labelled proposals (a debate's judge), for the judge's order-swap
// check (--verify-judge). SwappedPrompt is the same prompt with every
// proposal in another slot and under another label (a rotation with
// relabelling: a reversal would leave the middle of an odd panel in place
// and every label on its proposal, blind to a judge drawn to a slot or a
// letter). SwappedLabels maps the second call's labels back: the first
// call's label of the proposal shown in each slot (A, B, …) of the second.
type OrderSwapper interface {
	SwappedPrompt() string
	SwappedLabels() []string
}

// unswap is the first call's label of the proposal the check's second
// call named label ("" when it names no slot).
func unswap(sw OrderSwapper, label string) string {
	order := sw.SwappedLabels()
	if len(label) != 1 || label[0] < 'A' || int(label[0]-'A') >= len(order) {
		return ""
	}
	return order[label[0]-'A']
}

// Check verdicts of the order-swap check, as the final answer records them.
const (
	CheckStable   = "stable"
	CheckUnstable = "unstable"
)

// judgeCalls is how many calls one judge attempt makes: two with the
// order-swap check.
func (r *runner) judgeCalls() int {
	if r.beyond.verify {
		return 2
	}
	return 1
}

// logJudgeOrder records the order the judge is shown the labels in: the
// label order, or for the check's second call the first call's labels of
// the proposals in the slots it shows them in (each moved). Only a debate
// checked with --verify-judge logs it.
func (r *runner) logJudgeOrder(step Final, swapped bool) {
	if _, ok := step.(OrderSwapper); !ok || !r.beyond.verify {
		return
	}
	var labels []string
	for _, c := range step.Choices() {
		labels = append(labels, c.Label)
	}
	if sw, ok := step.(OrderSwapper); ok && swapped {
		labels = sw.SwappedLabels()
	}
	r.emit(Event{Type: EvReadingOrder, Round: r.last, SolverID: r.lang.Names().JudgeID, Role: r.finalRole, Order: labels})
}

// verifyJudge is the judge's order-swap check (docs/beyond.md): after a valid
// first answer, the judge is called again with every proposal in another
// slot under another label. The same proposal wins: the verdict is stable and the first answer
// is written as the final answer, saying so. Another winner (or an invalid
// second answer): the verdict is unstable, both answers are kept as
// juiz/tentativa-K.md (each numbered like its raw output), and the judge
// failure's menu opens, as after any failed judge attempt.
func (r *runner) verifyJudge(ctx context.Context, step Final, in FinalInput, first FinalDoc, meta bugfolder.DebaterMeta, o *outcome) (bool, Event, error) {
	sw, ok := step.(OrderSwapper)
	if !ok { // no winner to compare: nothing to check
		return true, Event{}, r.writeFinal(in, first, string(r.finalRole), meta, o)
	}
	jid := r.lang.Names().JudgeID
	swapped := r.splitAt(sw.SwappedPrompt(), pMark)
	r.beyond.swapping = true
	o2, err := r.invokeStarted(ctx, r.last, jid, r.finalRole, func() []string { return swapped }, func() {
		r.emit(Event{Type: EvJudgeStarted, Round: r.last, Engine: r.judgeEngine, Attempt: r.peekAttempt(r.last, jid)})
		r.logJudgeOrder(step, true)
	})
	r.beyond.swapping = false
	if err != nil {
		return false, Event{}, err
	}
	if err := o2.rawErr(); err != nil {
		return false, Event{}, err
	}
	meta2 := r.meta(r.last, jid, r.finalRole, o2, o2.status())
	meta2.DebateID = r.bug.ID + "-final"
	w1 := r.lang.LabelName(first.Meta.Winner)
	var reason string
	var inOrder, reversed string // the winners of an unstable verdict
	switch {
	case o2.status() != bugfolder.StatusOK:
		reason = fmt.Sprintf("order-swap check failed: the judge chose %s, and its second call (every proposal moved and relabelled) ended %s: %s", w1, o2.status(), o2.res.Err)
	default:
		second, problems := step.Accept(o2.res.Body)
		if len(problems) > 0 {
			o2.res.Body = second.Body
			meta2.Status, meta2.Invalid = bugfolder.StatusInvalidOutput, problems
			reason = fmt.Sprintf("order-swap check failed: the judge chose %s, and its answer with every proposal moved and relabelled is invalid: %s", w1, strings.Join(problems, "; "))
			break
		}
		back := unswap(sw, second.Meta.Winner)
		if back == first.Meta.Winner {
			r.beyond.check = CheckStable
			r.finishedCall(meta2, o2, "")
			return true, Event{}, r.writeFinal(in, first, string(r.finalRole), meta, o)
		}
		r.beyond.check = CheckUnstable
		inOrder, reversed = first.Meta.Winner, back
		reason = fmt.Sprintf("unstable verdict: the judge chose %s with the proposals in label order and %s (shown as %s) with every proposal moved and relabelled (both answers kept in %s/)", w1, r.lang.LabelName(reversed), r.lang.LabelName(second.Meta.Winner), jid)
		meta2.Error = reason
	}
	meta.Error = reason
	for _, a := range []struct {
		meta bugfolder.DebaterMeta
		o    *outcome
	}{{meta, o}, {meta2, o2}} {
		if _, err := r.w.WriteJudgeAttempt(a.o.attempt, a.meta, a.o.res.Body); err != nil {
			return false, Event{}, err
		}
		if a.o != o { // the first call was logged before the swap call started
			r.finishedCall(a.meta, a.o, reason)
		}
	}
	failed := Event{Type: EvJudgeFailed, Reason: reason, Attempt: o2.attempt, Winner: inOrder, ReversedWinner: reversed}
	r.emit(failed)
	return false, failed, nil
}

// finishedCall logs a judge call that ended without writing the final
// answer.
func (r *runner) finishedCall(meta bugfolder.DebaterMeta, o *outcome, why string) {
	r.emit(Event{Type: EvCallFinished, Round: r.last, SolverID: meta.SolverID, Role: r.finalRole, Engine: o.engine, Attempt: o.attempt,
		Status: meta.Status, DurationMS: meta.DurationMS, TokensIn: o.tokensIn, TokensOut: o.tokensOut, CostUSD: deref(o.cost), CostUnknown: o.cost == nil, Estimated: o.estimated, CacheRead: o.cache.read, CacheWrite: o.cache.write, CostUncachedUSD: o.cache.uncached, Error: why})
}

// markBeyond records docs/beyond.md's guarantees in the final answer: the
// order-swap check's verdict and a lifted judge family rule, each a front
// matter field and a line before the answer.
func (r *runner) markBeyond(fm *bugfolder.FinalMeta, head *strings.Builder) {
	if r.beyond.verify && r.beyond.check == "" {
		r.beyond.check = r.loggedCheck()
	}
	if r.beyond.verify && r.beyond.check != "" {
		fm.JudgeOrderCheck = r.beyond.check
		switch r.beyond.check {
		case CheckStable:
			fmt.Fprintf(head, r.t("> Verificação de ordem do juiz: estável — o juiz escolheu %s com as propostas na ordem dos rótulos e de novo com cada proposta em outra posição e sob outro rótulo.\n\n",
				"> Judge order-swap check: stable — the judge chose %s with the proposals in label order and again with every proposal in another slot under another label.\n\n"), r.lang.LabelName(fm.Winner))
		default:
			fmt.Fprintf(head, r.t("> Verificação de ordem do juiz: instável — o juiz escolheu vencedores diferentes conforme a ordem das propostas (respostas em %s/); decidido por %s.\n\n",
				"> Judge order-swap check: unstable — the judge chose different winners depending on the proposals' order (answers in %s/); decided by %s.\n\n"), r.lang.Names().JudgeID, deciderIn(r.lang, fm.DecidedBy))
		}
	}
	if r.beyond.sameFamily {
		fm.AllowSameFamily = true
		head.WriteString(r.t("> Família do juiz: --allow-same-family — a regra que impede o juiz de ser da mesma família de fornecedor de um debatedor foi suspensa neste debate.\n\n",
			"> Judge family: --allow-same-family — the rule that keeps the judge out of every debater's vendor family was lifted for this debate.\n\n"))
	}
}

// loggedCheck is the check's verdict the log keeps for a resumed run: the
// last judge failure's, when it was an unstable verdict ("" otherwise).
func (r *runner) loggedCheck() string {
	check := ""
	for _, rec := range r.loggedEvents() {
		if rec.Type == EvJudgeFailed {
			check = ""
			if rec.ReversedWinner != "" {
				check = CheckUnstable
			}
		}
	}
	return check
}

// answerStream is the raw stream that keeps a checked judge's first valid
// answer as parsed (juiz/raw/juiz.attempt-K.answer): the answer a resume
// reuses when the check's second call never finished.
const answerStream = "answer"

// answeredJudge finds the first call of an order-swap check that an
// earlier session paid for and never used (a budget stop or a kill before
// the second call finished): a valid answer logged as finished after the
// last judge failure, decision or final answer, whose kept prompt is the
// one the judge would read now. The resume reuses it and runs only the
// second call. An answer over other proposals (the rounds went on) is not
// reused, and the log says why.
func (r *runner) answeredJudge(step Final, prompt []string) (*outcome, FinalDoc, bool) {
	if _, ok := step.(OrderSwapper); !ok || !r.beyond.verify {
		return nil, FinalDoc{}, false
	}
	jid := r.lang.Names().JudgeID
	var paid []Event
	for _, ev := range r.loggedEvents() {
		switch {
		case ev.Type == EvJudgeFailed || ev.Type == EvJudgeFinished || ev.Type == EvDecision && ev.Point == bugfolder.PointJudge:
			paid = nil
		case ev.Type == EvCallFinished && ev.SolverID == jid && !ev.Retrying && ev.Status == bugfolder.StatusOK && ev.Error == "":
			paid = append(paid, ev)
		}
	}
	want := r.keptPrompt(prompt)
	for i := len(paid) - 1; i >= 0; i-- {
		ev := paid[i]
		kept, err := safefs.ReadFile(filepath.Join(r.w.Dir, r.w.RawPath(r.last, jid, ev.Attempt, "prompt")), 0)
		if err != nil || !sameBesidesNonce(string(kept), want) {
			continue // the check's second call (proposals moved), or other proposals
		}
		body, err := safefs.ReadFile(filepath.Join(r.w.Dir, r.w.RawPath(r.last, jid, ev.Attempt, answerStream)), 0)
		if err != nil {
			continue
		}
		doc, problems := step.Accept(string(body))
		if len(problems) > 0 {
			continue
		}
		o := &outcome{engine: ev.Engine, attempt: ev.Attempt, finished: ev.Time, started: ev.Time.Add(-time.Duration(ev.DurationMS) * time.Millisecond),
			tokensIn: ev.TokensIn, tokensOut: ev.TokensOut, estimated: ev.Estimated, called: true, res: harness.Result{Body: string(body)}}
		if !ev.CostUnknown {
			o.cost = &ev.CostUSD
		}
		r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("the %s's attempt %d answered (%s) and was paid for, but its order-swap check never ran: that answer is reused and only the check's second call runs",
			Describe(r.proto).Final, ev.Attempt, r.lang.LabelName(doc.Meta.Winner))})
		return o, doc, true
	}
	if len(paid) > 0 {
		r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("the %s's attempt %d answered, but over other proposals than it reads now (round %d): it cannot be reused, and the %s is called again",
			Describe(r.proto).Final, paid[len(paid)-1].Attempt, r.last, Describe(r.proto).Final)})
	}
	return nil, FinalDoc{}, false
}

// reuseJudge runs the order-swap check on an answer an earlier session
// paid for (answeredJudge), reporting whether there was one; done, why
// and err as judgeOnce's.
func (r *runner) reuseJudge(ctx context.Context, step Final, in FinalInput, prompt []string) (reused, done bool, why Event, err error) {
	o, doc, ok := r.answeredJudge(step, prompt)
	if !ok {
		return false, false, Event{}, nil
	}
	meta := r.meta(r.last, r.lang.Names().JudgeID, r.finalRole, o, bugfolder.StatusOK)
	meta.DebateID = r.bug.ID + "-final"
	done, why, err = r.verifyJudge(ctx, step, in, doc, meta, o)
	return true, done, why, err
}

// deciderIn names who decided a final answer in l's words: the human, or
// the final step's role ("juiz", "sintetizador" in Portuguese).
func deciderIn(l bugfolder.Lang, by string) string {
	switch by {
	case "human":
		return l.Pick("um humano", "a human")
	case string(bugfolder.RoleJudge):
		return l.Pick("o juiz", "the judge")
	case "synthesizer":
		return l.Pick("o sintetizador", "the synthesizer")
	}
	return by
}
