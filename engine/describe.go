package engine

// What a protocol shows of a debate beyond the panes every protocol has:
// the front ends read it through these types, never through a protocol
// package (tui imports no protocol/*; internal/layers checks it).

// ScoreView is a protocol's per-round scores of its panel, read back from
// the debate's own files (argue's personas: confidence and weighted score
// by round, the concession log, why it stopped). The TUI draws it on the
// convergence tab.
type ScoreView struct {
	// Personas in panel order (by id).
	Personas []ScorePersona
	// MaxScore is the weighted maximum of one round.
	MaxScore float64
	// Rounds is how many rounds ran (rounds 0 to Rounds-1); Cap is the
	// round cap as -r gives it: the most rounds after round 0.
	Rounds, Cap int
	// Rule and Reason say why it stopped ("" and "running" while it runs).
	Rule, Reason string
	// Concessions is the log, by round then persona.
	Concessions []ScoreConcession
}

// ScorePersona is one panel member's trajectory: its confidences and
// weighted scores, each with its round (a round without one has no point).
type ScorePersona struct {
	ID, Name   string
	Confidence []ScorePoint
	Scores     []ScorePoint
}

// ScorePoint is one round's value of a trajectory.
type ScorePoint struct {
	Round int     `json:"round"`
	Value float64 `json:"value"`
}

// ScoreConcession is one entry of the concession log.
type ScoreConcession struct {
	Round      int
	Name, Text string
}

// Scorer is implemented by a protocol whose debates keep per-round scores
// (argue): ReadScores reads them from a debate folder (false: none yet).
type Scorer interface {
	ReadScores(dir string) (*ScoreView, bool)
}
