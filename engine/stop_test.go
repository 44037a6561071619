package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/debate"
)

// stopsAt is a Stopper: its rule ends the debate after round at.
type stopsAt struct {
	debate.Protocol
	at int
}

func (p stopsAt) Stop(k, r int, panel []string, rounds []RoundAnswers) (string, string) {
	if len(rounds) != k+1 {
		return "bad", "the runner handed the wrong rounds"
	}
	if k == p.at {
		return "test-rule", "test-rule: enough after round " + string(rune('0'+k))
	}
	return "", ""
}

// stopAsker is a Supervisor on which a human has asked for a stop.
type stopAsker struct{ sup }

func (stopAsker) StopRequested() bool { return true }

// TestEarlyStop: a Stopper's rule, or a human's stop through the
// Supervisor, ends the rounds after the round that ran; the stop is a
// logged decision, no later round runs, the final step reads that round.
func TestEarlyStop(t *testing.T) {
	for _, tc := range []struct {
		name     string
		at       int
		sup      Supervisor
		want, by string
		rounds   int
	}{
		{"the protocol's rule", 1, &sup{}, "test-rule", "moot", 2},
		{"a human's stop", 9, &stopAsker{}, "manual", "human", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			s := f.setup(3, 3)
			s.Protocol = stopsAt{at: tc.at}
			res, err := Start(context.Background(), s, f.opts(tc.sup))
			if err != nil || res.Outcome != OutcomeDone {
				t.Fatalf("%v %+v", err, res)
			}
			d := f.debate(t)
			if len(d.Rounds) != tc.rounds || d.Final == nil || d.Final.Round != tc.rounds-1 {
				t.Fatalf("%d rounds on disk, final %+v; want %d", len(d.Rounds), d.Final, tc.rounds)
			}
			log, _ := os.ReadFile(filepath.Join(f.bug.Dir, "debate", "eventos.jsonl"))
			if !strings.Contains(string(log), `"choice":"`+tc.want+`"`) || !strings.Contains(string(log), `"point":"stop"`) || !strings.Contains(string(log), `"by":"`+tc.by+`"`) {
				t.Errorf("the stop is not logged:\n%s", log)
			}
			if calls := len(f.engines["a"].calls); calls != 3*tc.rounds+1 {
				t.Errorf("%d calls, want %d", calls, 3*tc.rounds+1)
			}
		})
	}
}
