package bugfolder

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// EventType names an event of a debate (docs/cli.md, "Events").
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
	// EvWaiting is a run's heartbeat while it waits for a decision
	// (point, round): a session's time runs to its last event, and a
	// session killed at a menu keeps the time it waited.
	EvWaiting EventType = "waiting"
	// EvRung is a review's ladder step (round, solver_id: the lens,
	// engine, choice: what became of the rung — sat, builder-family,
	// capacity, restricted, wrong-lens, hold, verifier — and reason).
	EvRung EventType = "rung"
	// EvVerdict is a review juror's verdict for its lens (round,
	// solver_id: the lens, engine, choice: pass, refuse or hold, reason).
	EvVerdict EventType = "verdict"
	// EvReadingOrder is the order in which one reader (a panel member, a
	// support participant, or the final step) is shown the proposals it
	// reads in a call: solver_id is the reader, order the ids (or the
	// judge's labels) first to last (docs/beyond.md, shuffled reading order).
	EvReadingOrder EventType = "reading_order"
)

// Outcome is how a run of moot on a debate ended (debate_finished).
type Outcome string

// The outcomes of a run, and the exit codes front ends map them to.
const (
	// OutcomeDone: resposta-final.md was written (exit 0).
	OutcomeDone Outcome = "done"
	// OutcomeCancelled: cancelled by the engineer, a policy or an
	// interrupt; everything kept and resumable (exit 3).
	OutcomeCancelled Outcome = "cancelled"
	// OutcomeWaiting: stopped at a decision (paused, or no human to ask);
	// kept and resumable (exit 4).
	OutcomeWaiting Outcome = "waiting"
)

// DecisionPoint names the menu a decision answered.
type DecisionPoint string

// The decision points.
const (
	// PointQuorum: a round ended below its quorum.
	PointQuorum DecisionPoint = "quorum"
	// PointJudge: the final step (the judge) failed.
	PointJudge DecisionPoint = "judge"
	// PointEngines: an engine's identity changed since setup and the
	// change was accepted on resume as an amendment.
	PointEngines DecisionPoint = "engines"
	// PointStop: a protocol's stop rule ended the debate before its round
	// cap (argue), or a human stopped it to synthesize.
	PointStop DecisionPoint = "stop"
	// PointOpening: a protocol whose later rounds defend the opening
	// positions (council) left out of them, by moot, the members with no
	// valid round-0 answer (round 0 held its quorum, so no menu asked).
	PointOpening DecisionPoint = "opening"
	// PointBudget: the budget cap would have been crossed by the next
	// call (raise it, stop with a labelled degraded result, or cancel).
	PointBudget DecisionPoint = "budget"
)

// retryingSuffix ends, in the log, the error of an attempt that gets the
// one automatic retry; Event.Retrying is its typed form.
const retryingSuffix = " (retrying once)"

// Event is one thing that happened in a debate: the one schema of the
// event log (eventos.jsonl), the --json stream and the live views. Which
// fields an event carries depends on its Type; MarshalJSON writes exactly
// those (the log's format since protocol_version 1) and UnmarshalJSON
// reads them back into the same typed fields, so nothing a reader needs
// is carried inside a string.
type Event struct {
	Type     EventType
	Time     time.Time
	Round    int
	SolverID string
	Role     Role
	Engine   string
	Attempt  int
	// Text is an output delta, or a warning's message.
	Text string
	// Status is a finished call's status (call_finished).
	Status Status
	// Retrying marks a failed attempt that gets the one automatic retry
	// at once (call_finished): another attempt of the same call follows.
	Retrying bool
	// Outcome is how the run ended (debate_finished).
	Outcome    Outcome
	DurationMS int64
	TokensIn   int
	TokensOut  int
	// CacheRead and CacheWrite are the part of TokensIn the provider read
	// from and wrote to its prompt cache (call_finished; logged when not
	// zero), and CostUncachedUSD what the call would have cost with every
	// input token at the input price (logged with them).
	CacheRead, CacheWrite int
	CostUncachedUSD       float64
	CostUSD               float64
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
	Point      DecisionPoint
	Choice     string
	By         string
	ExtraCalls int
	ExtraUSD   float64
	Dropped    []string
	Timeout    time.Duration
	// Judge. Winner is judge_finished's winner; on the judge_failed of an
	// unstable order-swap check, the label the judge chose with the
	// proposals in label order, and ReversedWinner the one it chose with
	// them in reverse order.
	Winner         string
	ReversedWinner string
	Reason         string
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
	// Order is the order a reader was shown the proposals in
	// (reading_order): participant ids, or the final step's labels.
	Order []string
	// MaxUSD and MaxTokens are the budget cap a budget decision set
	// (0: that limit is not set).
	MaxUSD    float64
	MaxTokens int
	// Estimates are the plan's figures per engine (plan): what the
	// final answer's cost_accuracy compares the actuals with.
	Estimates []CostAccuracy
	// EnginesFile is the engines file a session was given with --config
	// (setup, resumed; logged when given): its path only, so a later moot
	// show prints a moot resume that finds the same engines.
	EnginesFile string
}

