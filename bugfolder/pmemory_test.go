package bugfolder_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// allocated is how many bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A large P is held and copied as few times as the work needs, whatever
// the debate: assembling it reads the files once and builds P once (its
// parts are P's own bytes, not a second copy beside it), problema.md is
// written from its pieces without joining P into them, and reading the
// debate back holds the file once. Each step fails if a copy of P creeps
// back in (the heap profile of a 24 MB P once showed fourteen).
func TestLargePHeldOnce(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	line := "a line of a large evidence log, nothing secret in it\n"
	big := strings.Repeat(line, (4<<20)/len(line))
	if err := os.WriteFile(filepath.Join(proj, a7k3, "evidence", "big.log"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	_, b, err := bugfolder.Resolve(proj, "7")
	if err != nil {
		t.Fatal(err)
	}
	var p *bugfolder.Problem
	var doc *bugfolder.ProblemDoc
	var d *bugfolder.Debate
	w, err := bugfolder.OpenWriter(b.Dir, b.DebateFolder(), bugfolder.PT, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	steps := []struct {
		name string
		run  func() error
		max  float64 // bytes allocated, in |P|
	}{
		{"assemble P: the files read, then P", func() (err error) { p, err = bugfolder.AssembleP(b); return err }, 2.5},
		{"render problema.md", func() (err error) {
			doc, err = bugfolder.RenderProblem(bugfolder.PT, bugfolder.ProblemMeta{ProtocolVersion: 1, N: 2, R: 1}, []string{"c"}, p.Text)
			return err
		}, 0.2},
		{"write problema.md", func() error { _, err := w.WriteProblem(doc); return err }, 0.2},
		{"read the debate back", func() (err error) { d, err = bugfolder.ReadDebate(b.DebateFolder(), bugfolder.PT); return err }, 1.2},
	}
	for _, s := range steps {
		var err error
		n := allocated(func() { err = s.run() })
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		t.Logf("%s: %.2f×|P|", s.name, float64(n)/float64(len(big)))
		if got := float64(n) / float64(len(big)); got > s.max {
			t.Errorf("%s allocated %.2f×|P|, want ≤ %.1f: P is copied more than it needs", s.name, got, s.max)
		}
	}
	text := unsafe.StringData(p.Text)
	for _, part := range p.Parts {
		if part.Binary || part.Text == "" {
			continue
		}
		at := uintptr(unsafe.Pointer(unsafe.StringData(part.Text))) - uintptr(unsafe.Pointer(text))
		if at > uintptr(len(p.Text)) || !strings.Contains(p.Text, part.Text) {
			t.Errorf("part %s holds its own copy of its text, not P's bytes", part.Path)
		}
	}
	if d.Problem == nil || d.Problem.P != p.Text {
		t.Fatalf("problema.md's P does not read back as written")
	}
}
