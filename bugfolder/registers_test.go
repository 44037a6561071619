package bugfolder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// registerFigures are what moot reads of one public register kept in
// testdata/registers (README.md there names each source and licence).
type registerFigures struct {
	name string
	// folders is how many bug folders hold a bug.md; listed how many
	// moot lists.
	folders, listed int
	// exist counts the anchored spec locators whose file exists; located
	// those that land in P; missing the locators whose file is not in
	// the project.
	exist, located, missing int
	// absent counts the not-found anchors a register's absent.txt lists:
	// checked by hand against the file, they name no section in it (the
	// host wrote a section that does not exist), so they are not counted
	// among the locators whose target exists.
	absent int
	// assumed counts the located anchors on spec files a register's
	// assumed.txt lists: files rebuilt from the headings the bugs cite or
	// their template, not read from the repository.
	assumed int
	// notFetched counts the locators naming a file a register's
	// notfetched.txt lists: it exists in the repository but was not
	// rebuilt, so it is neither missing nor measured.
	notFetched int
	// hostDebates counts debates written by a host agent; winners,
	// verdicts and times how many of them moot reads as the host wrote
	// them (a winner or a synthesis; a spec debate's verdict; a start
	// with the precision the files give, or none).
	hostDebates, winners, verdicts, times int
	// fixed counts the bug folders with fix/ or DONE.md, fixRead those
	// whose fix state moot reads.
	fixed, fixRead int
}

func (f registerFigures) String() string {
	return fmt.Sprintf("| %s | %s | %s | %d | %d | %d | %d | %d | %s | %s |", f.name, ratio(f.listed, f.folders), ratio(f.located, f.exist), f.assumed, f.absent, f.notFetched, f.missing,
		f.hostDebates, readOf(f.winners, f.verdicts, f.times, f.hostDebates), ratio(f.fixRead, f.fixed))
}

// ratio writes "a/b (p %)", or "none" when there is nothing to count: a
// register without a locator has no share of them located.
func ratio(a, b int) string {
	if b == 0 {
		return "none"
	}
	return fmt.Sprintf("%d/%d (%.0f %%)", a, b, 100*float64(a)/float64(b))
}

// readOf writes the winners, verdicts and times read of n host debates,
// or "none" when the register has no host debate.
func readOf(winners, verdicts, times, n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("%d/%d/%d of %d", winners, verdicts, times, n)
}

