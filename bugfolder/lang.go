package bugfolder

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Lang is one of the document languages the debate protocol exists in: it
// decides the headings and labels moot writes. File and folder names are
// the canonical Portuguese ones in both.
type Lang int

const (
	// PT is the canonical Portuguese form (problema.md, rodada-K/agente-i.md, …).
	PT Lang = iota
	// EN is the English form: English headings, Portuguese file names.
	EN
)

// String returns the short code of the language ("pt" or "en").
func (l Lang) String() string {
	if l == EN {
		return "en"
	}
	return "pt"
}

// LangFromDocLanguage maps a Reversa doc_language value ("pt-BR", "English",
// "en-US", …) to a protocol form. Anything not recognisably English is
// Portuguese, the canonical form.
func LangFromDocLanguage(s string) Lang {
	v := normalizeWord(s)
	switch {
	case v == "en", strings.HasPrefix(v, "en-"), strings.HasPrefix(v, "en_"),
		strings.HasPrefix(v, "english"), strings.HasPrefix(v, "ingles"):
		return EN
	}
	return PT
}

// Names holds the on-disk names of one language form.
type Names struct {
	Problem     string // problema.md | problem.md
	RoundPrefix string // rodada- | round-
	Solver      string // agente | agent
	Critic      string // critic (both forms)
	JudgeID     string // juiz | judge: solver_id of the judge and its folder
	Attempt     string // tentativa | attempt: judge attempt files
	Convergence string // convergencia.md | convergence.md
	Final       string // resposta-final.md | final-answer.md
	Events      string // eventos.jsonl (one name in both forms)
	Label       string // Proposta | Proposal
}

// names are what moot writes: the canonical Portuguese file and folder
// names in every language (the framework's debate and fix skills read only
// those), with the judge's label word in the debate's language.
var names = [...]Names{
	PT: {"problema.md", "rodada-", "agente", "critic", "juiz", "tentativa", "convergencia.md", "resposta-final.md", "eventos.jsonl", "Proposta"},
	EN: {"problema.md", "rodada-", "agente", "critic", "juiz", "tentativa", "convergencia.md", "resposta-final.md", "eventos.jsonl", "Proposal"},
}

// translated are the names of the translated form, which older tools and
// hand-run debates wrote: moot reads them and never writes them.
var translated = Names{"problem.md", "round-", "agent", "critic", "judge", "attempt", "convergence.md", "final-answer.md", "eventos.jsonl", "Proposal"}

// Names returns the on-disk names moot writes for the language: the
// canonical Portuguese file names always, the label in the language.
func (l Lang) Names() Names { return names[l] }

// RoundDir is the folder name of round k ("rodada-2").
func (l Lang) RoundDir(k int) string { return fmt.Sprintf("%s%d", names[l].RoundPrefix, k) }

// SolverID is the protocol id of solver i, 1-based ("agente-2").
func (l Lang) SolverID(i int) string { return fmt.Sprintf("%s-%d", names[l].Solver, i) }

// CriticID is the protocol id of critic j, 1-based ("critic-1").
func (l Lang) CriticID(j int) string { return fmt.Sprintf("%s-%d", names[l].Critic, j) }

// JudgeAttemptFile is the file name of failed judge attempt k ("tentativa-1.md").
func (l Lang) JudgeAttemptFile(k int) string {
	return fmt.Sprintf("%s-%d.md", names[l].Attempt, k)
}

// Pick returns the Portuguese or the English text, by the language.
func (l Lang) Pick(pt, en string) string {
	if l == EN {
		return en
	}
	return pt
}

// LabelName is the full judge label for a letter ("Proposta B").
func (l Lang) LabelName(letter string) string { return names[l].Label + " " + letter }

// SectionKey identifies a protocol body section independently of its language.
type SectionKey int

// The protocol's body sections, in their canonical order.
const (
	SecUnknown SectionKey = iota
	SecHypotheses
	SecFixStrategy
	SecRuleReading
	SecRootCause
	SecTest
	SecSpecImpact
	SecRisks
	SecEvidence
	SecConfidence
	SecCritique
	// Judge answer sections.
	SecWinner
	SecGrafts
	SecRationale
	SecSynthesis
	// problema.md sections.
	SecRubric
	SecProblem
)

var sectionTitles = map[SectionKey][2]string{
	SecHypotheses:  {"Hipóteses", "Hypotheses"},
	SecFixStrategy: {"Estratégia de correção", "Fix strategy"},
	SecRuleReading: {"Leitura da regra", "Reading of the rule"},
	SecRootCause:   {"Causa raiz proposta", "Proposed root cause"},
	SecTest:        {"Teste", "Test"},
	SecSpecImpact:  {"Impacto sobre a spec", "Impact on the spec"},
	SecRisks:       {"Riscos e efeitos colaterais", "Risks and side effects"},
	SecEvidence:    {"Evidências", "Evidence"},
	SecConfidence:  {"Confiança", "Confidence"},
	SecCritique:    {"Crítica às demais propostas", "Critique of the other proposals"},
	SecWinner:      {"Vencedora", "Winner"},
	SecGrafts:      {"Enxertos", "Grafts"},
	SecRationale:   {"Justificativa por critério", "Rationale per criterion"},
	SecSynthesis:   {"Síntese", "Synthesis"},
	SecRubric:      {"Rubrica", "Rubric"},
	SecProblem:     {"P", "P"},
}

