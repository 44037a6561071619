package harness

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCallsShareOneP: every call of a debate gets P.md as a link of the
// debate's one read-only P file (same inode: nothing copied or written
// again), and a prompt sent in pieces arrives on stdin whole; the file
// is gone once removed.
func TestCallsShareOneP(t *testing.T) {
	p := strings.Repeat("evidence line\n", 10000)
	path, remove, err := NewPFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o400 {
		t.Errorf("P file mode %o, want 400", fi.Mode().Perm())
	}
	want := fi.Sys().(*syscall.Stat_t).Ino
	e := &EngineConfig{Name: "sh", Kind: KindCommand, Command: []string{"sh", "-c", `stat -c '%i %a %s' P.md; wc -c | tr -d ' '`}}
	a, err := New(e, Options{Grace: 500 * time.Millisecond, OutputCap: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"head\n", p, "\ntail\n"}
	for i := range 2 {
		res := a.Call(context.Background(), Request{Role: "solver", SolverID: "agente-" + strconv.Itoa(i+1), PromptParts: parts, P: p, PFile: path, Timeout: 20 * time.Second})
		if res.Failure != FailNone {
			t.Fatalf("call %d: %+v", i, res)
		}
		lines := strings.Fields(res.Body)
		if len(lines) != 4 {
			t.Fatalf("call %d printed %q", i, res.Body)
		}
		if lines[0] != strconv.FormatUint(want, 10) || lines[1] != "400" || lines[2] != strconv.Itoa(len(p)) {
			t.Errorf("call %d: P.md is %q, want a link of inode %d, mode 400, %d bytes", i, lines[:3], want, len(p))
		}
		if lines[3] != strconv.Itoa(len(parts[0])+len(p)+len(parts[2])) {
			t.Errorf("call %d: stdin had %s bytes, want the whole prompt", i, lines[3])
		}
	}
	remove()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the P file outlived its removal: %v", err)
	}
}
