package bugfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
	"golang.org/x/sys/unix"
)

// LockFile is the name of the writer lock inside a debate folder.
const LockFile = ".moot.lock"

// LockInfo names a lock's holder.
type LockInfo struct {
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	StartedAt time.Time `json:"started_at"`
	Command   string    `json:"command,omitempty"`
}

func (i LockInfo) String() string {
	return fmt.Sprintf("moot pid %d on %s since %s", i.PID, termsafe.Line(i.Host), i.StartedAt.Format(time.RFC3339))
}

// Alive reports whether the holder's process still runs (only knowable on
// the same host; another host's holder is assumed alive).
func (i LockInfo) Alive() bool {
	h, _ := os.Hostname()
	if i.Host != "" && i.Host != h {
		return true
	}
	if i.PID <= 0 {
		return false
	}
	err := syscall.Kill(i.PID, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ErrBusy is returned when another moot process holds a debate's lock.
var ErrBusy = errors.New("another moot process is writing this debate")

// Lock is a held writer lock on a debate folder. The kernel releases it if
// the process dies, so a lock left by a crashed moot is taken over; the
// file's content names the holder for people and for that report.
type Lock struct {
	f    *os.File
	path string
	// TookOver names the previous holder when a stale lock was taken over.
	TookOver *LockInfo
}

// AcquireLock takes the writer lock of a debate folder, or fails with
// ErrBusy naming the holder. The folder and its lock file are opened
// beneath the bug folder that holds dir, never through a symlink, and the
// lock must be a regular file with one link (a planted symlink or hard
// link is refused, never truncated).
func AcquireLock(dir, command string) (*Lock, error) {
	root, err := safefs.OpenRoot(filepath.Dir(dir), safefs.NoSymlinks)
	if err != nil {
		return nil, outsideError(dir, err)
	}
	defer root.Close()
	return acquireLock(root, filepath.Base(dir), command)
}

// acquireLock is AcquireLock on the debate folder rel beneath root.
func acquireLock(root *safefs.Root, rel, command string) (*Lock, error) {
	if err := root.MkdirAll(rel, DirPerm); err != nil {
		return nil, outsideError(filepath.Join(root.Name(), rel), err)
	}
	path := filepath.Join(root.Name(), rel, LockFile)
	f, err := lockFile(root, filepath.Join(rel, LockFile), path)
	if err != nil {
		return nil, err
	}
	l := &Lock{f: f, path: path}
	if prev := lockInfoOf(f); prev != nil {
		l.TookOver = prev
	}
	host, _ := os.Hostname()
	info := LockInfo{PID: os.Getpid(), Host: host, StartedAt: time.Now().UTC().Truncate(time.Second), Command: command}
	b, _ := json.Marshal(info)
	// not synced: the kernel's lock, not the file, keeps a second moot
	// out, and a holder the file names after a power cut is dead (an
	// empty or torn file names none, and the lock is taken over as ever)
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(append(b, '\n'), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return l, nil
}

// lockFile opens the lock file beneath root (never through a link; a
// planted symlink, FIFO or hard link is refused) and takes its flock. The
// holder removes the file when it lets go, so a lock taken on a file that
// was removed (or replaced) meanwhile is dropped and taken again on the
// file now there.
func lockFile(root *safefs.Root, rel, path string) (*os.File, error) {
	for range 5 {
		f, err := root.Open(rel, unix.O_CREAT|unix.O_RDWR|unix.O_NONBLOCK, FilePerm)
		if err != nil {
			return nil, outsideError(path, err)
		}
		held, err := safefs.CheckRegular(f)
		if err != nil {
			f.Close()
			return nil, outsideError(path, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			holder := lockInfoOf(f)
			f.Close()
			if !errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			msg := "a moot process"
			if holder != nil {
				msg = holder.String()
			}
			return nil, &InputError{Path: filepath.Dir(path), Msg: fmt.Sprintf("%v: %s holds %s; wait for it to finish or stop it", ErrBusy, msg, LockFile), Err: ErrBusy}
		}
		if now, err := os.Lstat(path); err == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
	return nil, &InputError{Path: filepath.Dir(path), Msg: fmt.Sprintf("%v: %s keeps being replaced; wait for the other moot process to finish", ErrBusy, LockFile), Err: ErrBusy}
}

// Release lets go of the lock and removes the lock file: a debate that no
// process writes carries no lock file (registers are committed to git).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	rmErr := os.Remove(l.path) // removed while held: no one can lock it in between
	err := l.f.Close()         // closing the last descriptor releases the flock
	l.f = nil
	switch {
	case err != nil:
	case rmErr == nil:
		err = syncDir(filepath.Dir(l.path))
	case !errors.Is(rmErr, os.ErrNotExist): // gone already: archived with its folder
		err = fmt.Errorf("remove %s: %w", l.path, rmErr)
	}
	return err
}

// maxLockBytes bounds what moot reads of a lock file: its holder is a few
// dozen bytes of JSON, and a committed lock file can be of any size.
const maxLockBytes = 64 << 10

// ReadLockInfo reads a lock file's holder (at most maxLockBytes, never
// through a link or from a FIFO); nil when the file is empty, absent, too
// large or not a regular file.
func ReadLockInfo(path string) *LockInfo { return readLockInfo(path) }

// readLockInfo reads a lock file's holder; nil when the file is empty,
// absent or not a regular file.
func readLockInfo(path string) *LockInfo {
	b, err := safefs.ReadFile(path, maxLockBytes)
	if err != nil {
		return nil
	}
	return parseLockInfo(b)
}

// lockInfoOf reads the holder from an open lock file.
func lockInfoOf(f *os.File) *LockInfo {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, maxLockBytes))
	if err != nil {
		return nil
	}
	return parseLockInfo(b)
}

func parseLockInfo(b []byte) *LockInfo {
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	var i LockInfo
	if json.Unmarshal(b, &i) != nil {
		return nil
	}
	// the file is the repository's as much as moot's: what it names is
	// printed, so it is read as text that cannot drive a terminal
	i.Host, i.Command = termsafe.Line(i.Host), termsafe.Line(i.Command)
	return &i
}
