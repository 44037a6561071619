package engine

import (
	"context"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// WaitBeat is how often a run that waits for a decision logs a waiting
// event: a session's time runs to its last event, so a session killed
// while a menu is open keeps (to this precision) the time it waited.
var WaitBeat = 10 * time.Second

// beatSupervisor asks its Supervisor and, while the answer is awaited,
// emits a waiting event every WaitBeat.
type beatSupervisor struct {
	Supervisor
	emit func(Event)
}

// QuorumLost asks the quorum question with a heartbeat.
func (b beatSupervisor) QuorumLost(ctx context.Context, q QuorumLoss) (QuorumDecision, error) {
	defer b.beat(ctx, bugfolder.PointQuorum, q.Round)()
	return b.Supervisor.QuorumLost(ctx, q)
}

// JudgeFailed asks the judge question with a heartbeat.
func (b beatSupervisor) JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error) {
	defer b.beat(ctx, bugfolder.PointJudge, 0)()
	return b.Supervisor.JudgeFailed(ctx, j)
}

// beat emits a waiting event every WaitBeat until the returned stop is
// called; stop returns once no more event can be emitted.
func (b beatSupervisor) beat(ctx context.Context, point bugfolder.DecisionPoint, round int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(WaitBeat)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.emit(Event{Type: EvWaiting, Point: point, Round: round})
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// withBeat wraps a Supervisor in a heartbeat (nil stays nil).
func withBeat(s Supervisor, emit func(Event)) Supervisor {
	if s == nil {
		return nil
	}
	return beatSupervisor{Supervisor: s, emit: emit}
}

// StopRequested passes a human's stop through the heartbeat: the wrapped
// Supervisor's answer when it is a StopRequester, else no stop.
func (b beatSupervisor) StopRequested() bool {
	sr, ok := b.Supervisor.(StopRequester)
	return ok && sr.StopRequested()
}

// unbeat is the Supervisor a heartbeat wraps (s itself when unwrapped).
func unbeat(s Supervisor) Supervisor {
	if b, ok := s.(beatSupervisor); ok {
		return b.Supervisor
	}
	return s
}
