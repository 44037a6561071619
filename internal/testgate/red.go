package testgate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/gitcmd"
)

// untouched checks that every test file present at red (by naming
// convention, or named in testFiles) is byte-identical in the candidate's
// worktree.
func untouched(ctx context.Context, repo, red, candDir string, testFiles []string) (envelope.TestCheck, error) {
	c := envelope.TestCheck{Name: Untouched}
	named := map[string]bool{}
	for _, f := range testFiles {
		named[filepath.ToSlash(f)] = true
	}
	tree, err := treeOIDs(ctx, repo, red)
	if err != nil {
		return c, err
	}
	var paths []string
	for p := range tree {
		if envelope.IsTestFile(p) || named[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		c.Detail = "no test file at the red commit " + short(red) + ": commit the failing test first (red first) and name that commit with --red"
		return c, nil
	}
	changed, err := changedFiles(ctx, candDir, paths, tree)
	if err != nil {
		return c, err
	}
	if len(changed) == 0 {
		c.OK, c.Detail = true, fmt.Sprintf("%d test file(s) of the red commit %s unchanged", len(paths), short(red))
		return c, nil
	}
	c.File = changed[0]
	c.Detail = "test file changed since the red commit " + short(red) + ": " + strings.Join(changed, ", ")
	return c, nil
}

// treeOIDs maps each regular file of commit's tree to its object id.
func treeOIDs(ctx context.Context, repo, commit string) (map[string]string, error) {
	out, err := gitcmd.Output(ctx, repo, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, fmt.Errorf("--red %s: list its files: %w", short(commit), err)
	}
	m := map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		meta, p, ok := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			m[p] = f[2]
		}
	}
	return m, nil
}

// changedFiles returns those of paths whose file in dir does not hash to
// its object id in tree (git's own hash, filters applied by path, one git
// call for all); a missing file or one that is not a regular file is
// changed.
func changedFiles(ctx context.Context, dir string, paths []string, tree map[string]string) ([]string, error) {
	var changed, present []string
	for _, p := range paths {
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, os.ErrNotExist):
			changed = append(changed, p)
		case err != nil:
			return nil, fmt.Errorf("test file %s in the candidate: %w", p, err)
		case !info.Mode().IsRegular():
			changed = append(changed, p)
		case strings.ContainsAny(p, "\n\r"):
			// a name --stdin-paths cannot carry: hashed on its own
			out, err := gitcmd.Output(ctx, dir, "hash-object", "--", p)
			if err != nil {
				return nil, fmt.Errorf("hash the candidate's test file %q: %w", p, err)
			}
			if strings.TrimSpace(string(out)) != tree[p] {
				changed = append(changed, p)
			}
		default:
			present = append(present, p)
		}
	}
	if len(present) > 0 {
		out, err := gitcmd.Input(ctx, dir, strings.NewReader(strings.Join(present, "\n")+"\n"), "hash-object", "--stdin-paths")
		if err != nil {
			return nil, fmt.Errorf("hash the candidate's test files: %w", err)
		}
		oids := strings.Fields(string(out))
		for i, p := range present {
			if i >= len(oids) || oids[i] != tree[p] {
				changed = append(changed, p)
			}
		}
	}
	slices.Sort(changed)
	return changed, nil
}

