package layers

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The repository is read by people who have only the repository
// (docs/testing.md, "Naming tests"): these tests keep what they read
// in it.

// outsideCitation is a comment's pointer to a document outside the
// repository (the design notes, the CLI notes, the protocol seeds, the
// shared folder) or to a review's ticket (a finding, an attack, an issue
// by number): a reader of the repository has none of them.
var outsideCitation = regexp.MustCompile(`DESIGN(\.md)?\s*§|DESIGN\.md|(^|[^/])CLI\.md|\.\./shared|/work/shared|(?i:\bseeds?[ -]?0\d\d\b|\bseeds/|\b(finding|attack|issue|ticket)s?[ -]?#?\d+)`)

// upstream marks a comment that cites another project's issue by its
// address (a URL, or "upstream owner/name issue #N"), which a reader can
// follow.
var upstream = regexp.MustCompile(`://|\bupstream\b`)

// ticketName is a ticket, finding, attack or review round's number in a
// test's or a file's name (a finding's number and its part after the word
// Test, an issue's number before a file's name): a name says what the
// test proves instead.
var ticketName = regexp.MustCompile(`(?i)(finding|issue|ticket|attack)[_-]?\d|round\d+(_|fix|review)|^Test.*\d+[a-z]?_\d+`)

// goFiles walks the repository's Go files (hidden folders and testdata
// left out), calling visit with each one's path relative to the root.
func goFiles(t *testing.T, root string, visit func(rel, path string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			visit(rel, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCommentsCiteOnlyTheRepository fails on a Go comment that cites a
// document outside the repository or a ticket by number: comments cite
// docs/… instead.
func TestCommentsCiteOnlyTheRepository(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	fset := token.NewFileSet()
	goFiles(t, root, func(rel, path string) {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if upstream.MatchString(c.Text) {
					continue // another project's tracker, named with its address
				}
				if m := outsideCitation.FindString(c.Text); m != "" {
					t.Errorf("%s:%d: the comment cites %q, which a reader of the repository does not have: cite docs/… or say it in the comment", rel, fset.Position(c.Pos()).Line, m)
				}
			}
		}
	})
}

// TestNamesCarryNoTicketNumbers fails on a test, fuzz target or benchmark,
// or a Go file, named after a ticket, a finding or a review round.
func TestNamesCarryNoTicketNumbers(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	fset := token.NewFileSet()
	goFiles(t, root, func(rel, path string) {
		if m := ticketName.FindString(filepath.Base(rel)); m != "" {
			t.Errorf("%s: the file's name carries %q: name it after what it holds", rel, m)
		}
		if !strings.HasSuffix(rel, "_test.go") {
			return
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !regexp.MustCompile(`^(Test|Fuzz|Benchmark|Example)`).MatchString(fn.Name.Name) {
				continue
			}
			if m := ticketName.FindString(fn.Name.Name); m != "" {
				t.Errorf("%s: %s carries %q: name the test after the behaviour it proves", rel, fn.Name.Name, m)
			}
		}
	})
}

// machinePath is a path that exists only on someone's machine: a home
// folder, the development machine's work tree, or a scratch folder under
// /tmp. /tmp/moot-… is left alone: it is the workspace moot itself makes
// for a vendor CLI, recorded in the CLI transcripts under harness/testdata.
var machinePath = regexp.MustCompile(`/work/|/home/[a-z][a-z0-9_-]*/|/Users/[A-Za-z]|/tmp/[A-Za-z0-9._-]+`)

// TestNoMachinePathInDocsOrTestData fails on a developer's path in the
// README, docs/ or any testdata folder: what a newcomer reads and what the
// tests run on hold no path of the machine they were written on.
func TestNoMachinePathInDocsOrTestData(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	check := func(rel string, src []byte) {
		if bytes.IndexByte(src, 0) >= 0 {
			return // binary
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range machinePath.FindAllString(line, -1) {
				if strings.HasPrefix(m, "/tmp/moot-") {
					continue
				}
				t.Errorf("%s:%d: %q is a path on the machine it was written on", rel, i+1, m)
			}
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && strings.HasPrefix(d.Name(), ".") && !strings.Contains(rel, "testdata") {
				return filepath.SkipDir // .git, .ci: not docs or test data
			}
			if strings.HasSuffix(rel, filepath.Join("testdata", "fuzz")) {
				return filepath.SkipDir // a fuzz corpus is inputs found by the fuzzer
			}
			return nil
		}
		inData := strings.Contains(filepath.ToSlash(rel), "testdata/")
		isDoc := rel == "README.md" || strings.HasPrefix(filepath.ToSlash(rel), "docs/")
		if !inData && !isDoc {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		check(rel, src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocsHoldTheDesign fails when a page the README sends a reader to is
// missing from docs/, or when the README outgrows a user guide (5,000
// words; everything longer goes to docs/).
func TestDocsHoldTheDesign(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, page := range []string{"architecture.md", "engines.md", "security.md", "benchmarks.md", "testing.md",
		"protocols/debate.md", "protocols/council.md", "protocols/tradeoff.md", "protocols/argue.md", "protocols/review.md"} {
		if _, err := os.Stat(filepath.Join(root, "docs", page)); err != nil {
			t.Errorf("docs/%s: %v", page, err)
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(readme))); n > 5000 {
		t.Errorf("README.md has %d words: a user guide keeps to 5,000; move the rest to docs/", n)
	}
}
