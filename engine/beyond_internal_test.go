package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestReadingOrderLatinSquare: over many debates, panels and rounds, every
// reader's order is a permutation of the snapshot, the readers of a round
// each read a different proposal first (so none is always first) and
// every proposal sits at every position once, and the same debate, reader
// and round always give the same order (a resume re-derives it).
func TestReadingOrderLatinSquare(t *testing.T) {
	for _, n := range []int{2, 3, 4, 6} {
		for debate := range 40 {
			r := &runner{beyond: beyond{seed: orderSeed(fmt.Sprintf("BUG-%d", debate), "2026-12-01T07:00:00Z")}}
			var entries []SnapshotEntry
			for i := range n {
				id := fmt.Sprintf("agente-%d", i+1)
				r.solvers = append(r.solvers, id)
				entries = append(entries, SnapshotEntry{ID: id})
			}
			var perRound [][]string
			for k := 1; k <= 4; k++ {
				at := make([]map[string]bool, n) // position → ids seen there
				for i := range at {
					at[i] = map[string]bool{}
				}
				var firsts []string
				for _, reader := range r.solvers {
					o := ids(r.readingOrder(k, reader, entries))
					if !slices.Equal(slices.Sorted(slices.Values(o)), ids(entries)) {
						t.Fatalf("n=%d debate %d round %d: %s reads %v", n, debate, k, reader, o)
					}
					if again := ids(r.readingOrder(k, reader, entries)); !slices.Equal(o, again) {
						t.Fatalf("the order is not derived again: %v then %v", o, again)
					}
					for i, id := range o {
						at[i][id] = true
					}
					firsts = append(firsts, o[0])
					if reader == r.solvers[0] {
						perRound = append(perRound, o)
					}
				}
				for i := range at {
					if len(at[i]) != n {
						t.Fatalf("n=%d debate %d round %d: position %d holds only %v", n, debate, k, i, at[i])
					}
				}
				if len(slices.Compact(slices.Sorted(slices.Values(firsts)))) != n {
					t.Fatalf("n=%d debate %d round %d: firsts %v", n, debate, k, firsts)
				}
			}
			if n >= 4 && slices.Equal(perRound[0], perRound[1]) && slices.Equal(perRound[1], perRound[2]) && slices.Equal(perRound[2], perRound[3]) {
				t.Errorf("n=%d debate %d: agente-1 reads every round in the same order %v", n, debate, perRound[0])
			}
		}
	}
}

// TestReadingOrderDiffersByDebate: two debates (another id or start)
// give the same reader other orders.
func TestReadingOrderDiffersByDebate(t *testing.T) {
	entries := []SnapshotEntry{{ID: "agente-1"}, {ID: "agente-2"}, {ID: "agente-3"}, {ID: "agente-4"}, {ID: "agente-5"}}
	seen := map[string]bool{}
	for i := range 20 {
		r := &runner{solvers: ids(entries), beyond: beyond{seed: orderSeed("BUG-1", bugfolder.Stamp(fmt.Sprintf("2026-12-01T07:00:%02dZ", i)))}}
		seen[fmt.Sprint(ids(r.readingOrder(1, "agente-1", entries)))] = true
	}
	if len(seen) < 5 {
		t.Errorf("20 debates gave agente-1 only %d orders", len(seen))
	}
}

func ids(es []SnapshotEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
