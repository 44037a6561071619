package argue

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"

	"github.com/reversa/moot/internal/safefs"
)

// View is what a front end shows of an argue debate, read back from its
// own files (engine.ScoreView: the front ends know it without importing
// this package).
type View = engine.ScoreView

// ViewPersona is one persona's trajectory: its confidences and weighted
// scores, each with its round.
type ViewPersona = engine.ScorePersona

// ViewConcession is one entry of the concession log.
type ViewConcession = engine.ScoreConcession

// ReadScores reads an argue debate's scores for the front ends
// (engine.Scorer).
func (Protocol) ReadScores(dir string) (*engine.ScoreView, bool) { return ReadView(dir) }

// maxViewFile bounds each file a View reads.
const maxViewFile = 4 << 20

// ReadView reads an argue debate folder's scoring/summary.json and each
// persona's concessions.json; ok is false when there is no summary yet
// (not argue, or round 0 not finished).
func ReadView(dir string) (*View, bool) {
	raw, err := safefs.ReadFile(filepath.Join(dir, "scoring", "summary.json"), maxViewFile)
	if err != nil {
		return nil, false
	}
	var s summary
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	v := &View{MaxScore: s.MaxPerRound, Rounds: s.Rounds, Cap: s.Cap, Rule: s.Stopped, Reason: s.Reason}
	ids := slices.Sorted(maps.Keys(s.ByPersona))
	for _, id := range ids {
		ps := s.ByPersona[id]
		v.Personas = append(v.Personas, ViewPersona{ID: id, Name: ps.Persona, Confidence: ps.Confidence, Scores: ps.Weighted})
		raw, err := safefs.ReadFile(filepath.Join(dir, PersonaDir(ps.Persona), "concessions.json"), maxViewFile)
		if err != nil {
			continue
		}
		var cs []concession
		if json.Unmarshal(raw, &cs) == nil {
			for _, c := range cs {
				v.Concessions = append(v.Concessions, ViewConcession{Round: c.Round, Name: ps.Persona, Text: oneLine(c.Text)})
			}
		}
	}
	slices.SortStableFunc(v.Concessions, func(a, b ViewConcession) int { return a.Round - b.Round })
	return v, true
}

// StyleOf reads the mode (--style) an argue debate was set up in from its
// personas' frozen lenses, whose "Part: " line states each one's part in
// it; "" when no lens says.
func StyleOf(lenses map[string]bugfolder.Lens) string {
	for _, l := range lenses {
		for _, line := range strings.Split(l.Text, "\n") {
			part, ok := strings.CutPrefix(strings.TrimSpace(line), "Part: ")
			if !ok {
				continue
			}
			switch {
			case strings.HasPrefix(part, "adversarial"):
				return Adversarial
			case strings.HasPrefix(part, "panel"):
				return Panel
			case strings.HasPrefix(part, "socratic"):
				return Socratic
			case strings.HasPrefix(part, "devil's advocate"), strings.HasPrefix(part, "the position's holder"):
				return DevilsAdvocate
			}
		}
	}
	return ""
}
