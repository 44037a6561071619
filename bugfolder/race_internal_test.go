package bugfolder

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/internal/safefs"
)

// TestAttackCheckOpenRace: the symlink check in listFiles and readPart
// is only a courtesy for the message; the open itself is resolved beneath
// the project by the kernel, so a file swapped for a symlink to the outside
// between the check and the open is still refused.
func TestAttackCheckOpenRace(t *testing.T) {
	proj := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("outside the project"), 0o600)
	ev := filepath.Join(proj, "_reversa_bugs", "bugs", "BUG-1", "evidence")
	os.MkdirAll(ev, 0o700)
	f := filepath.Join(ev, "log.txt")
	os.WriteFile(f, []byte("inside"), 0o600)
	reg := &Register{Root: filepath.Join(proj, "_reversa_bugs"), Project: proj}
	// the check passes on the regular file…
	if files, _, _, err := listFiles(reg, ev); err != nil || len(files) != 1 {
		t.Fatalf("listFiles: %v %v", files, err)
	}
	// …then the file is swapped for a symlink out of the project
	os.Remove(f)
	if err := os.Symlink(outside, f); err != nil {
		t.Fatal(err)
	}
	if file, err := openInProject(reg, f); err == nil {
		file.Close()
		t.Fatal("the open followed a symlink out of the project")
	} else if !errors.Is(err, safefs.ErrEscape) {
		t.Errorf("err = %v, want an escape", err)
	}
}

// TestHugeEvidenceHashedOnce: a large binary evidence file is hashed once
// per process, not on every plan: a second read of the same file (same
// inode, size and modification time) takes the remembered digest.
func TestHugeEvidenceHashedOnce(t *testing.T) {
	proj := t.TempDir()
	f := filepath.Join(proj, "core.bin")
	data := make([]byte, 2<<20)
	data[10] = 0 // binary
	os.WriteFile(f, data, 0o600)
	reg := &Register{Root: filepath.Join(proj, "_reversa_bugs"), Project: proj}
	first, err := readPart(reg, f, PartEvidence)
	if err != nil || !first.Binary {
		t.Fatalf("%+v %v", first, err)
	}
	// change the bytes in place, keeping size and modification time: only
	// a re-hash would notice
	fi, _ := os.Stat(f)
	data[20] = 1
	os.WriteFile(f, data, 0o600)
	os.Chtimes(f, fi.ModTime(), fi.ModTime())
	second, err := readPart(reg, f, PartEvidence)
	if err != nil {
		t.Fatal(err)
	}
	if second.SHA256 != first.SHA256 {
		t.Error("the file was hashed again")
	}
}