// falseGreen copies the candidate's test files onto a worktree of the red
// commit and runs the suite there: it must fail, for the tests catch the
// defect the change fixes; a pass is a false green.
func (g *gate) falseGreen(ctx context.Context, red, candDir string) (envelope.TestCheck, error) {
	c := envelope.TestCheck{Name: FalseGreen}
	files, err := candidateTests(ctx, candDir, g.o.TestFiles)
	if err != nil {
		return c, err
	}
	if len(files) == 0 {
		c.Detail = "no test file in the candidate to run on the red commit's code"
		return c, nil
	}
	dir, err := g.worktree(ctx, "red", red)
	if err != nil {
		return c, err
	}
	for _, f := range files {
		if err := copyFile(filepath.Join(candDir, filepath.FromSlash(f)), filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return c, fmt.Errorf("false-green check: copy %s onto the red commit: %w", f, err)
		}
	}
	run, err := runCmd(ctx, dir, g.scratch, g.o.Cmd, g.o.Timeout)
	if err != nil {
		return c, err
	}
	c.File = files[0]
	switch {
	case run.passed:
		c.Detail = "false green: the candidate's tests pass on the red commit " + short(red) + "'s code, so they do not catch what the change fixes: " + strings.Join(files, ", ")
	case run.timedOut:
		c.Detail = "the candidate's tests on the red commit's code " + run.describe(g.o.Timeout) + ": a timeout is not a failure, the false-green check cannot tell"
	default:
		c.OK, c.Detail = true, "the candidate's tests "+run.describe(g.o.Timeout)+" on the red commit "+short(red)+"'s code, as they must"
	}
	return c, nil
}

// candidateTests returns the test files to carry onto the red commit:
// testFiles that exist in the candidate, or, when none is named, every
// test file of the candidate by naming convention.
func candidateTests(ctx context.Context, candDir string, testFiles []string) ([]string, error) {
	var out []string
	if len(testFiles) == 0 {
		list, err := gitcmd.Output(ctx, candDir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		if err != nil {
			return nil, fmt.Errorf("false-green check: list the candidate's files: %w", err)
		}
		for _, p := range strings.Split(string(list), "\x00") {
			if p != "" && envelope.IsTestFile(p) {
				testFiles = append(testFiles, p)
			}
		}
	}
	for _, f := range testFiles {
		f = filepath.ToSlash(filepath.Clean(f))
		if f == "." || filepath.IsAbs(f) || f == ".." || strings.HasPrefix(f, "../") {
			return nil, fmt.Errorf("false-green check: test file %s is not inside the project", f)
		}
		if info, err := os.Lstat(filepath.Join(candDir, filepath.FromSlash(f))); err == nil && info.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// copyWorkingTree brings the user's uncommitted state into a worktree of
// HEAD: each file changed against HEAD (staged or not) or untracked (not
// ignored) is copied, each deleted one removed. The user's checkout is
// only read.
func copyWorkingTree(ctx context.Context, repo, dir string) error {
	changed, err := gitcmd.Output(ctx, repo, "diff", "--name-only", "--no-renames", "-z", "HEAD", "--")
	if err != nil {
		return fmt.Errorf("--test-cmd: list the working tree's changes: %w", err)
	}
	untracked, err := gitcmd.Output(ctx, repo, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return fmt.Errorf("--test-cmd: list the working tree's new files: %w", err)
	}
	for _, p := range strings.Split(string(changed)+string(untracked), "\x00") {
		if p == "" {
			continue
		}
		src, dst := filepath.Join(repo, filepath.FromSlash(p)), filepath.Join(dir, filepath.FromSlash(p))
		info, err := os.Lstat(src)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("--test-cmd: remove %s from the candidate's worktree: %w", p, err)
			}
			continue
		case err != nil:
			return fmt.Errorf("--test-cmd: %w", err)
		case info.Mode()&os.ModeSymlink != 0:
			err = copyLink(src, dst)
		case info.Mode().IsRegular():
			err = copyFile(src, dst)
		default:
			continue // a submodule or a special file: left as at HEAD
		}
		if err != nil {
			return fmt.Errorf("--test-cmd: copy %s into the candidate's worktree: %w", p, err)
		}
	}
	return nil
}

// copyFile copies a regular file with its permission bits, creating
// dst's folders; a file already at dst is replaced.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	_ = os.Remove(dst)
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyLink recreates a symbolic link (its target as written, not followed).
func copyLink(src, dst string) error {
	target, err := os.Readlink(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	_ = os.Remove(dst)
	return os.Symlink(target, dst)
}
