package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSweepStale: the folders of a moot that was killed are removed by the
// next one; those of a running moot, and unrelated folders, are kept.
func TestSweepStale(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(p, "work"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk("moot-codex-" + strconv.Itoa(dead.Process.Pid) + "-123")
	alive := mk("moot-call-" + strconv.Itoa(os.Getppid()) + "-456")
	other := mk("moot-notes")
	sweepStale()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Error("the folder of a dead moot was kept")
	}
	for _, p := range []string{alive, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}
