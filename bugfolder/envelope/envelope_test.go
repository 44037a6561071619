package envelope

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	tu "github.com/reversa/moot/internal/testutil"
)

var (
	ada  = tu.Person{Name: "Ada Lovelace", Email: "ada@example.org"}
	bob  = tu.Person{Name: "Bob Builder", Email: "bob@ci.example"}
	old  = tu.Person{Name: "Old Timer", Email: "old@example.org"}
	png  = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	calc = "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n"
)

// shape is a file of an envelope without its body: what a juror is told
// about it.
type shape struct {
	Path                string
	Test, Deleted       bool
	Omitted             string
	HasBody             bool
	BodyHasDiffMarkings bool
}

func shapes(e *Envelope) []shape {
	var out []shape
	for _, f := range e.Files {
		out = append(out, shape{f.Path, f.Test, f.Deleted, f.Omitted, f.Body != "",
			strings.Contains(f.Body, "@@ ") || strings.Contains(f.Body, "+++ ")})
	}
	return out
}

// rangeRepo makes a repository with a base commit A, a change B (code
// edited, a file deleted, a binary changed, a file added) and a later
// commit C after it; it returns the repo and A, B.
func rangeRepo(t *testing.T) (repo, a, b string) {
	repo = tu.GitInit(t)
	tu.GitCommit(t, repo, old, "start", map[string]string{"README.md": "# x\n"})
	a = tu.GitCommit(t, repo, old, "base", map[string]string{
		"calc/calc.go":       calc,
		"calc/calc_test.go":  "package calc\n",
		"calc/old.go":        "package calc\n",
		"util/util.py":       "def f(): pass\n",
		"util/test_util.py":  "import util\n",
		"web/app.ts":         "export const x = 1\n",
		"web/app.test.ts":    "test('x', () => {})\n",
		"web/app.spec.js":    "it('x')\n",
		"web/other.ts":       "export const y = 2\n",
		"web/__tests__/x.ts": "unrelated\n",
		"assets/logo.png":    png,
	})
	b = tu.GitCommit(t, repo, ada, "the change", map[string]string{
		"calc/calc.go":    strings.Replace(calc, "a - b", "a + b", 1),
		"calc/old.go":     tu.Deleted,
		"web/app.ts":      "export const x = 2\n",
		"assets/logo.png": png + "\x01",
		"notes/new.txt":   "added\n",
	})
	tu.GitCommit(t, repo, bob, "after the change", map[string]string{"calc/calc.go": "package calc // later\n"})
	return repo, a, b
}

