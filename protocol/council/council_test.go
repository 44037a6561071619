package council

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

const testP = "### BUG-7 — desconto duplicado\n\n### `src/cart.go` (evidência)\n\nfunc Apply() {}\n"

const validPosition = "## Recomendação\n\nDeduplicar no carrinho.\n\n## Raciocínio\n\nsegurança primeiro\n\n## Evidências\n\n- `src/cart.go`: Apply roda duas vezes\n- BUG-7 descreve o duplo desconto\n\n## Confiança\n\n80 %\n\n## Limitações\n\n- não vi os logs\n"

func rebuttalBody(agree, disagree, keep, conf string) string {
	return "## Concordo com\n\n" + agree + "\n\n## Discordo de\n\n" + disagree + "\n\n## Ponto cego identificado\n\n- performance não viu o lock\n\n## Mantenho minha posição\n\n" + keep + "\n\n## Confiança\n\n" + conf + "\n"
}

// TestCountAndFormula: the cost screen counts N×(R+1)+1 calls.
func TestCountAndFormula(t *testing.T) {
	for _, tc := range []struct {
		n, r, total int
		formula     string
	}{
		{3, 2, 10, "3×(2+1) + 1 = 10 calls"},
		{8, 3, 33, "8×(3+1) + 1 = 33 calls"},
		{2, 0, 3, "2×(0+1) + 1 = 3 calls"},
	} {
		s := engine.Setup{N: tc.n, R: tc.r}
		if got := (Protocol{}).Count(s); got.Total != tc.total || got.Judge != 1 {
			t.Errorf("Count(N=%d,R=%d) = %+v, want %d", tc.n, tc.r, got, tc.total)
		}
		if f := (Protocol{}).Formula(s); f != tc.formula {
			t.Errorf("Formula = %q, want %q", f, tc.formula)
		}
	}
}

// TestRefusals: R > 3, critics and a member without a lens are refused.
func TestRefusals(t *testing.T) {
	two := []bugfolder.Lens{{Name: "security"}, {Name: "performance"}}
	for _, tc := range []struct {
		name string
		s    engine.Setup
		want string
	}{
		{"ok", engine.Setup{N: 2, R: 3, Lenses: two}, ""},
		{"R=4", engine.Setup{N: 2, R: 4, Lenses: two}, "at most 3"},
		{"no lens", engine.Setup{N: 2, R: 1}, "one lens per member"},
		{"critic", engine.Setup{N: 2, R: 1, Lenses: two, Critics: []string{"x"}}, "no critics"},
	} {
		got := strings.Join(Protocol{}.Refusals(tc.s), "; ")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: refusals %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestValidateMember: a member's sections in order per round; a
// percentage confidence; "Mantenho" opens with sim/não/parcialmente;
// uncited evidence is a note, never a failure.
func TestValidateMember(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		round      int
		problem    string // "" = valid
		note       string // "" = no opinion note
	}{
		{"position", validPosition, 0, "", ""},
		{"english headings", "## Recommendation\n\nx\n\n## Reasoning\n\ny\n\n## Evidence\n\n- src/cart.go:12 runs twice\n\n## Confidence\n\n55%\n\n## Limitations\n\nz\n", 0, "", ""},
		{"uncited evidence is opinion", strings.Replace(validPosition, "- BUG-7 descreve o duplo desconto", "- todo mundo sabe disso", 1), 0, "", "1 item(ns) de ## Evidências não citam"},
		{"citation absent from P", strings.Replace(validPosition, "`src/cart.go`", "`src/other.go`", 1), 0, "", "Apply roda duas vezes"},
		{"missing section", "## Recomendação\n\nx\n\n## Raciocínio\n\ny\n", 0, "lacks the section ## Evidências", ""},
		{"confidence without percentage", strings.Replace(validPosition, "80 %", "alta", 1), 0, "states no percentage", ""},
		{"confidence over 100", strings.Replace(validPosition, "80 %", "180 %", 1), 0, "states no percentage", ""},
		{"rebuttal", rebuttalBody("- security sobre o lock", "- performance sobre cache: `src/cart.go` mostra", "parcialmente: ajusto o prazo", "70%"), 1, "", ""},
		{"rebuttal uncited disagreement", rebuttalBody("nenhum", "- performance está errado", "sim", "70%"), 1, "", "## Discordo de"},
		{"keep without word", rebuttalBody("nenhum", "nenhum", "talvez", "70%"), 1, "does not open with sim, não ou parcialmente", ""},
		{"position sections in a rebuttal", validPosition, 1, "is not one of this step's", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := engine.Call{Lang: bugfolder.PT, Round: tc.round, P: testP}
			out, problems := Protocol{}.Validate(c, tc.body)
			got := strings.Join(problems, "; ")
			if tc.problem == "" && got != "" || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Errorf("problems %q, want %q", got, tc.problem)
			}
			hasNote := strings.HasPrefix(out, "> moot:")
			if tc.note == "" && hasNote || tc.note != "" && (!hasNote || !strings.Contains(out, tc.note)) {
				t.Errorf("note in\n%s\nwant %q", out, tc.note)
			}
		})
	}
}

