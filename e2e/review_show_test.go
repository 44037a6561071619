package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A review whose moot was killed (SIGKILL) mid-round has no summary yet:
// moot show shows what there is — interrupted, the lenses seated so far
// and those not, and `moot resume ID` — as it does for an interrupted
// debate, exit 0.
func TestReviewShowOfAKilledReviewSaysWhatThereIs(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	tr.jury = "*/defect@1=hang"
	c, _ := tr.start(append(append([]string{"review"}, change...), "--lens", "defect", "--lens", "security", "--config", tr.cfg, "--yes")...)
	var dir string
	waitFor(t, "security's verdict and defect's call", time.Minute, func() bool {
		rs := tr.reviews()
		if len(rs) != 1 {
			return false
		}
		dir = rs[0]
		_, err := os.Stat(filepath.Join(dir, "round-1", "verdicts", "security.json"))
		return err == nil && strings.Contains(strings.Join(tr.calls(), " "), "defect")
	})
	_ = c.Process.Kill()
	_ = c.Wait()
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
