package review

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// FuzzReviewEvents: any event log (torn lines, junk, another review's
// lenses) builds panes without a panic, every lens of the record kept.
func FuzzReviewEvents(f *testing.F) {
	f.Add([]byte(`{"type":"call_started","round":1,"solver_id":"defect","engine":"a"}` + "\n" + `{"type":"verdict","round":1,"solver_id":"defect","choice":"pass"}`))
	f.Add([]byte(`{"type":"rung","round":1,"solver_id":"x","choice":"capacity","reason":"small"}` + "\n{\"type\":"))
	f.Add([]byte("\x00\xff\n\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, EventsFile)
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		evs, err := ReadEvents(dir)
		if err != nil {
			t.Fatal(err)
		}
		panes := seats(dir, &State{Lenses: []bugfolder.Lens{{Name: "defect"}, {Name: "spec"}}}, evs, 1)
		if len(panes) < 2 || panes[0].Lens != "defect" || panes[1].Lens != "spec" {
			t.Fatalf("the record's lenses are not the first panes: %+v", panes)
		}
	})
}

// A weakened pass never reads as a plain pass in a browser row: its
// status and its verdict say "(weakened)"; a plain pass says "pass".
func TestRecordOfAWeakenedPassSaysSo(t *testing.T) {
	for _, c := range []struct {
		weakened           bool
		wantSaid, wantWord string
	}{
		{true, "pass (weakened)", "pass (weakened)"},
		{false, "pass", "pass"},
	} {
		st := &State{ID: "20260101-000000", Status: StatusPassed, Lenses: []bugfolder.Lens{{Name: "defect"}},
			Rounds: []RoundRecord{{Round: 1, Gate: Gate{Outcome: OutcomePass, Passes: 1, Weakened: c.weakened}}}}
		r := record(t.TempDir(), st, 1)
		if r.Said != c.wantSaid || r.Verdict != c.wantWord {
			t.Errorf("weakened %v: said %q, verdict %q; want %q, %q", c.weakened, r.Said, r.Verdict, c.wantSaid, c.wantWord)
		}
	}
}
