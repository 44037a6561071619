package bugfolder

import (
	"strings"
	"testing"
)

func TestCanonicalHeadings(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang Lang
		in   string
		want string
	}{
		{"other language", PT, "## Hypotheses\n\nH1\n", "## Hipóteses\n\nH1\n"},
		{"numbering and emphasis", PT, "## 1. **Teste**\n\nT\n", "## Teste\n\nT\n"},
		{"missing accent, trailing colon", PT, "## Evidencias:\n\nE\n", "## Evidências\n\nE\n"},
		{"value after a colon moves below", PT, "## Confidence: high, the log agrees\n", "## Confiança\n\nalta, the log agrees\n"},
		{"numbering with a parenthesis, trailing dash", PT, "## 3) Teste -\n\nT\n", "## Teste\n\nT\n"},
		{"qualifier in parentheses moves below", PT, "## Hipóteses (H1–H3)\n\nH1\n", "## Hipóteses\n\n(H1–H3)\n\nH1\n"},
		{"confidence word in the debate's language", PT, "## Confiança\n\n**medium**: a cápsula reproduz.\n", "## Confiança\n\n**média**: a cápsula reproduz.\n"},
		{"confidence word without accent", PT, "## Confiança\n\nmedia, a cápsula reproduz.\n", "## Confiança\n\nmédia, a cápsula reproduz.\n"},
		{"english confidence kept in english", EN, "## Confidence\n\nalta: the capsule fails.\n", "## Confidence\n\nhigh: the capsule fails.\n"},
		{"english debate", EN, "## Riscos e efeitos colaterais\n\nR\n", "## Risks and side effects\n\nR\n"},
		{"unrecognised left as written", PT, "## Observações\n\nx\n", "## Observações\n\nx\n"},
		{"fenced heading left alone", PT, "```\n## Hypotheses\n```\n", "```\n## Hypotheses\n```\n"},
		{"level 3 left alone", PT, "### Hypotheses\n", "### Hypotheses\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CanonicalHeadings(tc.in, tc.lang); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRecommendedVerdict(t *testing.T) {
	for _, tc := range []struct {
		in   string
		lang Lang
		want string
	}{
		{"Veredito recomendado: spec-gap.\nNão é spec-correta.", PT, "spec-gap"},
		{"A spec está desatualizada: spec-desatualizada.", PT, "spec-desatualizada"},
		{"Recommended verdict: SPEC-OUTDATED", EN, "spec-outdated"},
		{"Recommended verdict: spec-correct", PT, "spec-correta"},
		{"spec-gap or spec-correta, hard to say", PT, ""},
		{"no verdict at all", PT, ""},
	} {
		if got := RecommendedVerdict(tc.in, tc.lang); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDropSectionAndModeSections(t *testing.T) {
	body := "## Hipóteses\n\nH\n\n## Confiança\n\nalta: sim, o log.\n\n## Crítica às demais propostas\n\n- agente-2: ok\n"
	got := DropSection(body, SecCritique)
	if strings.Contains(got, "Crítica") || !strings.Contains(got, "## Confiança\n\nalta: sim, o log.") {
		t.Errorf("DropSection: %q", got)
	}
	miss := MissingModeSections(body, PT, Diagnosis)
	if strings.Join(miss, ",") != "## Causa raiz proposta,## Teste,## Impacto sobre a spec,## Riscos e efeitos colaterais,## Evidências" {
		t.Errorf("missing: %v", miss)
	}
}

// FuzzCanonicalHeadings: rewriting headings is idempotent and never
// changes which sections a body has, nor their order.
func FuzzCanonicalHeadings(f *testing.F) {
	for _, s := range []string{"## Hypotheses\nH\n", "## 2) Teste:\n", "## Confidence: high\n", "```\n## Teste\n```\n## Teste", "## Confiança: alta - ok\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		once := CanonicalHeadings(body, PT)
		if twice := CanonicalHeadings(once, PT); twice != once {
			t.Fatalf("not idempotent: %q → %q → %q", body, once, twice)
		}
		_, a := ParseSections(body)
		_, b := ParseSections(once)
		if len(a) != len(b) {
			t.Fatalf("sections %d → %d", len(a), len(b))
		}
		for i := range a {
			if a[i].Key != b[i].Key {
				t.Fatalf("section %d: %v → %v", i, a[i].Key, b[i].Key)
			}
		}
	})
}

// FuzzRecommendedVerdict: the verdict read from a model's answer is one
// of the three, or none.
func FuzzRecommendedVerdict(f *testing.F) {
	for _, s := range []string{"Veredito recomendado: spec-gap", "spec-correct spec-outdated", "verdict spec-GAP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		switch v := RecommendedVerdict(text, PT); v {
		case "", "spec-correta", "spec-desatualizada", "spec-gap":
		default:
			t.Fatalf("verdict %q", v)
		}
	})
}

