package debate

import (
	"fmt"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
)

// TestCountAndFormula: the cost screen counts N×(R+1) + C×R + 1 calls and
// shows the formula with its numbers.
func TestCountAndFormula(t *testing.T) {
	for _, tc := range []struct{ n, r, c, total int }{{3, 2, 0, 10}, {2, 0, 0, 3}, {8, 3, 2, 39}, {4, 1, 1, 10}} {
		s := engine.Setup{N: tc.n, R: tc.r, Critics: make([]string, tc.c)}
		got := Protocol{}.Count(s)
		if got.Total != tc.total || got.Solvers != tc.n*(tc.r+1) || got.Critics != tc.c*tc.r || got.Judge != 1 {
			t.Errorf("Count(%d,%d,%d) = %+v, want total %d", tc.n, tc.r, tc.c, got, tc.total)
		}
	}
	if f := (Protocol{}).Formula(engine.Setup{N: 3, R: 2}); f != "3×(2+1) + 0×2 + 1 = 10 calls" {
		t.Errorf("formula %q", f)
	}
}

// TestEveryPromptOfADebateBeginsWithTheSameBlockHoldingP: solvers of every
// round (with lenses, snapshots in their own reading orders), critics and
// the judge (and its order-swapped check) all begin with the same bytes
// holding P, so a prompt cache serves P after the first call.
func TestEveryPromptOfADebateBeginsWithTheSameBlockHoldingP(t *testing.T) {
	const p = "# Bug BUG-1\n\nThe cart loses items.\n"
	for _, l := range []bugfolder.Lang{bugfolder.EN, bugfolder.PT} {
		rubric := Protocol{}.Rubric(l, bugfolder.Repair)
		snap := func(order ...int) []engine.SnapshotEntry {
			var out []engine.SnapshotEntry
			for _, i := range order {
				out = append(out, engine.SnapshotEntry{ID: l.SolverID(i), Body: fmt.Sprintf("proposal %d", i), Own: i == order[0]})
			}
			return out
		}
		var prompts []string
		for round := 0; round <= 2; round++ {
			for i := 1; i <= 3; i++ {
				c := engine.Call{Lang: l, Mode: bugfolder.Repair, Role: bugfolder.RoleSolver, ID: l.SolverID(i), N: 3, R: 2, Round: round, Rubric: rubric, P: p,
					Nonce: fmt.Sprintf("nonce%d%d", round, i), Lens: bugfolder.Lens{Name: fmt.Sprintf("lens-%d", i), Text: "a view"}}
				if round > 0 {
					c.Snapshot = snap(i, i%3+1, (i+1)%3+1)
				}
				prompts = append(prompts, Protocol{}.Prompt(c))
			}
			if round > 0 {
				prompts = append(prompts, Protocol{}.Prompt(engine.Call{Lang: l, Mode: bugfolder.Repair, Role: bugfolder.RoleCritic, ID: "critic-1", N: 3, R: 2, Round: round,
					Rubric: rubric, P: p, Nonce: "n", Snapshot: snap(2, 3, 1)}))
			}
		}
		fin := Protocol{}.Final(engine.FinalInput{Lang: l, Mode: bugfolder.Repair, Rubric: rubric, P: p, N: 3, Panel: []string{l.SolverID(1), l.SolverID(2)},
			Answers: map[string]string{l.SolverID(1): "a", l.SolverID(2): "b"}})
		prompts = append(prompts, fin.Prompt(), fin.(interface{ SwappedPrompt() string }).SwappedPrompt())
		testutil.RequireSharedPrefix(t, prompts, p, engine.SharedEnd)
	}
}