// TestMeasure: convergence is agreements ÷ (agreements + disagreements)
// of the round's rebuttals; round 0 is not measured.
func TestMeasure(t *testing.T) {
	for _, tc := range []struct {
		name       string
		round      int
		bodies     []string
		conv, conf int
		kept       [3]int
	}{
		{"positions", 0, []string{validPosition, validPosition}, -1, 80, [3]int{}},
		{"all agree", 1, []string{rebuttalBody("- a\n- b", "nenhum", "sim", "90%"), rebuttalBody("- c", "nenhuma", "sim", "70%")}, 100, 80, [3]int{2, 0, 0}},
		{"split", 1, []string{rebuttalBody("- a", "- x `src/cart.go`\n- y", "parcialmente", "60%"), rebuttalBody("- c", "nenhum", "não", "40%")}, 50, 50, [3]int{0, 1, 1}},
		{"nothing listed", 1, []string{rebuttalBody("nenhum", "nenhum", "sim", "60%")}, -1, 60, [3]int{1, 0, 0}},
	} {
		cur := map[string]string{}
		for i, b := range tc.bodies {
			cur[bugfolder.PT.SolverID(i+1)] = b
		}
		row := Protocol{}.Measure("", tc.round, len(cur), cur, nil).(Row)
		if row.Convergence != tc.conv || row.Confidence != tc.conf || [3]int{row.Kept, row.Partly, row.Changed} != tc.kept {
			t.Errorf("%s: %+v", tc.name, row)
		}
	}
}

// TestThresholds: escalate under 70 % convergence or synthesis confidence
// or with a critical divergence; a human decision under 50 % confidence.
func TestThresholds(t *testing.T) {
	for _, tc := range []struct {
		name            string
		conv, conf      int
		critical        []string
		escalate, human bool
		stakes          engine.Stakes
	}{
		{"clear", 80, 80, nil, false, false, engine.Stakes{}},
		{"at the line", 70, 70, nil, false, false, engine.Stakes{}},
		{"low convergence", 69, 90, nil, true, false, engine.Stakes{}},
		{"not measured", -1, 90, nil, true, false, engine.Stakes{}},
		{"low confidence", 90, 69, nil, true, false, engine.Stakes{}},
		{"critical divergence", 90, 90, []string{"x"}, true, false, engine.Stakes{}},
		{"human", 90, 49, nil, true, true, engine.Stakes{}},
		{"human at 50 is escalate only", 90, 50, nil, true, false, engine.Stakes{}},
		{"value at risk over the line", 90, 90, nil, true, false, engine.Stakes{ValueAtRisk: 100_001, Valued: true}},
		{"value at risk at the line", 90, 90, nil, false, false, engine.Stakes{ValueAtRisk: 100_000, Valued: true}},
		{"irreversible", 90, 90, nil, true, false, engine.Stakes{Irreversible: true}},
	} {
		v := judge(bugfolder.EN, tc.conv, tc.conf, tc.critical, tc.stakes)
		if v.Escalate != tc.escalate || v.Human != tc.human || v.Escalate != (len(v.Reasons) > 0) {
			t.Errorf("%s: %+v", tc.name, v)
		}
	}
}

