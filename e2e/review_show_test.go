package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// A review whose moot was killed (SIGKILL) mid-round has no summary yet:
// moot show shows what there is — interrupted, the lenses seated so far
// and those not, and `moot resume ID` — as it does for an interrupted
// debate, exit 0.
func TestReviewShowOfAKilledReviewSaysWhatThereIs(t *testing.T) {
	t.Parallel()
	tr, dir := killedMidRound(t)
	id := filepath.Base(dir)
	r := tr.run("show", id)
	if r.code != 0 {
		t.Fatalf("show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, must := range []string{"interrupted", "security (pass", "not yet seated: defect", "moot resume " + id} {
		if !strings.Contains(r.stdout, must) {
			t.Errorf("show lacks %q:\n%s", must, r.stdout)
		}
	}
	tr.jury = ""
	tr.run("resume", id, "--config", tr.cfg, "--yes") // its hung juror is reaped
}
