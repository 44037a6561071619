package argue

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/reversa/moot/internal/strictjson"
	"github.com/reversa/moot/internal/termsafe"
)

// Criterion is one scoring metric of docs/protocols/argue.md and its weight.
type Criterion struct {
	Key    string
	Weight float64
	PT, EN string
}

// Criteria are the protocol's scoring metrics and weights: evidence ×2,
// novelty ×1.5, concession ×2 (conceding a strong point scores
// positively), coherence ×1, rebuttal precision ×1, calibration ×0.5.
var Criteria = []Criterion{
	{"evidence", 2, "Qualidade da evidência (fontes citadas)", "Evidence quality (sources cited)"},
	{"novelty", 1.5, "Novidade do argumento (perspectiva ainda não levantada)", "Argument novelty (a perspective not raised before)"},
	{"concession", 2, "Qualidade da concessão (reconhecer os pontos fortes do oponente é BOM)", "Concession quality (acknowledging the opponents' strong points is GOOD)"},
	{"coherence", 1, "Coerência lógica (consistência interna)", "Logical coherence (internal consistency)"},
	{"rebuttal", 1, "Precisão da réplica (alegações específicas, sem espantalhos)", "Rebuttal precision (specific claims, no straw men)"},
	{"calibration", 0.5, "Calibração da confiança (confiança condiz com a evidência)", "Confidence calibration (confidence matches the evidence)"},
}

// maxWeighted is the weighted total of a persona scoring 10 everywhere.
var maxWeighted = func() float64 {
	t := 0.0
	for _, c := range Criteria {
		t += 10 * c.Weight
	}
	return t
}()

// Score is one persona's round as the scorer rated it.
type Score map[string]float64

// Weighted is the score's weighted total, 0–80 (the argue protocol's weights).
func (s Score) Weighted() float64 {
	t := 0.0
	for _, c := range Criteria {
		t += s[c.Key] * c.Weight
	}
	return math.Round(t*100) / 100
}

// Scores is a scorer's whole answer: one Score per label (or, once
// mapped, per persona id) and whether anything new was said.
type Scores struct {
	Scores      map[string]Score `json:"scores"`
	NewArgument bool             `json:"new_arguments"`
	// SynthesisReady is the scorer's call that the material suffices
	// for the synthesis (the argue protocol's "synthesis ready" stop), with its
	// reason.
	SynthesisReady  bool   `json:"synthesis_ready,omitempty"`
	SynthesisReason string `json:"synthesis_ready_reason,omitempty"`
}

// maxReason bounds the scorer's reason for a synthesis-ready stop, in
// characters (it is logged and printed on one line).
const maxReason = 300

// ParseScores reads a scorer's answer as strict JSON: one object (a
// Markdown code fence around it is tolerated, nothing else), exactly the
// labels given, each with the six criteria as numbers from 0 to 10, and
// new_arguments as a boolean; synthesis_ready (optional) true only with a
// synthesis_ready_reason. Unknown fields are refused. The problems are
// what makes it a scorer failure.
func ParseScores(body string, labels []string) (Scores, []string) {
	text := strings.TrimSpace(body)
	if after, ok := strings.CutPrefix(text, "```"); ok {
		after = strings.TrimPrefix(after, "json")
		text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(after), "```"))
	}
	if key, dup := strictjson.DuplicateKey(text); dup {
		return Scores{}, []string{fmt.Sprintf("%q is given twice in one object: the answer must say each thing once", key)}
	}
	var raw struct {
		Scores          map[string]map[string]json.RawMessage `json:"scores"`
		NewArgument     *bool                                 `json:"new_arguments"`
		SynthesisReady  bool                                  `json:"synthesis_ready"`
		SynthesisReason string                                `json:"synthesis_ready_reason"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return Scores{}, []string{fmt.Sprintf("not the scorer's JSON object: %v", err)}
	}
	if dec.More() {
		return Scores{}, []string{"text after the JSON object: the answer must be one JSON object and nothing else"}
	}
	var problems []string
	if raw.NewArgument == nil {
		problems = append(problems, `lacks "new_arguments" (true or false)`)
	}
	out := Scores{Scores: map[string]Score{}}
	if raw.NewArgument != nil {
		out.NewArgument = *raw.NewArgument
	}
	out.SynthesisReady, out.SynthesisReason = raw.SynthesisReady, termsafe.Line(raw.SynthesisReason)
	if out.SynthesisReady && strings.TrimSpace(out.SynthesisReason) == "" {
		problems = append(problems, `"synthesis_ready" is true without "synthesis_ready_reason": say why the material suffices`)
	}
	if r := []rune(out.SynthesisReason); len(r) > maxReason {
		out.SynthesisReason = string(r[:maxReason]) + "…"
	}
	for _, l := range labels {
		row, ok := raw.Scores[l]
		if !ok {
			problems = append(problems, fmt.Sprintf("no score for %s", l))
			continue
		}
		sc := Score{}
		for _, c := range Criteria {
			n, ok := row[c.Key]
			v, err := strconv.ParseFloat(string(n), 64) // a JSON number only: "7" in quotes is text
			if !ok || err != nil || v < 0 || v > 10 || math.IsNaN(v) {
				problems = append(problems, fmt.Sprintf("%s.%s is %s: give a number from 0 to 10", l, c.Key, cmp.Or(string(n), "missing")))
				continue
			}
			sc[c.Key] = v
		}
		for k := range row {
			if !slices.ContainsFunc(Criteria, func(c Criterion) bool { return c.Key == k }) {
				problems = append(problems, fmt.Sprintf("%s.%s is not a criterion (%s)", l, k, criterionKeys()))
			}
		}
		out.Scores[l] = sc
	}
	for l := range raw.Scores {
		if !slices.Contains(labels, l) {
			problems = append(problems, fmt.Sprintf("%q is not a label of this round (%s)", l, strings.Join(labels, ", ")))
		}
	}
	slices.Sort(problems)
	return out, problems
}

func criterionKeys() string {
	keys := make([]string, len(Criteria))
	for i, c := range Criteria {
		keys[i] = c.Key
	}
	return strings.Join(keys, ", ")
}
