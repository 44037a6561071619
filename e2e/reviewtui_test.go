package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReviewTUIBrowserAndView drives the real binary in tmux: after a
// review by stand-in jurors in a git project with no register, `moot`
// opens on its review row (ID, pass and its contract as the title at 80
// columns; at 140 the columns moot list has: N×R its lenses × rounds,
// OUTCOME its verdict and lenses passed/held/refused); enter opens
// the review view with one pane per lens, its status and the rung that
// sat, the focused one marked by its border (not colour alone); enter
// zooms it with its finding whole (its evidence); tab shows the route
// table. At 80×24 and 140×45.
func TestReviewTUIBrowserAndView(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, sz := range []struct {
		w, h int
		row  []string
	}{
		{80, 24, []string{"pass", "document Total", "1 review"}}, // the title is the contract (what was reviewed)
		{140, 45, []string{"OUTCOME", "pass P2 H0 R0", "2×1", "review", "1 review"}},
	} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
			tr.jury = "*/defect=infopass" // a pass with a finding, its evidence for the zoom
			if r := tr.review(append(change, "--lens", "defect", "--lens", "security")...); r.code != 0 {
				t.Fatalf("review: exit %d\n%s", r.code, r.stderr)
			}
			id := filepath.Base(tr.only())
			sock := fmt.Sprintf("moot-rv-%d-%d", os.Getpid(), sz.w)
			stopTmuxWhenDone(t, sock)
			script := fmt.Sprintf("cd %q && env XDG_CONFIG_HOME=%q XDG_CACHE_HOME=%q %q; sleep 60",
				tr.repo, filepath.Join(tr.home, "xdg"), filepath.Join(tr.home, "cache"), mootBin)
			if out, err := exec.Command("tmux", "-L", sock, "new-session", "-d", "-x", fmt.Sprint(sz.w), "-y", fmt.Sprint(sz.h), script).CombinedOutput(); err != nil {
				t.Fatalf("tmux: %v\n%s", err, out)
			}
			screen := func() string {
				out, _ := exec.Command("tmux", "-L", sock, "capture-pane", "-p").Output()
				return string(out)
			}
			waitScreen := func(what string, wants ...string) {
				t.Helper()
				var last string
				for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
					last = screen()
					if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(last, w) }) {
						return
					}
				}
				t.Fatalf("timed out waiting for %s; the screen:\n%s", what, last)
			}
			waitScreen("the review row", append([]string{id}, sz.row...)...)
			if out, err := exec.Command("tmux", "-L", sock, "send-keys", "Enter").CombinedOutput(); err != nil {
				t.Fatalf("tmux send-keys: %v\n%s", err, out)
			}
			waitScreen("the review view's panes", "review "+id, "defect · pass", "security · pass", "sat: ext-anth (anthropic)")
			if s := screen(); strings.Count(s, "┏") != 1 || !strings.Contains(s, "┃defect") {
				t.Errorf("the focused lens is not marked by its border (colour alone):\n%s", s)
			}
			if out, err := exec.Command("tmux", "-L", sock, "send-keys", "Enter").CombinedOutput(); err != nil {
				t.Fatalf("tmux send-keys: %v\n%s", err, out)
			}
			waitScreen("the lens zoomed with its finding whole", "Total could take a named type", "evidence: calc.go")
			if out, err := exec.Command("tmux", "-L", sock, "send-keys", "Escape").CombinedOutput(); err != nil {
				t.Fatalf("tmux send-keys: %v\n%s", err, out)
			}
			waitScreen("back from the zoom", "security · pass")
			if out, err := exec.Command("tmux", "-L", sock, "send-keys", "Tab").CombinedOutput(); err != nil {
				t.Fatalf("tmux send-keys: %v\n%s", err, out)
			}
			waitScreen("the route table", "ext-anth", "anthropic", "defect")
		})
	}
}
