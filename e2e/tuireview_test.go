package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tribunalTmux runs moot review (args after "review") in the tribunal's
// repository inside tmux at w×h, with its stand-in jurors.
func tribunalTmux(t *testing.T, tr *tribunal, w, h int, args ...string) *tmuxMoot {
	t.Helper()
	env := []string{"FAKE_JURY=" + tr.jury, "FAKE_JURYLOG=" + tr.jurylog,
		"XDG_CONFIG_HOME=" + filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME=" + filepath.Join(tr.home, "cache")}
	return startTmuxIn(t, tr.repo, env, w, h, args...)
}

// TestReviewOnATerminalShowsTheCostScreenThenTheLiveView: at 80×24 and
// 140×45, moot review on a terminal opens the cost screen a debate opens
// (its title, the lenses' ladders, the engine table, Start/Edit/Cancel)
// instead of a [y/N] prompt; Start opens the live view, whose header
// counts the calls as a debate's does (2/2) and whose ←/→ move
// between the lenses as in a debate; once the round ended q leaves, the
// report follows and the exit code is the review's (0: a unanimous
// pass). While its jurors are called, q asks first (Keep watching, or
// Leave it, resumable: exit 3 naming moot resume). Cancel at the cost
// screen writes nothing and exits 3.
func TestReviewOnATerminalShowsTheCostScreenThenTheLiveView(t *testing.T) {
	t.Parallel()
	args := append(append([]string{"review"}, change...), "--lens", "defect", "--lens", "security", "--builder", "mistral")
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("start-%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
			m := tribunalTmux(t, tr, sz.w, sz.h, append(args, "--config", tr.cfg)...)
			s := m.wait("the review's cost screen", "Cost of the review", "▸ Start ◂", "Edit", "Cancel", "defect: ext-anth", "total")
			if strings.Contains(s, "[y/N]") {
				t.Errorf("the bare prompt is still shown:\n%s", s)
			}
			m.send("Enter")
			s = m.wait("the live view, ended", "defect · pass", "security · pass", "the review ended", "←/h left")
			if head, _, _ := strings.Cut(s, "\n"); !strings.Contains(head, " 2/2") { // every protocol's calls figure: finished over the plan's count
				t.Errorf("the header's calls figure is not 2/2 at the end:\n%s", head)
			}
			m.send("Right")
			m.send("q")
			if code := m.exitCode(); code != "0" {
				t.Fatalf("exit %s, want 0 (a unanimous pass); the screen:\n%s", code, m.screen())
			}
			m.wait("the report after the view", "round 1: PASS")
		})
		t.Run(fmt.Sprintf("stop-%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
			env := []string{"FAKE_JURY=*/*=hang", "FAKE_JURYLOG=" + tr.jurylog, // its jurors never answer
				"XDG_CONFIG_HOME=" + filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME=" + filepath.Join(tr.home, "cache")}
			m := startTmuxIn(t, tr.repo, env, sz.w, sz.h, append(args, "--config", tr.cfg)...)
			m.wait("the review's cost screen", "Cost of the review", "▸ Start ◂")
			m.send("Enter")
			m.wait("the live view, its jurors called", "defect", "q quit")
			m.send("q")
			m.wait("q asks first, as a debate's does", "Leave it, resumable", "Keep watching")
			m.send("Enter") // Keep watching, the answer in focus
			if s := m.settled(); strings.Contains(s, "Leave it, resumable") {
				t.Fatalf("Keep watching did not close the question:\n%s", s)
			}
			m.send("q")
			m.wait("asked again", "Leave it, resumable")
			m.send("Up", "Enter")
			if code := m.exitCode(); code != "3" {
				t.Fatalf("exit %s, want 3 (stopped, resumable); the screen:\n%s", code, m.screen())
			}
			m.wait("how to continue it", "moot resume")
		})
		t.Run(fmt.Sprintf("cancel-%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
			m := tribunalTmux(t, tr, sz.w, sz.h, append(args, "--config", tr.cfg)...)
			m.wait("the review's cost screen", "Cost of the review", "▸ Start ◂")
			m.send("Escape")
			if code := m.exitCode(); code != "3" {
				t.Fatalf("exit %s, want 3 (cancelled); the screen:\n%s", code, m.screen())
			}
			m.wait("the cancel said", "review not started; nothing written")
			if rs := tr.reviews(); len(rs) != 0 {
				t.Errorf("a cancelled review left folders: %v", rs)
			}
			if calls := tr.calls(); len(calls) != 0 {
				t.Errorf("a cancelled review called jurors: %v", calls)
			}
		})
	}
}

// TestResumedReviewOnATerminalShowsItsChange: a review of files (not a
// git range) stopped while its juror is called, then resumed on a
// terminal, shows on the resume's cost screen the files it reviews (the
// resume takes no --files, and the change line read them from the flags,
// so it said "change" and nothing), and its calls as a debate's resume
// says them: the whole, with the call already made.
func TestResumedReviewOnATerminalShowsItsChange(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	env := []string{"FAKE_JURY=*/*=hang", "FAKE_JURYLOG=" + tr.jurylog, // its jurors never answer
		"XDG_CONFIG_HOME=" + filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME=" + filepath.Join(tr.home, "cache")}
	m := startTmuxIn(t, tr.repo, env, 80, 24, "review", "--files", "calc.go", "--contract", "Total is documented | go vet passes",
		"--lens", "defect", "--builder", "mistral", "--config", tr.cfg)
	s := m.wait("the review's cost screen", "Cost of the review", "▸ Start ◂")
	if !regexp.MustCompile(`change\s+calc\.go`).MatchString(s) {
		t.Fatalf("the new review's cost screen does not name its file:\n%s", s)
	}
	m.send("Enter")
	m.wait("the live view, its jurors called", "defect", "q quit")
	m.send("q")
	m.wait("q asks first", "Leave it, resumable")
	m.send("Up", "Enter")
	if code := m.exitCode(); code != "3" {
		t.Fatalf("exit %s, want 3 (stopped, resumable); the screen:\n%s", code, m.screen())
	}
	m.wait("how to continue it", "moot resume")
	r := startTmuxIn(t, tr.repo, env, 80, 24, "resume", filepath.Base(tr.only()), "--config", tr.cfg)
	s = r.wait("the resumed review's cost screen", "Cost of the review", "▸ Start ◂")
	if !regexp.MustCompile(`change\s+calc\.go`).MatchString(s) {
		t.Errorf("the resumed review's cost screen does not name the file it reviews:\n%s", s)
	}
	// its calls, as a debate's resume says them: the whole the header will
	// count against, with the call already made (the stop ended it: the
	// review's record holds it as a call that gave no verdict)
	flat := strings.Join(strings.Fields(s), " ")
	all := regexp.MustCompile(`(\d+) in all with the 1 already made`).FindStringSubmatch(flat)
	if all == nil {
		t.Fatalf("the resumed review's cost screen does not say the call already made and the whole:\n%s", s)
	}
	r.send("Enter") // Start: the header counts against that whole
	r.wait("the resumed review's header, counting against the whole its cost screen said", "/"+all[1]+" (1 running)")
	r.send("q")
	r.wait("q asks first", "Leave it, resumable")
	r.send("Up", "Enter")
	if code := r.exitCode(); code != "3" {
		t.Errorf("exit %s, want 3 (stopped, resumable):\n%s", code, r.screen())
	}
}
