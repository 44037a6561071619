package tradeoff

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

// TestCountAndFormula: the cost screen counts 2×(R+1)+1 calls and states
// the rebuttal cap before launch.
func TestCountAndFormula(t *testing.T) {
	for _, tc := range []struct {
		r, total int
		formula  string
	}{
		{1, 5, "2×(1+1) + 1 = 5 calls (rebuttal cap: 1 round(s))"},
		{0, 3, "2×(0+1) + 1 = 3 calls (rebuttal cap: 0 round(s))"},
		{3, 9, "2×(3+1) + 1 = 9 calls (rebuttal cap: 3 round(s))"},
	} {
		s := engine.Setup{N: 2, R: tc.r}
		if got := (Protocol{}).Count(s); got.Total != tc.total || got.Solvers != 2*(tc.r+1) || got.Judge != 1 {
			t.Errorf("Count(R=%d) = %+v, want %d", tc.r, got, tc.total)
		}
		if f := (Protocol{}).Formula(s); f != tc.formula {
			t.Errorf("Formula(R=%d) = %q", tc.r, f)
		}
	}
}

const validOpening = "## Posição defendida\n\nOpção A: dedupe.\n\n## Argumento\n\nmenor mudança\n\n## Evidências\n\n- log\n\n## O que falsificaria esta posição\n\num teste\n"

// TestValidateReviewer: a reviewer's answer needs its round's sections in
// order; round 0 names its own option; a rebuttal opens "changed my
// conclusion" with yes or no. Headings in the other language count.
func TestValidateReviewer(t *testing.T) {
	for _, tc := range []struct {
		name, side, body string
		round            int
		problem          string // "" = valid
	}{
		{"opening", "A", validOpening, 0, ""},
		{"english headings", "A", "## Position\n\nOption A\n\n## Argument\n\nx\n\n## Evidence\n\n- y\n\n## What would falsify it\n\nz\n", 0, ""},
		{"defends the other side", "B", validOpening, 0, "does not name option B"},
		{"missing section", "A", "## Posição defendida\n\nOpção A\n\n## Argumento\n\nx\n", 0, "lacks the section ## Evidências"},
		{"out of order", "A", "## Argumento\n\nx\n\n## Posição defendida\n\nOpção A\n\n## Evidências\n\n- y\n\n## O que falsificaria esta posição\n\nz\n", 0, "out of order"},
		{"rebuttal", "A", "## Resposta ao ponto mais forte\n\nx\n\n## Mudei de conclusão\n\nsim: o log de B convence.\n\n## Evidências\n\n- y\n", 1, ""},
		{"rebuttal without yes or no", "A", "## Resposta ao ponto mais forte\n\nx\n\n## Mudei de conclusão\n\ntalvez\n\n## Evidências\n\n- y\n", 1, "does not open with sim ou não"},
		{"opening sections in a rebuttal", "A", validOpening, 1, "is not one of this step's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := engine.Call{Lang: bugfolder.PT, Round: tc.round, Lens: bugfolder.Lens{Name: tc.side}}
			_, problems := Protocol{}.Validate(c, tc.body)
			got := strings.Join(problems, "; ")
			if tc.problem == "" && got != "" || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Errorf("problems %q, want %q", got, tc.problem)
			}
		})
	}
}

func synthBody(missing string) string {
	return "## Fatos acordados\n\n- f\n\n## Alegações contestadas\n\n- c\n\n## Saídas ausentes ou falhas\n\n" + missing +
		"\n\n## Recomendação\n\nOpção A\n\n## Incerteza\n\nmédia\n\n## O que mudaria a recomendação\n\nx\n\n## Decisão humana pendente\n\naprovar, recusar ou revisar\n"
}

// finalInput is a tradeoff's final input with side B absent when failedB.
func finalInput(failedB bool) engine.FinalInput {
	in := engine.FinalInput{Lang: bugfolder.PT, P: "## Pacote\n\nP\n", N: 2, Panel: []string{"agente-1", "agente-2"},
		Answers: map[string]string{"agente-1": "## Resposta ao ponto mais forte\n\nzeta-engine disse x\n", "agente-2": "## Resposta ao ponto mais forte\n\ny\n"},
		Names:   []string{"zeta-engine"},
		Lenses:  map[string]bugfolder.Lens{"agente-1": {Name: "A", Text: "dedupe"}, "agente-2": {Name: "B", Text: "idempotent"}}}
	if failedB {
		delete(in.Answers, "agente-2")
		in.Missing = map[string]bugfolder.Status{"agente-2": bugfolder.StatusTimeout}
	}
	return in
}

