package harness

import (
	"slices"
	"strings"

	"github.com/reversa/moot/internal/lazyre"
)

// familyRE is what a family: field may say: a vendor's name in one word.
var familyRE = lazyre.New(`^[A-Za-z][A-Za-z0-9-]*$`)

// modelFamilies maps the start of a model's name (after any "vendor/"
// prefix) to its vendor family, longest prefixes first where they overlap.
var modelFamilies = []struct{ prefix, family string }{
	{"claude", "anthropic"},
	{"sonnet", "anthropic"}, // Claude's aliases, as proxies and CLIs name them
	{"opus", "anthropic"},
	{"haiku", "anthropic"},
	{"gpt", "openai"},
	{"codex", "openai"},
	{"chatgpt", "openai"},
	{"o1", "openai"},
	{"o3", "openai"},
	{"o4", "openai"},
	{"gemini", "google"},
	{"gemma", "google"},
	{"qwen", "alibaba"},
	{"qwq", "alibaba"},
	{"llama", "meta"},
	{"mistral", "mistral"},
	{"mixtral", "mistral"},
	{"codestral", "mistral"},
	{"deepseek", "deepseek"},
	{"grok", "xai"},
	{"phi", "microsoft"},
}

// kindFamilies are the families a vendor CLI or vendor API belongs to
// whatever model it is given.
var kindFamilies = map[Kind]string{
	KindCodex:     "openai",
	KindClaude:    "anthropic",
	KindGemini:    "google",
	KindQwen:      "alibaba",
	KindAnthropic: "anthropic",
}

// Family is the engine's vendor family (docs/engines.md, docs/protocols/review.md): the
// family of its vendor CLI or API kind; else the family: field (only a
// command, openai or opencode engine without a known model may differ
// from what its kind and model show: see VendorFamily); else the one its
// model's name starts with ("anthropic/claude-…" reads the name after
// the slash, then the prefix before it); "" when unknown. An unknown
// family never clashes with another; "family: unknown" (any case)
// declares it so on the engines that may declare a family. Both the
// review's builder exclusion and the judge-family rule read it.
func (e *EngineConfig) Family() string {
	if f := e.VendorFamily(); f != "" {
		return f
	}
	if strings.EqualFold(e.FamilyDecl, FamilyUnknown) {
		return ""
	}
	if e.FamilyDecl != "" {
		return canonicalFamily(e.FamilyDecl)
	}
	return ModelFamily(e.Model)
}

// canonicalFamily is the family a family: field names: a known family
// written another way — a model's or product's word ("claude", "Gemini"),
// or hyphenated ("open-ai") — is that family, so the builder's family is
// excluded however its engines spell it; any other name is itself, in
// lower case.
func canonicalFamily(f string) string {
	l := strings.ToLower(strings.TrimSpace(f))
	for _, v := range []string{l, strings.ReplaceAll(l, "-", "")} {
		if fam := ModelWord(v); fam != "" {
			return fam
		}
	}
	return l
}

// VendorFamily is the family a vendor engine is of whatever its file
// says: its vendor CLI or API kind's (claude, codex, gemini, qwen,
// anthropic), or an opencode engine's "provider/model" when it names a
// known family. "" for command and openai engines, whose family: field
// says who serves them (a local server may serve any vendor's weights).
func (e *EngineConfig) VendorFamily() string {
	if f, ok := kindFamilies[e.Kind]; ok {
		return f
	}
	if e.Kind == KindOpencode {
		return ModelFamily(e.Model)
	}
	return ""
}

// ReasoningSwitch is what a structured-verdict call sends to turn
// reasoning off on this engine: think: false to an Ollama server (ollama:
// called on its native endpoint), "reasoning_effort: none" to any other;
// "" when it has no switch (only an openai engine with
// verdict_reasoning_effort opts in). The wire code and the route table
// both read it.
func (e *EngineConfig) ReasoningSwitch(ollama bool) string {
	switch {
	case e.Kind != KindOpenAI || e.VerdictEffort == "":
		return ""
	case ollama:
		return "think: false"
	}
	return "reasoning_effort: " + e.VerdictEffort
}

// ModelFamily is the vendor family a model's name shows ("" when it shows
// none): "gpt-5" is openai, "qwen2.5-coder:7b" alibaba, "openrouter/
// anthropic/claude-sonnet-4" anthropic.
func ModelFamily(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "" {
		return ""
	}
	parts := strings.Split(m, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		for _, mf := range modelFamilies {
			if strings.HasPrefix(parts[i], mf.prefix) {
				return mf.family
			}
		}
		for _, f := range kindFamilies {
			if parts[i] == f {
				return f
			}
		}
	}
	return ""
}

// KnownFamilies are the vendor families moot knows by name (from model
// names and vendor kinds), sorted.
func KnownFamilies() []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, mf := range modelFamilies {
		add(mf.family)
	}
	for _, f := range kindFamilies {
		add(f)
	}
	slices.Sort(out)
	return out
}

// FamilyUnknown is the family: value that declares an engine's family
// unknown: it never clashes.
const FamilyUnknown = "unknown"

// SameFamily reports whether two families clash: both known and equal.
func SameFamily(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return a != "" && a != FamilyUnknown && a == b
}

// ModelWord is the family a single word names as a model's name does
// ("claude", "gpt-5", "Codex", "qwen2.5" — "" for "Phil" or "gpto"): a
// known model prefix that the word's letters end with (a digit, a
// punctuation mark or the word's end follows it), so a person's name that
// merely starts like a model is not read as one. A family's own name
// ("anthropic") counts too.
func ModelWord(word string) string {
	w := strings.ToLower(strings.TrimSpace(word))
	if slices.Contains(KnownFamilies(), w) {
		return w
	}
	for _, mf := range modelFamilies {
		if rest, ok := strings.CutPrefix(w, mf.prefix); ok && (rest == "" || !isLetter(rest[0])) {
			return mf.family
		}
	}
	return ""
}

// isLetter reports an ASCII letter.
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
