package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIWizardStartsAnArgueOnAQuestion: at 80×24, `moot run BUG` on a
// terminal offers argue beside the bug's protocols; choosing it
// asks the question, its personas and its round cap as moot ask takes
// them (a persona the command refuses is refused as it is typed), then
// the engines; the cost screen and the live view follow as for every
// protocol, to the end; the question is stored under .moot/debates/.
func TestTUIWizardStartsAnArgueOnAQuestion(t *testing.T) {
	t.Parallel()
	// 140×45: TestTUIBrowserNewStartsEveryProtocol walks the same pages
	for _, sz := range []struct{ w, h int }{{80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			m := startTmux(t, p, sz.w, sz.h, "run", "7")
			m.wait("the protocol list", "argue — on a question", "tradeoff")
			m.send("Down", "Down", "Down", "Enter")
			m.wait("the question's page", "Question", "Personas", "Rounds (cap R)")
			m.send("-l", "Should checkout cache coupon lookups?")
			m.send("Enter")
			m.wait("the personas field in focus", "┃ Personas")
			m.send("-l", "nobody-such")
			m.send("Enter")
			m.wait("the persona refused as the command refuses it", `"nobody-such" is no persona`)
			m.send("C-u")
			m.wait("the persona erased", "┃ >\n")
			m.send("Enter")
			m.wait("the rounds field in focus", "┃ Rounds (cap R)")
			m.send("BSpace", "0", "Enter")
			m.wait("the engines page", "Engine of the personas")
			for range 3 {
				m.send("Enter")
			}
			m.wait("the cost screen", "Cost of the ", "should-checkout", "argue", "▸ Start ◂")
			m.send("Enter")
			m.wait("the live view, ended", "done", "Final")
			m.send("q")
			if code := m.exitCode(); code != "0" {
				t.Fatalf("exit %s, want 0; the screen:\n%s", code, m.screen())
			}
			qs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*"))
			if len(qs) != 1 || !strings.Contains(filepath.Base(qs[0]), "should-checkout") {
				t.Fatalf("questions stored: %v", qs)
			}
			if _, err := os.Stat(filepath.Join(qs[0], "resposta-final.md")); err != nil {
				if _, err2 := os.Stat(filepath.Join(qs[0], "final-answer.md")); err2 != nil {
					t.Errorf("the question's debate has no final answer: %v", err)
				}
			}
		})
	}
}
