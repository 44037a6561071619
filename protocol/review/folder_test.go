package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The output folder is owned before it is written: the stamp comes
// first; a folder of a review's shape without it is refused, its files
// named and kept; one with only foreign files ran no risk and is used.
func TestFolderStamp(t *testing.T) {
	parent := t.TempDir()
	f, err := NewFolder(parent, fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(f.Dir, StampFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stamp: %v %v", fi, err)
	}
	if g, err := NewFolder(parent, fixedTime); err != nil || g.ID != f.ID+"-2" {
		t.Fatalf("a second review in the same second: %v %v", g, err)
	}

	foreign := filepath.Join(parent, "foreign")
	os.MkdirAll(foreign, 0o700)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o600)
	if _, err := OpenFolder(foreign); err != nil {
		t.Errorf("a folder with only foreign files: %v", err)
	}

	shaped := filepath.Join(parent, "20261201-070000-3")
	os.MkdirAll(filepath.Join(shaped, "round-1"), 0o700)
	os.WriteFile(filepath.Join(shaped, "summary.md"), []byte("theirs"), 0o600)
	_, err = OpenFolder(shaped)
	var ue *UnstampedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "round-1, summary.md") || !strings.Contains(err.Error(), "nothing was deleted") {
		t.Fatalf("an unstamped review folder: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(shaped, "summary.md")); string(b) != "theirs" {
		t.Error("its file was touched")
	}
	if _, err := os.Stat(filepath.Join(shaped, StampFile)); err == nil {
		t.Error("it was stamped")
	}
	if _, err := NewFolder(parent, fixedTime); !errors.As(err, &ue) {
		t.Errorf("NewFolder over an unstamped review folder's name: %v", err)
	}
}

// Nothing is created through a symbolic link: a linked .moot/reviews (or
// .moot, or a bug's review/) is refused naming the review folder, and the
// link's target stays empty.
func TestFolderNeverWritesThroughALink(t *testing.T) {
	for _, linked := range []string{filepath.Join(".moot", "reviews"), ".moot", BugReviewDir} {
		root, target := t.TempDir(), t.TempDir()
		link := filepath.Join(root, linked)
		os.MkdirAll(filepath.Dir(link), 0o700)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		parent := filepath.Join(root, ReviewsDir)
		if linked == BugReviewDir {
			parent = filepath.Join(root, BugReviewDir)
		}
		_, err := NewFolder(parent, fixedTime)
		var le *LinkError
		if !errors.As(err, &le) || strings.Contains(err.Error(), "_reversa_bugs") {
			t.Errorf("%s linked: %v, want a LinkError naming no bug register", linked, err)
		}
		if ents, _ := os.ReadDir(target); len(ents) != 0 {
			t.Errorf("%s linked: %d entries were created through the link", linked, len(ents))
		}
	}
}

// A stamp moot did not write (garbage, another review's ID) is refused
// like a missing one, and nothing is deleted.
func TestFolderStampContentIsChecked(t *testing.T) {
	for _, body := range []string{"garbage\n", `{"owner":"moot review","id":"20200101-000000"}`, ""} {
		dir := filepath.Join(t.TempDir(), "20261201-070000")
		os.MkdirAll(dir, 0o700)
		os.WriteFile(filepath.Join(dir, StampFile), []byte(body), 0o600)
		os.WriteFile(filepath.Join(dir, "summary.md"), []byte("theirs"), 0o600)
		_, err := OpenFolder(dir)
		var ue *UnstampedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "nothing was deleted") {
			t.Errorf("stamp %q: %v, want it refused", body, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, StampFile)); string(b) != body {
			t.Errorf("stamp %q was rewritten: %q", body, b)
		}
	}
	f, err := NewFolder(t.TempDir(), fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFolder(f.Dir); err != nil {
		t.Errorf("moot's own stamp: %v", err)
	}
	if err := f.FreshRound(1); err != nil {
		t.Errorf("round 1 of a new folder: %v", err)
	}
	os.MkdirAll(filepath.Join(f.Dir, RoundDir(1)), 0o700)
	if err := f.FreshRound(1); err == nil {
		t.Error("a round folder moot did not create was accepted")
	}
}

// FuzzReadSealed: whatever a stamp and a record hold, a folder whose
// stamp moot did not seal never yields the record (and nothing panics).
func FuzzReadSealed(f *testing.F) {
	f.Add([]byte(`{"owner":"moot review","id":"20260101-000000","created":"x","files":{"review.json":"00"},"mac":"00"}`), []byte(`{"status":"pass"}`))
	f.Add([]byte("garbage"), []byte(""))
	f.Fuzz(func(t *testing.T, stamp, rec []byte) {
		dir := filepath.Join(t.TempDir(), "20260101-000000")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, StampFile), stamp, 0o600)
		os.WriteFile(filepath.Join(dir, StateFile), rec, 0o600)
		if st, err := ReadState(dir); err == nil {
			t.Fatalf("a record under a stamp moot did not seal was read: %+v", st)
		}
	})
}
