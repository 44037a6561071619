package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// seatScript is a seated protocol whose seats and gate are given: it
// records what the runner asked of it.
type seatScript struct {
	status  string
	rounds  int
	cont    bool
	kept    []string
	gate    string
	stop    error
	unsaved error
	waits   bool
	// what the runner did
	begun      []int
	fresh      []bool
	ended      []string
	log        []engine.Event
	keptAsked  bool
	calledWith engine.Caller
}

func (s *seatScript) Status() string { return s.status }
func (s *seatScript) Rounds() int    { return s.rounds }
func (s *seatScript) Keep(k int, killed bool) (bool, []string, int, float64, error) {
	s.keptAsked = true
	return s.cont, s.kept, 10, 0.5, nil
}
func (s *seatScript) Begin(k int, fresh bool) error {
	s.begun, s.fresh = append(s.begun, k), append(s.fresh, fresh)
	return nil
}
func (s *seatScript) Seat(ctx context.Context, _ int, calls engine.Caller, _ func(engine.Event)) (error, error) {
	s.calledWith = calls
	if s.waits {
		<-ctx.Done() // a juror that outlives the run's limit
		return ctx.Err(), nil
	}
	return s.stop, s.unsaved
}
func (s *seatScript) Gate(int) (string, string) { return s.gate, "the seats said so" }
func (s *seatScript) End(_ int, status string, _ error) (engine.SeatedTotals, error) {
	s.ended = append(s.ended, status)
	return engine.SeatedTotals{Calls: 2, Tokens: 30}, nil
}
func (s *seatScript) Log(ev engine.Event) error { s.log = append(s.log, ev); return nil }

// noCalls is a Caller the seatScript seats never use.
type noCalls struct{}

func (noCalls) Call(context.Context, engine.CallSpec, engine.Check) (engine.CallResult, error) {
	return engine.CallResult{}, errors.New("no call expected")
}

// TestSeatedRoundIsSettledByTheRunner: the runner, not the protocol,
// settles a seated round's status (a budget stop is budget_cut, a cancel
// cancelled, an unsaved seat error whatever the gate said), logs setup or
// resumed and debate_finished with the outcome of that status, and a
// resume continues a round cut short in place (the same round, not
// emptied) or starts the next one.
func TestSeatedRoundIsSettledByTheRunner(t *testing.T) {
	cases := []struct {
		name        string
		p           seatScript
		resume      bool
		wantRound   int
		wantFresh   bool
		wantStatus  string
		wantOutcome bugfolder.Outcome
		wantFirst   engine.EventType
	}{
		{"a new review's pass", seatScript{status: "", gate: engine.SeatedPass}, false, 1, true, engine.SeatedPass, bugfolder.OutcomeDone, engine.EvSetup},
		{"a refuse waits", seatScript{gate: engine.SeatedRefuse}, false, 1, true, engine.SeatedRefuse, bugfolder.OutcomeWaiting, engine.EvSetup},
		{"the cap stops the round", seatScript{gate: engine.SeatedPass, stop: engine.ErrBudgetStop}, false, 1, true, engine.SeatedBudgetCut, bugfolder.OutcomeWaiting, engine.EvSetup},
		{"cancel at the cap", seatScript{gate: engine.SeatedHold, stop: engine.ErrBudgetCancel}, false, 1, true, engine.SeatedCancelled, bugfolder.OutcomeCancelled, engine.EvSetup},
		{"an unsaved seat is never a pass", seatScript{gate: engine.SeatedPass, unsaved: errors.New("disk full")}, false, 1, true, engine.SeatedError, bugfolder.OutcomeWaiting, engine.EvSetup},
		{"a budget cut round continues in place", seatScript{status: engine.SeatedBudgetCut, rounds: 1, cont: true, kept: []string{"security"}, gate: engine.SeatedPass}, true, 1, false, engine.SeatedPass, bugfolder.OutcomeDone, engine.EvResumed},
		{"a killed round continues in place", seatScript{status: engine.SeatedRunning, rounds: 1, cont: true, gate: engine.SeatedPass}, true, 2, false, engine.SeatedPass, bugfolder.OutcomeDone, engine.EvResumed},
		{"changed inputs start the next round", seatScript{status: engine.SeatedCancelled, rounds: 1, gate: engine.SeatedRefuse}, true, 2, true, engine.SeatedRefuse, bugfolder.OutcomeWaiting, engine.EvResumed},
		{"a finished round is followed by a new one", seatScript{status: engine.SeatedRefuse, rounds: 2, gate: engine.SeatedPass}, true, 3, true, engine.SeatedPass, bugfolder.OutcomeDone, engine.EvResumed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			res, _ := engine.RunSeated(context.Background(), engine.SeatedRun{Dir: t.TempDir(), Protocol: &p, Command: "test", Member: "juror", Resume: c.resume, Calls: noCalls{}})
			if !slices.Equal(p.begun, []int{c.wantRound}) || p.fresh[0] != c.wantFresh {
				t.Fatalf("began rounds %v fresh %v, want round %d fresh %v", p.begun, p.fresh, c.wantRound, c.wantFresh)
			}
			if res.Status != c.wantStatus || !slices.Equal(p.ended, []string{c.wantStatus}) {
				t.Errorf("status %q (ended %v), want %q", res.Status, p.ended, c.wantStatus)
			}
			if p.keptAsked != (c.resume && engine.CutShort(c.p.status)) {
				t.Errorf("asked what to keep: %v", p.keptAsked)
			}
			first, last := p.log[0], p.log[len(p.log)-1]
			if first.Type != c.wantFirst || last.Type != engine.EvDebateFinished || last.Outcome != c.wantOutcome || last.Calls != 2 {
				t.Errorf("log opens with %s and ends with %+v, want %s … debate_finished %s", first.Type, last, c.wantFirst, c.wantOutcome)
			}
		})
	}
}