func synthBody(conf, divergence, gaps string) string {
	return "## Pontos de consenso\n\n- o bug é real\n\n## Pontos de divergência\n\n" + divergence + "\n\n## Tensões produtivas\n\n- segurança x performance\n\n## Lacunas identificadas\n\n" + gaps + "\n\n## Confiança da síntese\n\n" + conf + "\n"
}

// finalInput is a council of three after one rebuttal round; performance
// failed when failed.
func finalInput(agree bool, failed bool) engine.FinalInput {
	dis := "- performance sobre o cache: `src/cart.go`\n- performance sobre o lock\n- data-integrity sobre o prazo"
	if agree {
		dis = "nenhum"
	}
	in := engine.FinalInput{Lang: bugfolder.PT, P: testP, N: 3, Last: 1, R: 1, Panel: []string{"agente-1", "agente-2", "agente-3"},
		Answers: map[string]string{
			"agente-1": rebuttalBody("- data-integrity sobre a idempotência", dis, "sim", "80%"),
			"agente-2": rebuttalBody("- security sobre o lock", "nenhum", "sim", "80%"),
			"agente-3": rebuttalBody("- security sobre zeta-engine", "nenhum", "parcialmente", "70%")},
		Opening: map[string]string{"agente-1": validPosition, "agente-2": validPosition, "agente-3": validPosition},
		Names:   []string{"zeta-engine"},
		Lenses: map[string]bugfolder.Lens{"agente-1": {Name: "security", Text: "ataques"}, "agente-2": {Name: "performance", Text: "latência"},
			"agente-3": {Name: "data-integrity", Text: "dados"}}}
	if failed {
		delete(in.Answers, "agente-2")
		in.Missing = map[string]bugfolder.Status{"agente-2": bugfolder.StatusTimeout}
	}
	return in
}

// TestSynthesis: the synthesizer's answer is checked (sections, nature of
// each divergence, a percentage, the missing member named) and the result
// is flagged by the thresholds in its front matter and head.
func TestSynthesis(t *testing.T) {
	okDiv := "- cache: Natureza: prioridades; security quer lock, performance não; impacto: latência; Crítica: não"
	for _, tc := range []struct {
		name                 string
		in                   engine.FinalInput
		body                 string
		problem              string
		escalation, decision string
	}{
		{"converged", finalInput(true, false), synthBody("85 %", okDiv, "- logs de produção"), "", "none", "none"},
		{"low confidence escalates", finalInput(true, false), synthBody("65 %", okDiv, "- logs"), "", "escalate", "pending"},
		{"critical divergence escalates", finalInput(true, false), synthBody("85 %", strings.Replace(okDiv, "Crítica: não", "Crítica: sim", 1), "- logs"), "", "escalate", "pending"},
		{"low convergence escalates", finalInput(false, false), synthBody("85 %", okDiv, "- logs"), "", "escalate", "pending"},
		{"under 50 goes to a human", finalInput(true, false), synthBody("40 %", okDiv, "- logs"), "", "human", "pending"},
		{"divergence without nature", finalInput(true, false), synthBody("85 %", "- cache: uns querem, outros não", "- logs"), "states no nature", "", ""},
		{"no percentage", finalInput(true, false), synthBody("alta", okDiv, "- logs"), "states no percentage", "", ""},
		{"missing member not named", finalInput(true, true), synthBody("85 %", okDiv, "- logs"), "does not name member performance", "", ""},
		{"missing member named", finalInput(true, true), synthBody("85 %", okDiv, "- performance: timeout"), "", "none", "none"},
		{"a lone member is no convergence", loneMember(), synthBody("85 %", okDiv, "- performance: timeout\n- data-integrity: timeout"), "", "escalate", "pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, problems := Protocol{}.Final(tc.in).Accept(tc.body)
			got := strings.Join(problems, "; ")
			if tc.problem == "" && got != "" || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Fatalf("problems %q, want %q", got, tc.problem)
			}
			if tc.problem != "" {
				return
			}
			if doc.Meta.Escalation != tc.escalation || doc.Meta.Decision != tc.decision {
				t.Errorf("escalation %q decision %q, want %q %q\n%s", doc.Meta.Escalation, doc.Meta.Decision, tc.escalation, tc.decision, doc.Head)
			}
			if tc.escalation != "none" && !strings.Contains(doc.Head, "ESCALAR") {
				t.Errorf("head does not flag the escalation:\n%s", doc.Head)
			}
		})
	}
}

