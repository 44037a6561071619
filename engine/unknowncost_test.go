package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestCancelledWithNoCostRecordedIsUnknown: a debate cancelled
// while its first calls ran (no file records a cost) ends with its cost
// unknown — the summary printed "$0.00" where list and show said
// "unknown".
func TestCancelledWithNoCostRecordedIsUnknown(t *testing.T) {
	f := newFixture(t, "7")
	ctx, cancel := context.WithCancel(context.Background())
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		cancel() // stopped in flight: no file is written for the call
		return &harness.Result{Failure: harness.FailEngine, Err: "interrupted"}
	}
	res, err := Start(ctx, f.setup(2, 1), f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeCancelled {
		t.Fatalf("%v %+v", err, res)
	}
	if !res.CostUnknown || res.USD != 0 {
		t.Errorf("cost %v unknown=%v: want unknown (no file records a cost)", res.USD, res.CostUnknown)
	}
	for _, ev := range f.events {
		if ev.Type == EvDebateFinished && !ev.CostUnknown {
			t.Errorf("debate_finished logs usd %v: want null", ev.USD)
		}
	}
}

// A decision's note over bugfolder.MaxNoteBytes is refused (the TUI's form
// reaches Decide directly), naming the field, before anything is read.
func TestDecideNoteCap(t *testing.T) {
	_, err := Decide(HumanDecision{Dir: t.TempDir(), Choice: bugfolder.ChoiceRevise, Note: strings.Repeat("x", bugfolder.MaxNoteBytes+1)})
	var ie *bugfolder.InputError
	if !errors.As(err, &ie) || ie.Field != "note" || !strings.Contains(err.Error(), "at most 2000") {
		t.Errorf("Decide with a long note: %v", err)
	}
}
