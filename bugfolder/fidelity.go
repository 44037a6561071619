package bugfolder

import (
	"regexp"
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
					if inline != "" {
						out.WriteString("\n" + inline + nl)
					}
					continue
				}
			}
		}
		out.WriteString(raw)
	}
	return out.String()
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

var verdictRE = regexp.MustCompile(`(?i)\bspec-(?:correta|correct|desatualizada|outdated|gap)\b`)

var verdictLineRE = regexp.MustCompile(`(?i)(?:veredito|verdict)`)

// RecommendedVerdict finds the verdict a spec-mode answer recommends, in
// the language form l ("spec-gap"): the one on a line that speaks of a
// verdict, else the only one the text names. It returns "" when the text
// names none, or several without a verdict line to choose.
func RecommendedVerdict(text string, l Lang) string {
	for _, line := range strings.Split(text, "\n") {
		if verdictLineRE.MatchString(line) {
			if m := verdictRE.FindString(line); m != "" {
				return canonicalVerdict(m, l)
			}
		}
	}
	found := map[string]bool{}
	for _, m := range verdictRE.FindAllString(text, -1) {
		found[canonicalVerdict(m, l)] = true
	}
	if len(found) == 1 {
		for v := range found {
			return v
		}
	}
	return ""
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
