package argue

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// The stop rules' choices, as the stop decision records them.
const (
	StopConvergence    = "convergence"
	StopNullProduction = "null-production"
	StopRoundCap       = "round-cap"
	StopSynthesisReady = "synthesis-ready"
	StopManual         = "manual"
)

// ConvergenceDelta is the argue protocol's convergence threshold: every persona's
// confidence moved less than this, for two rounds in a row.
const ConvergenceDelta = 0.1

// confidences is one round's confidences by persona id (valid answers only).
func confidences(ra engine.RoundAnswers) map[string]float64 {
	out := map[string]float64{}
	for id, body := range ra {
		if _, ok := readScoreFile(body); ok {
			continue
		}
		if v, err := parseConfidence(sectionOf(body, secConfidence)); err == nil {
			out[id] = v
		}
	}
	return out
}

// newArguments says whether round ra's scorer saw anything new (ok is false
// when the round has no valid score).
func newArguments(ra engine.RoundAnswers) (isNew, ok bool) {
	for _, body := range ra {
		if f, good := readScoreFile(body); good {
			return f.NewArgument, true
		}
	}
	return false, false
}

// Stop is the argue protocol's stop rule after round k, the first that holds:
// convergence (every persona of the panel answered in each of the last
// three rounds and moved its confidence less than 0.1 in each of the last
// two), null production (the scorer saw nothing new in the last two
// rounds), synthesis ready (the scorer judged, after a rebuttal round, that
// the material suffices, and said why), the round cap (k == r). The cap's last round is asked too, so a
// rule that holds there is recorded, not the cap.
func (Protocol) Stop(k, r int, panel []string, rounds []engine.RoundAnswers) (choice, reason string) {
	if k >= 2 && converged(panel, rounds[k-2], rounds[k-1], rounds[k]) {
		return StopConvergence, fmt.Sprintf("convergence: every persona's confidence moved less than %.1f in rounds %d and %d", ConvergenceDelta, k-1, k)
	}
	if k >= 2 {
		a, okA := newArguments(rounds[k-1])
		b, okB := newArguments(rounds[k])
		if okA && okB && !a && !b {
			return StopNullProduction, fmt.Sprintf("null-production: the scorer found no new argument or evidence in rounds %d and %d", k-1, k)
		}
	}
	if k >= 1 {
		if why, ok := synthesisReady(rounds[k]); ok {
			return StopSynthesisReady, fmt.Sprintf("synthesis-ready: the scorer judged after round %d that the material suffices: %s", k, why)
		}
	}
	if k >= r {
		return StopRoundCap, capReason(r)
	}
	return "", ""
}

// synthesisReady is the scorer's synthesis-ready call of round ra, with
// its reason (ok is false when the scorer did not call it).
func synthesisReady(ra engine.RoundAnswers) (reason string, ok bool) {
	for _, body := range ra {
		if f, good := readScoreFile(body); good && f.SynthesisReady {
			return f.SynthesisReason, true
		}
	}
	return "", false
}

// capReason is the round cap's reason: every round the cap allows ran.
func capReason(r int) string {
	if r == 0 {
		return "round-cap: the one round ran (round 0)"
	}
	return fmt.Sprintf("round-cap: all %d rounds ran (0 to %d)", r+1, r)
}

// converged reports whether every persona of the panel answered in all
// three rounds and moved its confidence less than the threshold twice: a
// persona absent from any of them (failed, dropped) means no convergence,
// for its silence is no agreement.
func converged(panel []string, a, b, c engine.RoundAnswers) bool {
	ca, cb, cc := confidences(a), confidences(b), confidences(c)
	if len(panel) < 2 {
		return false
	}
	for _, id := range panel {
		va, okA := ca[id]
		vb, okB := cb[id]
		vc, okC := cc[id]
		if !okA || !okB || !okC {
			return false
		}
		if movedAtLeast(va, vb, ConvergenceDelta) || movedAtLeast(vb, vc, ConvergenceDelta) {
			return false
		}
	}
	return true
}

// movedAtLeast reports whether a confidence moved by d or more, compared
// in millionths: in floating point 0.6−0.5 is 0.0999…98 and 0.8−0.7 is
// 0.1000…09, and the same move of 0.1 must count the same (not less than
// 0.1, so no convergence).
func movedAtLeast(from, to, d float64) bool {
	return math.Round(math.Abs(to-from)*1e6) >= math.Round(d*1e6)
}

