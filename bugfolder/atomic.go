package bugfolder

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Permissions of everything moot writes: owner-only.
const (
	FilePerm os.FileMode = 0o600
	DirPerm  os.FileMode = 0o700
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
// either the old file or the whole new one: a temp file in the same folder,
// fsync, rename, then fsync of the folder. The file is owner-only.
func WriteFileAtomic(path string, data []byte) error {
	if err := writeFileRenamed(path, data); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeFileRenamed is WriteFileAtomic without the folder's fsync: the file
// is whole or absent after any crash, and present after a process crash;
// a later SyncDirs of its folder makes the rename survive a power loss.
func writeFileRenamed(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := MkdirPrivate(dir); err != nil {
		return err
	}
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithStaticPermissions(FilePerm))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
// only when committed (temp file, fsync, rename).
type AtomicFile struct {
	pf   *renameio.PendingFile
	path string
	n    int64
	// deferred, when set, records the folder to sync later instead of
	// syncing it at Commit.
	deferred func(dir string)
}

// CreateAtomic starts an AtomicFile at path.
func CreateAtomic(path string) (*AtomicFile, error) {
	dir := filepath.Dir(path)
	if err := MkdirPrivate(dir); err != nil {
		return nil, err
	}
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithStaticPermissions(FilePerm))
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &AtomicFile{pf: pf, path: path}, nil
}

// Write appends to the pending file.
func (a *AtomicFile) Write(p []byte) (int, error) {
	n, err := a.pf.Write(p)
	a.n += int64(n)
	return n, err
}

// Len is how many bytes were written so far.
func (a *AtomicFile) Len() int64 { return a.n }

// Commit makes the file appear at its path, durably.
func (a *AtomicFile) Commit() error {
	if err := a.pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if a.deferred != nil {
		a.deferred(filepath.Dir(a.path))
		return nil
	}
	return syncDir(filepath.Dir(a.path))
}

// Discard drops the pending file (no-op after Commit).
func (a *AtomicFile) Discard() { _ = a.pf.Cleanup() }
