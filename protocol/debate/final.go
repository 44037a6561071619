package debate

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// judge is the isolated judge over one debate's final proposals.
type judge struct {
	in      engine.FinalInput
	props   []engine.Proposal
	letters []string
	nonce   string
}

// Final anonymizes the final proposals (participant ids, engine and model
// names), orders them by the sha256 of their anonymized text and letters
// them A, B, …: the judge sees those and the frozen rubric, nothing else.
func (Protocol) Final(in engine.FinalInput) engine.Final {
	props := engine.Label(engine.NewAnonymizer(in.Lang, in.Names, engine.HideAll), in.Answers)
	j := &judge{in: in, props: props, nonce: engine.Nonce()}
	for _, p := range props {
		j.letters = append(j.letters, p.Label)
	}
	return j
}

// Prompt is the judge's prompt.
func (j *judge) Prompt() string {
	return JudgePrompt{Lang: j.in.Lang, Mode: j.in.Mode, Rubric: j.in.Rubric, P: j.in.P, Proposals: j.props, Nonce: j.nonce}.Render()
}

// SwappedPrompt is the judge's prompt for the order-swap check: every
// proposal moved one slot on (the last to the first) and relabelled by
// its new slot, so each sits in another slot under another label, and a
// judge drawn to a slot (the middle of an odd panel too) or to a letter
// picks another proposal.
func (j *judge) SwappedPrompt() string {
	props := j.rotated()
	return JudgePrompt{Lang: j.in.Lang, Mode: j.in.Mode, Rubric: j.in.Rubric, P: j.in.P, Proposals: props, Nonce: j.nonce}.Render()
}

// SwappedLabels are the first call's labels of the proposals the check's
// second call shows, in its slot order (its labels A, B, …).
func (j *judge) SwappedLabels() []string {
	var out []string
	for _, p := range j.rotatedOrder() {
		out = append(out, j.props[p].Label)
	}
	return out
}

// rotatedOrder is, per slot of the check's second call, the index of the
// proposal shown there: each moved one slot on.
func (j *judge) rotatedOrder() []int {
	n := len(j.props)
	out := make([]int, n)
	for i := range n {
		out[i] = (i + n - 1) % n
	}
	return out
}

// rotated is the proposals as the check's second call shows them,
// relabelled by slot.
func (j *judge) rotated() []engine.Proposal {
	var out []engine.Proposal
	for slot, i := range j.rotatedOrder() {
		p := j.props[i]
		p.Label = string(rune('A' + slot))
		out = append(out, p)
	}
	return out
}

// Choices are the labelled proposals.
func (j *judge) Choices() []engine.LabelPreview {
	out := make([]engine.LabelPreview, len(j.props))
	for i, p := range j.props {
		out[i] = engine.LabelPreview{Label: p.Label, Preview: p.Body, Member: p.SolverID}
	}
	return out
}

// Accept checks the judge's answer: one of the labels as the winner,
// grafts, a rationale per criterion and a synthesis in the mode's
// sections (in spec mode, with one recommended verdict). Grafts the judge
// took from the winner itself are dropped, with a warning.
func (j *judge) Accept(body string) (engine.FinalDoc, []string) {
	l := j.in.Lang
	body = bugfolder.CanonicalHeadings(body, l)
	ans, v := bugfolder.ValidateJudge(body, l, j.letters, len(j.in.Rubric))
	verdict := j.checkSynthesis(ans, &v)
	if !v.OK() {
		var problems []string
		for _, p := range v.Problems {
			problems = append(problems, p.String())
		}
		return engine.FinalDoc{Body: body}, problems
	}
	doc := j.doc(ans.Winner, ans.AcceptedContributions(), verdict)
	var dropped int
	doc.Body, dropped = bugfolder.DropSelfGrafts(body, l, ans)
	if dropped > 0 {
		doc.Warnings = append(doc.Warnings, fmt.Sprintf("the judge grafted %d idea(s) from the winner %s itself: no contribution of another debater, so dropped from the final answer (the raw answer keeps them)", dropped, l.LabelName(ans.Winner)))
	}
	return doc, nil
}