// TestSynthesizerSeesLensesNotEngines: the synthesizer's prompt names
// members by lens, never by engine or id, and names the failed member.
func TestSynthesizerSeesLensesNotEngines(t *testing.T) {
	p := Protocol{}.Final(finalInput(true, true)).Prompt()
	for _, bad := range []string{"zeta-engine", "agente-1", "agente-3"} {
		if strings.Contains(p, bad) {
			t.Errorf("synthesizer prompt holds %q", bad)
		}
	}
	for _, want := range []string{"MEMBRO security", "MEMBRO data-integrity", "MEMBRO performance (lente: latência): AUSENTE", "timeout"} {
		if !strings.Contains(p, want) {
			t.Errorf("synthesizer prompt lacks %q", want)
		}
	}
}

// TestHumanChoiceAfterFailure: after the synthesizer failed, the choice
// is recorded as a human's, nothing is synthesized, and a human decides.
func TestHumanChoiceAfterFailure(t *testing.T) {
	f := Protocol{}.Final(finalInput(true, true))
	if _, ok := f.Human("performance", 2); ok {
		t.Error("a choice of the missing member was accepted")
	}
	doc, ok := f.Human("security", 2)
	if !ok || doc.Meta.Decision != bugfolder.DecisionPending || doc.Meta.Escalation != EscalationHuman || !strings.Contains(doc.Body, "Não produzido") {
		t.Errorf("%v %+v\n%s", ok, doc.Meta, doc.Body)
	}
}

// TestPromptsGolden: a member's position and rebuttal (round 2, with the
// opening positions and a failed member) and the synthesizer's, in both
// languages.
func TestPromptsGolden(t *testing.T) {
	for _, l := range []bugfolder.Lang{bugfolder.PT, bugfolder.EN} {
		var all strings.Builder
		sec := bugfolder.Lens{Name: "security", Text: "attacks and leaks"}
		perf := bugfolder.Lens{Name: "performance", Text: "latency"}
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, ID: l.SolverID(1), N: 2, R: 2, Round: 0, P: testP, Lens: sec, Rubric: []string{"risco"}}) + "\n=====\n")
		all.WriteString(Protocol{}.Prompt(engine.Call{Lang: l, ID: l.SolverID(1), N: 2, R: 2, Round: 2, P: testP, Nonce: "N0NCE", Lens: sec,
			Opening:  []engine.SnapshotEntry{{ID: l.SolverID(1), Own: true, Body: "minha posição", Lens: sec}, {ID: l.SolverID(2), Body: "posição dele", Lens: perf}},
			Snapshot: []engine.SnapshotEntry{{ID: l.SolverID(1), Own: true, Body: "minha réplica", Lens: sec}, {ID: l.SolverID(2), Missing: true, Status: bugfolder.StatusError, Lens: perf}}}) + "\n=====\n")
		in := finalInput(true, true)
		in.Lang = l
		s := Protocol{}.Final(in).(*synthesizer)
		all.WriteString(synthPrompt(s.in, s.members, "N0NCE"))
		t.Run(l.String(), func(t *testing.T) { golden.RequireEqual(t, []byte(all.String())) })
	}
}