// MarshalJSON writes the fields of the event's type, keys sorted.
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
		e.marshalEnginesFile(m)
	case EvResumed:
		m["path"], m["problema_sha256"] = e.Path, e.ProblemSHA
		e.marshalEnginesFile(m)
	case EvPlan:
		m["calls"], m["tokens"], m["usd"], m["formula"] = e.Calls, e.Tokens, e.USD, e.Formula
		if e.CostUnknown {
			m["usd"] = nil // an engine has no price: unknown, not free
		}
		if len(e.Estimates) > 0 {
			est := map[string]CostAccuracy{}
			for _, c := range e.Estimates {
				est[c.Engine] = c
			}
			m["estimates"] = est
		}
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
		e.marshalCallFinished(m)
		call()
	case EvQuorumLost:
		m["round"], m["valid"], m["needed"], m["failed"] = e.Round, e.Valid, e.Needed, nonNil(e.Failed)
		if e.Role != "" { // only the support role failed (argue's scorer): the panel's quorum holds
			m["role"] = e.Role
		}
	case EvDecision:
		e.marshalDecision(m)
	case EvJudgeStarted:
		m["round"], m["engine"], m["attempt"] = e.Round, e.Engine, e.Attempt
	case EvJudgeFinished:
		m["winner"], m["attempt"], m["by"] = e.Winner, e.Attempt, e.By
	case EvJudgeFailed:
		m["reason"], m["attempt"] = e.Reason, e.Attempt
		if e.ReversedWinner != "" {
			m["winner"], m["reversed_winner"] = e.Winner, e.ReversedWinner
		}
	case EvDebateFinished:
		m["status"], m["path"], m["calls"], m["tokens"], m["usd"] = e.Outcome, e.Path, e.Calls, e.Tokens, e.USD
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
	case EvWaiting:
		m["point"], m["round"] = e.Point, e.Round
	case EvRung, EvVerdict:
		m["round"], m["solver_id"], m["engine"], m["choice"], m["reason"] = e.Round, e.SolverID, e.Engine, e.Choice, e.Reason
	case EvReadingOrder:
		call()
		m["order"] = nonNil(e.Order)
	}
	return json.Marshal(m)
}

// marshalEnginesFile logs a session's --config, when it was given.
func (e Event) marshalEnginesFile(m map[string]any) {
	if e.EnginesFile != "" {
		m["engines_file"] = e.EnginesFile
	}
}

func (e Event) marshalCallFinished(m map[string]any) {
	m["engine"], m["attempt"], m["status"], m["duration_ms"] = e.Engine, e.Attempt, e.Status, e.DurationMS
	m["tokens_in"], m["tokens_out"], m["cost_usd"], m["tokens_estimated"] = e.TokensIn, e.TokensOut, e.CostUSD, e.Estimated
	if e.CostUnknown {
		m["cost_usd"] = nil
	}
	if e.CacheRead > 0 || e.CacheWrite > 0 {
		m["tokens_cache_read"], m["tokens_cache_write"] = e.CacheRead, e.CacheWrite
		if !e.CostUnknown {
			m["cost_uncached_usd"] = e.CostUncachedUSD
		}
	}
	if e.Error != "" || e.Retrying {
		m["error"] = e.ErrorText()
	}
}

