package tradeoff

import (
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/protocol/sections"
)

// heading is one required section (the shared checker's).
type heading = sections.Heading

// The reviewer's sections in round 0 and in the rebuttal rounds, and the
// synthesizer's, as docs/protocols/tradeoff.md names them.
var (
	secPosition   = heading{PT: "Posição defendida", EN: "Position"}
	secArgument   = heading{PT: "Argumento", EN: "Argument"}
	secEvidence   = heading{PT: "Evidências", EN: "Evidence"}
	secFalsify    = heading{PT: "O que falsificaria esta posição", EN: "What would falsify it"}
	secAnswer     = heading{PT: "Resposta ao ponto mais forte", EN: "Answer to the strongest point"}
	secChanged    = heading{PT: "Mudei de conclusão", EN: "Changed my conclusion"}
	secAgreed     = heading{PT: "Fatos acordados", EN: "Agreed facts"}
	secContested  = heading{PT: "Alegações contestadas", EN: "Contested claims"}
	secMissing    = heading{PT: "Saídas ausentes ou falhas", EN: "Missing or failed outputs"}
	secRecommend  = heading{PT: "Recomendação", EN: "Recommendation"}
	secUncertain  = heading{PT: "Incerteza", EN: "Uncertainty"}
	secWouldChang = heading{PT: "O que mudaria a recomendação", EN: "What would change it"}
	secPending    = heading{PT: "Decisão humana pendente", EN: "Pending human decision"}
)

var (
	opening    = []heading{secPosition, secArgument, secEvidence, secFalsify}
	rebuttal   = []heading{secAnswer, secChanged, secEvidence}
	synthesis  = []heading{secAgreed, secContested, secMissing, secRecommend, secUncertain, secWouldChang, secPending}
	yesNoWords = lazyre.New(`(?i)^\W*(sim|não|nao|yes|no)\b`)
)

// reviewerSections are a reviewer's sections in round k.
func reviewerSections(k int) []heading {
	if k == 0 {
		return opening
	}
	return rebuttal
}

// checkSections, match and t are the shared checker's.
var (
	checkSections = sections.Check
	match         = sections.Match
	t             = sections.T
)
