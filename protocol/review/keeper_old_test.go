package review

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestKeeperReadsAnOldRecordAsItIs: a review folder an older moot wrote
// (testdata/review-old: review.json beside its round, stopped at the
// budget cap) is listed and read for the browser's rows and the review
// view as it is — its status, its round, each lens's seat — and not a
// byte of it is written.
func TestKeeperReadsAnOldRecordAsItIs(t *testing.T) {
	const id = "20261202-093721"
	src := filepath.Join("..", "..", "testdata", "review-old")
	xdg := t.TempDir()
	key, err := os.ReadFile(filepath.Join(src, "seal.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(xdg, "moot"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "moot", "seal.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", xdg) // the key the fixture was sealed with
	parent := t.TempDir()
	dir := filepath.Join(parent, id)
	before := map[string]string{}
	err = filepath.WalkDir(filepath.Join(src, id), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(src, id), p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		before[rel] = string(b)
		return os.WriteFile(filepath.Join(dir, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	states, dirs, errs := List([]string{parent})
	if len(errs) > 0 || len(states) != 1 || dirs[0] != dir || states[0].Status != StatusBudget {
		t.Fatalf("listed %v %v %v, want the old review, budget_cut", states, dirs, errs)
	}
	d, err := Keeper{}.ReadRound(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != StatusBudget || d.Round != 1 || d.Calls != 1 || len(d.Seats) != 2 {
		t.Fatalf("read %+v, want budget_cut, round 1, 1 call, 2 seats", d.Record)
	}
	got := map[string]string{}
	for _, s := range d.Seats {
		got[s.Lens] = s.Status
	}
	if got["bravo"] != "pass" || got["alpha"] != "hold" {
		t.Errorf("seats %v: bravo passed, alpha held at the cap", got)
	}
	for rel, was := range before {
		if b, err := os.ReadFile(filepath.Join(dir, rel)); err != nil || string(b) != was {
			t.Errorf("%s was rewritten by a read", rel)
		}
	}
}
