//go:build unix

package bugfolder_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// A FIFO in evidence/ was left out of P
// and the plan with no note. It is still never read (opening it would
// block), and P and the plan's warnings name it.
func TestFIFOInEvidenceIsNamedNotSilentlySkipped(t *testing.T) {
	reg, dir := writeBug(t, "id: BUG-20260801-K9P2\ntitle: t\n")
	ev := filepath.Join(dir, "evidence")
	os.MkdirAll(ev, 0o700)
	os.WriteFile(filepath.Join(ev, "log.txt"), []byte("LOG-TEXT\n"), 0o600)
	if err := syscall.Mkfifo(filepath.Join(ev, "pipe"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	b, err := bugfolder.ParseBug(reg, dir, "app")
	if err != nil {
		t.Fatal(err)
	}
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "LOG-TEXT") || !strings.Contains(p.Text, "evidence/pipe`") {
		t.Errorf("P:\n%s", p.Text)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "evidence/pipe") {
		t.Errorf("warnings %v", p.Warnings)
	}
}
