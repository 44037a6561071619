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

// tmuxMoot is moot running in a detached tmux session of a given size,
// in a project, with the fake engines' environment.
type tmuxMoot struct {
	t    *testing.T
	sock string
	exit string // the file the shell writes moot's exit code to
}

// startTmux runs moot with args in p's folder inside tmux at w×h.
func startTmux(t *testing.T, p *project, w, h int, args ...string) *tmuxMoot {
	t.Helper()
	env := []string{"FAKE_LOG=" + p.log, "FAKE_PLAN=" + p.Plan, "FAKE_PROMPTS=" + filepath.Join(p.dir, "prompts"),
		"XDG_CONFIG_HOME=" + filepath.Join(p.dir, ".xdg"), "XDG_CACHE_HOME=" + filepath.Join(p.dir, ".cache")}
	return startTmuxIn(t, p.dir, append(env, p.env...), w, h, args...)
}

// startTmuxIn runs moot with args in dir, with env added to a plain
// terminal's, inside tmux at w×h.
func startTmuxIn(t *testing.T, dir string, env []string, w, h int, args ...string) *tmuxMoot {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	sock := fmt.Sprintf("moot-tp-%d-%d", os.Getpid(), time.Now().UnixNano())
	exit := filepath.Join(t.TempDir(), "exit-code")
	stopTmuxWhenDone(t, sock) // after the exit file's folder: its removal comes after the shell's end
	env = append([]string{"NO_COLOR=1", "TERM=xterm-256color"}, env...)
	quoted := func(ss []string) string {
		var out []string
		for _, s := range ss {
			out = append(out, "'"+strings.ReplaceAll(s, "'", `'\''`)+"'")
		}
		return strings.Join(out, " ")
	}
	script := fmt.Sprintf("cd %s && env %s %s %s; echo $? > %s; sleep 120", quoted([]string{dir}), quoted(env), quoted([]string{mootBin}), quoted(args), quoted([]string{exit}))
	if out, err := exec.Command("tmux", "-L", sock, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "bash", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	return &tmuxMoot{t: t, sock: sock, exit: exit}
}

// screen is what the tmux pane shows now.
func (m *tmuxMoot) screen() string {
	out, _ := exec.Command("tmux", "-L", m.sock, "capture-pane", "-p").Output()
	return string(out)
}

// wait waits until the screen shows every want.
func (m *tmuxMoot) wait(what string, wants ...string) string {
	m.t.Helper()
	var last string
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		last = m.screen()
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(last, w) }) {
			return last
		}
	}
	m.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, last)
	return ""
}

// waitWords waits until the screen, its lines joined by single spaces,
// shows every want: for a message wrapped at the window's width, where a
// break may fall inside a want (a temporary folder's length moves it).
func (m *tmuxMoot) waitWords(what string, wants ...string) string {
	m.t.Helper()
	var last string
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		last = m.screen()
		joined := strings.Join(strings.Fields(last), " ")
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(joined, w) }) {
			return last
		}
	}
	m.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, last)
	return ""
}

// send types keys (tmux key names).
func (m *tmuxMoot) send(keys ...string) {
	m.t.Helper()
	if out, err := exec.Command("tmux", append([]string{"-L", m.sock, "send-keys"}, keys...)...).CombinedOutput(); err != nil {
		m.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
}

// exitCode waits for moot to end and returns its exit code.
func (m *tmuxMoot) exitCode() string {
	m.t.Helper()
	return exitCodeIn(m.t, m.exit)
}

// exitCodeIn waits for the shell's "echo $? > path" to be written whole
// (the shell creates the file before it writes the code: a file that
// exists may still be empty) and returns the code.
func exitCodeIn(t *testing.T, path string) string {
	t.Helper()
	waitFor(t, "moot to exit", 60*time.Second, func() bool {
		b, err := os.ReadFile(path)
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	return strings.TrimSpace(readFile(t, path))
}

// TestTUIStartsAndWatchesEveryDebateProtocol: at 80×24 and 140×45, each
// protocol run on a terminal (moot run for a bug's debate, council and
// tradeoff; moot ask for an argue) opens the cost screen, Start runs it in
// the live view to its end (the calls figure: the plan's count, finished),
// q leaves with exit 0; then the browser lists it with its protocol and
// enter opens it again, with the runner's calls figure.
func TestTUIStartsAndWatchesEveryDebateProtocol(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		for _, tc := range []struct {
			proto string
			args  []string
			calls string
		}{
			{"debate", []string{"run", "7", "--protocol", "debate", "--mode", "diagnosis", "-n", "2", "-r", "0"}, "3/3"},
			{"council", []string{"run", "7", "--protocol", "council", "--mode", "repair", "-r", "0", "--lens", "security", "--lens", "performance"}, "3/3"},
			{"tradeoff", []string{"run", "7", "--protocol", "tradeoff", "--mode", "repair", "-r", "0", "--option-a", "Strip discounts first", "--option-b", "Recalculate first"}, "3/3"},
			{"argue", []string{"ask", "Should checkout cache coupon lookups?", "--protocol", "argue", "-r", "0"}, ""},
		} {
			t.Run(fmt.Sprintf("%s-%dx%d", tc.proto, sz.w, sz.h), func(t *testing.T) {
				t.Parallel()
				p := newProject(t)
				m := startTmux(t, p, sz.w, sz.h, tc.args...)
				noun := map[string]string{"argue": "argument"}[tc.proto] // the protocol names the title: a council is no debate
				if noun == "" {
					noun = tc.proto
				}
				m.wait("the cost screen", "Cost of the "+noun, "Start")
				m.send("Enter")
				s := m.wait("the live view, ended", "done", "Final")
				if tc.calls != "" && !strings.Contains(s, tc.calls) {
					t.Errorf("the header's calls figure is not %s at the end:\n%s", tc.calls, s)
				}
				m.send("q")
				if code := m.exitCode(); code != "0" {
					t.Fatalf("exit %s, want 0; the screen:\n%s", code, m.screen())
				}
				b := startTmux(t, p, sz.w, sz.h)
				b.wait("the browser's row", tc.proto)
				if tc.proto == "argue" {
					b.send("G") // the question is listed after the bugs
				} else {
					b.send("/", "A7K3", "Enter")
				}
				b.send("Enter")
				s = b.wait("the debate opened from the browser", "Final", "done")
				if tc.calls != "" && !strings.Contains(s, tc.calls) {
					t.Errorf("the calls figure opened from the browser is not the runner's %s:\n%s", tc.calls, s)
				}
			})
		}
	}
}
