package tui

import (
	"context"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Messages from the engine's goroutine to the UI.
type (
	// engineMsg carries a batch of events, in order, and possibly one
	// question or the end of the run after them.
	engineMsg struct {
		ch     <-chan any
		events []engine.Event
		then   any
		// calls is the debate folder's count of calls made
		// (bugfolder.CountModelCalls), read once the batch was taken.
		calls int
	}
	// askQuorumMsg asks the quorum menu; the answer goes to reply.
	askQuorumMsg struct {
		q     engine.QuorumLoss
		reply chan quorumAnswer
	}
	// askJudgeMsg asks the judge-failure menu.
	askJudgeMsg struct {
		j     engine.JudgeFailure
		reply chan judgeAnswer
	}
	// runDoneMsg says the engine returned.
	runDoneMsg struct {
		res *engine.Result
		err error
	}
)

type quorumAnswer struct {
	d   engine.QuorumDecision
	err error
}

type judgeAnswer struct {
	d   engine.JudgeDecision
	err error
}

// bridge connects a running engine to the UI: its events and questions
// arrive on ch; it is the engine's Supervisor.
type bridge struct {
	ch     chan any
	ctx    context.Context
	cancel context.CancelFunc
	// stop is set when the user asks an argue debate to stop (tui/argue.go).
	stop atomic.Bool
}

func newBridge() *bridge {
	ctx, cancel := context.WithCancel(context.Background())
	return &bridge{ch: make(chan any, 4096), ctx: ctx, cancel: cancel}
}

// sink is the engine's event sink. It blocks while the UI catches up (or
// until the user leaves), so nothing but output deltas is ever dropped.
func (b *bridge) sink(ev engine.Event) {
	select {
	case b.ch <- ev:
	case <-b.ctx.Done():
	}
}

// QuorumLost asks the UI's quorum menu and waits for the answer.
func (b *bridge) QuorumLost(ctx context.Context, q engine.QuorumLoss) (engine.QuorumDecision, error) {
	reply := make(chan quorumAnswer, 1)
	select {
	case b.ch <- askQuorumMsg{q, reply}:
	case <-ctx.Done():
		return engine.QuorumDecision{}, ctx.Err()
	}
	select {
	case a := <-reply:
		return a.d, a.err
	case <-ctx.Done():
		return engine.QuorumDecision{}, ctx.Err()
	}
}

// JudgeFailed asks the UI's judge-failure menu and waits for the answer.
func (b *bridge) JudgeFailed(ctx context.Context, j engine.JudgeFailure) (engine.JudgeDecision, error) {
	reply := make(chan judgeAnswer, 1)
	select {
	case b.ch <- askJudgeMsg{j, reply}:
	case <-ctx.Done():
		return engine.JudgeDecision{}, ctx.Err()
	}
	select {
	case a := <-reply:
		return a.d, a.err
	case <-ctx.Done():
		return engine.JudgeDecision{}, ctx.Err()
	}
}

// maxBatch bounds how many events one message carries.
const maxBatch = 1024

// waitForEngine reads the next events of the run writing dir ("" until
// its setup event names it): it blocks for one, then takes every
// event already waiting, up to maxBatch, stopping after a question or the
// end. Update re-arms it with the same channel.
func waitForEngine(ch <-chan any, dir string) tea.Cmd {
	if ch == nil {
		return nil // nothing ever arrives on it: no goroutine left blocked forever
	}
	return func() tea.Msg {
		msg, ok := takeBatch(ch)
		if !ok {
			return nil
		}
		msg.calls = folderCalls(dir, msg.events)
		return msg
	}
}

// takeBatch blocks for the next event, then takes those already waiting
// (waitForEngine); ok is false once ch is closed.
func takeBatch(ch <-chan any) (msg engineMsg, ok bool) {
	msg.ch = ch
	first, ok := <-ch
	if !ok {
		return msg, false
	}
	if ev, isEv := first.(engine.Event); isEv {
		msg.events = append(msg.events, ev)
	} else {
		msg.then = first
		return msg, true
	}
	for len(msg.events) < maxBatch {
		select {
		case next := <-ch:
			if ev, isEv := next.(engine.Event); isEv {
				msg.events = append(msg.events, ev)
				continue
			}
			msg.then = next
			return msg, true
		default:
			return msg, true
		}
	}
	return msg, true
}

// folderCalls counts the calls made in the folder of a run (dir, or the
// one its setup or resume event in evs names); 0 before it has one.
func folderCalls(dir string, evs []engine.Event) int {
	for _, ev := range evs {
		if ev.Type == engine.EvSetup || ev.Type == engine.EvResumed {
			dir = ev.Path
		}
	}
	if dir == "" {
		return 0
	}
	return bugfolder.CountModelCalls(&bugfolder.Debate{Dir: dir})
}

// StopRequested reports whether the user asked the debate to stop after
// the round in flight (engine.StopRequester; argue only).
func (b *bridge) StopRequested() bool { return b.stop.Load() }
