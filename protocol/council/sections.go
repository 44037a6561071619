package council

import (
	"strconv"
	"strings"

	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/protocol/sections"
)

// heading is one required section (the shared checker's).
type heading = sections.Heading

// The member's sections in round 0 (positions) and in rounds 1..R
// (cross-rebuttals), and the synthesizer's, as docs/protocols/council.md names them.
var (
	secRecommend  = heading{PT: "Recomendação", EN: "Recommendation"}
	secReasoning  = heading{PT: "Raciocínio", EN: "Reasoning"}
	secEvidence   = heading{PT: "Evidências", EN: "Evidence"}
	secConfidence = heading{PT: "Confiança", EN: "Confidence"}
	secLimits     = heading{PT: "Limitações", EN: "Limitations"}
	secAgree      = heading{PT: "Concordo com", EN: "Agree with"}
	secDisagree   = heading{PT: "Discordo de", EN: "Disagree with"}
	secBlindSpot  = heading{PT: "Ponto cego identificado", EN: "Blind spot"}
	secKeep       = heading{PT: "Mantenho minha posição", EN: "Do I keep my position"}
	secConsensus  = heading{PT: "Pontos de consenso", EN: "Consensus"}
	secDivergence = heading{PT: "Pontos de divergência", EN: "Divergences"}
	secTensions   = heading{PT: "Tensões produtivas", EN: "Productive tensions"}
	secGaps       = heading{PT: "Lacunas identificadas", EN: "Gaps"}
	secSynthConf  = heading{PT: "Confiança da síntese", EN: "Synthesis confidence"}
)

var (
	position  = []heading{secRecommend, secReasoning, secEvidence, secConfidence, secLimits}
	rebuttal  = []heading{secAgree, secDisagree, secBlindSpot, secKeep, secConfidence}
	synthesis = []heading{secConsensus, secDivergence, secTensions, secGaps, secSynthConf}
	// keepWords opens "Mantenho minha posição": sim | não | parcialmente.
	keepWords = lazyre.New(`(?i)^\W*(sim|não|nao|parcialmente|yes|no|partly|partially)\b`)
	// percent is the first percentage of a confidence section.
	percent = lazyre.New(`(\d{1,3}(?:[.,]\d+)?)\s*%`)
	// nature is a divergence's "Natureza: dados|prioridades|timing|risco".
	nature = lazyre.New(`(?i)\b(?:natureza|nature)\b\W*(dados|prioridades|timing|risco|data|priorities|risk)\b`)
	// critical is a divergence marked critical: "Crítica: sim".
	critical = lazyre.New(`(?i)\b(?:crítica|critica|critical)\W*(sim|yes)\b`)
)

// memberSections are a member's sections in round k.
func memberSections(k int) []heading {
	if k == 0 {
		return position
	}
	return rebuttal
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

// checkSections, match and t are the shared checker's.
var (
	checkSections = sections.Check
	match         = sections.Match
	t             = sections.T
)
