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
	if files, err := listFiles(reg, ev); err != nil || len(files) != 1 {
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
