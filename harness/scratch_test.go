package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestCallFoldersMadeAheadAreTakenReplacedAndRemoved: the call folders
// made ahead (PrepareScratch) are what calls get — private, marked, in
// the temp folder — each one taken is replaced while the calls run, those
// beyond a smaller count are removed, and none is left once moot waits
// before it exits; one made for another TMPDIR is never handed out.
func TestCallFoldersMadeAheadAreTakenReplacedAndRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer WaitRemovals()
	made := func() []string {
		t.Helper()
		removals.Wait() // the folders being made (or removed) have landed
		spares.mu.Lock()
		defer spares.mu.Unlock()
		return slices.Clone(spares.dirs)
	}
	PrepareScratch(3)
	ahead := made()
	if len(ahead) != 3 {
		t.Fatalf("%d folders made ahead, want 3", len(ahead))
	}
	dir, err := newScratch("call")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ahead, dir) {
		t.Errorf("the call made %s instead of taking one of %v", dir, ahead)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(dir) != tmp {
		t.Errorf("the call's folder %s: %v %v, want an owner-only folder in %s", dir, fi, err, tmp)
	}
	if _, err := os.Stat(filepath.Join(dir, scratchMark)); err != nil {
		t.Errorf("the call's folder has no mark: %v", err)
	}
	if n := len(made()); n != 3 {
		t.Errorf("%d spare folders after a call took one, want it replaced (3)", n)
	}
	PrepareScratch(1)
	if n := len(made()); n != 1 {
		t.Errorf("%d spare folders kept after asking for 1", n)
	}
	other := t.TempDir()
	t.Setenv("TMPDIR", other)
	got, err := newScratch("call")
	if err != nil || filepath.Dir(got) != other {
		t.Errorf("with TMPDIR=%s the call got %s (%v)", other, got, err)
	}
	removeLater(dir)
	removeLater(got)
	WaitRemovals()
	for _, d := range []string{tmp, other} {
		if ents, _ := os.ReadDir(d); len(ents) > 0 {
			t.Errorf("%s holds %d folders once moot waited, want none", d, len(ents))
		}
	}
}