// TestBuildFromRange: the touched files read as at B (not HEAD, not A),
// each with its test files by convention, a deleted file listed without
// a body, a binary named only, untouched files left out, no diff.
func TestBuildFromRange(t *testing.T) {
	repo, a, b := rangeRepo(t)
	e, err := Build(Source{Repo: repo, Change: a + ".." + b, Contract: Contract{"add adds", "Add(2,3) is 5"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []shape{
		{Path: "assets/logo.png", Omitted: "binary"},
		{Path: "calc/calc.go", HasBody: true},
		{Path: "calc/calc_test.go", Test: true, HasBody: true},
		{Path: "calc/old.go", Deleted: true},
		{Path: "notes/new.txt", HasBody: true},
		{Path: "web/app.spec.js", Test: true, HasBody: true},
		{Path: "web/app.test.ts", Test: true, HasBody: true},
		{Path: "web/app.ts", HasBody: true},
	}
	if got := shapes(e); !slices.Equal(got, want) {
		t.Fatalf("files:\n got %+v\nwant %+v", got, want)
	}
	if body := e.Files[1].Body; body != strings.Replace(calc, "a - b", "a + b", 1) {
		t.Errorf("calc.go is not read whole as at B:\n%s", body)
	}
	if e.Contract.Intent != "add adds" {
		t.Errorf("contract %+v", e.Contract)
	}
}

// TestBuildRangeAtHeadReadsDisk: a range ending at HEAD reads the files
// on disk, uncommitted edits included (the current files); one deleted
// on disk is listed as deleted.
func TestBuildRangeAtHeadReadsDisk(t *testing.T) {
	repo := tu.GitInit(t)
	a := tu.GitCommit(t, repo, old, "base", map[string]string{"app.py": "x = 1\n", "lib.py": "y = 1\n", "tests/test_app.py": "t\n"})
	tu.GitCommit(t, repo, ada, "change", map[string]string{"app.py": "x = 2\n", "lib.py": "y = 2\n"})
	tu.WriteFiles(t, repo, map[string]string{"app.py": "x = 3 # on disk\n", "lib.py": tu.Deleted})
	e, err := Build(Source{Repo: repo, Change: a + "..HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	want := []shape{{Path: "app.py", HasBody: true}, {Path: "lib.py", Deleted: true}, {Path: "tests/test_app.py", Test: true, HasBody: true}}
	if got := shapes(e); !slices.Equal(got, want) {
		t.Fatalf("files:\n got %+v\nwant %+v", got, want)
	}
	if e.Files[0].Body != "x = 3 # on disk\n" {
		t.Errorf("app.py not read from disk: %q", e.Files[0].Body)
	}
	// from a folder of the repository, the same files
	if e3, err := Build(Source{Repo: filepath.Join(repo, "tests"), Change: a + "..HEAD"}); err != nil || !slices.Equal(shapes(e3), want) {
		t.Errorf("from tests/: %v %+v", err, shapes(e3))
	}
	// "A.." is A..HEAD, as for git
	e2, err := Build(Source{Repo: repo, Change: a + ".."})
	if err != nil || !slices.Equal(shapes(e2), want) {
		t.Errorf("A.. differs from A..HEAD: %v %+v", err, shapes(e2))
	}
}

// TestBuildFromFiles: --files, relative or absolute, in a folder that is
// not a git repository; duplicates once; Python tests found in a tests/
// folder beside the file's folder; a symbolic link named, not followed; a
// hard link (its other name may be outside the project) named, not read.
func TestBuildFromFiles(t *testing.T) {
	root := t.TempDir()
	tu.WriteFiles(t, root, map[string]string{
		"src/calc.py":            "def add(a, b): return a + b\n",
		"src/calc_test.py":       "beside\n",
		"tests/test_calc.py":     "in tests/\n",
		"src/unrelated.py":       "no\n",
		"secret/key":             "PRIVATE\n",
		"src/component.jsx":      "<div/>\n",
		"src/component.spec.tsx": "spec\n",
	})
	if err := os.Symlink(filepath.Join(root, "secret/key"), filepath.Join(root, "src/link.py")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	tu.WriteFiles(t, filepath.Dir(outside), map[string]string{"id_ed25519": "OUTSIDE\n"})
	if err := os.Link(outside, filepath.Join(root, "src/hard.py")); err != nil {
		t.Fatal(err)
	}
	e, err := Build(Source{Repo: root, Files: []string{"src/calc.py", filepath.Join(root, "src/calc.py"), "src/component.jsx", "src/link.py", "src/hard.py"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []shape{
		{Path: "src/calc.py", HasBody: true},
		{Path: "src/calc_test.py", Test: true, HasBody: true},
		{Path: "src/component.jsx", HasBody: true},
		{Path: "src/component.spec.tsx", Test: true, HasBody: true},
		{Path: "src/hard.py", Omitted: "hard link"},
		{Path: "src/link.py", Omitted: "symbolic link"},
		{Path: "tests/test_calc.py", Test: true, HasBody: true},
	}
	if got := shapes(e); !slices.Equal(got, want) {
		t.Fatalf("files:\n got %+v\nwant %+v", got, want)
	}
	if r := e.Render(); strings.Contains(r, "PRIVATE") || strings.Contains(r, "OUTSIDE") {
		t.Error("a link was followed into the envelope")
	}
}

// TestBuildErrors: each error names the flag, path or range and says
// what to do.
func TestBuildErrors(t *testing.T) {
	repo, a, b := rangeRepo(t)
	many := t.TempDir()
	var names []string
	for i := range MaxFiles + 1 {
		n := filepath.Join("f", strconv.Itoa(i)+".txt")
		names = append(names, n)
		tu.WriteFiles(t, many, map[string]string{filepath.ToSlash(n): "x\n"})
	}
	big := t.TempDir()
	tu.WriteFiles(t, big, map[string]string{"big.txt": strings.Repeat("a", MaxBytes+1), "half1.txt": strings.Repeat("a", MaxBytes/2+1), "half2.txt": strings.Repeat("a", MaxBytes/2+1)})
	bigRepo := tu.GitInit(t)
	bigA := tu.GitCommit(t, bigRepo, old, "a", map[string]string{"x": "x\n"})
	bigB := tu.GitCommit(t, bigRepo, old, "b", map[string]string{"big.txt": strings.Repeat("a", MaxBytes+1)})
	tu.GitCommit(t, bigRepo, old, "c", map[string]string{"x": "y\n"})
	cases := []struct {
		name string
		src  Source
		want []string
	}{
		{"unresolvable range", Source{Repo: repo, Change: a + "..nope"}, []string{`"nope"`, repo, "git log"}},
		{"not a range", Source{Repo: repo, Change: b}, []string{"A..B", b}},
		{"three dots", Source{Repo: repo, Change: a + "..." + b}, []string{"A..B"}},
		{"empty range", Source{Repo: repo, Change: b + ".." + b}, []string{"touches no file"}},
		{"both", Source{Repo: repo, Change: a + ".." + b, Files: []string{"x"}}, []string{"--change", "--files", "not both"}},
		{"neither", Source{Repo: repo}, []string{"--change A..B or --files"}},
		{"missing file", Source{Repo: repo, Files: []string{"calc/nope.go"}}, []string{"--files calc/nope.go", "no such file"}},
		{"outside", Source{Repo: repo, Files: []string{"../x.go"}}, []string{"../x.go", "not inside the project root"}},
		{"folder", Source{Repo: repo, Files: []string{"calc"}}, []string{"--files calc", "a folder"}},
		{"too many files", Source{Repo: many, Files: names}, []string{"401 files", "cap of 400", "MaxFiles"}},
		{"a file too big", Source{Repo: big, Files: []string{"big.txt"}}, []string{"big.txt is 4194305 bytes", "cap of 4194304 bytes", "MaxBytes"}},
		{"too many bytes", Source{Repo: big, Files: []string{"half1.txt", "half2.txt"}}, []string{"cap of 4194304 bytes", "MaxBytes", "half2.txt"}},
		{"a file too big at B", Source{Repo: bigRepo, Change: bigA + ".." + bigB}, []string{"big.txt is 4194305 bytes", "MaxBytes"}},
		{"not git", Source{Repo: many, Change: "HEAD~1..HEAD"}, []string{"git cannot resolve", "HEAD~1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Build(c.src)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}

// TestTestCandidates: each language's naming convention (docs/cli.md).
func TestTestCandidates(t *testing.T) {
	cases := []struct {
		file       string
		want, none []string
	}{
		{"pkg/calc.go", []string{"pkg/calc_test.go"}, []string{"pkg/tests/calc_test.go", "pkg/test_calc.go"}},
		{"main.go", []string{"main_test.go"}, nil},
		{"src/util.py", []string{"src/test_util.py", "src/util_test.py", "src/tests/test_util.py", "src/__tests__/util_test.py", "tests/test_util.py"}, []string{"src/util.test.py"}},
		{"util.py", []string{"test_util.py", "util_test.py", "tests/test_util.py"}, nil},
		{"web/app.ts", []string{"web/app.test.ts", "web/app.spec.ts", "web/app.test.tsx", "web/__tests__/app.test.ts", "__tests__/app.spec.js"}, []string{"web/app_test.ts"}},
		{"web/App.jsx", []string{"web/App.test.jsx", "web/App.spec.js"}, nil},
		{"lib/m.mjs", []string{"lib/m.test.mjs"}, nil},
		{"pkg/calc_test.go", nil, []string{"pkg/calc_test_test.go"}},
		{"test_util.py", nil, nil},
		{"web/app.test.ts", nil, nil},
		{"README.md", nil, nil},
		{"Makefile", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got := TestCandidates(c.file)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("lacks %s: %v", w, got)
				}
			}
			for _, n := range c.none {
				if slices.Contains(got, n) {
					t.Errorf("has %s", n)
				}
			}
			if c.want == nil && got != nil {
				t.Errorf("a file with no tests by convention got %v", got)
			}
		})
	}
	isTest := map[string]bool{
		"a_test.go": true, "a.go": false, "test_a.py": true, "a_test.py": true, "a.py": false, "testa.py": false,
		"a.test.ts": true, "a.spec.tsx": true, "a.test.mjs": true, "a.ts": false, "a_test.ts": false, "x/a.spec.js": true, "a_test.md": false,
	}
	for f, want := range isTest {
		if IsTestFile(f) != want {
			t.Errorf("IsTestFile(%s) = %v", f, !want)
		}
	}
}

// TestParseContract: "intent | criteria"; either side empty names the
// flag.
func TestParseContract(t *testing.T) {
	c, err := ParseContract("  Add adds\n two ints | Add(2,3) == 5 | and no overflow ")
	if err != nil || c != (Contract{"Add adds two ints", "Add(2,3) == 5 | and no overflow"}) {
		t.Errorf("got %+v, %v", c, err)
	}
	for _, bad := range []string{"", "no bar", "| criteria", "intent |", " | "} {
		if _, err := ParseContract(bad); err == nil || !strings.Contains(err.Error(), "--contract") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestSeamToTheTestGate: the envelope's test files and the range's ends
// as the test checks want them (the candidate is the working tree when
// the range ends at HEAD, as Build then reads the disk).
func TestSeamToTheTestGate(t *testing.T) {
	repo, a, b := rangeRepo(t)
	e, err := Build(Source{Repo: repo, Change: a + ".." + b})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.TestFiles(), []string{"calc/calc_test.go", "web/app.spec.js", "web/app.test.ts"}; !slices.Equal(got, want) {
		t.Errorf("test files %v, want %v", got, want)
	}
	if base, cand, err := RangeEnds(repo, a+".."+b); err != nil || base != a || cand != b {
		t.Errorf("A..B: %s %s %v", base, cand, err)
	}
	if base, cand, err := RangeEnds(repo, a+"..HEAD"); err != nil || base != a || cand != "" {
		t.Errorf("A..HEAD: %q %q %v", base, cand, err)
	}
	if _, _, err := RangeEnds(repo, "nope..HEAD"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unresolvable: %v", err)
	}
}

// TestBuildKeepsEarlierFiles: a resumed review's files (Also) stay in
// the envelope even when the range no longer touches them, a deleted one
// listed deleted; Committed reads HEAD's tree, not the disk.
func TestBuildKeepsEarlierFiles(t *testing.T) {
	repo := tu.GitInit(t)
	base := tu.GitCommit(t, repo, ada, "base", map[string]string{"calc.go": calc, "gone.go": "package calc\n"})
	tu.GitCommit(t, repo, ada, "fix", map[string]string{"calc.go": "package calc // fixed\n"})
	if err := os.Remove(filepath.Join(repo, "gone.go")); err != nil {
		t.Fatal(err)
	}
	tu.WriteFiles(t, repo, map[string]string{"calc.go": "package calc // on disk\n"})
	e, err := Build(Source{Repo: repo, Change: base + "..HEAD", Also: []string{"./gone.go", "calc.go"}})
	if err != nil {
		t.Fatal(err)
	}
	got := shapes(e)
	want := []shape{{Path: "calc.go", HasBody: true}, {Path: "gone.go", Deleted: true}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(e.Files[0].Body, "on disk") {
		t.Errorf("at HEAD the disk is read: %q", e.Files[0].Body)
	}
	e, err = Build(Source{Repo: repo, Change: base + "..HEAD", Committed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Files[0].Body, "// fixed") {
		t.Errorf("Committed reads HEAD's tree: %q", e.Files[0].Body)
	}
}