// FuzzAnswers feeds model output (outside input) to the member's and the
// synthesizer's validators and to the measure: they never panic, an
// accepted answer is accepted again as rewritten, and an accepted
// synthesis under 50 % confidence is always a pending human decision.
func FuzzAnswers(f *testing.F) {
	f.Add(validPosition, 0)
	f.Add(rebuttalBody("- a", "- b `src/cart.go`", "sim", "70%"), 1)
	f.Add(synthBody("40 %", "- x Natureza: risco Crítica: sim", "- performance"), 2)
	f.Add("## Confiança\n\n100.5%\n## Recomendação\n```\n## Evidências\n```\n", 0)
	f.Fuzz(func(t *testing.T, body string, round int) {
		round = max(0, round%3)
		c := engine.Call{Lang: bugfolder.PT, Round: round, P: testP}
		out, problems := Protocol{}.Validate(c, body)
		if len(problems) == 0 {
			if again, p2 := (Protocol{}).Validate(c, out); len(p2) > 0 || again != out {
				t.Errorf("an accepted answer, rewritten, is refused or changed: %v\n%q\n%q", p2, out, again)
			}
		}
		_ = Protocol{}.Measure("", round, 2, map[string]string{"agente-1": body}, nil)
		doc, problems := Protocol{}.Final(finalInput(true, true)).Accept(body)
		if len(problems) == 0 {
			got := sectionsOf(doc.Body, synthesis)
			if c, ok := confidence(got[secSynthConf]); ok && c < HumanBelow && (doc.Meta.Decision != bugfolder.DecisionPending || doc.Meta.Escalation != EscalationHuman) {
				t.Errorf("an accepted synthesis at %d %% is not a human decision: %+v", c, doc.Meta)
			}
		}
	})
}

// Pack freezes the criteria as a section of P, in the debate's language,
// with P's sha256 recomputed; with none, P is unchanged.
func TestPackCriteria(t *testing.T) {
	p := &bugfolder.Problem{Text: "## Bug\n\nthe discount applies twice\n", SHA256: "old"}
	if got := (Protocol{}).Pack(engine.Setup{Lang: bugfolder.PT}, p, nil); got != p {
		t.Errorf("no criteria changed P: %+v", got)
	}
	got := (Protocol{}).Pack(engine.Setup{Lang: bugfolder.EN}, p, []string{"risk", "cost"})
	want := "## Bug\n\nthe discount applies twice\n\n### Criteria\n\n1. risk\n2. cost\n"
	if got.Text != want {
		t.Errorf("P is\n%q\nwant\n%q", got.Text, want)
	}
	if got.SHA256 == "old" || len(got.SHA256) != 64 {
		t.Errorf("P's sha256 not recomputed: %q", got.SHA256)
	}
	if p.Text != "## Bug\n\nthe discount applies twice\n" {
		t.Error("Pack changed the P it was given")
	}
}

// loneMember is a council of three where only one member answered its
// last round: agreeing with nobody, it measures no convergence.
func loneMember() engine.FinalInput {
	in := finalInput(true, true)
	delete(in.Answers, "agente-3")
	in.Missing["agente-3"] = bugfolder.StatusTimeout
	return in
}

// The head names the round the final convergence was measured in (the
// last one the synthesizer reads), not always round 1.
func TestHeadNamesTheLastRound(t *testing.T) {
	in := finalInput(true, false)
	in.Last, in.R = 2, 2
	doc, problems := Protocol{}.Final(in).Accept(synthBody("85 %", "- cache: Natureza: prioridades; a x b; impacto: y; Crítica: não", "- logs"))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if !strings.Contains(doc.Head, "(rodada 2;") {
		t.Errorf("the head names another round:\n%s", doc.Head)
	}
}

