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
