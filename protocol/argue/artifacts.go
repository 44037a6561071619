package argue

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/reversa/moot/engine"
)

// PersonaDir is the folder of a persona's own files: personas/<name>/.
func PersonaDir(name string) string { return path.Join("personas", name) }

// ScoreRound is scoring/round_NNN.json for round k (NNN counts from 0,
// as the round folders do).
func ScoreRound(k int) string { return fmt.Sprintf("scoring/round_%03d.json", k) }

// Transcript is the whole debate in one document.
const Transcript = "transcript.md"

// concession is one entry of a persona's concessions.json.
type concession struct {
	Round int    `json:"round"`
	Text  string `json:"text"`
}

// confidencePoint is one entry of a persona's confidence.json.
type confidencePoint struct {
	Round      int     `json:"round"`
	Confidence float64 `json:"confidence"`
}

// roundScore is scoring/round_NNN.json.
type roundScore struct {
	Round       int                `json:"round"`
	Scored      bool               `json:"scored"`
	Personas    map[string]string  `json:"personas"`
	Scores      map[string]Score   `json:"scores,omitempty"`
	Weighted    map[string]float64 `json:"weighted,omitempty"`
	NewArgument *bool              `json:"new_arguments,omitempty"`
}

// Point is one round's value of a trajectory (engine.ScorePoint).
type Point = engine.ScorePoint

// personaSummary is one persona's line of scoring/summary.json. Mean is
// the mean of its weighted scores over the rounds scored (each 0–80, the
// protocol's weights), null while none is.
type personaSummary struct {
	Persona    string   `json:"persona"`
	Weighted   []Point  `json:"weighted_by_round"`
	Mean       *float64 `json:"weighted_mean"`
	Confidence []Point  `json:"confidence_by_round"`
	Conceded   int      `json:"concessions"`
}

// summary is scoring/summary.json.
type summary struct {
	Rounds      int                       `json:"rounds"`
	Cap         int                       `json:"round_cap"` // -r: the most rounds after round 0
	Stopped     string                    `json:"stop_rule"`
	Reason      string                    `json:"stop_reason"`
	Finished    bool                      `json:"synthesized"`
	Weights     map[string]float64        `json:"weights"`
	ByPersona   map[string]personaSummary `json:"by_persona"`
	Unscored    []int                     `json:"unscored_rounds"`
	MaxPerRound float64                   `json:"max_weighted"`
}

// Artifacts are argue's own files, derived from the rounds' files: per
// persona concessions.json and confidence.json, per round
// scoring/round_NNN.json, scoring/summary.json and transcript.md (with the
// synthesis once final is written).
func (Protocol) Artifacts(in engine.FinalInput, final string) map[string][]byte {
	out := map[string][]byte{}
	sum := summary{Rounds: len(in.Rounds), Cap: in.R, Finished: final != "", Weights: map[string]float64{},
		ByPersona: map[string]personaSummary{}, Unscored: []int{}, MaxPerRound: maxWeighted}
	sum.Stopped, sum.Reason = stopText(in)
	if final == "" && in.StopReason == "" && (in.Last < in.R || in.Live) {
		sum.Stopped, sum.Reason = "", "running"
	}
	if final == "" && in.Ended != "" && in.StopReason == "" {
		sum.Stopped, sum.Reason = "", in.Ended // cancelled: resume goes on
	}
	for _, c := range Criteria {
		sum.Weights[c.Key] = c.Weight
	}
	for _, id := range in.Panel {
		var cons []concession
		conf := []confidencePoint{}
		ps := personaSummary{Persona: name(in, id), Weighted: []Point{}, Confidence: []Point{}}
		total := 0.0
		for j, ra := range in.Rounds {
			body, ok := ra[id]
			if !ok {
				continue
			}
			if c := strings.TrimSpace(sectionOf(body, secConcession)); c != "" {
				cons = append(cons, concession{Round: j, Text: c})
			}
			if v, err := parseConfidence(sectionOf(body, secConfidence)); err == nil {
				conf = append(conf, confidencePoint{Round: j, Confidence: v})
				ps.Confidence = append(ps.Confidence, Point{Round: j, Value: v})
			}
			if sf, ok := scoresOf(ra); ok {
				if w, ok := sf.Weighted[id]; ok {
					ps.Weighted = append(ps.Weighted, Point{Round: j, Value: w})
					total += w
				}
			}
		}
		if len(ps.Weighted) > 0 {
			mean := math.Round(total/float64(len(ps.Weighted))*100) / 100
			ps.Mean = &mean
		}
		if cons == nil {
			cons = []concession{}
		}
		ps.Conceded = len(cons)
		sum.ByPersona[id] = ps
		dir := PersonaDir(name(in, id))
		out[path.Join(dir, "concessions.json")] = jsonBytes(cons)
		out[path.Join(dir, "confidence.json")] = jsonBytes(conf)
	}
	for j, ra := range in.Rounds {
		rs := roundScore{Round: j, Personas: map[string]string{}}
		for _, id := range in.Panel {
			rs.Personas[id] = name(in, id)
		}
		if sf, ok := scoresOf(ra); ok {
			nw := sf.NewArgument
			rs.Scored, rs.Scores, rs.Weighted, rs.NewArgument = true, sf.Scores, sf.Weighted, &nw
		} else {
			sum.Unscored = append(sum.Unscored, j)
		}
		out[ScoreRound(j)] = jsonBytes(rs)
	}
	// a round written live, then discarded (it lost its quorum after a
	// stop was asked: the rounds end before it) keeps no score file beside
	// a summary that does not count it
	for j := len(in.Rounds); j <= in.R; j++ {
		out[ScoreRound(j)] = nil
	}
	out["scoring/summary.json"] = jsonBytes(sum)
	out[Transcript] = []byte(RenderTranscript(in, final))
	return out
}

