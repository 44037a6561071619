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
	marked := func(name string) string {
		p := mk(name)
		if err := os.WriteFile(filepath.Join(p, scratchMark), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := marked("moot-codex-" + strconv.Itoa(dead.Process.Pid) + "-123")
	alive := marked("moot-call-" + strconv.Itoa(os.Getppid()) + "-456")
	other := mk("moot-notes")
	// named like a scratch folder of a dead process, but not moot's: a
	// benchmark's register, a user's own folder (this deleted both)
	lookalike := mk("moot-bench-" + strconv.Itoa(dead.Process.Pid) + "-hand")
	unmarked := mk("moot-call-" + strconv.Itoa(dead.Process.Pid) + "-789")
	sweepStale()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Error("the folder of a dead moot was kept")
	}
	for _, p := range []string{alive, other, lookalike, unmarked} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

// TestAScratchFolderRemovedLaterIsGoneOnceMootWaits: a command call's
// folder is removed after the call, in the background; moot waits for
// those removals before it exits (cli.Main), and none is left then.
func TestAScratchFolderRemovedLaterIsGoneOnceMootWaits(t *testing.T) {
	dir, err := newScratch("call")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "P.md"), []byte("P"), 0o400); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("the folder holds %d entries, want P.md and the mark", len(ents))
	}
	removeLater(dir)
	WaitRemovals()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the scratch folder outlived WaitRemovals: %v", err)
	}
}
