package bugfolder

import (
	"strings"
	"testing"
)

func TestLookupSectionVariants(t *testing.T) {
	tests := map[string]SectionKey{
		"Hipóteses":                       SecHypotheses,
		"Hipoteses":                       SecHypotheses,
		"HIPÓTESES":                       SecHypotheses,
		"1. Hipóteses":                    SecHypotheses,
		"**Hipóteses**":                   SecHypotheses,
		"Hypotheses":                      SecHypotheses,
		"Estrategia de correcao":          SecFixStrategy,
		"Leitura da regra:":               SecRuleReading,
		"Causa raiz proposta":             SecRootCause,
		"Causa raiz":                      SecRootCause,
		"Proposed root cause":             SecRootCause,
		"Teste":                           SecTest,
		"Impacto sobre a spec":            SecSpecImpact,
		"Riscos e efeitos colaterais":     SecRisks,
		"Evidencias":                      SecEvidence,
		"Confianca":                       SecConfidence,
		"Confidence":                      SecConfidence,
		"Crítica às demais propostas":     SecCritique,
		"Critica as demais propostas":     SecCritique,
		"Critique of the other proposals": SecCritique,
		"Vencedora":                       SecWinner,
		"Síntese":                         SecSynthesis,
		"Justificativa por criterio":      SecRationale,
		"Notas":                           SecUnknown,
		"Conclusão":                       SecUnknown,
	}
	for in, want := range tests {
		if got := LookupSection(in); got != want {
			t.Errorf("LookupSection(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestParseSections(t *testing.T) {
	body := "# Título\n\nfree text\n\n## Hipóteses\n\nH1\n\n```markdown\n## Teste (inside a fence: not a section)\n```\n\n### sub\n\n## Confiança: alta\n\nporque sim\n\n## Notas ##\n\nx\n"
	pre, secs := ParseSections(body)
	if !strings.Contains(pre, "free text") {
		t.Errorf("pre = %q", pre)
	}
	if len(secs) != 3 {
		t.Fatalf("got %d sections: %+v", len(secs), secs)
	}
	if secs[0].Key != SecHypotheses || !strings.Contains(secs[0].Content, "inside a fence") || !strings.Contains(secs[0].Content, "### sub") {
		t.Errorf("section 0 = %+v", secs[0])
	}
	if secs[1].Key != SecConfidence || secs[1].Inline != "alta" || !strings.HasPrefix(secs[1].Text(), "alta") {
		t.Errorf("section 1 = %+v", secs[1])
	}
	if secs[2].Key != SecUnknown || secs[2].Heading != "Notas" {
		t.Errorf("section 2 = %+v", secs[2])
	}
}

func TestFenceRules(t *testing.T) {
	// a longer fence is closed only by a run at least as long
	body := "## A\n````\n```\n## not a heading\n```\n````\n## B\nx\n"
	_, secs := ParseSections(body)
	if len(secs) != 2 || secs[1].Heading != "B" {
		t.Fatalf("sections = %+v", secs)
	}
	// tildes and an inline code span that starts with backticks
	body = "## A\n~~~\n## no\n~~~\n```x``` inline\n## B\n"
	_, secs = ParseSections(body)
	if len(secs) != 2 {
		t.Fatalf("sections = %+v", secs)
	}
}

func TestHeadingsOffsets(t *testing.T) {
	text := "# T\n\n## A\ntext\n```\n# no\n```\n### B ###\n"
	hs := Headings(text)
	if len(hs) != 3 {
		t.Fatalf("headings = %+v", hs)
	}
	for _, h := range hs {
		if !strings.HasPrefix(text[h.Offset:], strings.Repeat("#", h.Level)+" ") {
			t.Errorf("offset %d does not start heading %q", h.Offset, h.Text)
		}
	}
	if hs[2].Text != "B" {
		t.Errorf("closing #s not stripped: %q", hs[2].Text)
	}
}

// FuzzParseSections: the parser never panics, every section starts at a
// heading that is in the input, and nothing is invented.
func FuzzParseSections(f *testing.F) {
	for _, s := range []string{
		"## Hipóteses\nH1\n## Confiança\nalta\n",
		"pre\n## A\n```\n## B\n```\n",
		"##\n## \n##x\n   ## ok\n    ## code\n",
		"~~~~\n## a\n~~~\n## b\n~~~~\n## c\n",
		"## Confiança: média — porque\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pre, secs := ParseSections(s)
		norm := NormalizeText([]byte(s))
		if !strings.HasPrefix(norm, pre) {
			t.Fatalf("pre %q is not a prefix", pre)
		}
		total := len(pre)
		for _, sec := range secs {
			if !strings.Contains(norm, sec.Heading) {
				t.Fatalf("heading %q not in input", sec.Heading)
			}
			total += len(sec.Content)
		}
		if total > len(norm) {
			t.Fatalf("sections hold %d bytes of a %d-byte input", total, len(norm))
		}
		_ = Headings(norm)
	})
}
