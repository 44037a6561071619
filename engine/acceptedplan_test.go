package engine_test

import (
	"context"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
)

// TestStartRunsOnTheAcceptedPlan: a debate started with the plan its
// front end priced and had accepted runs on that plan — the plan event
// logs the estimate the engineer accepted, not one priced again (which
// would read every past debate's final answer a second time before the
// first call) — and a plan priced for another P is not taken for it.
func TestStartRunsOnTheAcceptedPlan(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sameP    bool
		accepted bool
	}{
		{"the accepted plan's own setup", true, true},
		{"a setup with another P", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			s := f.setup(2, 1)
			p, err := bugfolder.AssembleP(f.bug)
			if err != nil {
				t.Fatal(err)
			}
			s.Problem = p
			plan, err := NewPlanToRun(s, f.cfg)
			if err != nil {
				t.Fatal(err)
			}
			const marker = 1_000_003 // no estimate of this debate comes near it
			plan.Input += marker
			want := plan.Input + plan.Output
			start := plan.Setup
			if !tc.sameP {
				other, err := bugfolder.AssembleP(f.bug)
				if err != nil {
					t.Fatal(err)
				}
				start.Problem = other
			}
			opts := f.opts(&sup{})
			opts.Plan = plan
			if _, err := Start(context.Background(), start, opts); err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, ev := range f.events {
				if ev.Type == EvPlan {
					got = append(got, ev.Tokens)
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d plan events, want 1", len(got))
			}
			if (got[0] == want) != tc.accepted {
				t.Errorf("plan event: %d tokens; the accepted plan's %d (want it used: %v)", got[0], want, tc.accepted)
			}
		})
	}
}
