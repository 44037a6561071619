package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// proposals labels the final proposals: the valid round-R files of the
// panel, anonymized and ordered by the sha256 of their anonymized content.
func (r *runner) proposals() []Proposal {
	files := r.roundFiles(r.r)
	bodies := map[string]string{}
	for _, id := range r.panelIDs() {
		if f := files[id]; f != nil && f.Status == bugfolder.StatusOK {
			bodies[id] = f.Body
		}
	}
	return Label(r.scrubber(HideAll), bodies)
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

var attemptRE = regexp.MustCompile(`^(?:tentativa|attempt)-(\d+)\.md$`)

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
// that no decision settled (so resume asks again instead of calling).
func (r *runner) judgePending() bool {
	pending := false
	for _, rec := range readLog(r.w.Dir, r.lang) {
		switch {
		case rec.Type == EvJudgeFailed:
			pending = true
		case rec.Type == EvDecision && rec.Point == bugfolder.PointJudge && resolves(rec.Choice):
			pending = false
		case rec.Type == EvJudgeStarted:
			pending = false
		}
	}
	return pending
}

func resolves(choice string) bool {
	return choice != string(JudgeCancel) && choice != string(JudgePause) && choice != ""
}

// runJudge calls the isolated judge until its answer is valid or the
// Supervisor decides otherwise.
func (r *runner) runJudge(ctx context.Context) error {
	props := r.proposals()
	if len(props) == 0 {
		return &errStop{OutcomeWaiting, fmt.Sprintf("round %d has no valid proposal: there is nothing to judge", r.r)}
	}
	letters := make([]string, len(props))
	for i, p := range props {
		letters[i] = p.Label
	}
	nonce := Nonce()
	prompt := JudgePrompt{Lang: r.lang, Mode: r.mode, Rubric: r.rubric, P: r.p, Proposals: props, Nonce: nonce}.Render()
	ask := r.judgePending()
	reason := "the judge's last attempt failed"
	for {
		if !ask {
			jid := r.lang.Names().JudgeID
			r.emit(Event{Type: EvJudgeStarted, Round: r.r, Engine: r.judgeEngine, Attempt: r.peekAttempt(r.r, jid)})
			o, err := r.invoke(ctx, r.r, jid, bugfolder.RoleJudge, prompt)
			if err != nil {
				return err
			}
			attempt := o.attempt // tentativa-K is numbered like its raw output
			if err := o.rawErr(); err != nil {
				return err
			}
			meta := r.meta(r.r, jid, bugfolder.RoleJudge, o, o.status())
			meta.DebateID = r.bug.ID + "-final"
			if o.status() == bugfolder.StatusOK {
				o.res.Body = bugfolder.CanonicalHeadings(o.res.Body, r.lang)
				ans, v := bugfolder.ValidateJudge(o.res.Body, r.lang, letters, len(r.rubric))
				verdict := r.checkSynthesis(ans, &v)
				if v.OK() {
					body, dropped := bugfolder.DropSelfGrafts(o.res.Body, r.lang, ans)
					if dropped > 0 {
						r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("the judge grafted %d idea(s) from the winner %s itself: no contribution of another debater, so dropped from the final answer (the raw answer keeps them)", dropped, r.lang.LabelName(ans.Winner))})
					}
					return r.writeFinal(props, ans.Winner, ans.AcceptedContributions(), "judge", meta, body, o, verdict)
				}
				meta.Status = bugfolder.StatusInvalidOutput
				for _, p := range v.Problems {
					meta.Invalid = append(meta.Invalid, p.String())
				}
				reason = "invalid answer: " + v.Summary()
			} else {
				reason = fmt.Sprintf("%s: %s", o.status(), o.res.Err)
			}
			if _, err := r.w.WriteJudgeAttempt(attempt, meta, o.res.Body); err != nil {
				return err
			}
			r.emit(Event{Type: EvCallFinished, Round: r.r, SolverID: jid, Role: bugfolder.RoleJudge, Engine: o.engine, Attempt: attempt,
				Status: meta.Status, DurationMS: meta.DurationMS, TokensIn: o.tokensIn, TokensOut: o.tokensOut, CostUSD: deref(o.cost), CostUnknown: o.cost == nil, Estimated: o.estimated, Error: reason})
			r.emit(Event{Type: EvJudgeFailed, Reason: reason, Attempt: attempt})
		}
		ask = false
		jf := JudgeFailure{Attempt: r.lastJudgeAttempt(), Reason: reason, RetryUSD: r.estimateCall(r.judgeEngine, bugfolder.RoleJudge)}
		for _, p := range props {
			jf.Labels = append(jf.Labels, LabelPreview{Label: p.Label, Preview: p.Body})
		}
		d, err := r.opts.Supervisor.JudgeFailed(ctx, jf)
		if errors.Is(err, ErrNeedHuman) {
			return &errStop{OutcomeWaiting, fmt.Sprintf("the judge failed (%s) and no human can be asked; %s", reason, JudgeAdvice(r.resumeTarget(), letters))}
		}
		if err != nil {
			return err
		}
		by := d.By
		if by == "" {
			by = "human"
		}
		dec := Event{Type: EvDecision, Point: bugfolder.PointJudge, Choice: string(d.Choice), By: by, Round: r.r}
		switch d.Choice {
		case JudgeRetry:
			dec.ExtraCalls, dec.ExtraUSD = 1, jf.RetryUSD
			r.emit(dec)
		case JudgeHuman:
			if !contains(letters, d.Winner) {
				r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("%s is not one of the labels (%s); choose again", r.lang.LabelName(d.Winner), strings.Join(letters, ", "))})
				ask = true
				if _, ok := r.opts.Supervisor.(*Policies); ok {
					return &bugfolder.InputError{Field: "--winner", Msg: fmt.Sprintf("%s names no proposal: the labels are %s", d.Winner, strings.Join(letters, ", "))}
				}
				continue
			}
			dec.Winner = d.Winner
			r.emit(dec)
			return r.writeHumanFinal(props, d.Winner)
		case JudgeCancel:
			r.emit(dec)
			return &errStop{OutcomeCancelled, fmt.Sprintf("cancelled after the judge failed; everything is kept and the choice is still open: %s", JudgeAdvice(r.resumeTarget(), letters))}
		case JudgePause:
			r.emit(dec)
			return &errStop{OutcomeWaiting, fmt.Sprintf("paused after the judge failed; %s", JudgeAdvice(r.resumeTarget(), letters))}
		default:
			return fmt.Errorf("unknown judge decision %q", d.Choice)
		}
	}
}

