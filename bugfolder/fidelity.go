package bugfolder

import (
	"github.com/reversa/moot/internal/lazyre"
	"slices"
	"strings"
)

// CanonicalHeadings rewrites every recognised variant of a protocol
// level-2 heading (the other language, numbering, emphasis, a missing
// accent, a trailing colon, a value after a colon) to the debate's
// canonical heading, so one debate never mixes forms. Text after a colon
// on the heading line moves to the line below. Headings inside code fences
// and unrecognised headings are left as written (the validator reports the
// latter).
func CanonicalHeadings(body string, l Lang) string {
	var out strings.Builder
	var fence string
	inConfidence := false // the confidence word is still to come
	for _, raw := range strings.SplitAfter(body, "\n") {
		line := strings.TrimRight(raw, "\n")
		if next, isFence := fenceStep(fence, line); isFence {
			fence = next
		} else if fence == "" {
			if level, text, ok := atxHeading(line); ok && level == 2 {
				if key, inline := classifyHeading(text); key != SecUnknown {
					nl := raw[len(line):]
					if nl == "" {
						nl = "\n"
					}
					out.WriteString(key.Heading(l) + nl)
					inConfidence = key == SecConfidence
					if inline != "" {
						if inConfidence {
							inline, inConfidence = canonicalConfidence(inline, l), false
						}
						out.WriteString("\n" + inline + nl)
					}
					continue
				}
				inConfidence = false
			} else if inConfidence && strings.TrimSpace(line) != "" {
				raw, inConfidence = canonicalConfidence(line, l)+raw[len(line):], false
			}
		}
		out.WriteString(raw)
	}
	return out.String()
}

// canonicalConfidence rewrites the confidence word that starts a line
// ("medium: …", "media — …") in the debate's language ("média: …").
func canonicalConfidence(line string, l Lang) string {
	loc := wordRE.FindStringIndex(line)
	if loc == nil {
		return line
	}
	c := ParseConfidence(line[loc[0]:loc[1]])
	if c == ConfUnknown {
		return line
	}
	return line[:loc[0]] + c.Word(l) + line[loc[1]:]
}

// DropSection removes a level-2 section (its heading and content) from a
// body, keeping everything else as written.
func DropSection(body string, key SectionKey) string {
	pre, secs := ParseSections(body)
	var b strings.Builder
	b.WriteString(pre)
	for _, s := range secs {
		if s.Key == key {
			continue
		}
		b.WriteString("## " + s.Heading + "\n" + s.Content)
	}
	return b.String()
}

// DropSelfGrafts removes from a judge answer's grafts section the entries
// that name only the winner (no idea of another debater), keeping the
// others as written; with none left the section says the none word. It
// returns the body and how many entries were dropped.
func DropSelfGrafts(body string, l Lang, ans *JudgeAnswer) (string, int) {
	real := ans.RealGrafts()
	dropped := len(ans.Grafts) - len(real)
	if dropped == 0 {
		return body, 0
	}
	kept := make([]string, len(real))
	for i, g := range real {
		kept[i] = g.Text
	}
	content := l.NoneWord()
	if len(kept) > 0 {
		content = strings.Join(kept, "\n")
	}
	pre, secs := ParseSections(body)
	var b strings.Builder
	b.WriteString(pre)
	done := false
	for _, s := range secs {
		if s.Key == SecGrafts && !done {
			done = true
			b.WriteString(SecGrafts.Heading(l) + "\n\n" + content + "\n\n")
			continue
		}
		b.WriteString("## " + s.Heading + "\n" + s.Content)
	}
	return b.String(), dropped
}

// MissingModeSections lists the mode's required sections (a solver's, as
// in round 0) that a final answer's synthesis lacks.
func MissingModeSections(synthesis string, l Lang, m Mode) []string {
	_, secs := ParseSections(synthesis)
	have := map[SectionKey]bool{}
	for _, s := range secs {
		have[s.Key] = true
	}
	var out []string
	for _, s := range BodySchema(m, RoleSolver, 0) {
		if s.required && !have[s.key] {
			out = append(out, s.key.Heading(l))
		}
	}
	return out
}

// Verdicts of a spec-mode debate, canonical (Portuguese) form first.
var specVerdicts = [][2]string{
	{"spec-correta", "spec-correct"},
	{"spec-desatualizada", "spec-outdated"},
	{"spec-gap", "spec-gap"},
}

var verdictRE = lazyre.New(`(?i)\bspec-(?:correta|correct|desatualizada|outdated|gap)\b`)

var verdictLineRE = lazyre.New(`(?i)(?:veredito|verdict)`)

// negationRE finds a negation before a verdict in the same clause, per
// language (Portuguese "no" is "in the", no negation).
var negationRE = [2]*lazyre.Regexp{
	PT: lazyre.New(`(?i)(?:^|[^\p{L}])(?:não|nao|nunca|nem|not|never)(?:[^\p{L}]|$)`),
	EN: lazyre.New(`(?i)(?:^|[^\p{L}])(?:not|no|never|nor|isn't|aren't|don't|doesn't|não)(?:[^\p{L}]|$)`),
}

// RecommendedVerdict finds the verdict a spec-mode answer recommends, in
// the language form l ("spec-gap"), or "" (see FindVerdict).
func RecommendedVerdict(text string, l Lang) string {
	v, _ := FindVerdict(text, l)
	return v
}

// FindVerdict finds the verdict a spec-mode answer recommends: mentions
// negated in their clause ("não recomendo spec-gap", "not spec-correct")
// do not count; the one left on a line that speaks of a verdict wins, else
// the only one left in the text. several is set when more than one verdict
// is left and no verdict line chooses among them.
func FindVerdict(text string, l Lang) (verdict string, several bool) {
	for _, line := range strings.Split(text, "\n") {
		if verdictLineRE.MatchString(line) {
			if vs := affirmedVerdicts(line, l); len(vs) == 1 {
				return vs[0], false
			}
		}
	}
	switch vs := affirmedVerdicts(text, l); len(vs) {
	case 0:
		return "", false
	case 1:
		return vs[0], false
	default:
		return "", true
	}
}

// affirmedVerdicts lists the distinct verdicts text names that no
// negation earlier in the same clause denies.
func affirmedVerdicts(text string, l Lang) []string {
	var out []string
	for _, m := range verdictRE.FindAllStringIndex(text, -1) {
		clause := text[:m[0]]
		if i := strings.LastIndexAny(clause, ".;!?\n"); i >= 0 {
			clause = clause[i+1:]
		}
		if negationRE[l].MatchString(clause) {
			continue
		}
		if v := canonicalVerdict(text[m[0]:m[1]], l); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func canonicalVerdict(s string, l Lang) string {
	s = strings.ToLower(s)
	for _, v := range specVerdicts {
		if s == v[0] || s == v[1] {
			return v[l]
		}
	}
	return s
}

// SpecVerdictWords lists the verdicts in the language form, for prompts.
func SpecVerdictWords(l Lang) string {
	out := make([]string, len(specVerdicts))
	for i, v := range specVerdicts {
		out[i] = v[l]
	}
	return strings.Join(out, " | ")
}
