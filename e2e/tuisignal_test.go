package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// TestTUIStopSignals: a debate run in the terminal UI (in tmux) and
// stopped by SIGTERM, SIGHUP or SIGQUIT while its calls run is left as q
// leaves it (Start pressed on the cost screen): exit 3, the calls stopped, its end logged as cancelled, the
// lock and the live file removed, resumable.
func TestTUIStopSignals(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			p := newProject(t)
			sock := fmt.Sprintf("moot-sig-%d-%d", os.Getpid(), sig)
			stopTmuxWhenDone(t, sock)
			exitFile := filepath.Join(p.dir, "exit-code")
			script := fmt.Sprintf("cd %q && env FAKE_DELAY_MS=60000 FAKE_LOG=%q XDG_CONFIG_HOME=%q XDG_CACHE_HOME=%q %q run 7 --mode diagnosis -r 1; echo $? > %q; sleep 60",
				p.dir, p.log, filepath.Join(p.dir, ".xdg"), filepath.Join(p.dir, ".cache"), mootBin, exitFile)
			if out, err := exec.Command("tmux", "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", script).CombinedOutput(); err != nil {
				t.Fatalf("tmux: %v\n%s", err, out)
			}
			waitFor(t, "the cost screen", 60*time.Second, func() bool {
				out, _ := exec.Command("tmux", "-L", sock, "capture-pane", "-p").Output()
				return strings.Contains(string(out), "Start")
			})
			if out, err := exec.Command("tmux", "-L", sock, "send-keys", "Enter").CombinedOutput(); err != nil {
				t.Fatalf("tmux send-keys: %v\n%s", err, out)
			}
			lock := filepath.Join(p.debate(), bugfolder.LockFile)
			var pid int
			waitFor(t, "the debate's calls running", 60*time.Second, func() bool {
				raw, err := os.ReadFile(lock)
				if err != nil || !exists(p.log) {
					return false
				}
				pid = lockPID(raw)
				return pid > 0
			})
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			if code := exitCodeIn(t, exitFile); code != "3" {
				t.Errorf("exit %s, want 3 (stopped, resumable)", code)
			}
			for _, f := range []string{lock, filepath.Join(p.debate(), ".moot.live.json")} {
				if exists(f) {
					t.Errorf("%s is left behind", filepath.Base(f))
				}
			}
			if last := lastEvent(t, filepath.Join(p.debate(), "eventos.jsonl")); last != "debate_finished" {
				t.Errorf("the log ends with %q, not debate_finished", last)
			}
		})
	}
}

// lockPID reads the pid a lock file names (0 when unreadable).
func lockPID(raw []byte) int {
	var l bugfolder.LockInfo
	if json.Unmarshal(raw, &l) != nil {
		return 0
	}
	return l.PID
}

// lastEvent is the type of an event log's last line.
func lastEvent(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev struct{ Type string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			last = ev.Type
		}
	}
	return last
}

// TestTUIRunOnUnfinishedDebate: on a terminal, moot run on a bug whose
// debate/ is unfinished says so at once, before any wizard or cost
// screen, and exits 2 as headless does.
func TestTUIRunOnUnfinishedDebate(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	p := newProject(t)
	p.Plan = "agente-1@0=fail,agente-2@0=fail" // the quorum is lost: it waits for a decision
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 4)
	sock := fmt.Sprintf("moot-unf-%d", os.Getpid())
	stopTmuxWhenDone(t, sock)
	exitFile, errFile := filepath.Join(p.dir, "exit-code"), filepath.Join(p.dir, "stderr")
	script := fmt.Sprintf("cd %q && env XDG_CONFIG_HOME=%q XDG_CACHE_HOME=%q %q run 7 --mode diagnosis 2> %q; echo $? > %q; sleep 60",
		p.dir, filepath.Join(p.dir, ".xdg"), filepath.Join(p.dir, ".cache"), mootBin, errFile, exitFile)
	if out, err := exec.Command("tmux", "-L", sock, "new-session", "-d", "-x", "100", "-y", "30", script).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	if code := exitCodeIn(t, exitFile); code != "2" {
		t.Errorf("exit %s, want 2", code)
	}
	if msg := readFile(t, errFile); !strings.Contains(msg, "holds an unfinished debate (waiting); continue it with: moot resume BUG-20260715-A7K3") {
		t.Errorf("stderr: %s", msg)
	}
}
