package bugfolder

import (
	"fmt"
	"os"

	"github.com/reversa/moot/internal/safefs"
)

// Permissions of everything moot writes: owner-only.
const (
	FilePerm os.FileMode = 0o600
	DirPerm  os.FileMode = 0o700
)

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
