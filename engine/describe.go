package engine

import (
	"time"

	"github.com/reversa/moot/bugfolder"
)

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

// Record is one run of a protocol that keeps its own folders rather than
// a bug's debate folder (review): what a browser row shows of it, as moot
// list reads it.
type Record struct {
	// Dir is the run's folder; ID its name; BugID the bug it reviews
	// ("" for a change outside the register).
	Dir, ID, BugID string
	// Protocol is the keeper's name ("review").
	Protocol string
	// Status is the run's status as moot list says it; Decision the human
	// decision recorded on it, if any; Said the status as a row says it
	// ("stalled · decision approve").
	Status, Decision, Said string
	// Intent is what the run is about (a review's contract intent).
	Intent     string
	Restricted bool
	StartedAt  time.Time
	// Calls counts the calls made, those running included; InFlight
	// those started and not finished while the run runs.
	Calls, InFlight int
	// Planned is the plan's count of calls, the denominator of the calls
	// figure every protocol's header shows: the calls made before the
	// latest session and what its plan (its event log's plan event) counts,
	// never fewer than made; once the run has ended, the calls made. 0:
	// no plan logged. PlanUnpriced is set when that plan priced not every
	// engine (its money is unknown from the start).
	Planned      int
	PlanUnpriced bool
	// Paid is set once a call was made; CostUSD and CostUnknown are what
	// they cost.
	Paid        bool
	CostUSD     float64
	CostUnknown bool
	// Lenses and Rounds are the panel's size and the rounds begun.
	Lenses, Rounds int
	// Verdict is the last round's outcome ("" before one), with how many
	// seats passed, held and refused in it.
	Verdict                string
	Passes, Holds, Refuses int
	// WaitsDecision is set when the run waits for a human decision;
	// Running while it runs.
	WaitsDecision, Running bool
	// Rank orders the status among a list's (0: waits for a human first).
	Rank int
	// File is its record's path (o opens it); Summary its summary's path.
	File, Summary string
	// Elapsed is how long the run ran over its sessions as its event log
	// records them, up to LastEvent (bugfolder.SessionsTotal, the debate
	// header's count); Clocked is false when no event carries a time.
	Elapsed   time.Duration
	LastEvent time.Time
	Clocked   bool
}

// RecordRound is one round of a record as its view shows it: a pane per
// seat, its route table and the summary (Markdown), and a stamp that
// changes when the folder does.
type RecordRound struct {
	Record
	// Round is the round shown; Rounds the last one begun.
	Round, Rounds int
	Seats         []RecordSeat
	Routes, Sum   string
	Stamp         string
	// Severities are the findings' severities, gravest first.
	Severities []string
}

// RecordSeat is one seat of a round (a review's lens): who sat, its
// status (waiting, called, or its verdict; UNVERIFIED for a pass no
// other family verified), why, its findings and the rungs that did not
// sit, with why.
type RecordSeat struct {
	Lens, Engine, Family, Status, Reason string
	Findings                             []RecordFinding
	Rejected                             []string
	// Checked is what the seat named as checked (the zoom lists it).
	Checked []string
	// Dry marks a pass with no finding and nothing named as checked.
	Dry bool
}

// RecordFinding is one finding of a seat, whole: the zoom shows its
// evidence, the file, the impact and the follow-up.
type RecordFinding struct {
	Severity, Claim, Evidence, File, Impact, FollowUp string
}

// RecordKeeper is implemented by a protocol that keeps its runs in folders
// of its own (review): the front ends list, read, follow and decide them
// through it.
type RecordKeeper interface {
	// Name is the protocol's name.
	Name() string
	// Records lists the runs a project holds (at or under the git root
	// of project, and in every bug's folder of reg); one that cannot be
	// read is left out, as moot list leaves it out.
	Records(project string, reg *bugfolder.Register) []Record
	// ReadRound reads one run's round (0: the latest begun).
	ReadRound(dir string, round int) (*RecordRound, error)
	// Stamp sums up what changes while a run goes on.
	Stamp(dir string) string
	// DecideRecord records a human decision on a run that waits for one.
	DecideRecord(dir string, choice bugfolder.Choice, note, by string, now func() time.Time) error
	// Holder is the folder a project keeps its runs in (the browser
	// follows it for new ones).
	Holder(project string) string
}