// TestSynthesizer: the synthesis needs its seven sections and must name a
// missing side; the final answer always waits for a human decision; the
// prompt names a failed side with its status, never its engine.
func TestSynthesizer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failedB bool
		missing string
		problem string
	}{
		{"both sides", false, "nenhuma", ""},
		{"side B missing, named", true, "- Opção B: timeout", ""},
		{"side B missing, not named", true, "nenhuma", "does not name option B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Protocol{}.Final(finalInput(tc.failedB))
			doc, problems := f.Accept(synthBody(tc.missing))
			got := strings.Join(problems, "; ")
			if tc.problem == "" && got != "" || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Fatalf("problems %q, want %q", got, tc.problem)
			}
			if tc.problem == "" && doc.Meta.Decision != bugfolder.DecisionPending {
				t.Errorf("decision %q, want pending", doc.Meta.Decision)
			}
			prompt := f.Prompt()
			if strings.Contains(prompt, "zeta-engine") {
				t.Error("the synthesizer's prompt names an engine")
			}
			if tc.failedB != strings.Contains(prompt, "REVISOR DA OPÇÃO B: AUSENTE — sem resposta válida (status: timeout)") {
				t.Errorf("failed side B named: %v, want %v", !tc.failedB, tc.failedB)
			}
		})
	}
	if _, problems := (Protocol{}).Final(finalInput(false)).Accept("## Fatos acordados\n\nx\n"); len(problems) < 6 {
		t.Errorf("a synthesis with one section: %v", problems)
	}
}

// TestHumanChoiceAfterFailure: after the synthesizer failed, the
// engineer's choice is recorded as theirs, nothing is synthesized, and
// the decision stays pending.
func TestHumanChoiceAfterFailure(t *testing.T) {
	f := Protocol{}.Final(finalInput(true))
	if _, ok := f.Human("B", 2); ok {
		t.Error("a choice of the missing side was accepted")
	}
	doc, ok := f.Human("A", 2)
	if !ok || doc.Meta.Decision != bugfolder.DecisionPending || !strings.Contains(doc.Body, "Escolha humana no menu de falha do sintetizador: opção A") ||
		!strings.Contains(doc.Body, "Opção B (agente-2): timeout") {
		t.Errorf("%v %+v\n%s", ok, doc.Meta, doc.Body)
	}
}

// TestPromptsGolden: the reviewers' prompts (round 0, a rebuttal with the
// other side missing) and the synthesizer's, in both languages.
func TestPromptsGolden(t *testing.T) {
	pk := Packet{Decision: "BUG-1 — desconto duplicado", A: "dedupe", B: "idempotent", Criteria: []string{"risco", "reversibilidade"},
		Evidence: &bugfolder.Problem{Text: "### Bug\n\nEvidência.\n"}}
	for _, l := range []bugfolder.Lang{bugfolder.PT, bugfolder.EN} {
		pk.Lang = l
		p := pk.Problem().Text
		var all strings.Builder
		all.WriteString(p + "\n=====\n")
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, ID: l.SolverID(1), N: 2, R: 1, Round: 0, P: p, Lens: bugfolder.Lens{Name: "A", Text: "dedupe"}}) + "\n=====\n")
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, ID: l.SolverID(1), N: 2, R: 1, Round: 1, P: p, Nonce: "N0NCE", Lens: bugfolder.Lens{Name: "A", Text: "dedupe"},
			Snapshot: []engine.SnapshotEntry{{ID: l.SolverID(1), Own: true, Body: "minha"}, {ID: l.SolverID(2), Missing: true, Status: bugfolder.StatusError}}}) + "\n=====\n")
		in := finalInput(true)
		in.Lang, in.P = l, p
		s := Protocol{}.Final(in).(*synthesizer)
		all.WriteString(synthPrompt(s.in, s.sides, "N0NCE"))
		t.Run(l.String(), func(t *testing.T) { golden.RequireEqual(t, []byte(all.String())) })
	}
}