// stopText is why the debate stopped, for the synthesis and the files: a
// reason opens with its rule's choice and a colon.
func stopText(in engine.FinalInput) (choice, reason string) {
	if in.StopReason != "" {
		choice, _, _ = strings.Cut(in.StopReason, ":")
		return choice, in.StopReason
	}
	return StopRoundCap, capReason(in.R)
}

// reasonText is a stop reason in the document's language: the log and
// summary.json keep moot's English words; a Portuguese head, transcript
// and synthesizer prompt read them in Portuguese (a reason moot did not
// write, or a human's note, stays as written).
func reasonText(l bugfolder.Lang, reason string) string {
	if l != bugfolder.PT {
		return reason
	}
	var a, b int
	var d float64
	switch {
	case reason == "round-cap: the one round ran (round 0)":
		return "limite de rodadas: a única rodada rodou (rodada 0)"
	case scan(reason, "round-cap: all %d rounds ran (0 to %d)", &a, &b):
		return fmt.Sprintf("limite de rodadas: as %d rodadas rodaram (0 a %d)", a, b)
	case scan(reason, "convergence: every persona's confidence moved less than %g in rounds %d and %d", &d, &a, &b):
		return fmt.Sprintf("convergência: a confiança de cada persona mudou menos de %s nas rodadas %d e %d", strings.Replace(fmt.Sprint(d), ".", ",", 1), a, b)
	case scan(reason, "null-production: the scorer found no new argument or evidence in rounds %d and %d", &a, &b):
		return fmt.Sprintf("produção nula: o avaliador não encontrou argumento nem evidência nova nas rodadas %d e %d", a, b)
	case strings.HasPrefix(reason, "synthesis-ready: the scorer judged after round "):
		rest := strings.TrimPrefix(reason, "synthesis-ready: the scorer judged after round ")
		n, why, ok := strings.Cut(rest, " that the material suffices: ")
		if k, err := strconv.Atoi(n); ok && err == nil {
			return fmt.Sprintf("síntese pronta: o avaliador julgou após a rodada %d que o material basta: %s", k, why)
		}
	case scan(reason, "manual: stopped by human after round %d", &a):
		return fmt.Sprintf("manual: parado por um humano após a rodada %d", a)
	}
	return reason
}

// scan reports whether s is exactly format with its values (read into
// args).
func scan(s, format string, args ...any) bool {
	n, err := fmt.Sscanf(s, format, args...)
	return err == nil && n == len(args) && fmt.Sprintf(format, deref(args)...) == s
}

// deref reads back the values scan filled, to check the whole text matched.
func deref(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case *int:
			out[i] = *v
		case *float64:
			out[i] = *v
		}
	}
	return out
}

// Row is one round's measure: personas called and valid, and their
// confidences by id.
type Row struct {
	Round, Called, Valid int
	Confidence           map[string]float64
}

// Measure reads a round's confidences.
func (Protocol) Measure(m bugfolder.Mode, j, called int, cur, prev map[string]string) engine.ConvergenceRow {
	return Row{Round: j, Called: called, Valid: len(cur), Confidence: confidences(cur)}
}

// RenderConvergence writes convergencia.md: each round's confidences, so
// the convergence rule can be checked by eye.
func (Protocol) RenderConvergence(l bugfolder.Lang, m bugfolder.Mode, rows []engine.ConvergenceRow, notes []string) string {
	var b strings.Builder
	b.WriteString(t(l, "# Convergência (argue)\n\n", "# Convergence (argue)\n\n"))
	b.WriteString(t(l, "| rodada | personas chamadas | válidas | confiança |\n|---|---|---|---|\n",
		"| round | personas called | valid | confidence |\n|---|---|---|---|\n"))
	for _, r := range rows {
		row, ok := r.(Row)
		if !ok {
			continue
		}
		ids := slices.Sorted(maps.Keys(row.Confidence))
		var parts []string
		for _, id := range ids {
			parts = append(parts, fmt.Sprintf("%s %.2f", id, row.Confidence[id]))
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %s |\n", row.Round, row.Called, row.Valid, strings.Join(parts, ", "))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}
