package bugfolder

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A review's rung and verdict events carry the lens (solver_id), the
// engine, what became of the rung or the verdict (choice) and why, and
// read back the same.
func TestReviewEventsRoundTrip(t *testing.T) {
	for _, typ := range []EventType{EvRung, EvVerdict} {
		ev := Event{Type: typ, Time: time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC), Round: 2, SolverID: "security", Role: "juror", Engine: "ext-anth", Choice: "wrong-lens", Reason: `a verdict for lens "defect"`}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{`"solver_id":"security"`, `"engine":"ext-anth"`, `"choice":"wrong-lens"`, `"round":2`} {
			if !strings.Contains(string(b), k) {
				t.Errorf("%s lacks %s: %s", typ, k, b)
			}
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.SolverID != ev.SolverID || back.Engine != ev.Engine || back.Choice != ev.Choice || back.Reason != ev.Reason || back.Round != 2 {
			t.Errorf("%s read back as %+v", typ, back)
		}
	}
}