// FuzzAnswers feeds model output (outside input) to the reviewer's and the
// synthesizer's validators: they never panic, a body they accept is
// accepted again as they rewrote it, and an accepted synthesis always
// names the side that failed.
func FuzzAnswers(f *testing.F) {
	f.Add(validOpening, 0)
	f.Add("## Resposta ao ponto mais forte\n\nx\n\n## Mudei de conclusão\n\nsim\n\n## Evidências\n\n- y\n", 1)
	f.Add(synthBody("- Opção B: timeout"), 2)
	f.Add("## Position: Option A\n```\n## Argument\n```\n## Evidence\n", 0)
	f.Fuzz(func(t *testing.T, body string, round int) {
		round = max(0, round%3)
		c := engine.Call{Lang: bugfolder.PT, Round: round, Lens: bugfolder.Lens{Name: "A"}}
		out, problems := Protocol{}.Validate(c, body)
		if len(problems) == 0 {
			if _, again := (Protocol{}).Validate(c, out); len(again) > 0 {
				t.Errorf("an accepted answer, rewritten, is refused: %v\n%q", again, out)
			}
		}
		_ = Protocol{}.Measure("", round, 2, map[string]string{"agente-1": body}, nil)
		doc, problems := Protocol{}.Final(finalInput(true)).Accept(body)
		if len(problems) == 0 {
			_, got, _ := checkSections(bugfolder.PT, doc.Body, synthesis)
			if !namesSide(got[secMissing], "B") || doc.Meta.Decision != bugfolder.DecisionPending {
				t.Errorf("an accepted synthesis does not name the failed side B or is not pending:\n%q", doc.Body)
			}
		}
	})
}

// TestConvergenceNamesWho: convergencia.md names, per round, who answered
// and, in a rebuttal round, who changed its conclusion and who kept it,
// each with its option — not counts alone.
func TestConvergenceNamesWho(t *testing.T) {
	changed := "## Resposta ao ponto mais forte\n\nx\n\n## Mudei de conclusão\n\nSim: B's latency data is right.\n\n## Evidências\n\n- y\n"
	kept := "## Resposta ao ponto mais forte\n\nx\n\n## Mudei de conclusão\n\nnão\n\n## Evidências\n\n- y\n"
	rows := []engine.ConvergenceRow{
		Protocol{}.Measure("", 0, 2, map[string]string{"agente-1": validOpening, "agente-2": validOpening}, nil),
		Protocol{}.Measure("", 1, 2, map[string]string{"agente-2": kept, "agente-1": changed}, nil),
		Protocol{}.Measure("", 2, 2, map[string]string{"agente-2": kept}, nil),
	}
	for _, tc := range []struct {
		lang bugfolder.Lang
		want []string
	}{
		{bugfolder.EN, []string{
			"| 0 | 2 | 2: agente-1 (option A), agente-2 (option B) | — (opening positions) | — |",
			"| 1 | 2 | 2: agente-1 (option A), agente-2 (option B) | 1: agente-1 (option A) | 1: agente-2 (option B) |",
			"| 2 | 2 | 1: agente-2 (option B) | — | 1: agente-2 (option B) |",
		}},
		{bugfolder.PT, []string{"| 1 | 2 | 2: agente-1 (opção A), agente-2 (opção B) | 1: agente-1 (opção A) | 1: agente-2 (opção B) |", "mudaram de conclusão | mantiveram a conclusão"}},
	} {
		got := Protocol{}.RenderConvergence(tc.lang, "", rows, nil)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: convergencia.md lacks %q:\n%s", tc.lang, w, got)
			}
		}
	}
	if r := rows[1].(Row); r.Changed != 1 || r.Valid != 2 {
		t.Errorf("counts: %+v", r)
	}
}

// TestEveryPromptOfATradeoffBeginsWithTheSameBlockHoldingP: both
// reviewers' prompts of every round and the synthesizer's begin with the
// same bytes holding the evidence packet.
func TestEveryPromptOfATradeoffBeginsWithTheSameBlockHoldingP(t *testing.T) {
	in := finalInput(false)
	var prompts []string
	for round := 0; round <= 2; round++ {
		for i, side := range []string{"A", "B"} {
			c := engine.Call{Lang: bugfolder.PT, ID: bugfolder.PT.SolverID(i + 1), N: 2, R: 2, Round: round, P: in.P, Nonce: "n" + side, Lens: in.Lenses[bugfolder.PT.SolverID(i+1)]}
			if round > 0 {
				c.Snapshot = []engine.SnapshotEntry{{ID: bugfolder.PT.SolverID(2 - i), Body: "o outro lado"}}
			}
			prompts = append(prompts, Protocol{}.Prompt(c))
		}
	}
	prompts = append(prompts, Protocol{}.Final(in).Prompt())
	testutil.RequireSharedPrefix(t, prompts, in.P, engine.SharedEnd)
}
