package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// TempMarker is in the name of every temp file an atomic write leaves
// behind when its process is killed; SweepTemps removes them.
const TempMarker = ".moot-tmp-"

// PendingFile is a file being written beneath a root that appears at its
// name only when committed (temp file, fsync, rename in the same folder,
// all by file descriptor).
type PendingFile struct {
	*os.File
	dir  *os.File
	tmp  string
	name string
	path string
	done bool
}

// Create starts a PendingFile at rel (owner-only perm), creating its
// folder beneath the root with dirPerm when missing.
func (r *Root) Create(rel string, perm, dirPerm os.FileMode) (*PendingFile, error) {
	c, err := clean(rel)
	if err != nil {
		return nil, err
	}
	dir, err := r.openDir(filepath.Dir(c), dirPerm)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(c)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + base + TempMarker + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(int(dir.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		dir.Close()
		return nil, fmt.Errorf("create %s: %w", filepath.Join(dir.Name(), tmp), err)
	}
	path := filepath.Join(r.f.Name(), c)
	f := os.NewFile(uintptr(fd), path)
	// the umask may have narrowed it; never wider than perm either
	if err := f.Chmod(perm.Perm()); err != nil {
		f.Close()
		_ = unix.Unlinkat(int(dir.Fd()), tmp, 0)
		dir.Close()
		return nil, fmt.Errorf("chmod %s: %w", path, err)
	}
	return &PendingFile{File: f, dir: dir, tmp: tmp, name: base, path: path}, nil
}

// Commit fsyncs the file and renames it over its name; with durable, the
// folder is fsynced too so the rename survives a power loss.
func (p *PendingFile) Commit(durable bool) error { return p.commit(true, durable) }

// commit renames the file over its name, after its fsync when sync is
// set, and fsyncs the folder when durable is.
func (p *PendingFile) commit(sync, durable bool) error {
	if p.done {
		return fmt.Errorf("write %s: already committed", p.path)
	}
	p.done = true
	defer p.dir.Close()
	var err error
	if sync {
		err = p.File.Sync()
	}
	if cerr := p.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(int(p.dir.Fd()), p.tmp, int(p.dir.Fd()), p.name)
	}
	if err != nil {
		_ = unix.Unlinkat(int(p.dir.Fd()), p.tmp, 0)
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	if durable {
		if err := p.dir.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", p.dir.Name(), err)
		}
	}
	return nil
}

// Dir is the folder the file is committed into.
func (p *PendingFile) Dir() string { return p.dir.Name() }

// Discard drops the pending file (a no-op after Commit).
func (p *PendingFile) Discard() {
	if p.done {
		return
	}
	p.done = true
	p.File.Close()
	_ = unix.Unlinkat(int(p.dir.Fd()), p.tmp, 0)
	p.dir.Close()
}

// WriteFile writes data to rel atomically (see Create and Commit).
func (r *Root) WriteFile(rel string, data []byte, perm, dirPerm os.FileMode, durable bool) error {
	return r.write(rel, data, perm, dirPerm, true, durable)
}

// ReplaceFile replaces rel with data atomically for readers (temp file,
// rename) but syncs nothing: for a file that only shows a run's progress
// and may be lost in a crash, never for one a debate is made of.
func (r *Root) ReplaceFile(rel string, data []byte, perm, dirPerm os.FileMode) error {
	return r.write(rel, data, perm, dirPerm, false, false)
}

// write writes data to rel atomically; sync and durable as commit has them.
func (r *Root) write(rel string, data []byte, perm, dirPerm os.FileMode, sync, durable bool) error {
	p, err := r.Create(rel, perm, dirPerm)
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		p.Discard()
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	return p.commit(sync, durable)
}

// SweepTemps removes, under rel beneath the root (recursively, never
// through a symlink), the temp files that atomic writes of a killed process
// left; it returns how many it removed.
func (r *Root) SweepTemps(rel string) (int, error) {
	d, err := r.Open(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", d.Name(), err)
	}
	n := 0
	for _, e := range ents {
		switch {
		case e.Type().IsDir():
			k, err := r.SweepTemps(filepath.Join(rel, e.Name()))
			n += k
			if err != nil {
				return n, err
			}
		case e.Type().IsRegular() && strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), TempMarker):
			if err := unix.Unlinkat(int(d.Fd()), e.Name(), 0); err != nil && !errors.Is(err, unix.ENOENT) {
				return n, fmt.Errorf("remove %s: %w", filepath.Join(d.Name(), e.Name()), err)
			}
			n++
		}
	}
	return n, nil
}