// resumeTarget is the bug argument (and flags) that `moot resume` needs to
// find this debate and its engines again, as the engineer ran it.
func (r *runner) resumeTarget() string {
	if r.opts.ResumeTarget != "" {
		return r.opts.ResumeTarget
	}
	return r.bug.ID
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

// checkSynthesis holds the judge's synthesis to the mode: it must carry
// the mode's sections, and in spec mode state the recommended verdict,
// which it returns.
func (r *runner) checkSynthesis(ans *bugfolder.JudgeAnswer, v *bugfolder.Validation) string {
	if ans.Synthesis == "" {
		return ""
	}
	for _, h := range bugfolder.MissingModeSections(ans.Synthesis, r.lang, r.mode) {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(r.lang), Detail: "lacks the mode's section " + h})
	}
	if r.mode != bugfolder.Spec {
		return ""
	}
	verdict, several := bugfolder.FindVerdict(ans.Synthesis, r.lang)
	if several {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(r.lang), Detail: "names more than one verdict (" + bugfolder.SpecVerdictWords(r.lang) + "): recommend exactly one"})
	} else if verdict == "" {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(r.lang), Detail: "states no recommended verdict (" + bugfolder.SpecVerdictWords(r.lang) + ")"})
	}
	return verdict
}

// keepRetriedJudge keeps a judge attempt that failed in transport and is
// retried at once as juiz/tentativa-K.md, like any failed judge attempt.
func (r *runner) keepRetriedJudge(k int, id string, o *outcome) error {
	meta := r.meta(k, id, bugfolder.RoleJudge, o, o.status())
	meta.DebateID = r.bug.ID + "-final"
	_, err := r.w.WriteJudgeAttempt(o.attempt, meta, o.res.Body)
	return err
}

// keepPrompt saves the judge's prompt for audit, beside its raw output.
func (r *runner) keepPrompt(prompt string, attempt int) error {
	f, err := r.w.CreateRaw(r.w.RawPath(r.r, r.lang.Names().JudgeID, attempt, "prompt"))
	if err != nil {
		return err
	}
	if _, err := f.Write([]byte(prompt)); err != nil {
		f.Discard()
		return err
	}
	return f.Commit()
}

