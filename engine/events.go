package engine

import "github.com/reversa/moot/bugfolder"

// Event is one thing that happened in a debate. It is the event log's
// type (bugfolder.Event: the log is part of the debate folder's format),
// so the log, the --json stream and the front ends read the same struct.
type Event = bugfolder.Event

// EventType names an event (docs/cli.md, "Events").
type EventType = bugfolder.EventType

// The event types. Output deltas may be coalesced; every other event is
// delivered and, except output, appended to the debate's event log.
const (
	EvSetup          = bugfolder.EvSetup
	EvResumed        = bugfolder.EvResumed
	EvPlan           = bugfolder.EvPlan
	EvRoundStarted   = bugfolder.EvRoundStarted
	EvCallStarted    = bugfolder.EvCallStarted
	EvOutput         = bugfolder.EvOutput
	EvCallFinished   = bugfolder.EvCallFinished
	EvQuorumLost     = bugfolder.EvQuorumLost
	EvDecision       = bugfolder.EvDecision
	EvConvergence    = bugfolder.EvConvergence
	EvJudgeStarted   = bugfolder.EvJudgeStarted
	EvJudgeFinished  = bugfolder.EvJudgeFinished
	EvJudgeFailed    = bugfolder.EvJudgeFailed
	EvDebateFinished = bugfolder.EvDebateFinished
	EvWarning        = bugfolder.EvWarning
	EvWaiting        = bugfolder.EvWaiting
	EvRung           = bugfolder.EvRung
	EvVerdict        = bugfolder.EvVerdict
	EvReadingOrder   = bugfolder.EvReadingOrder
)