func jsonBytes(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // only maps, slices and numbers of this package
	}
	return append(b, '\n')
}

// RenderTranscript is transcript.md: the question, every round's
// arguments by persona with their scores, why the debate stopped, and the
// synthesis when there is one.
func RenderTranscript(in engine.FinalInput, final string) string {
	l := in.Lang
	var b strings.Builder
	b.WriteString(t(l, "# Transcrição do debate (argue)\n\n", "# Debate transcript (argue)\n\n"))
	engine.WriteP(&b, in.P, in.TextBytes()+len(final))
	b.WriteString("\n")
	b.WriteString(t(l, "## Participantes\n\n", "## Participants\n\n"))
	for _, id := range in.Panel {
		first, _, _ := strings.Cut(in.Lenses[id].Text, "\n")
		fmt.Fprintf(&b, "- **%s** (%s): %s\n", name(in, id), id, first)
	}
	for j, ra := range in.Rounds {
		fmt.Fprintf(&b, t(l, "\n## Rodada %d\n", "\n## Round %d\n"), j)
		sf, scored := scoresOf(ra)
		for _, id := range in.Panel {
			body, ok := ra[id]
			if !ok {
				fmt.Fprintf(&b, t(l, "\n### %s — sem argumento válido\n", "\n### %s — no valid argument\n"), name(in, id))
				continue
			}
			score := ""
			if scored {
				score = fmt.Sprintf(t(l, " — pontuação %.1f/%g", " — score %.1f/%g"), sf.Weighted[id], maxWeighted)
			}
			fmt.Fprintf(&b, "\n### %s%s\n\n", name(in, id), score)
			b.WriteString(demote(strings.TrimSpace(body)) + "\n")
		}
		if !scored {
			b.WriteString(t(l, "\n_Rodada sem pontuação válida._\n", "\n_No valid score for this round._\n"))
		}
	}
	_, reason := stopText(in)
	reason = reasonText(l, reason)
	if final == "" && in.StopReason == "" && (in.Last < in.R || in.Live) {
		reason = t(l, "em andamento", "running")
	}
	if final == "" && in.Ended != "" && in.StopReason == "" {
		reason = t(l, "cancelado (moot resume continua)", "cancelled (moot resume goes on)")
	}
	fmt.Fprintf(&b, t(l, "\n## Término\n\n%s\n", "\n## Termination\n\n%s\n"), reason)
	if final != "" {
		b.WriteString(t(l, "\n## Síntese\n\n", "\n## Synthesis\n\n"))
		b.WriteString(demote(strings.TrimSpace(final)) + "\n")
	}
	return b.String()
}

// demote moves a document's headings two levels down, to sit under a
// transcript's ### heading.
func demote(s string) string {
	lines := strings.Split(s, "\n")
	for i, ln := range lines {
		if strings.HasPrefix(ln, "#") {
			lines[i] = "##" + ln
		}
	}
	return strings.Join(lines, "\n")
}