// TestWhatCountsAsACitation: a council member's evidence item counts as
// evidence when it cites: a register's bug ID (BUG-7, the prompt's own
// example, or BUG-20260715-A7K3), or a reference P holds — a path, a
// file at a line or a line anchor of a file P holds, by a shorter or
// longer path, a backticked span, an anchor. Prose, a bare number, a
// dotted word or a file P does not hold stands as opinion.
func TestWhatCountsAsACitation(t *testing.T) {
	const p = "## P\n\n### `_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-x/bug.md`\n\nThe discount is applied twice.\n\n" +
		"### `_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-x/evidence/fechamento.log`\n\nERR total mismatch\n\n" +
		"### src/checkout/discount.go\n\nfunc applyDiscount() {}\n\n§4.2 Descontos\n"
	for _, c := range []struct {
		item string
		want bool
	}{
		{"BUG-7 shows the same double discount", true},
		{"see BUG-20260715-A7K3, its repro", true},
		{"BUG-20260101-ZZ99 had the same race", true}, // another bug of the register
		{"bug-12 regressed it", true},
		{"src/checkout/discount.go:42 applies it again", true},
		{"src/checkout/discount.go#L40-L50", true},
		{"discount.go:42-57", true},
		{"`applyDiscount` in ./src/checkout/discount.go", true},
		{"shop/src/checkout/discount.go:12 (the service's copy)", true},
		{"checkout/discount.go line 42", true},
		{"the log (evidence/fechamento.log) shows ERR", true},
		{"the log fechamento.log shows ERR", true},
		{"§4.2 says a discount applies once", true},
		{"`bug.md` says so", true},
		{"`src/other.go`: Apply runs twice", false}, // a file P does not hold
		{"src/other.go:12", false},
		{"discounts are usually applied twice in such systems", false},
		{"about 42 orders a day", false},
		{"it is e.g. a race", false},
		{"BUG- something", false},
		{"v1.2 changed it", false},
		{"the BUG-tracker is slow", false},
	} {
		if got := cites(c.item, p); got != c.want {
			t.Errorf("cites(%q) = %v, want %v", c.item, got, c.want)
		}
	}
}

// TestMissingMemberKeepsItsLastPosition: a member that answered earlier
// rounds and failed a later one is still named missing with its status,
// and the synthesizer gets its last valid position, marked as from that
// earlier round; a member with no valid answer at all gets none.
func TestMissingMemberKeepsItsLastPosition(t *testing.T) {
	in := finalInput(true, true) // performance (agente-2) timed out in round 1
	in.Rounds = []engine.RoundAnswers{
		{"agente-1": validPosition, "agente-2": "## Recomendação\n\nPERF-ROUND-0 cache the lookups\n", "agente-3": validPosition},
		{"agente-1": in.Answers["agente-1"], "agente-3": in.Answers["agente-3"]},
	}
	three := finalInput(true, true)
	three.Last, three.R = 2, 2
	three.Rounds = []engine.RoundAnswers{
		{"agente-2": "PERF-ROUND-0"},
		{"agente-2": "PERF-ROUND-1 keep the cache, shorten its TTL"},
		{"agente-1": in.Answers["agente-1"], "agente-3": in.Answers["agente-3"]},
	}
	never := finalInput(true, true)
	never.Opening = map[string]string{"agente-1": validPosition, "agente-3": validPosition}
	for _, tc := range []struct {
		name      string
		in        engine.FinalInput
		want, not []string
	}{
		{"failed in round 1", in, []string{"MEMBRO performance (lente: latência): AUSENTE — sem resposta válida (status: timeout)",
			"última posição válida é de uma rodada anterior (rodada 0, não a última, 1)", "MEMBRO performance POSIÇÃO DA RODADA 0", "PERF-ROUND-0 cache the lookups"}, nil},
		{"failed in round 2", three, []string{"(rodada 1, não a última, 2)", "PERF-ROUND-1 keep the cache"}, []string{"PERF-ROUND-0"}},
		{"never answered", never, []string{"AUSENTE — sem resposta válida (status: timeout)"}, []string{"POSIÇÃO DA RODADA"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Protocol{}.Final(tc.in)
			p := f.Prompt()
			for _, w := range tc.want {
				if !strings.Contains(p, w) {
					t.Errorf("the synthesizer's prompt lacks %q:\n%s", w, p[strings.Index(p, "# Os membros"):])
				}
			}
			for _, w := range tc.not {
				if strings.Contains(p, w) {
					t.Errorf("the synthesizer's prompt holds %q", w)
				}
			}
			doc, problems := f.Accept(synthBody("85 %", "nenhuma", "- performance: timeout na última rodada"))
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if tc.name != "never answered" && !strings.Contains(doc.Head, "AUSENTE (timeout); a síntese leu sua última posição válida, da rodada") {
				t.Errorf("the head does not say the synthesis read an earlier position:\n%s", doc.Head)
			}
		})
	}
}

