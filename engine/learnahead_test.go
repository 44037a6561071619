package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

// TestPlanLearnsTheSameFromPastCostsReadAhead: the past debates' costs
// read in the background before the plan (LearnAhead, what `moot run`
// starts as soon as it knows the register) give the plan the very
// estimates it learns reading them itself; read for another register,
// they are not taken for this one's.
func TestPlanLearnsTheSameFromPastCostsReadAhead(t *testing.T) {
	f := newFixture(t, "7")
	if _, err := Start(context.Background(), f.setup(2, 0), f.opts(&sup{})); err != nil {
		t.Fatal(err)
	}
	p, err := bugfolder.AssembleP(f.bug)
	if err != nil {
		t.Fatal(err)
	}
	plan := func(past *PastCosts) []EngineEstimate {
		t.Helper()
		s := f.setup(2, 1)
		s.Problem, s.Past = p, past
		pl, err := NewPlanToRun(s, f.cfg)
		if err != nil {
			t.Fatal(err)
		}
		return pl.Engines
	}
	own := plan(nil)
	learned := 0
	for _, e := range own {
		learned += e.LearnedFrom
	}
	if learned == 0 {
		t.Fatalf("the plan learned from no past debate (estimates %+v): the test proves nothing", own)
	}
	otherReg, _, err := bugfolder.Resolve(testutil.CopyTree(t, "sample"), "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		past *PastCosts
	}{
		{"read ahead for this register", LearnAhead(f.bug.Register)},
		{"read ahead for another register", LearnAhead(otherReg)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := plan(tc.past); !reflect.DeepEqual(got, own) {
				t.Errorf("estimates %+v, want what the plan learns itself: %+v", got, own)
			}
		})
	}
}
