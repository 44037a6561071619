package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopTmuxWhenDone registers the end of the tmux server on socket sock:
// the server is killed, then the test waits until every process it ran
// (the shell, moot, moot's engines) has ended. moot answers the hang-up
// by stopping its calls and writing the run's end into the project;
// t.TempDir's removal must come after that, or it races moot's last
// writes ("directory not empty"). Register it after the project's
// folder, so that it runs before the folder's removal.
func stopTmuxWhenDone(t *testing.T, sock string) {
	t.Helper()
	t.Cleanup(func() {
		var pids []int
		if out, err := exec.Command("tmux", "-L", sock, "list-panes", "-a", "-F", "#{pane_pid}").Output(); err == nil {
			for _, f := range strings.Fields(string(out)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, descendants(pid)...)
				}
			}
		}
		_ = exec.Command("tmux", "-L", sock, "kill-server").Run()
		end := time.Now().Add(30 * time.Second)
		for _, pid := range pids {
			for alive(pid) {
				if time.Now().After(end) {
					// a process that ignores the hang-up must not
					// outlive the test either
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
				if time.Now().After(end.Add(10 * time.Second)) {
					t.Errorf("process %d from tmux %s still runs after the server's end", pid, sock)
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	})
}

// descendants is pid and every process below it, read from /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(p); ok {
			children[pp] = append(children[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentOf reads a process's parent from /proc/PID/stat (its fourth
// field, after the command name in parentheses).
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// alive says whether pid still runs: a zombie (ended, not yet reaped by
// whoever inherited it) counts as ended.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