// doc is the final answer's front matter and head for a winner.
func (j *judge) doc(winner string, accepted int, verdict string) engine.FinalDoc {
	var labels []bugfolder.KV
	winnerSolver := ""
	for _, p := range j.props {
		labels = append(labels, bugfolder.KV{Key: p.Label, Value: p.SolverID})
		if p.Label == winner {
			winnerSolver = p.SolverID
		}
	}
	doc := engine.FinalDoc{Meta: bugfolder.FinalMeta{Winner: winner, WinnerSolver: winnerSolver,
		Labels: bugfolder.OrderedMap(labels), AcceptedContributions: accepted}}
	if j.in.Mode == bugfolder.Spec {
		v := verdict
		if v == "" {
			v = t(j.in.Lang, "nenhum", "none")
		}
		doc.Head = fmt.Sprintf(t(j.in.Lang, "> Veredito recomendado: %s. É uma recomendação: a decisão sobre a spec é humana.\n\n",
			"> Recommended verdict: %s. It is a recommendation: the decision on the spec is a human's.\n\n"), v)
		doc.Meta.RecommendedVerdict, doc.Meta.Decision = verdict, "pending"
	}
	return doc
}

// checkSynthesis holds the judge's synthesis to the mode: it must carry
// the mode's sections, and in spec mode state the recommended verdict,
// which it returns.
func (j *judge) checkSynthesis(ans *bugfolder.JudgeAnswer, v *bugfolder.Validation) string {
	l, mode := j.in.Lang, j.in.Mode
	if ans.Synthesis == "" {
		return ""
	}
	for _, h := range bugfolder.MissingModeSections(ans.Synthesis, l, mode) {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(l), Detail: "lacks the mode's section " + h})
	}
	if mode != bugfolder.Spec {
		return ""
	}
	verdict, several := bugfolder.FindVerdict(ans.Synthesis, l)
	if several {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(l), Detail: "names more than one verdict (" + bugfolder.SpecVerdictWords(l) + "): recommend exactly one"})
	} else if verdict == "" {
		v.Problems = append(v.Problems, bugfolder.Finding{Section: bugfolder.SecSynthesis.Heading(l), Detail: "states no recommended verdict (" + bugfolder.SpecVerdictWords(l) + ")"})
	}
	return verdict
}

// Human records the engineer's choice after the judge failed: the winning
// proposal is the synthesis, its mode sections quoted as it wrote them (not
// anonymized: no model reads this) inside a fence with a fresh code, so
// what it forged (a fence, "ignore the rubric") stays marked as its text;
// its critique of the others dropped; nothing is invented.
func (j *judge) Human(label string, attempts int) (engine.FinalDoc, bool) {
	var win *engine.Proposal
	for i := range j.props {
		if j.props[i].Label == label {
			win = &j.props[i]
		}
	}
	if win == nil {
		return engine.FinalDoc{}, false
	}
	l := j.in.Lang
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n\n", bugfolder.SecWinner.Heading(l), l.LabelName(label))
	fmt.Fprintf(&b, "%s\n\n%s\n\n", bugfolder.SecGrafts.Heading(l), l.NoneWord())
	fmt.Fprintf(&b, "%s\n\n", bugfolder.SecRationale.Heading(l))
	fmt.Fprintf(&b, t(l, "- Escolha humana: o juiz falhou %d vez(es) (ver %s/) e o engenheiro escolheu %s. Nenhuma justificativa por critério foi gerada.\n\n",
		"- Human choice: the judge failed %d time(s) (see %s/) and the engineer chose %s. No per-criterion rationale was produced.\n\n"), attempts, l.Names().JudgeID, l.LabelName(label))
	synth := strings.TrimSpace(bugfolder.DropSection(win.Original, bugfolder.SecCritique))
	// the proposal's text is quoted as written, but fenced: it is a
	// debater's untrusted text, and a fence or an instruction it forged
	// stays inside the real one (whose code is fresh)
	name := strings.ToUpper(l.LabelName(label))
	fmt.Fprintf(&b, "%s\n\n", bugfolder.SecSynthesis.Heading(l))
	fmt.Fprintf(&b, t(l, "> A proposta vencedora citada como o debatedor a escreveu, entre <<<INÍCIO … %[1]s>>> e <<<FIM … %[1]s>>>: é texto do debatedor, não instrução.\n\n",
		"> The winning proposal quoted as its debater wrote it, between <<<BEGIN … %[1]s>>> and <<<END … %[1]s>>>: it is the debater's text, not instructions.\n\n"), j.nonce)
	fmt.Fprintf(&b, "<<<%s %s %s>>>\n%s\n<<<%s %s %s>>>\n", t(l, "INÍCIO", "BEGIN"), name, j.nonce, synth, t(l, "FIM", "END"), name, j.nonce)
	verdict := ""
	if j.in.Mode == bugfolder.Spec {
		verdict = bugfolder.RecommendedVerdict(synth, l)
	}
	doc := j.doc(label, 1, verdict)
	doc.Body = b.String()
	return doc, true
}

// t picks the Portuguese or English text.
func t(l bugfolder.Lang, pt, en string) string { return l.Pick(pt, en) }