// TestSynthesisNamesTheAbsentMember: the gaps must name a missing member
// by its lens as a term of its own, not as part of another word or of
// another member's longer label.
func TestSynthesisNamesTheAbsentMember(t *testing.T) {
	for _, tc := range []struct {
		label  string
		labels []string
		gaps   string
		want   bool
	}{
		{"performance", nil, "- performance: timeout", true},
		{"performance", nil, "- Membro PERFORMANCE ausente (timeout)", true},
		{"data-integrity", nil, "- a lente data integrity faltou (erro)", true},
		{"data-integrity", nil, "- Data-Integrity: error", true},
		{"cost", nil, "- a costly gap: nobody measured the cache", false},
		{"security", nil, "- insecurity of the token is unexamined", false},
		{"performance", nil, "- high-performance servers were not measured", true}, // the whole term is there
		{"security", []string{"security", "security 2"}, "- security 2: timeout", false},
		{"security", []string{"security", "security 2"}, "- security 2 and security: timeout", true},
		{"performance", nil, "", false},
	} {
		if got := namesMember(tc.gaps, tc.label, append(tc.labels, tc.label)); got != tc.want {
			t.Errorf("namesMember(%q, %q) = %v, want %v", tc.gaps, tc.label, got, tc.want)
		}
	}
	// and Accept refuses a synthesis that names the lens only inside a word
	f := Protocol{}.Final(finalInput(true, true))
	if _, problems := f.Accept(synthBody("85 %", "nenhuma", "- logs of the high performancetesting rig")); len(problems) == 0 {
		t.Error("a gaps section naming performance only inside a word was accepted")
	}
}

// TestEveryPromptOfACouncilBeginsWithTheSameBlockHoldingP: every member's
// position and rebuttals (each with its own lens and reading order) and the
// synthesizer's prompt begin with the same bytes holding P.
func TestEveryPromptOfACouncilBeginsWithTheSameBlockHoldingP(t *testing.T) {
	in := finalInput(false, false)
	lenses := []bugfolder.Lens{in.Lenses["agente-1"], in.Lenses["agente-2"], in.Lenses["agente-3"]}
	var prompts []string
	for round := 0; round <= 2; round++ {
		for i, lens := range lenses {
			c := engine.Call{Lang: bugfolder.PT, ID: bugfolder.PT.SolverID(i + 1), N: 3, R: 2, Round: round, P: testP, Lens: lens, Rubric: []string{"risco"}, Nonce: "n" + lens.Name}
			if round > 0 {
				c.Snapshot = []engine.SnapshotEntry{{ID: c.ID, Own: true, Body: validPosition, Lens: lens}, {ID: "agente-9", Body: "outra", Lens: lenses[(i+1)%3]}}
			}
			prompts = append(prompts, Protocol{}.Prompt(c))
		}
	}
	prompts = append(prompts, Protocol{}.Final(in).Prompt())
	testutil.RequireSharedPrefix(t, prompts, testP, engine.SharedEnd)
}