// writeFinal writes resposta-final.md: the judge's answer as received,
// preceded by the degraded line when fewer than N took part, with the
// label → solver map, the accepted contributions, who decided and how many
// took part in the front matter.
func (r *runner) writeFinal(props []Proposal, winner string, accepted int, by string, meta bugfolder.DebaterMeta, body string, call *outcome, verdict string) error {
	var labels []bugfolder.KV
	winnerSolver := ""
	for _, p := range props {
		labels = append(labels, bugfolder.KV{Key: p.Label, Value: p.SolverID})
		if p.Label == winner {
			winnerSolver = p.SolverID
		}
	}
	k := len(props)
	var head strings.Builder
	var absent []string
	if k < r.n {
		fmt.Fprintf(&head, r.t("> Debate degradado: %d de %d debatedores participaram.\n\n", "> Degraded debate: %d of %d debaters took part.\n\n"), k, r.n)
		for _, id := range r.solvers {
			found := false
			for _, p := range props {
				found = found || p.SolverID == id
			}
			if !found {
				absent = append(absent, id)
			}
		}
	}
	if r.mode == bugfolder.Spec {
		v := verdict
		if v == "" {
			v = r.t("nenhum", "none")
		}
		fmt.Fprintf(&head, r.t("> Veredito recomendado: %s. É uma recomendação: a decisão sobre a spec é humana.\n\n",
			"> Recommended verdict: %s. It is a recommendation: the decision on the spec is a human's.\n\n"), v)
	}
	_, tokens, usd, known := r.totals()
	tokens += meta.TokensIn + meta.TokensOut
	usd += deref(meta.CostUSD)
	var total *float64 // no cost recorded anywhere: unknown, never 0
	if known || meta.CostUSD != nil {
		total = &usd
	}
	fm := bugfolder.FinalMeta{DebaterMeta: meta, Winner: winner, WinnerSolver: winnerSolver,
		Labels: bugfolder.OrderedMap(labels), AcceptedContributions: accepted, DecidedBy: by,
		Participants: bugfolder.Participants(r.lang, k, r.n), Degraded: k < r.n, Absent: absent,
		TotalTokens: tokens, TotalCostUSD: total}
	if r.mode == bugfolder.Spec {
		fm.RecommendedVerdict, fm.Decision = verdict, "pending"
	}
	if accepted > 0 {
		fm.HealthTokensPerContribution = float64(tokens) / float64(accepted)
	}
	fm.Status = bugfolder.StatusOK
	if _, err := r.w.WriteFinal(fm, head.String()+strings.TrimLeft(body, "\n")); err != nil {
		return err
	}
	if call != nil {
		r.emit(Event{Type: EvCallFinished, Round: r.r, SolverID: meta.SolverID, Role: bugfolder.RoleJudge, Engine: call.engine, Attempt: call.attempt,
			Status: bugfolder.StatusOK, DurationMS: meta.DurationMS, TokensIn: call.tokensIn, TokensOut: call.tokensOut, CostUSD: deref(call.cost), CostUnknown: call.cost == nil, Estimated: call.estimated})
	}
	r.emit(Event{Type: EvJudgeFinished, Winner: r.lang.LabelName(winner), By: by, Attempt: meta.Attempt})
	return nil
}

// writeHumanFinal records the engineer's choice after a judge failure:
// the winning proposal (anonymized) is the synthesis; nothing is invented.
func (r *runner) writeHumanFinal(props []Proposal, winner string) error {
	var win Proposal
	for _, p := range props {
		if p.Label == winner {
			win = p
		}
	}
	now := bugfolder.Timestamp(r.now())
	meta := bugfolder.DebaterMeta{ProtocolVersion: bugfolder.ProtocolVersion, DebateID: r.bug.ID + "-final", BugID: r.bug.ID,
		Role: bugfolder.RoleJudge, SolverID: r.lang.Names().JudgeID, Engine: "human", Round: r.r, Status: bugfolder.StatusOK,
		StartedAt: now, FinishedAt: now}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n\n", bugfolder.SecWinner.Heading(r.lang), r.lang.LabelName(winner))
	fmt.Fprintf(&b, "%s\n\n%s\n\n", bugfolder.SecGrafts.Heading(r.lang), r.lang.NoneWord())
	fmt.Fprintf(&b, "%s\n\n", bugfolder.SecRationale.Heading(r.lang))
	fmt.Fprintf(&b, r.t("- Escolha humana: o juiz falhou %d vez(es) (ver %s/) e o engenheiro escolheu %s. Nenhuma justificativa por critério foi gerada.\n\n",
		"- Human choice: the judge failed %d time(s) (see %s/) and the engineer chose %s. No per-criterion rationale was produced.\n\n"), r.judgeAttempts(), r.lang.Names().JudgeID, r.lang.LabelName(winner))
	// the chosen proposal's mode sections, quoted as it wrote them (not
	// anonymized: no model reads this); its critique of the others is no
	// part of an answer
	synth := strings.TrimSpace(bugfolder.DropSection(win.Original, bugfolder.SecCritique))
	fmt.Fprintf(&b, "%s\n\n%s", bugfolder.SecSynthesis.Heading(r.lang), synth+"\n")
	verdict := ""
	if r.mode == bugfolder.Spec {
		verdict = bugfolder.RecommendedVerdict(synth, r.lang)
	}
	return r.writeFinal(props, winner, 1, "human", meta, b.String(), nil, verdict)
}
