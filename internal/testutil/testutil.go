// Package testutil holds helpers shared by moot's tests: copying fixture
// trees into temporary folders and fingerprinting trees to prove that a
// command wrote nothing.
package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// RepoRoot returns the repository's top folder: the nearest folder above
// the working directory (go test runs a package's tests in its folder)
// whose go.mod declares moot's module. It does not ask the runtime where
// this file was compiled: under -trimpath (scripts/test builds with it, so
// that clones in different folders share the build cache) that is a
// module path, not a folder.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("cannot locate the repository: %v", err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modfileDeclares(b, module) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("cannot locate the repository: no go.mod of %s above the working directory", module)
		}
		dir = up
	}
}

// module is moot's module path, as go.mod declares it.
const module = "github.com/reversa/moot"

// modfileDeclares reports whether a go.mod's text declares the module.
func modfileDeclares(gomod []byte, path string) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == path {
			return true
		}
	}
	return false
}

// CopyTree copies the fixture folder testdata/<name> into a fresh temporary
// folder and returns the copy's path. Symlinks are copied as symlinks.
func CopyTree(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(RepoRoot(t), "testdata", name)
	dst := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := Copy(src, dst); err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// Copy copies a folder tree.
func Copy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, out)
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		o, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm()|0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
}

// Fingerprint hashes every path, mode and content under dir, so a test can
// prove that nothing was created, changed or removed.
func Fingerprint(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", rel, fi.Mode())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatalf("fingerprint %s: %v", dir, err)
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// ProcessRunning reports whether the process pid still runs (a zombie, dead
// but not yet reaped, does not count).
func ProcessRunning(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
