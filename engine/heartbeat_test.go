package engine

import (
	"context"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// blockingSupervisor answers once it is told to (the engineer at a menu).
type blockingSupervisor struct{ answer chan struct{} }

func (s blockingSupervisor) QuorumLost(ctx context.Context, q QuorumLoss) (QuorumDecision, error) {
	<-s.answer
	return QuorumDecision{Choice: QuorumContinue}, nil
}

func (s blockingSupervisor) JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error) {
	<-s.answer
	return JudgeDecision{Choice: JudgeCancel}, nil
}

// TestWaitingIsLogged: while a decision is awaited the run emits waiting
// events (so a session killed at a menu keeps the time it waited), and
// none once the answer came.
func TestWaitingIsLogged(t *testing.T) {
	old := WaitBeat
	WaitBeat = time.Millisecond
	defer func() { WaitBeat = old }()
	for _, point := range []bugfolder.DecisionPoint{bugfolder.PointQuorum, bugfolder.PointJudge} {
		evs := make(chan Event, 100)
		sup := blockingSupervisor{answer: make(chan struct{})}
		s := withBeat(sup, func(ev Event) {
			select {
			case evs <- ev:
			default:
			}
		})
		done := make(chan struct{})
		go func() {
			defer close(done)
			if point == bugfolder.PointQuorum {
				s.QuorumLost(context.Background(), QuorumLoss{Round: 2})
			} else {
				s.JudgeFailed(context.Background(), JudgeFailure{})
			}
		}()
		deadline := time.After(10 * time.Second)
		for seen := 0; seen < 2; seen++ {
			select {
			case ev := <-evs:
				if ev.Type != EvWaiting || ev.Point != point {
					t.Fatalf("emitted %+v while waiting, want a waiting event of %s", ev, point)
				}
				if point == bugfolder.PointQuorum && ev.Round != 2 {
					t.Errorf("waiting event of round %d, want 2", ev.Round)
				}
			case <-deadline:
				t.Fatalf("%s: no waiting event while the decision was awaited", point)
			}
		}
		close(sup.answer)
		<-done
		for len(evs) > 0 { // what was emitted before the answer
			<-evs
		}
		select {
		case ev := <-evs:
			t.Errorf("%s: emitted %+v after the answer", point, ev)
		default:
		}
	}
	if withBeat(nil, func(Event) {}) != nil {
		t.Error("no supervisor became one")
	}
}
