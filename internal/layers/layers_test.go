package layers

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/reversa/moot"

// deps returns every package of the module that pkg imports, directly or
// not (test files left out), as paths relative to the module.
func deps(t *testing.T, root, pkg string) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(rel string)
	walk = func(rel string) {
		p, err := build.ImportDir(filepath.Join(root, rel), 0)
		if err != nil {
			t.Fatalf("read package %s: %v", rel, err)
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok || seen[dep] {
				continue
			}
			seen[dep] = true
			walk(dep)
		}
	}
	walk(pkg)
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// repoRoot is the repository's top folder: go test runs these tests in
// internal/layers. (Not the runtime's idea of this file's path: under
// -trimpath, as scripts/test builds, that is a module path.)
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// TestImportsRunOneWay fails when a package imports (even through
// another) one it must not know: the harness a bug folder, the bug folder
// an engine, the engine a protocol or a front end, the TUI a protocol.
func TestImportsRunOneWay(t *testing.T) {
	root := repoRoot(t)
	cases := []struct {
		pkg    string
		forbid []string
	}{
		{"harness", []string{"bugfolder", "engine", "protocol", "tui", "cli"}},
		{"bugfolder", []string{"harness", "engine", "protocol", "tui", "cli"}},
		{"bugfolder/envelope", []string{"harness", "engine", "protocol", "tui", "cli"}},
		{"internal/testgate", []string{"harness", "engine", "protocol", "tui", "cli"}},
		{"internal/seal", []string{"harness", "bugfolder", "engine", "protocol", "tui", "cli"}},
		{"engine", []string{"protocol", "tui", "cli"}},
		{"protocol/debate", []string{"tui", "cli"}},
		{"protocol/council", []string{"tui", "cli"}},
		{"protocol/tradeoff", []string{"tui", "cli"}},
		{"protocol/argue", []string{"tui", "cli"}},
		// a review's budget menu reaches it through engine.BudgetAsker, never the UI
		{"protocol/review", []string{"tui", "cli"}},
		// protocols describe themselves to the TUI through the engine's
		// types (engine.Inputs, engine.Scorer, engine.RecordKeeper)
		{"tui", []string{"cli", "protocol"}},
		// the MCP server runs moot's own commands: it knows no engine,
		// protocol or front end, only the files it reads back
		{"mcpserver", []string{"harness", "engine", "protocol", "tui", "cli"}},
		// the collector's switch during initialisation imports nothing of
		// moot's, so that nothing of moot's initialises before it
		{"internal/initgc", []string{"harness", "bugfolder", "engine", "protocol", "tui", "cli", "mcpserver", "internal"}},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			for _, d := range deps(t, root, c.pkg) {
				for _, f := range c.forbid {
					if d == f || strings.HasPrefix(d, f+"/") {
						t.Errorf("%s imports %s (through its dependencies or directly): %s must not know %s", c.pkg, d, c.pkg, f)
					}
				}
			}
		})
	}
}

// TestProtocolsNeverImportTheHarness fails when a package under protocol/
// imports harness itself: the engine owns the calls (its call path,
// limits, budget and events: engine.Dispatcher for a protocol that walks
// its own calls, like review), so a protocol reaches an engine only
// through it.
func TestProtocolsNeverImportTheHarness(t *testing.T) {
	root := repoRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "protocol", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no protocol packages under %s: %v", root, err)
	}
	for _, dir := range dirs {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			continue // not a package
		}
		rel, _ := filepath.Rel(root, dir)
		for _, imp := range p.Imports {
			if imp == module+"/harness" || strings.HasPrefix(imp, module+"/harness/") {
				t.Errorf("%s imports %s directly: a protocol calls engines through the engine (engine.Dispatcher), never the harness", rel, imp)
			}
		}
	}
}

// TestGitRunsOnlyThroughGitcmd fails when a package starts git itself:
// every git call goes through internal/gitcmd, which neutralises the
// repository's configuration (hooks, signature programs, filters,
// fsmonitor, external diff). Test helpers may run git to build fixtures.
func TestGitRunsOnlyThroughGitcmd(t *testing.T) {
	root := repoRoot(t)
	gitExec := regexp.MustCompile(`exec\.Command(Context)?\([^)]*"git"`)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (rel == filepath.Join("internal", "gitcmd") || rel == filepath.Join("internal", "testutil") || strings.HasPrefix(d.Name(), ".")) && rel != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if gitExec.Match(src) {
			t.Errorf("%s runs git itself: call internal/gitcmd, which neutralises the repository's configuration", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