// TestSeatedRunLimitCancelsTheRoundResumable: the run's time limit
// (--debate-timeout) is the runner's: when it passes the seats' calls are
// stopped and the round is cancelled, resumable, saying why.
func TestSeatedRunLimitCancelsTheRoundResumable(t *testing.T) {
	p := seatScript{gate: engine.SeatedHold, waits: true}
	res, err := engine.RunSeated(context.Background(), engine.SeatedRun{Dir: t.TempDir(), Protocol: &p, Command: "test", Calls: noCalls{}, RunLimit: 50 * time.Millisecond})
	if !res.TimedOut || res.Status != engine.SeatedCancelled || !engine.CutShort(res.Status) || err == nil {
		t.Fatalf("result %+v err %v: want a cancelled round, timed out", res, err)
	}
	if last := p.log[len(p.log)-1]; last.Outcome != bugfolder.OutcomeCancelled || !strings.Contains(last.Reason, "--debate-timeout") {
		t.Errorf("last event %+v: want cancelled, naming --debate-timeout", last)
	}
}

// TestSeatedRunRefusesABusyFolder: a folder another live moot holds is
// refused before anything is begun or logged.
func TestSeatedRunRefusesABusyFolder(t *testing.T) {
	dir := t.TempDir()
	lk, err := bugfolder.AcquireLock(dir, "the other moot")
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release()
	p := seatScript{gate: engine.SeatedPass}
	_, err = engine.RunSeated(context.Background(), engine.SeatedRun{Dir: dir, Protocol: &p, Command: "test", Calls: noCalls{}})
	var in *bugfolder.InputError
	if !errors.As(err, &in) || len(p.begun) != 0 || len(p.log) != 0 {
		t.Fatalf("err %v, began %v, logged %d: want an input error and nothing done", err, p.begun, len(p.log))
	}
}

// TestSeatedStatusListsInterruptedWithoutItsWriter: a record saying
// running whose folder no live moot holds is listed interrupted, and is a
// round a resume continues.
func TestSeatedStatusListsInterruptedWithoutItsWriter(t *testing.T) {
	dir := t.TempDir()
	if got := engine.ListedStatus(engine.SeatedRunning, dir); got != engine.SeatedInterrupted || !engine.CutShort(got) {
		t.Errorf("no lock: %q", got)
	}
	lk, err := bugfolder.AcquireLock(dir, "live")
	if err != nil {
		t.Fatal(err)
	}
	if got := engine.ListedStatus(engine.SeatedRunning, dir); got != engine.SeatedRunning {
		t.Errorf("held by a live moot: %q", got)
	}
	lk.Release()
	if _, err := os.Stat(filepath.Join(dir, bugfolder.LockFile)); err == nil && engine.FolderLive(dir) {
		t.Error("a released lock still reads live")
	}
	if engine.ListedStatus(engine.SeatedPass, dir) != engine.SeatedPass {
		t.Error("a pass is listed as it is")
	}
}
