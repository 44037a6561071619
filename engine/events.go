package engine

import (
	"encoding/json"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// EventType names an event (CLI.md, "Events").
type EventType string

// The event types. Output deltas may be coalesced; every other event is
// delivered and, except output, appended to the debate's event log.
const (
	EvSetup          EventType = "setup"
	EvResumed        EventType = "resumed"
	EvPlan           EventType = "plan"
	EvRoundStarted   EventType = "round_started"
	EvCallStarted    EventType = "call_started"
	EvOutput         EventType = "output"
	EvCallFinished   EventType = "call_finished"
	EvQuorumLost     EventType = "quorum_lost"
	EvDecision       EventType = "decision"
	EvConvergence    EventType = "convergence"
	EvJudgeStarted   EventType = "judge_started"
	EvJudgeFinished  EventType = "judge_finished"
	EvJudgeFailed    EventType = "judge_failed"
	EvDebateFinished EventType = "debate_finished"
	EvWarning        EventType = "warning"
)

// Event is one thing that happened in a debate.
type Event struct {
	Type     EventType
	Time     time.Time
	Round    int
	SolverID string
	Role     bugfolder.Role
	Engine   string
	Attempt  int
	// Text is an output delta, or a warning's message.
	Text       string
	Status     string
	DurationMS int64
	TokensIn   int
	TokensOut  int
	CostUSD    float64
	// CostUnknown marks a cost nobody recorded (an engine without a
	// price): cost_usd and usd are then null, and shown as unknown.
	CostUnknown bool
	// Estimated marks token counts moot estimated.
	Estimated bool
	// Error is a failed call's one-line reason.
	Error string
	// Quorum.
	Valid, Needed int
	Failed        []string
	// Decision.
	Point, Choice, By string
	ExtraCalls        int
	ExtraUSD          float64
	Dropped           []string
	Timeout           time.Duration
	// Judge.
	Winner string
	Reason string
	// Plan and end of debate.
	Calls      int
	Tokens     int
	USD        float64
	Path       string
	Formula    string
	ProblemSHA string
	// Participants is how many solvers reached the judge (debate_finished).
	Participants int
	// Identities are the engine identities an accepted engine change
	// locks from now on, and Affected the debaters that run on them.
	Identities map[string]map[string]string
	Affected   []string
}

func (e Event) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": e.Type, "time": e.Time.UTC().Format(time.RFC3339Nano)}
	call := func() {
		m["round"] = e.Round
		m["solver_id"] = e.SolverID
		m["role"] = e.Role
	}
	switch e.Type {
	case EvSetup:
		m["path"], m["problema_sha256"], m["calls"], m["formula"] = e.Path, e.ProblemSHA, e.Calls, e.Formula
	case EvResumed:
		m["path"], m["problema_sha256"] = e.Path, e.ProblemSHA
	case EvPlan:
		m["calls"], m["tokens"], m["usd"], m["formula"] = e.Calls, e.Tokens, e.USD, e.Formula
	case EvRoundStarted, EvConvergence:
		m["round"] = e.Round
		if e.Type == EvConvergence {
			m["valid"] = e.Valid
		}
	case EvCallStarted:
		call()
		m["engine"], m["attempt"] = e.Engine, e.Attempt
	case EvOutput:
		call()
		m["text"] = e.Text
	case EvCallFinished:
		call()
		m["engine"], m["attempt"], m["status"], m["duration_ms"] = e.Engine, e.Attempt, e.Status, e.DurationMS
		m["tokens_in"], m["tokens_out"], m["cost_usd"], m["tokens_estimated"] = e.TokensIn, e.TokensOut, e.CostUSD, e.Estimated
		if e.CostUnknown {
			m["cost_usd"] = nil
		}
		if e.Error != "" {
			m["error"] = e.Error
		}
	case EvQuorumLost:
		m["round"], m["valid"], m["needed"], m["failed"] = e.Round, e.Valid, e.Needed, nonNil(e.Failed)
	case EvDecision:
		m["point"], m["choice"], m["by"], m["extra_calls"], m["extra_usd"] = e.Point, e.Choice, e.By, e.ExtraCalls, e.ExtraUSD
		m["round"] = e.Round
		if e.SolverID != "" {
			m["solver_id"] = e.SolverID
		}
		if e.Engine != "" {
			m["engine"] = e.Engine
		}
		if e.Timeout > 0 {
			m["timeout"] = e.Timeout.String()
		}
		if len(e.Dropped) > 0 {
			m["dropped"] = e.Dropped
		}
		if e.Winner != "" {
			m["winner"] = e.Winner
		}
		if e.Reason != "" {
			m["reason"] = e.Reason
		}
		if len(e.Identities) > 0 {
			m["identities"] = e.Identities
		}
		if len(e.Affected) > 0 {
			m["affected"] = e.Affected
		}
	case EvJudgeStarted:
		m["round"], m["engine"], m["attempt"] = e.Round, e.Engine, e.Attempt
	case EvJudgeFinished:
		m["winner"], m["attempt"] = e.Winner, e.Attempt
		m["by"] = e.By
	case EvJudgeFailed:
		m["reason"], m["attempt"] = e.Reason, e.Attempt
	case EvDebateFinished:
		m["status"], m["path"], m["calls"], m["tokens"], m["usd"] = e.Status, e.Path, e.Calls, e.Tokens, e.USD
		if e.CostUnknown {
			m["usd"] = nil
		}
		if e.Participants > 0 {
			m["participants"] = e.Participants
		}
		if e.Reason != "" {
			m["reason"] = e.Reason
		}
	case EvWarning:
		m["text"] = e.Text
	}
	return json.Marshal(m)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// logRecord is the subset of an event read back from the event log on
// resume: the decisions and amendments that shape the rest of the debate.
type logRecord struct {
	Type     EventType `json:"type"`
	Round    int       `json:"round"`
	SolverID string    `json:"solver_id"`
	Point    string    `json:"point"`
	Choice   string    `json:"choice"`
	By       string    `json:"by"`
	Engine   string    `json:"engine"`
	Timeout  string    `json:"timeout"`
	Dropped  []string  `json:"dropped"`
	Winner   string    `json:"winner"`
	Attempt  int       `json:"attempt"`
	SHA      string    `json:"problema_sha256"`
	Status   string    `json:"status"`
	Reason   string    `json:"reason"`
	// Identities and Affected: an accepted engine change.
	Identities map[string]map[string]string `json:"identities"`
	Affected   []string                     `json:"affected"`
}
