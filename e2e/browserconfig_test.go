package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBrowserResumesARunStartedWithItsEnginesFile: at 80×24 and 140×45, a
// debate started with --config naming an engine only that file has,
// killed mid-run: r in the browser opened without --config says to pass
// the file (and how); the browser opened with --config (as run takes it)
// resumes it to the end.
func TestBrowserResumesARunStartedWithItsEnginesFile(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			p.env = []string{"FAKE_DELAY_MS=400"}
			other := killedRunOnItsOwnEngines(t, p, "0")

			resume := func(m *tmuxMoot) {
				m.wait("the browser", "A7K3")
				m.send("/")
				m.send("-l", "A7K3")
				m.send("Enter")
				m.wait("the filter applied", "1 of 6 match")
				m.send("r")
				m.waitAny("the resume asked or refused", "Resume", "no engine named")
				if s := m.settled(); strings.Contains(s, "Resume") && strings.Contains(s, "Cancel") {
					m.send("Enter") // the resume's cost: accepted
				}
			}
			without := startTmux(t, p, sz.w, sz.h)
			resume(without)
			// the refusal is wrapped at the window's width (a long folder moves
			// its breaks): its words are looked for across the lines
			without.waitWords("advice to pass the engines file", `no engine named "slow"`, "--config FILE")

			with := startTmux(t, p, sz.w, sz.h, "--config", other)
			resume(with)
			with.waitAny("the debate resumed to its end", "· done", "waits for a human decision")
			if s := with.screen(); strings.Contains(s, "no engine named") {
				t.Errorf("the browser given --config did not resume with it:\n%s", s)
			}
		})
	}
}

// TestTUIQuitHintResumesARunStartedWithItsEnginesFile: at 80×24 and
// 140×45, a debate started on a terminal with --config naming an engine
// only that file has, left with q while its calls run: the leave dialog's
// hint, the line printed on exit and moot show's next row (a later
// process: the debate's files record the file) all say the one moot
// resume that carries the file; that hint, run as printed, resumes the
// debate to its end.
func TestTUIQuitHintResumesARunStartedWithItsEnginesFile(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			other := filepath.Join(t.TempDir(), "slow.yaml")
			if err := os.WriteFile(other, []byte("engines:\n  slow:\n    kind: command\n    command: [\""+fakeBin+"\", \"--role\", \"{role}\"]\n    env_passthrough: [\"FAKE_*\"]\n    external: false\n    timeout: 90s\ndefaults:\n  solver: slow\n  judge: slow\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			p.env = []string{"FAKE_DELAY_MS=60000"} // the calls still run when q is pressed
			m := startTmux(t, p, sz.w, sz.h, "run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--config", other)
			p.env = nil
			m.wait("the cost screen", "Cost of the debate", "Start")
			m.send("Enter")
			m.wait("the calls running", "running")
			m.send("q")
			dialog := m.wait("q asks first", "Leave it, resumable")
			m.send("Up", "Enter")
			if code := m.exitCode(); code != "3" {
				t.Fatalf("exit %s, want 3 (stopped, resumable); the screen:\n%s", code, m.screen())
			}
			out, _ := exec.Command("tmux", "-L", m.sock, "capture-pane", "-p", "-J").Output() // lines the terminal wrapped, joined
			hint := regexp.MustCompile("moot resume (\\S+) --config ([^\\s`]+)").FindStringSubmatch(string(out))
			if hint == nil || hint[2] != other {
				t.Fatalf("the hint printed after q does not carry the engines file %s:\n%s", other, out)
			}
			// the dialog wraps its hint in a box: its words are compared
			// without the box and the breaks
			if want := "mootresume" + hint[1] + "--config" + other + "continuesit."; !strings.Contains(dialogWords(dialog, "Leave this debate?"), want) {
				t.Errorf("the leave dialog does not say the hint printed on exit (moot resume %s --config %s):\n%s", hint[1], other, dialog)
			}
			show := p.moot("show", hint[1]).mustExit(t, 0)
			next := regexp.MustCompile("(?m)^\\| next \\|.*`moot resume (\\S+) --config ([^\\s`]+)`").FindStringSubmatch(show.stdout)
			if next == nil || next[1] != hint[1] || next[2] != other {
				t.Fatalf("moot show's next row does not say the hint printed on exit (moot resume %s --config %s):\n%s", hint[1], other, show.stdout)
			}
			p.moot("resume", next[1], "--config", next[2], "--headless", "--yes").mustExit(t, 0)
		})
	}
}

// dialogWords are the words inside the dialog box titled title, without
// its border, the panes around it, spaces and line breaks: words the
// dialog wrapped compare whole.
func dialogWords(screen, title string) string {
	lines := strings.Split(screen, "\n")
	col := -1
	for _, l := range lines {
		if at := strings.Index(l, title); at >= 0 {
			col = len([]rune(l[:strings.LastIndex(l[:at], "│")]))
			break
		}
	}
	if col < 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range lines {
		r := []rune(l)
		if len(r) <= col || r[col] != '│' {
			continue
		}
		in, _, _ := strings.Cut(string(r[col+1:]), "│")
		b.WriteString(strings.Join(strings.Fields(in), ""))
	}
	return b.String()
}
