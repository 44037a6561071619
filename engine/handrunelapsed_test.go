package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/reversa/moot/engine"
)

// thinkingSupervisor chooses a winner after the human took think on the
// fake clock.
type thinkingSupervisor struct {
	sup
	clock *fakeClock
	think time.Duration
}

func (s *thinkingSupervisor) JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error) {
	s.clock.advance(s.think)
	return s.sup.JudgeFailed(ctx, j)
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestHandRunWinnerChosenAtTheMenuCountsTheTimeAtTheMenu: a hand-run
// debate whose judge failed, finished by a human's choice at the menu,
// records the session from the menu's opening, so list and show say the
// time the TUI's header counted (they said a few milliseconds: the log
// began at the choice).
func TestHandRunWinnerChosenAtTheMenuCountsTheTimeAtTheMenu(t *testing.T) {
	f := newFixture(t, "6")
	clock := &fakeClock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	s := &thinkingSupervisor{sup: sup{judge: []JudgeDecision{{Choice: JudgeHuman, Winner: "A", By: "human"}}}, clock: clock, think: 7 * time.Second}
	o := f.opts(s)
	o.Now = clock.now
	res, err := Resume(context.Background(), f.bug, o)
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("resume: %v %+v", err, res)
	}
	if got, known := f.debate(t).Elapsed(); !known || got < 7*time.Second || got > 8*time.Second {
		t.Errorf("elapsed %v (known %v), want the 7s at the menu", got, known)
	}
}

// leavingSupervisor is a human who leaves the judge menu (q, ctrl+c, a
// signal): the run's context is cancelled while the menu waits.
type leavingSupervisor struct {
	sup
	cancel context.CancelFunc
}

func (s *leavingSupervisor) JudgeFailed(ctx context.Context, _ JudgeFailure) (JudgeDecision, error) {
	s.cancel()
	<-ctx.Done()
	return JudgeDecision{}, ctx.Err()
}

// TestHandRunLeftAtTheJudgeMenuIsACancel: leaving a hand-run debate's
// judge menu ends the resume as a cancel that says how to ask again (the
// TUI printed the raw `moot: context canceled` and exited 1), and
// records nothing.
func TestHandRunLeftAtTheJudgeMenuIsACancel(t *testing.T) {
	f := newFixture(t, "6")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Resume(ctx, f.bug, f.opts(&leavingSupervisor{cancel: cancel}))
	if err != nil {
		t.Fatalf("leaving the judge menu is an error: %v", err)
	}
	if res.Outcome != OutcomeCancelled || !strings.Contains(res.Reason, "moot resume BUG-20260705-M8N2") {
		t.Errorf("leaving the judge menu ended %q: %q; want a cancel saying moot resume asks again", res.Outcome, res.Reason)
	}
	if d := f.debate(t); d.Final != nil || d.Events != nil {
		t.Errorf("leaving the judge menu recorded something: final %v, events %d", d.Final != nil, len(d.Events))
	}
}
