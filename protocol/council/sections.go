package council

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// heading is one required section, in Portuguese and English.
type heading struct{ pt, en string }

func (h heading) in(l bugfolder.Lang) string { return "## " + t(l, h.pt, h.en) }

// The member's sections in round 0 (positions) and in rounds 1..R
// (cross-rebuttals), and the synthesizer's, as CLI.md names them.
var (
	secRecommend  = heading{"Recomendação", "Recommendation"}
	secReasoning  = heading{"Raciocínio", "Reasoning"}
	secEvidence   = heading{"Evidências", "Evidence"}
	secConfidence = heading{"Confiança", "Confidence"}
	secLimits     = heading{"Limitações", "Limitations"}
	secAgree      = heading{"Concordo com", "Agree with"}
	secDisagree   = heading{"Discordo de", "Disagree with"}
	secBlindSpot  = heading{"Ponto cego identificado", "Blind spot"}
	secKeep       = heading{"Mantenho minha posição", "Do I keep my position"}
	secConsensus  = heading{"Pontos de consenso", "Consensus"}
	secDivergence = heading{"Pontos de divergência", "Divergences"}
	secTensions   = heading{"Tensões produtivas", "Productive tensions"}
	secGaps       = heading{"Lacunas identificadas", "Gaps"}
	secSynthConf  = heading{"Confiança da síntese", "Synthesis confidence"}
)

var (
	position  = []heading{secRecommend, secReasoning, secEvidence, secConfidence, secLimits}
	rebuttal  = []heading{secAgree, secDisagree, secBlindSpot, secKeep, secConfidence}
	synthesis = []heading{secConsensus, secDivergence, secTensions, secGaps, secSynthConf}
	// keepWords opens "Mantenho minha posição": sim | não | parcialmente.
	keepWords = regexp.MustCompile(`(?i)^\W*(sim|não|nao|parcialmente|yes|no|partly|partially)\b`)
	// percent is the first percentage of a confidence section.
	percent = regexp.MustCompile(`(\d{1,3}(?:[.,]\d+)?)\s*%`)
	// nature is a divergence's "Natureza: dados|prioridades|timing|risco".
	nature = regexp.MustCompile(`(?i)\b(?:natureza|nature)\b\W*(dados|prioridades|timing|risco|data|priorities|risk)\b`)
	// natureLine finds the lines that state a nature at all.
	natureLine = regexp.MustCompile(`(?i)\b(?:natureza|nature)\s*:`)
	// critical is a divergence marked critical: "Crítica: sim".
	critical = regexp.MustCompile(`(?i)\b(?:crítica|critica|critical)\W*(sim|yes)\b`)
)

// memberSections are a member's sections in round k.
func memberSections(k int) []heading {
	if k == 0 {
		return position
	}
	return rebuttal
}

// checkSections finds the required sections, in order, under either
// language's heading (any case, a trailing colon or note allowed); it
// rewrites the headings to the debate's language and returns the body and
// each section's text, with the problems of those missing or out of order.
func checkSections(l bugfolder.Lang, body string, want []heading) (string, map[heading]string, []string) {
	_, secs := bugfolder.ParseSections(body)
	got := map[heading]string{}
	var problems []string
	next := 0
	var b strings.Builder
	for _, s := range secs {
		h, ok := match(s.Heading, want)
		if !ok {
			problems = append(problems, fmt.Sprintf("section %q is not one of this step's (%s)", "## "+s.Heading, names(l, want)))
			continue
		}
		if _, dup := got[h]; dup {
			problems = append(problems, fmt.Sprintf("section %s appears twice", h.in(l)))
			continue
		}
		idx := indexOf(want, h)
		if idx < next {
			problems = append(problems, fmt.Sprintf("section %s is out of order (the order is %s)", h.in(l), names(l, want)))
		}
		next = idx + 1
		got[h] = s.Text()
		fmt.Fprintf(&b, "%s\n\n%s\n\n", h.in(l), s.Text())
	}
	for _, h := range want {
		if _, ok := got[h]; !ok {
			problems = append(problems, "lacks the section "+h.in(l))
		} else if got[h] == "" {
			problems = append(problems, "section "+h.in(l)+" is empty")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n", got, problems
}

// match finds the required heading a written one names. The longest name
// wins, so "Confiança da síntese" is not read as "Confiança".
func match(written string, want []heading) (heading, bool) {
	w := strings.ToLower(strings.TrimSpace(written))
	w = strings.TrimSpace(strings.TrimSuffix(w, ":"))
	w = strings.TrimSpace(strings.TrimSuffix(w, "?"))
	for _, h := range want {
		for _, name := range []string{h.pt, h.en} {
			n := strings.ToLower(name)
			if w == n || strings.HasPrefix(w, n+" (") || strings.HasPrefix(w, n+":") || strings.HasPrefix(w, n+"?") {
				return h, true
			}
		}
	}
	return heading{}, false
}

func indexOf(hs []heading, h heading) int {
	for i, x := range hs {
		if x == h {
			return i
		}
	}
	return -1
}

// names lists headings for messages and prompts.
func names(l bugfolder.Lang, hs []heading) string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.in(l)
	}
	return strings.Join(out, ", ")
}

// confidence reads a confidence section's percentage (0–100); ok is false
// when it states none or one out of range.
func confidence(text string) (int, bool) {
	m := percent.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", "."), 64)
	if err != nil || f < 0 || f > 100 {
		return 0, false
	}
	return int(f + 0.5), true
}

// keepWord is the opening word of "Mantenho minha posição", normalized to
// sim, não or parcialmente ("" when it opens with none).
func keepWord(text string) string {
	m := keepWords.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	switch strings.ToLower(m[1]) {
	case "sim", "yes":
		return "sim"
	case "não", "nao", "no":
		return "não"
	}
	return "parcialmente"
}

// items splits a section into its list items (lines opening with -, *, +
// or "1."; a continuation line joins the item above). A section that is
// prose counts as one item; "nenhum"/"none" counts as none.
func items(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" || isNone(text) {
		return nil
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		if s == "" {
			continue
		}
		if rest, ok := bullet(s); ok {
			out = append(out, rest)
		} else if len(out) > 0 {
			out[len(out)-1] += " " + s
		} else {
			out = append(out, s)
		}
	}
	return out
}

// bullet strips a list marker.
func bullet(s string) (string, bool) {
	for _, m := range []string{"- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(s, m) {
			return strings.TrimSpace(s[len(m):]), true
		}
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:]), true
	}
	return s, false
}

// isNone reports a section that says it has nothing.
func isNone(text string) bool {
	w := strings.ToLower(strings.Trim(strings.TrimSpace(text), ".!-—* "))
	switch w {
	case "nenhum", "nenhuma", "none", "nada", "nothing", "n/a", "":
		return true
	}
	return false
}

// t picks the Portuguese or English text.
func t(l bugfolder.Lang, pt, en string) string {
	if l == bugfolder.EN {
		return en
	}
	return pt
}
