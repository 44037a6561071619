// Package persona is argue's library of personas (docs/protocols/argue.md, docs/cli.md): a
// persona is a lens plus a name, a domain and style weights — precision,
// resilience and fragility — that shape how it argues. It also reads the
// project's own personas from .moot/personas/*.md and chooses two for a
// question when none are given. Like lens, it knows files and texts, not
// LLMs.
package persona

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/reversa/moot/bugfolder"
)

// Persona is one debater's character: its name, domain, lens text and
// style weights, each in 0.0–1.0.
type Persona struct {
	Name, Domain, Text               string
	Precision, Resilience, Fragility float64
	// keywords pick the persona for a question (library only).
	keywords []string
}

// Library is moot's built-in personas, in the order they are listed.
var Library = []Persona{
	{Name: "formalist", Domain: "mathematics and formal methods", Precision: 0.85, Resilience: 0.40, Fragility: 0.35,
		Text:     "You argue from definitions, proofs and invariants. You distrust claims that are not stated precisely enough to be refuted.",
		keywords: []string{"prove", "proof", "decidable", "correct", "formal", "theorem", "type", "invariant", "algorithm"}},
	{Name: "pragmatist", Domain: "software engineering in production", Precision: 0.45, Resilience: 0.85, Fragility: 0.40,
		Text:     "You argue from what works in practice: delivery, maintenance, teams and the cost of change. You ask what happens on a Monday morning.",
		keywords: []string{"should", "use", "adopt", "migrate", "monolith", "microservice", "framework", "team", "build", "rewrite"}},
	{Name: "skeptic", Domain: "reliability and failure analysis", Precision: 0.60, Resilience: 0.35, Fragility: 0.90,
		Text:     "You argue from edge cases and failure modes. You look for the input, load or sequence under which the claim breaks.",
		keywords: []string{"safe", "risk", "fail", "reliable", "secure", "security", "outage", "cache", "consistency", "race"}},
	{Name: "economist", Domain: "costs, incentives and trade-offs", Precision: 0.55, Resilience: 0.70, Fragility: 0.45,
		Text:     "You argue from costs, incentives and opportunity cost. You ask who pays, who benefits and what the cheapest acceptable outcome is.",
		keywords: []string{"cost", "price", "budget", "worth", "pay", "money", "invest", "roi", "cheaper", "expensive"}},
	{Name: "user-advocate", Domain: "product and user experience", Precision: 0.40, Resilience: 0.75, Fragility: 0.55,
		Text:     "You argue from the people who use the result: what they see, what they lose, and what they would choose if asked.",
		keywords: []string{"user", "customer", "ux", "experience", "product", "accessible", "accessibility", "feature", "design"}},
	{Name: "empiricist", Domain: "measurement and experiment", Precision: 0.75, Resilience: 0.55, Fragility: 0.50,
		Text:     "You argue from measurements and experiments. You ask what data would settle the question and distrust intuition without numbers.",
		keywords: []string{"fast", "faster", "slow", "latency", "performance", "benchmark", "measure", "data", "evidence", "scale"}},
}

// Names are the library's persona names, in order.
func Names() []string {
	out := make([]string, len(Library))
	for i, p := range Library {
		out[i] = p.Name
	}
	return out
}

// Style says how the weights shape the persona's arguing (docs/protocols/argue.md: high
// precision → formal proofs, high resilience → practical implications,
// high fragility → edge cases and failure modes).
func (p Persona) Style() string {
	var parts []string
	if p.Precision >= 0.7 {
		parts = append(parts, "favour formal, precise arguments")
	}
	if p.Resilience >= 0.7 {
		parts = append(parts, "favour practical implications")
	}
	if p.Fragility >= 0.7 {
		parts = append(parts, "favour edge cases and failure modes")
	}
	if len(parts) == 0 {
		parts = append(parts, "balance formal, practical and failure-mode arguments")
	}
	return strings.Join(parts, "; ")
}

// Lens is the persona frozen as a participant's lens (problema.md keeps
// it): its name, and a text that states its domain, weights and style,
// its part in the debate (role, may be empty) and its lens text.
func (p Persona) Lens(role string) bugfolder.Lens {
	var b strings.Builder
	fmt.Fprintf(&b, "Persona %s — domain: %s; precision %s, resilience %s, fragility %s (%s).\n",
		p.Name, p.Domain, weight(p.Precision), weight(p.Resilience), weight(p.Fragility), p.Style())
	if role != "" {
		b.WriteString("Part: " + role + "\n")
	}
	b.WriteString(strings.TrimSpace(p.Text))
	return bugfolder.Lens{Name: p.Name, Text: b.String()}
}

func weight(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// words splits a text into its lower-case words: runs of letters and
// digits (a hyphen or an apostrophe splits them).
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// matches reports whether a word of the question is the keyword, or its
// plural: whole words only, so "use" never matches "because", nor "ux"
// "linux".
func matches(word, key string) bool {
	return word == key || word == key+"s" || word == key+"es"
}

// stopwords are words of a project persona's domain too common to choose it.
var stopwords = map[string]bool{"and": true, "the": true, "for": true, "with": true, "from": true, "into": true, "over": true, "that": true, "this": true, "their": true, "other": true}

// keys are a persona's keywords: the library's own, else (a project
// persona) the words of its name and of its domain of three letters or more.
func (p Persona) keys() []string {
	if p.keywords != nil {
		return p.keywords
	}
	var out []string
	for _, w := range append(words(p.Name), words(p.Domain)...) {
		if len(w) >= 3 && !stopwords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// Choose picks two personas for a question when none are given, and says
// which and why: of the project's own personas (.moot/personas/, first)
// and the library's, the two whose keywords the question mentions most,
// as whole words (ties: project personas first, then library order); with
// one match, it is set against the most different default; with none,
// formalist and pragmatist, the protocol's pair of a precise and a resilient
// lens. A project persona that shares a library persona's name replaces it.
func Choose(question string, project []Persona) (pair [2]Persona, why string) {
	qw := words(question)
	candidates := slices.Clone(project)
	for _, p := range Library {
		if !slices.ContainsFunc(project, func(o Persona) bool { return o.Name == p.Name }) {
			candidates = append(candidates, p)
		}
	}
	type hit struct {
		p    Persona
		n    int
		word string
	}
	var hits []hit
	for _, p := range candidates {
		h := hit{p: p}
		for _, k := range p.keys() {
			if slices.ContainsFunc(qw, func(w string) bool { return matches(w, k) }) {
				h.n++
				if h.word == "" {
					h.word = k
				}
			}
		}
		hits = append(hits, h)
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.n - a.n })
	if hits[0].n == 0 {
		return [2]Persona{Library[0], Library[1]}, "no persona's keywords or domain matched a word of the question: formalist (precision) against pragmatist (resilience), the default pair"
	}
	first, second := hits[0], hits[1]
	if second.n == 0 { // one match: set it against the most different default
		second = hit{p: Library[1]}
		if first.p.Name == Library[1].Name {
			second = hit{p: Library[0]}
		}
	}
	why = fmt.Sprintf("%s%s (the question says %q) against %s", first.p.Name, from(first.p), first.word, second.p.Name+from(second.p))
	if second.word != "" {
		why += fmt.Sprintf(" (it says %q)", second.word)
	} else {
		why += " (the contrasting default)"
	}
	return [2]Persona{first.p, second.p}, why
}

// from marks a project persona in Choose's reason.
func from(p Persona) string {
	if p.keywords == nil {
		return " [" + Dir + "/" + p.Name + ".md]"
	}
	return ""
}
