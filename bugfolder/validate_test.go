package bugfolder

import (
	"strings"
	"testing"
)

// body builds a debater body from headings; each section gets one line.
func body(headings ...string) string {
	var b strings.Builder
	for _, h := range headings {
		b.WriteString("## " + h + "\n\n")
		switch {
		case strings.HasPrefix(normalizeHeading(h), "confian"), strings.HasPrefix(h, "Confidence"):
			b.WriteString("alta: a cápsula confirma.\n\n")
		case strings.HasPrefix(normalizeHeading(h), "critica"):
			b.WriteString("- agente-1: falta o probe.\n- agente-3: concordo.\n\n")
		default:
			b.WriteString("texto de " + h + "\n\n")
		}
	}
	return b.String()
}

var diag0 = []string{"Hipóteses", "Causa raiz proposta", "Teste", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidências", "Confiança"}

func TestValidateDebater(t *testing.T) {
	crit := "Crítica às demais propostas"
	tests := []struct {
		name    string
		body    string
		e       Expect
		wantOK  bool
		wantMsg string
	}{
		{"diagnosis round 0", body(diag0...), Expect{Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"free text and a title before the first heading", "# Proposta\n\nIntro.\n\n" + body(diag0...), Expect{Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"critique in round 0 tolerated", body(append(diag0, crit)...), Expect{Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"critique required in round 1", body(diag0...), Expect{Mode: Diagnosis, Role: RoleSolver, Round: 1}, false, "## Crítica às demais propostas: missing"},
		{"round 1 with critique", body(append(diag0, crit)...), Expect{Mode: Diagnosis, Role: RoleSolver, Round: 1}, true, ""},
		{"missing test", body("Hipóteses", "Causa raiz proposta", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidências", "Confiança"), Expect{Mode: Diagnosis, Role: RoleSolver}, false, "## Teste: missing"},
		{"out of order", body("Hipóteses", "Causa raiz proposta", "Impacto sobre a spec", "Teste", "Riscos e efeitos colaterais", "Evidências", "Confiança"), Expect{Mode: Diagnosis, Role: RoleSolver}, false, "out of order"},
		{"unknown section", body(append(diag0, "Notas")...), Expect{Mode: Diagnosis, Role: RoleSolver}, false, "## Notas: not a section of the protocol"},
		{"duplicate section", body(append(diag0, "Teste")...), Expect{Mode: Diagnosis, Role: RoleSolver}, false, "appears twice"},
		{"accents and case missing", body("HIPOTESES", "causa raiz proposta", "Teste", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidencias", "Confianca"), Expect{Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"numbered headings", body("1. Hipóteses", "2. Causa raiz proposta", "3. Teste", "4. Impacto sobre a spec", "5. Riscos e efeitos colaterais", "6. Evidências", "7. Confiança"), Expect{Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"diagnosis needs root cause", body("Hipóteses", "Teste", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidências", "Confiança"), Expect{Mode: Diagnosis, Role: RoleSolver}, false, "## Causa raiz proposta: missing"},
		{"repair without root cause", body("Estratégia de correção", "Teste", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidências", "Confiança"), Expect{Mode: Repair, Role: RoleSolver}, true, ""},
		{"repair needs its strategy", body(diag0...), Expect{Mode: Repair, Role: RoleSolver}, false, "## Estratégia de correção: missing"},
		{"spec reading", body("Leitura da regra", "Causa raiz proposta", "Teste", "Impacto sobre a spec", "Riscos e efeitos colaterais", "Evidências", "Confiança"), Expect{Mode: Spec, Role: RoleSolver}, true, ""},
		{"english form", body("Hypotheses", "Proposed root cause", "Test", "Impact on the spec", "Risks and side effects", "Evidence", "Confidence"), Expect{Lang: EN, Mode: Diagnosis, Role: RoleSolver}, true, ""},
		{"empty answer", "", Expect{Mode: Diagnosis, Role: RoleSolver}, false, "empty"},
		{"garbage", "lorem ipsum dolor\nsit amet", Expect{Mode: Diagnosis, Role: RoleSolver}, false, "## Hipóteses: missing"},
		{"critic", body("Crítica às demais propostas", "Evidências", "Confiança"), Expect{Mode: Diagnosis, Role: RoleCritic, Round: 1, Peers: []string{"agente-1", "agente-3"}}, true, ""},
		{"critic misses a peer", body("Crítica às demais propostas", "Evidências", "Confiança"), Expect{Mode: Diagnosis, Role: RoleCritic, Round: 1, Peers: []string{"agente-1", "agente-2"}}, false, "no entry for agente-2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := ValidateDebater(tt.body, tt.e)
			if v.OK() != tt.wantOK {
				t.Fatalf("OK = %v, want %v (%s)", v.OK(), tt.wantOK, v.Summary())
			}
			if tt.wantMsg != "" && !strings.Contains(v.Summary(), tt.wantMsg) {
				t.Errorf("summary %q does not say %q", v.Summary(), tt.wantMsg)
			}
		})
	}
}

func TestConfidenceValues(t *testing.T) {
	for in, want := range map[string]Confidence{
		"baixa: pouca evidência":        ConfLow,
		"**Média** — razoável pelo log": ConfMedium,
		"media, porque o log mostra":    ConfMedium,
		"high: the capsule agrees":      ConfHigh,
		"muito alta":                    ConfUnknown,
		"80%":                           ConfUnknown,
	} {
		b := strings.Replace(body(diag0...), "alta: a cápsula confirma.", in, 1)
		v := ValidateDebater(b, Expect{Mode: Diagnosis, Role: RoleSolver})
		if v.Confidence != want {
			t.Errorf("%q: confidence %v, want %v", in, v.Confidence, want)
		}
		if (want == ConfUnknown) == v.OK() {
			t.Errorf("%q: OK = %v", in, v.OK())
		}
	}
	// a confidence without its sentence of justification is invalid
	for _, in := range []string{"ALTA.", "média", "alta, porque"} {
		b := strings.Replace(body(diag0...), "alta: a cápsula confirma.", in, 1)
		if v := ValidateDebater(b, Expect{Mode: Diagnosis, Role: RoleSolver}); v.OK() || !strings.Contains(v.Summary(), "justification") {
			t.Errorf("%q without justification: OK = %v (%s)", in, v.OK(), v.Summary())
		}
	}
	// the value may sit on the heading line
	b := strings.Replace(body(diag0...), "## Confiança\n\nalta: a cápsula confirma.", "## Confiança: média\n\nporque o log confirma", 1)
	if v := ValidateDebater(b, Expect{Mode: Diagnosis, Role: RoleSolver}); !v.OK() || v.Confidence != ConfMedium {
		t.Errorf("inline confidence: %v %s", v.Confidence, v.Summary())
	}
}

const goodJudge = `## Vencedora

Proposta B

## Enxertos

- Da Proposta A: o probe de log no recálculo.
- Proposta C: o teste de regressão com troca de CEP.

## Justificativa por critério

1. Explica todas as evidências.
2. Consistente com a cápsula.
3. Propõe probe.
4. Não contradiz fatos.

## Síntese

## Hipóteses

H1.

## Causa raiz proposta

Recalcular reaplica.
`

func TestValidateJudge(t *testing.T) {
	labels := []string{"A", "B", "C"}
	ans, v := ValidateJudge(goodJudge, PT, labels, 4)
	if !v.OK() {
		t.Fatalf("good answer rejected: %s", v.Summary())
	}
	if ans.Winner != "B" || len(ans.Grafts) != 2 || ans.AcceptedContributions() != 3 || ans.Criteria != 4 {
		t.Errorf("answer = %+v", ans)
	}
	if !strings.HasPrefix(ans.Synthesis, "## Hipóteses") || !strings.Contains(ans.Synthesis, "## Causa raiz proposta") {
		t.Errorf("synthesis must hold everything after its heading, got %q", ans.Synthesis)
	}

	tests := []struct {
		name, body, want string
	}{
		{"two winners", strings.Replace(goodJudge, "Proposta B\n", "Proposta B, com trechos da Proposta A\n", 1), "exactly one"},
		{"winner does not exist", strings.Replace(goodJudge, "Proposta B\n", "Proposta F\n", 1), "Proposta F does not exist"},
		{"no winner label", strings.Replace(goodJudge, "Proposta B\n", "a melhor\n", 1), "names no label"},
		{"graft from a label that does not exist", strings.Replace(goodJudge, "Proposta C:", "Proposta Z:", 1), "Proposta Z does not exist"},
		{"graft without label", strings.Replace(goodJudge, "- Proposta C: o teste", "- o teste", 1), "names no source label"},
		{"too few criteria", strings.Replace(goodJudge, "4. Não contradiz fatos.\n", "", 1), "3 entries; the rubric has 4"},
		{"missing grafts", strings.Replace(goodJudge, "## Enxertos", "## Outra", 1), "## Enxertos: missing"},
		{"synthesis not last", "## Síntese\n\nx\n\n## Vencedora\n\nProposta A\n\n## Enxertos\n\nnenhum\n\n## Justificativa por critério\n\n1. a\n2. b\n3. c\n4. d\n", "missing"},
		{"empty synthesis", strings.SplitAfter(goodJudge, "## Síntese")[0] + "\n", "## Síntese: is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, v := ValidateJudge(tt.body, PT, labels, 4)
			if v.OK() {
				t.Fatal("accepted a bad answer")
			}
			if !strings.Contains(v.Summary(), tt.want) {
				t.Errorf("summary %q does not say %q", v.Summary(), tt.want)
			}
		})
	}

	none := strings.Replace(goodJudge, "- Da Proposta A: o probe de log no recálculo.\n- Proposta C: o teste de regressão com troca de CEP.", "nenhum", 1)
	ans, v = ValidateJudge(none, PT, labels, 4)
	if !v.OK() || len(ans.Grafts) != 0 || ans.AcceptedContributions() != 1 {
		t.Errorf("'nenhum' grafts: %s %+v", v.Summary(), ans)
	}
	en := "## Winner\n\nProposal A\n\n## Grafts\n\nnone\n\n## Rationale per criterion\n\n- one\n- two\n- three\n- four\n\n## Synthesis\n\n## Hypotheses\n\nH\n"
	if ans, v := ValidateJudge(en, EN, labels, 4); !v.OK() || ans.Winner != "A" {
		t.Errorf("english answer: %s", v.Summary())
	}
	if _, v := ValidateJudge("## Vencedora\n\nB\n\n## Enxertos\n\nnenhum\n\n## Justificativa por critério\n\n1\n\n2\n\n3\n\n4\n\n## Síntese\n\nx\n", PT, labels, 4); !v.OK() {
		t.Errorf("bare letter winner and paragraph entries: %s", v.Summary())
	}
}

func TestFindLabelsIgnoresPortugueseArticle(t *testing.T) {
	got := FindLabels("a proposta a ser escolhida é a Proposta C; PROPOSTA A perde")
	if strings.Join(got, ",") != "C,A" {
		t.Errorf("labels = %v", got)
	}
}

// FuzzValidateJudge: judge answers are outside input; validation never
// panics and a winner it reports always exists.
func FuzzValidateJudge(f *testing.F) {
	f.Add(goodJudge)
	f.Add("## Vencedora\nProposta Z\n## Síntese\n")
	f.Add("## Síntese\n## Vencedora\n")
	f.Fuzz(func(t *testing.T, s string) {
		ans, v := ValidateJudge(s, PT, []string{"A", "B"}, 4)
		if v.OK() && ans.Winner != "A" && ans.Winner != "B" {
			t.Fatalf("valid answer with winner %q", ans.Winner)
		}
	})
}

// FuzzValidateDebater: model output is outside input; never panics.
func FuzzValidateDebater(f *testing.F) {
	f.Add(body(diag0...), 1)
	f.Add("## Confiança: média\n", 0)
	f.Fuzz(func(t *testing.T, s string, round int) {
		for _, m := range Modes {
			v := ValidateDebater(s, Expect{Mode: m, Role: RoleSolver, Round: round % 4})
			if v.OK() && v.Confidence == ConfUnknown {
				t.Fatal("valid body without a confidence")
			}
		}
	})
}