func (e Event) marshalDecision(m map[string]any) {
	m["point"], m["choice"], m["by"], m["extra_calls"], m["extra_usd"] = e.Point, e.Choice, e.By, e.ExtraCalls, e.ExtraUSD
	m["round"] = e.Round
	optional := map[string]bool{"solver_id": e.SolverID != "", "engine": e.Engine != "", "timeout": e.Timeout > 0,
		"dropped": len(e.Dropped) > 0, "winner": e.Winner != "", "reason": e.Reason != "",
		"identities": len(e.Identities) > 0, "affected": len(e.Affected) > 0, "max_usd": e.MaxUSD > 0, "max_tokens": e.MaxTokens > 0}
	values := map[string]any{"solver_id": e.SolverID, "engine": e.Engine, "timeout": e.Timeout.String(),
		"dropped": e.Dropped, "winner": e.Winner, "reason": e.Reason, "identities": e.Identities, "affected": e.Affected,
		"max_usd": e.MaxUSD, "max_tokens": e.MaxTokens}
	for k, ok := range optional {
		if ok {
			m[k] = values[k]
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// wireEvent is an event as the log spells it.
type wireEvent struct {
	Type         EventType                    `json:"type"`
	Time         time.Time                    `json:"time"`
	Round        int                          `json:"round"`
	SolverID     string                       `json:"solver_id"`
	Role         Role                         `json:"role"`
	Engine       string                       `json:"engine"`
	Attempt      int                          `json:"attempt"`
	Text         string                       `json:"text"`
	Status       string                       `json:"status"`
	DurationMS   int64                        `json:"duration_ms"`
	TokensIn     int                          `json:"tokens_in"`
	TokensOut    int                          `json:"tokens_out"`
	CacheRead    int                          `json:"tokens_cache_read"`
	CacheWrite   int                          `json:"tokens_cache_write"`
	Uncached     float64                      `json:"cost_uncached_usd"`
	CostUSD      *float64                     `json:"cost_usd"`
	Estimated    bool                         `json:"tokens_estimated"`
	Error        string                       `json:"error"`
	Valid        int                          `json:"valid"`
	Needed       int                          `json:"needed"`
	Failed       []string                     `json:"failed"`
	Point        DecisionPoint                `json:"point"`
	Choice       string                       `json:"choice"`
	By           string                       `json:"by"`
	ExtraCalls   int                          `json:"extra_calls"`
	ExtraUSD     float64                      `json:"extra_usd"`
	Dropped      []string                     `json:"dropped"`
	Timeout      string                       `json:"timeout"`
	Winner       string                       `json:"winner"`
	Reversed     string                       `json:"reversed_winner"`
	Reason       string                       `json:"reason"`
	Calls        int                          `json:"calls"`
	Tokens       int                          `json:"tokens"`
	USD          *float64                     `json:"usd"`
	Path         string                       `json:"path"`
	Formula      string                       `json:"formula"`
	ProblemSHA   string                       `json:"problema_sha256"`
	Participants int                          `json:"participants"`
	Identities   map[string]map[string]string `json:"identities"`
	Affected     []string                     `json:"affected"`
	Order        []string                     `json:"order"`
	MaxUSD       float64                      `json:"max_usd"`
	MaxTokens    int                          `json:"max_tokens"`
	Estimates    map[string]CostAccuracy      `json:"estimates"`
	EnginesFile  string                       `json:"engines_file"`
}

// UnmarshalJSON reads an event as MarshalJSON writes it (and as moot has
// always logged it): a retried attempt's error suffix becomes Retrying, a
// null cost CostUnknown, debate_finished's status the Outcome. Unknown
// fields are ignored; a timeout that does not parse is left zero.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Event{Type: w.Type, Time: w.Time, Round: w.Round, SolverID: w.SolverID, Role: w.Role, Engine: w.Engine,
		Attempt: w.Attempt, Text: w.Text, DurationMS: w.DurationMS, TokensIn: w.TokensIn, TokensOut: w.TokensOut,
		CacheRead: w.CacheRead, CacheWrite: w.CacheWrite, CostUncachedUSD: w.Uncached,
		Estimated: w.Estimated, Error: w.Error, Valid: w.Valid, Needed: w.Needed, Failed: w.Failed,
		Point: w.Point, Choice: w.Choice, By: w.By, ExtraCalls: w.ExtraCalls, ExtraUSD: w.ExtraUSD,
		Dropped: w.Dropped, Winner: w.Winner, ReversedWinner: w.Reversed, Reason: w.Reason, Calls: w.Calls, Tokens: w.Tokens,
		Path: w.Path, Formula: w.Formula, ProblemSHA: w.ProblemSHA, Participants: w.Participants,
		Identities: w.Identities, Affected: w.Affected, Order: w.Order, MaxUSD: w.MaxUSD, MaxTokens: w.MaxTokens,
		EnginesFile: w.EnginesFile}
	if d, err := time.ParseDuration(w.Timeout); err == nil {
		e.Timeout = d
	}
	for _, name := range slices.Sorted(maps.Keys(w.Estimates)) {
		c := w.Estimates[name]
		c.Engine = name
		e.Estimates = append(e.Estimates, c)
	}
	switch w.Type {
	case EvPlan:
		e.CostUnknown = w.USD == nil
	case EvDebateFinished:
		e.Outcome = Outcome(w.Status)
		e.CostUnknown = w.USD == nil
	case EvCallFinished:
		e.Status = Status(w.Status)
		e.CostUnknown = w.CostUSD == nil
		e.Error, e.Retrying = strings.CutSuffix(w.Error, retryingSuffix)
	default:
		e.Status = Status(w.Status)
	}
	if w.CostUSD != nil {
		e.CostUSD = *w.CostUSD
	}
	if w.USD != nil {
		e.USD = *w.USD
	}
	return nil
}

// ErrorText is a finished call's error as a person reads it: a retried
// attempt says that it is retried.
func (e Event) ErrorText() string {
	if e.Retrying {
		return e.Error + retryingSuffix
	}
	return e.Error
}
