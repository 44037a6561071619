package bugfolder

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/reversa/moot/internal/safefs"
)

// Permissions of everything moot writes: owner-only.
const (
	FilePerm = safefs.FilePerm
	DirPerm  = safefs.DirPerm
)

// MkdirPrivate creates dir and any missing parents with owner-only
// permissions (a folder that already exists keeps its own).
func MkdirPrivate(dir string) error {
	if isDir(dir) {
		return nil
	}
	if err := MkdirPrivate(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, DirPerm); err != nil && !os.IsExist(err) {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	// the umask may have narrowed it further; never wider than 0700
	if err := os.Chmod(dir, DirPerm); err != nil {
		return fmt.Errorf("chmod %s: %w", dir, err)
	}
	return nil
}

// WriteFileAtomic writes data to path so that a reader (or a crash) sees
// either the old file or the whole new one: a temp file in the same
// folder, fsync, rename, then fsync of the folder, all by descriptor in
// that folder (a symlink as the folder itself is refused). The file is
// owner-only. The Writer writes a debate's files beneath its bug folder
// instead, never through any symlink.
func WriteFileAtomic(path string, data []byte) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Discard()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// CreateAtomic starts an AtomicFile at path (see WriteFileAtomic).
func CreateAtomic(path string) (*AtomicFile, error) {
	dir := filepath.Dir(path)
	if err := MkdirPrivate(dir); err != nil {
		return nil, err
	}
	root, err := safefs.OpenRoot(dir, safefs.NoSymlinks)
	if err != nil {
		return nil, outsideError(dir, err)
	}
	defer root.Close()
	pf, err := root.Create(filepath.Base(path), FilePerm, DirPerm)
	if err != nil {
		return nil, outsideError(path, err)
	}
	return &AtomicFile{pf: pf}, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// AtomicFile is a file being written in pieces that appears at its path
// only when committed (temp file, fsync, rename), written by file
// descriptor beneath the bug folder.
type AtomicFile struct {
	pf *safefs.PendingFile
	n  int64
	// deferred, when set, records the folder to sync later instead of
	// syncing it at Commit.
	deferred func(dir string)
}

// Write appends to the pending file.
func (a *AtomicFile) Write(p []byte) (int, error) {
	n, err := a.pf.Write(p)
	a.n += int64(n)
	return n, err
}

// WriteString appends s to the pending file without copying it.
func (a *AtomicFile) WriteString(s string) (int, error) {
	n, err := a.pf.WriteString(s)
	a.n += int64(n)
	return n, err
}

// Len is how many bytes were written so far.
func (a *AtomicFile) Len() int64 { return a.n }

// Commit makes the file appear at its path, durably.
func (a *AtomicFile) Commit() error {
	if a.deferred != nil {
		dir := a.pf.Dir()
		if err := a.pf.Commit(false); err != nil {
			return err
		}
		a.deferred(dir)
		return nil
	}
	return a.pf.Commit(true)
}

// Discard drops the pending file (no-op after Commit).
func (a *AtomicFile) Discard() { a.pf.Discard() }