// TestDropSelfGrafts: entries naming only the winner
// go, the others stay as written; none left says the none word.
func TestDropSelfGrafts(t *testing.T) {
	const tail = "## Justificativa\n\n1. ok\n\n## Síntese\n\n## Hipóteses\n\nh\n"
	for _, tc := range []struct{ grafts, want string }{
		{"- Proposta A: x\n- Proposta B: y\n", "## Enxertos\n\n- Proposta B: y\n\n"},
		{"- Proposta A: x\n", "## Enxertos\n\nnenhum\n\n"},
		{"- Proposta B e Proposta A: z\n", "## Enxertos\n\n- Proposta B e Proposta A: z\n\n"},
	} {
		body := "## Vencedora\n\nProposta A\n\n## Enxertos\n\n" + tc.grafts + "\n" + tail
		ans, v := ValidateJudge(body, PT, []string{"A", "B"}, 1)
		if !v.OK() {
			t.Fatalf("%q: %v", tc.grafts, v.Problems)
		}
		got, _ := DropSelfGrafts(body, PT, ans)
		if want := "## Vencedora\n\nProposta A\n\n" + tc.want + tail; got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.grafts, got, want)
		}
	}
}

// TestFindVerdictNegation: a negated mention does not
// count; one verdict left is it; several left is reported.
func TestFindVerdictNegation(t *testing.T) {
	for _, tc := range []struct {
		lang    Lang
		text    string
		want    string
		several bool
	}{
		{PT, "Não recomendo spec-gap. A decisão é do humano.", "", false},
		{PT, "Não é spec-correta; recomendo spec-gap.", "spec-gap", false},
		{PT, "Veredito recomendado: spec-desatualizada (não spec-gap).", "spec-desatualizada", false},
		{PT, "Veredito recomendado no caso: spec-gap.", "spec-gap", false},
		{PT, "Pode ser spec-gap ou spec-correta.", "", true},
		{EN, "This is not spec-correct. Recommended verdict: spec-gap.", "spec-gap", false},
		{EN, "Never spec-outdated; no spec-gap either.", "", false},
	} {
		if got, several := FindVerdict(tc.text, tc.lang); got != tc.want || several != tc.several {
			t.Errorf("%q: got %q several=%v, want %q several=%v", tc.text, got, several, tc.want, tc.several)
		}
	}
}

// FuzzDropSelfGrafts: dropping self-grafts from a valid judge answer
// leaves a valid answer with the same winner and only real grafts.
func FuzzDropSelfGrafts(f *testing.F) {
	for _, s := range []string{"- Proposta A: x\n- Proposta B: y\n", "- Proposta A: x\n", "Proposta A e B\n\nProposta A só\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, grafts string) {
		body := "## Vencedora\n\nProposta A\n\n## Enxertos\n\n" + grafts + "\n\n## Justificativa\n\n1. ok\n\n## Síntese\n\nx\n"
		ans, v := ValidateJudge(body, PT, []string{"A", "B"}, 1)
		if !v.OK() {
			return
		}
		got, _ := DropSelfGrafts(body, PT, ans)
		ans2, v2 := ValidateJudge(got, PT, []string{"A", "B"}, 1)
		if !v2.OK() || ans2.Winner != ans.Winner || len(ans2.RealGrafts()) != len(ans2.Grafts) || len(ans2.Grafts) != len(ans.RealGrafts()) {
			t.Fatalf("%q → %q: %v %+v", body, got, v2.Problems, ans2)
		}
	})
}

// FuzzSetupIntact: a problema.md as moot renders it is intact, and any
// change of its P is caught.
func FuzzSetupIntact(f *testing.F) {
	for _, s := range []string{"### BUG — t\n\ntext\n", "", "setup_sha256: x\n---\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		raw, err := RenderProblem(PT, ProblemMeta{Mode: Diagnosis, N: 2, R: 1}, []string{"c"}, p)
		if err != nil {
			return
		}
		if !SetupIntact(docBytes(raw)) {
			t.Fatalf("a rendered file is not intact:\n%s", docBytes(raw))
		}
		if SetupIntact(append(docBytes(raw), 'x')) {
			t.Fatalf("an edit was not caught:\n%s", raw)
		}
	})
}
