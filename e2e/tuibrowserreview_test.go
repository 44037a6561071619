package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIBrowserReviewAsksBeforeLeaving: at 80×24 a review started from
// the browser (n, review, the wizard, Start) runs under its view as a
// debate does: q asks "Leave this review?" (the debate's question) and
// Keep watching stays; a browser opened beside it shows the review's row
// with the ● running mark; Leave it stops the review, back in the list,
// naming moot resume, and its record says it was cancelled, not left
// running to be interrupted when moot quits.
func TestTUIBrowserReviewAsksBeforeLeaving(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	tr.withRegister("BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
	env := []string{"FAKE_JURY=*/*=hang", "FAKE_JURYLOG=" + tr.jurylog, // its jurors never answer
		"XDG_CONFIG_HOME=" + filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME=" + filepath.Join(tr.home, "cache")}
	m := startTmuxIn(t, tr.repo, env, 80, 24, "--config", tr.cfg)
	m.wait("the browser", "A7K3")
	m.send("/", "A7K3", "Enter")
	m.send("n")
	m.wait("the wizard's protocols", "review — of a change")
	m.send("Down", "Down", "Down", "Down", "Enter")
	m.setUp()
	m.wait("the cost screen", "Cost of the review", "▸ Start ◂", "esc back to the setup")
	m.send("Enter")
	m.wait("the live view, its jurors called", "defect", "q quit")
	m.send("q")
	m.wait("q asks first, as a debate's does", "Leave this review?", "Leave it, resumable", "> Keep watching")
	m.send("Enter") // Keep watching, the answer in focus
	if s := m.settled(); strings.Contains(s, "Leave this review?") || !strings.Contains(s, "defect") {
		t.Fatalf("Keep watching did not go back to the review:\n%s", s)
	}

	beside := startTmuxIn(t, tr.repo, env, 80, 24, "--config", tr.cfg)
	beside.waitLine("the running review's row with its ● mark", "●", "running", "review")
	beside.send("q")

	m.send("q")
	m.wait("asked again", "Leave this review?")
	m.send("Up", "Enter")
	m.wait("back in the list, how to resume it", "left review", "moot resume")
	m.waitLine("the review's row, stopped", "document Total", "cancelled")
	if s := m.screen(); strings.Contains(s, "●") {
		t.Errorf("the review left still shows the running mark:\n%s", s)
	}
	m.send("q")
	if code := m.exitCode(); code != "0" {
		t.Errorf("moot exited %s leaving the browser", code)
	}
	records, _ := filepath.Glob(filepath.Join(tr.repo, "_reversa_bugs", "*", "bugs", "*", "review", "*", "review.json"))
	if len(records) != 1 {
		t.Fatalf("want one review's record, got %v", records)
	}
	if st := readFile(t, records[0]); !strings.Contains(st, `"cancelled"`) {
		t.Errorf("the review left is not recorded as cancelled:\n%s", st)
	}
}
