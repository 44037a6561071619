package bugfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

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
	return fmt.Sprintf("moot pid %d on %s since %s", i.PID, i.Host, i.StartedAt.Format(time.RFC3339))
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
// ErrBusy naming the holder.
func AcquireLock(dir, command string) (*Lock, error) {
	if err := MkdirPrivate(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	f, err := lockFile(dir, path)
	if err != nil {
		return nil, err
	}
	l := &Lock{f: f, path: path}
	if prev := readLockInfo(path); prev != nil {
		l.TookOver = prev
	}
	host, _ := os.Hostname()
	info := LockInfo{PID: os.Getpid(), Host: host, StartedAt: time.Now().UTC().Truncate(time.Second), Command: command}
	b, _ := json.Marshal(info)
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(append(b, '\n'), 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return l, nil
}

// lockFile opens the lock file and takes its flock. The holder removes the
// file when it lets go, so a lock taken on a file that was removed (or
// replaced) meanwhile is dropped and taken again on the file now there.
func lockFile(dir, path string) (*os.File, error) {
	for range 5 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, FilePerm)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if !errors.Is(err, unix.EWOULDBLOCK) {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			holder := readLockInfo(path)
			msg := "a moot process"
			if holder != nil {
				msg = holder.String()
			}
			return nil, &InputError{Path: dir, Msg: fmt.Sprintf("%v: %s holds %s; wait for it to finish or stop it", ErrBusy, msg, LockFile), Err: ErrBusy}
		}
		held, err1 := f.Stat()
		now, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
	return nil, &InputError{Path: dir, Msg: fmt.Sprintf("%v: %s keeps being replaced; wait for the other moot process to finish", ErrBusy, LockFile), Err: ErrBusy}
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

// readLockInfo reads a lock file's holder; nil when the file is empty or absent.
func readLockInfo(path string) *LockInfo {
	b, err := os.ReadFile(path)
	if err != nil || len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	var i LockInfo
	if json.Unmarshal(b, &i) != nil {
		return nil
	}
	return &i
}