// extra spellings accepted when reading, beyond case, accents and numbering.
var sectionAliases = map[string]SectionKey{
	"causa raiz":                  SecRootCause,
	"root cause":                  SecRootCause,
	"riscos":                      SecRisks,
	"risks":                       SecRisks,
	"impacto na spec":             SecSpecImpact,
	"critica as outras propostas": SecCritique,
	"critique of other proposals": SecCritique,
	"justificativa":               SecRationale,
	"rationale":                   SecRationale,
	"problema":                    SecProblem,
	"problem":                     SecProblem,
	"problema p":                  SecProblem, // a host's "## Problema P"
	"problem p":                   SecProblem,
	"rubrica congelada":           SecRubric, // a host's "## Rubrica congelada (modo spec)"
	"frozen rubric":               SecRubric,
	"rubrica do juiz":             SecRubric,
	"vencedor":                    SecWinner, // a host's "## Vencedor" (the winning plan)
	"proposta vencedora":          SecWinner,
	"winning proposal":            SecWinner,
}

// sectionByNorm maps a normalized heading to its section; built on first
// use (normalizing the accented titles allocates tens of kilobytes, which
// every start of the binary would pay at initialisation).
var sectionByNorm = sync.OnceValue(func() map[string]SectionKey {
	m := map[string]SectionKey{}
	for k, t := range sectionTitles {
		m[normalizeHeading(t[0])] = k
		m[normalizeHeading(t[1])] = k
	}
	for a, k := range sectionAliases {
		m[a] = k
	}
	return m
})

// Title returns the section heading text in the language form.
func (k SectionKey) Title(l Lang) string { return sectionTitles[k][l] }

// Heading returns the Markdown level-2 heading of the section ("## Teste").
func (k SectionKey) Heading(l Lang) string { return "## " + k.Title(l) }

// String names the section in the canonical (Portuguese) form.
func (k SectionKey) String() string {
	if k == SecUnknown {
		return "unknown"
	}
	return sectionTitles[k][PT]
}

// LookupSection maps a heading text (without the leading #s) to its section,
// accepting either language, any case, missing accents, a leading number
// ("1. Hipóteses") and a trailing colon.
func LookupSection(heading string) SectionKey {
	return sectionByNorm()[normalizeHeading(heading)]
}

// Confidence is a debater's stated confidence.
type Confidence int

// Confidence levels, ordered.
const (
	ConfUnknown Confidence = iota
	ConfLow
	ConfMedium
	ConfHigh
)

var confWords = map[Confidence][2]string{
	ConfLow:    {"baixa", "low"},
	ConfMedium: {"média", "medium"},
	ConfHigh:   {"alta", "high"},
}

// Word returns the confidence word in the language form ("média").
func (c Confidence) Word(l Lang) string {
	if c == ConfUnknown {
		return "?"
	}
	return confWords[c][l]
}

// String returns the canonical Portuguese word.
func (c Confidence) String() string { return c.Word(PT) }

// ParseConfidence reads a confidence word in either language, any case,
// with or without accents ("Média", "media", "HIGH").
func ParseConfidence(s string) Confidence {
	switch normalizeWord(s) {
	case "baixa", "low":
		return ConfLow
	case "media", "medium":
		return ConfMedium
	case "alta", "high":
		return ConfHigh
	}
	return ConfUnknown
}

// NoneWord is the word a judge writes when there are no grafts.
func (l Lang) NoneWord() string {
	if l == EN {
		return "none"
	}
	return "nenhum"
}

// stripAccents removes combining marks after canonical decomposition.
func stripAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}

// normalizeWord lowercases, strips accents and surrounding space and
// Markdown emphasis from a single word or short phrase.
func normalizeWord(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "*_`.,;:!\"'()[]")
	return strings.ToLower(stripAccents(s))
}

// headingMemo remembers normalized headings: the same few dozen headings
// are looked up again and again, and folding accents is costly.
var headingMemo sync.Map

// normalizeHeading folds a heading for lookup: accents, case, emphasis,
// a leading "1." / "1)" / "8 -" number, a trailing colon, repeated spaces.
func normalizeHeading(s string) string {
	if v, ok := headingMemo.Load(s); ok {
		return v.(string)
	}
	n := foldHeading(s)
	if len(s) <= 80 && headingMemoSize.Add(1) <= 4096 {
		headingMemo.Store(s, n)
	}
	return n
}

var headingMemoSize atomic.Int64

func foldHeading(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "# \t")
	s = strings.Trim(s, "*_` \t")
	// leading numbering
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && strings.ContainsRune(".)-:", rune(s[i])) {
		s = strings.TrimLeft(s[i+1:], " \t-")
	} else if i > 0 && i < len(s) && s[i] == ' ' {
		s = strings.TrimSpace(s[i:])
	}
	// emphasis inside the numbering ("1. **Teste**") or around a colon
	// ("**Teste:**")
	s = strings.TrimRight(s, ":.-–— \t")
	s = strings.Trim(s, "*_` \t")
	s = strings.TrimRight(s, ":. \t")
	s = strings.ToLower(stripAccents(s))
	return strings.Join(strings.Fields(s), " ")
}
