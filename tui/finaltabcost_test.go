package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestHandRunHeaderCostIsUnknown: a hand-run debate records no
// cost; its header reads "unknown", never "$0.00".
func TestHandRunHeaderCostIsUnknown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 140, 45)
	for i := 0; i < 12; i++ {
		o := keys(t, m, "enter")
		if debateOf(o) == "BUG-20260705-M8N2" {
			o = pump(t, o, nil)
			head := strings.SplitN(screenText(o, f.proj), "\n", 2)[0]
			if strings.Contains(head, "$0.00") || !strings.Contains(head, "unknown") {
				t.Errorf("header %q", head)
			}
			return
		}
		m = keys(t, m, "j")
	}
	t.Fatal("bug 6 (BUG-20260705-M8N2) not found in the browser")
}

// TestFinalTabKeepsTheEstimateFromTheLog: a debate opened from disk (after
// a resume, or run headless) shows its estimate beside the cost on its Final tab,
// from the plan event of its log.
func TestFinalTabKeepsTheEstimateFromTheLog(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "BUG-20260702-Q2R8")
	log := `{"type":"plan","time":"2026-07-02T10:00:00Z","calls":10,"tokens":17000,"usd":0.0123}` + "\n"
	if err := os.WriteFile(filepath.Join(bug.Dir, bugfolder.DebateDir, "eventos.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 140, 45)
	m = keys(t, m, "j", "j", "j", "enter")
	if debateOf(m) != "BUG-20260702-Q2R8" || activeTab(m) != "Final" {
		t.Fatalf("not on Q2R8's Final tab:\n%s", screenText(m, f.proj))
	}

	m = pump(t, m, nil)
	if text := screenText(m, f.proj); !strings.Contains(text, ", estimated ≈$0.01") {
		t.Errorf("Final tab lacks the estimate:\n%s", text)
	}
}