// measureRegister reads a register as `moot list` and `moot run` do.
func measureRegister(t *testing.T, dir string) registerFigures {
	t.Helper()
	f := registerFigures{name: filepath.Base(dir)}
	absent, assumed, notFetched := listFile(dir, "absent.txt"), listFile(dir, "assumed.txt"), listFile(dir, "notfetched.txt")
	reg, err := bugfolder.FindRoot(dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	bms, _ := filepath.Glob(filepath.Join(reg.Root, "*", "bugs", "*", "bug.md"))
	flat, _ := filepath.Glob(filepath.Join(reg.Root, "bugs", "*", "bug.md")) // the older flat layout
	f.folders = len(bms) + len(flat)
	bugs, errs := bugfolder.Discover(reg)
	for _, e := range errs {
		t.Errorf("%s: %v", f.name, e)
	}
	for _, b := range bugs {
		if b.Incomplete {
			continue
		}
		f.listed++
		if _, err := os.Stat(filepath.Join(b.Dir, "fix")); err == nil || b.Done {
			f.fixed++
			if fs := b.ReadFixState(); fs.Folder || fs.Done {
				f.fixRead++
			}
		}
		p, err := bugfolder.AssembleP(b)
		if err != nil {
			t.Fatalf("%s: P of %s: %v", f.name, b.ID, err)
		}
		for _, part := range p.Parts {
			switch {
			case part.Kind == bugfolder.PartSpec && part.Anchor != "":
				f.exist++
				f.located++
				if assumed[filepath.ToSlash(part.Path)] {
					f.assumed++
				}
			case part.Kind == bugfolder.PartNote && (strings.Contains(part.Text, "não foi encontrada") || strings.Contains(part.Text, "was not found")):
				if absent[notFoundKey(part.Text)] {
					f.absent++
					continue
				}
				f.exist++
				t.Logf("miss: %s %s: %s", f.name, b.ID, part.Text)
			case part.Kind == bugfolder.PartNote && (strings.Contains(part.Text, "não existe no projeto") || strings.Contains(part.Text, "does not exist in the project")):
				if parts := strings.Split(part.Text, "`"); len(parts) > 1 && notFetched[parts[1]] {
					f.notFetched++
					continue
				}
				f.missing++
			}
		}
		ds, err := bugfolder.ReadDebates(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if !d.HandRun() || d.Final == nil {
				continue
			}
			f.hostDebates++
			if d.Final.Winner != "" || d.Final.WinnerSolver != "" || d.Final.Synthesis {
				f.winners++
			} else {
				t.Logf("miss: %s %s: no winner read in %s", f.name, b.ID, d.Final.Path)
			}
			if d.Mode() != bugfolder.Spec || d.Final.RecommendedVerdict != "" {
				f.verdicts++
			} else {
				t.Logf("miss: %s %s: no verdict read in %s", f.name, b.ID, d.Final.Path)
			}
			dated := false
			for _, c := range d.Calls() {
				dated = dated || !c.StartedAt.IsZero()
			}
			if dated && !d.StartedAt().IsZero() || !dated && d.StartedAt().IsZero() && d.ArchiveTime().IsZero() {
				f.times++
			}
		}
	}
	return f
}

// listFile reads a register's list of paths (one a line, # comments).
func listFile(dir, name string) map[string]bool {
	out := map[string]bool{}
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out
}

// notFoundKey is "path#anchor" of a not-found note ("A seção `#x` não foi
// encontrada em `p` …"), as absent.txt lists it.
func notFoundKey(note string) string {
	parts := strings.Split(note, "`")
	if len(parts) < 4 {
		return ""
	}
	return parts[3] + parts[1]
}

// TestPublicRegistersReadAsWritten: on every public register kept as
// test data, moot lists every bug, lands at least 95 % of the locators
// whose file exists in P, reads every host debate's winner, verdict and
// times, and every fixed bug's fix state. Run with -v for the table.
// MOOT_REGISTERS names another folder of registers (one project each)
// to measure instead: scripts/registers DIR, docs/registers.md.
func TestPublicRegistersReadAsWritten(t *testing.T) {
	root := filepath.Join(testutil.RepoRoot(t), "testdata", "registers")
	if dir := os.Getenv("MOOT_REGISTERS"); dir != "" {
		root = dir
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	table := []string{"| register | bugs listed | anchored locators in P (section exists) | of which on files rebuilt unread | anchors naming no section (checked) | locators on files not fetched | locators naming a missing file | host debates | winner/verdict/times read | fix state read |", "|---|---|---|---|---|---|---|---|---|---|"}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		f := measureRegister(t, filepath.Join(root, e.Name()))
		table = append(table, f.String())
		if f.listed != f.folders {
			t.Errorf("%s: %d of %d bugs listed", f.name, f.listed, f.folders)
		}
		if f.exist > 0 && f.located*100 < f.exist*95 {
			t.Errorf("%s: %d of %d locators whose file exists land in P (want ≥ 95 %%)", f.name, f.located, f.exist)
		}
		if f.winners != f.hostDebates || f.verdicts != f.hostDebates || f.times != f.hostDebates {
			t.Errorf("%s: of %d host debates, %d winners, %d verdicts, %d times read", f.name, f.hostDebates, f.winners, f.verdicts, f.times)
		}
		if f.fixRead != f.fixed {
			t.Errorf("%s: fix state of %d of %d fixed bugs read", f.name, f.fixRead, f.fixed)
		}
	}
	t.Log("\n" + strings.Join(table, "\n"))
}
