package engine_test

import (
	"context"
	"testing"

	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestPlanEventSaysCostUnknown: a debate's plan event says its money is
// partly unknown exactly when an engine it planned has no price — what
// the TUI's "+unknown" on the estimate reads, live and from the log.
func TestPlanEventSaysCostUnknown(t *testing.T) {
	const priced = "{kind: command, command: [x], external: false, price: {input_per_mtok: 1, output_per_mtok: 2}}"
	for _, tc := range []struct {
		name, b string
		want    bool
	}{
		{"every engine priced", priced, false},
		{"a solver without a price", "{kind: command, command: [x], external: false}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: "+priced+"\n  b: "+tc.b+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			f.cfg = cfg
			if _, err := Start(context.Background(), f.setup(2, 1, "a", "b"), f.opts(&sup{})); err != nil {
				t.Fatal(err)
			}
			plans := 0
			for _, ev := range f.events {
				if ev.Type != EvPlan {
					continue
				}
				plans++
				if ev.CostUnknown != tc.want || ev.USD <= 0 {
					t.Errorf("plan event: usd %v, cost unknown %v; want unknown %v and the priced part's estimate", ev.USD, ev.CostUnknown, tc.want)
				}
			}
			if plans != 1 {
				t.Errorf("%d plan events, want 1", plans)
			}
		})
	}
}
