package gitcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// hostileRepo is a repository whose .git/config names a program for every
// hook git offers a configuration: signatures, fsmonitor, filters,
// external diff and textconv, a pager; each program appends its name to
// the returned log.
func hostileRepo(t *testing.T) (dir, log string) {
	t.Helper()
	dir = testutil.GitInit(t)
	log = filepath.Join(t.TempDir(), "ran.log")
	prog := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		script := fmt.Sprintf("#!/bin/sh\necho %s >> %s\ncat\n", name, log)
		if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	testutil.WriteFiles(t, dir, map[string]string{"calc.go": "package calc\n", ".gitattributes": "*.go filter=evil diff=evil\n"})
	testutil.Git(t, dir, "add", "-A")
	testutil.Git(t, dir, "commit", "-qm", "one")
	// a commit carrying a signature header: log.showSignature verifies it
	tree := testutil.Git(t, dir, "rev-parse", "HEAD^{tree}")
	parent := testutil.Git(t, dir, "rev-parse", "HEAD")
	raw := fmt.Sprintf("tree %s\nparent %s\nauthor A <a@b.c> 1700000000 +0000\ncommitter A <a@b.c> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\ndoc\n", tree, parent)
	f := filepath.Join(t.TempDir(), "commit")
	if err := os.WriteFile(f, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	signed := testutil.Git(t, dir, "hash-object", "-t", "commit", "-w", f)
	testutil.Git(t, dir, "update-ref", "HEAD", signed)
	for k, v := range map[string]string{
		"log.showSignature":  "true",
		"gpg.program":        prog("gpg"),
		"core.fsmonitor":     prog("fsmonitor"),
		"filter.evil.clean":  prog("clean"),
		"filter.evil.smudge": prog("smudge"),
		"diff.evil.textconv": prog("textconv"),
		"diff.evil.command":  prog("diffcmd"),
		"diff.external":      prog("extdiff"),
		"core.pager":         prog("pager"),
	} {
		testutil.Git(t, dir, "config", k, v)
	}
	return dir, log
}

// TestGitNeverRunsTheRepositorysPrograms runs every git command moot uses
// in a repository whose configuration names programs: none of them runs.
func TestGitNeverRunsTheRepositorysPrograms(t *testing.T) {
	dir, log := hostileRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n// changed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	wt := filepath.Join(t.TempDir(), "wt")
	calls := [][]string{
		{"log", "--format=%an%x00%ae", "HEAD~1..HEAD", "--"},
		{"log", "-p", "HEAD~1..HEAD"},
		{"show", "HEAD"},
		{"diff", "HEAD~1", "HEAD"},
		{"diff", "--name-only", "-z", "HEAD", "--"},
		{"diff", "HEAD"},
		{"hash-object", "--", "calc.go"},
		{"ls-files", "-z", "--cached", "--others", "--exclude-standard"},
		{"cat-file", "blob", "HEAD:calc.go"},
		{"worktree", "add", "--detach", "--quiet", wt, "HEAD"},
		{"worktree", "remove", "--force", "--force", wt},
	}
	for _, args := range calls {
		if _, err := Output(ctx, dir, args...); err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
	}
	if b, err := os.ReadFile(log); err == nil {
		t.Fatalf("the repository's programs ran during moot's git calls:\n%s", b)
	}
}

// TestGitErrorNamesTheCommandAndFolder keeps git's last line and names
// what failed.
func TestGitErrorNamesTheCommandAndFolder(t *testing.T) {
	dir := testutil.GitInit(t)
	_, err := Output(context.Background(), dir, "rev-parse", "--verify", "no-such-rev")
	if err == nil || !strings.Contains(err.Error(), "git rev-parse in "+dir) {
		t.Fatalf("err = %v, want it to name git rev-parse and %s", err, dir)
	}
}

// TestGitRefusesARedirectedWorkTree: core.worktree would make git read and
// name another folder's files (/etc) as the repository's; moot refuses.
func TestGitRefusesARedirectedWorkTree(t *testing.T) {
	dir := testutil.GitInit(t)
	testutil.WriteFiles(t, dir, map[string]string{"a.txt": "a\n"})
	testutil.Git(t, dir, "add", "-A")
	testutil.Git(t, dir, "commit", "-qm", "one")
	testutil.Git(t, dir, "config", "core.worktree", t.TempDir())
	_, err := Output(context.Background(), dir, "rev-parse", "--show-toplevel")
	if !errors.Is(err, ErrRedirected) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want ErrRedirected naming %s", err, dir)
	}
}
