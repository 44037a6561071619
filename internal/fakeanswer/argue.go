package fakeanswer

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// argue's answers follow FAKE_ARGUE: "" (confidences keep moving and the
// scorer always sees something new: the round cap ends the debate),
// "converge" (every confidence stays put: convergence after round 2) or
// "stale" (confidences move, the scorer sees nothing new: null
// production after round 2) or "ready" (the scorer calls the synthesis
// ready, with a reason: the stop after round 1).

var argueRoundRE = regexp.MustCompile(`(?:Rodada|Round) (\d+) \((?:de|of) `)

// argueRound is the round a persona's prompt names.
func argueRound(prompt string) int {
	if m := argueRoundRE.FindStringSubmatch(prompt); m != nil {
		k, _ := strconv.Atoi(m[1])
		return k
	}
	return 0
}

// persona is an argue persona's answer.
func persona(prompt string, en bool) string {
	k := argueRound(prompt)
	conf := 0.3 + 0.15*float64(k)
	if os.Getenv("FAKE_ARGUE") == "converge" {
		conf = 0.7
	}
	if conf > 0.95 {
		conf = 0.95
	}
	h := func(pt, e string) string {
		if en {
			return "## " + e + "\n\n"
		}
		return "## " + pt + "\n\n"
	}
	var b strings.Builder
	b.WriteString(h("Argumento", "Argument") + fmt.Sprintf("Round %d: caching coupon lookups cuts latency; evidence: the checkout log shows 40 ms per lookup.\n", k) + mark() + "\n\n")
	b.WriteString(h("Réplica", "Rebuttal") + "The opponent's staleness claim assumes coupons change often; the log shows one change a day.\n\n")
	b.WriteString(h("Concessões", "Concessions") + fmt.Sprintf("Round %d: a stale coupon for 60 s can overcharge a customer.\n\n", k))
	b.WriteString(h("Confiança", "Confidence") + strconv.FormatFloat(conf, 'f', 2, 64) + "\n\n")
	b.WriteString(h("O que mudaria minha opinião", "What would change my mind") + "A measurement showing coupon changes every minute.\n")
	return b.String()
}

var labelsRE = regexp.MustCompile(`(?m)^(?:Rótulos desta rodada|Labels of this round): (.*)$`)

// scorer is argue's scorer answer: strict JSON over the prompt's labels.
func scorer(prompt string) string {
	m := labelsRE.FindStringSubmatch(prompt)
	var parts []string
	if m != nil {
		for _, l := range strings.Split(m[1], ",") {
			if l = strings.TrimSpace(l); l != "" {
				parts = append(parts, fmt.Sprintf(`%q: {"evidence": 7, "novelty": 6, "concession": 8, "coherence": 7, "rebuttal": 6, "calibration": 5}`, l))
			}
		}
	}
	isNew := os.Getenv("FAKE_ARGUE") != "stale"
	ready := ""
	if os.Getenv("FAKE_ARGUE") == "ready" { // the argue protocol's "synthesis ready" call
		ready = `, "synthesis_ready": true, "synthesis_ready_reason": "as posições estão expostas e concedidas"`
	}
	return fmt.Sprintf(`{"scores": {%s}, "new_arguments": %v%s}`+"\n", strings.Join(parts, ", "), isNew, ready)
}

// argueSynthesis is argue's eight-section synthesis.
func argueSynthesis(en bool) string {
	h := func(pt, e string) string {
		if en {
			return "## " + e + "\n\n"
		}
		return "## " + pt + "\n\n"
	}
	var b strings.Builder
	b.WriteString(h("Participantes", "Participants") + "- the personas of the debate\n\n")
	b.WriteString(h("Rodadas e término", "Rounds and termination") + "As the prompt says.\n\n")
	b.WriteString(h("Pontos de concordância", "Agreement") + "1. Lookups cost 40 ms.\n\n")
	b.WriteString(h("Pontos de desacordo genuíno", "Genuine disagreement") + "1. Whether 60 s of staleness is acceptable.\n\n")
	b.WriteString(h("Registro de concessões", "Concession log") + "- Round 1: both conceded the staleness risk.\n\n")
	b.WriteString(h("Argumentos mais fortes", "Strongest arguments") + "1. [agent-1, round 1] the latency measurement.\n\n")
	b.WriteString(h("Perguntas em aberto", "Open questions") + "1. How often do coupons change?\n\n")
	b.WriteString(h("Conclusão matizada", "Nuanced conclusion") + "Cache with invalidation on coupon change.\n" + mark() + "\n")
	return b.String()
}
