// Package safefs opens, reads and writes files of an untrusted tree (a
// cloned repository's bug register) without ever leaving it: every path is
// resolved by the kernel beneath a folder opened once (openat2 with
// RESOLVE_BENEATH where Linux has it, an O_NOFOLLOW walk otherwise), and
// what was opened is checked with fstat, not by its path. A symlink, FIFO,
// device or multiply-linked file where a regular file is expected is
// refused, and opening a FIFO never blocks.
package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrNotRegular is returned for a FIFO, device, socket, folder or symlink
// where a regular file is expected.
var ErrNotRegular = errors.New("not a regular file")

// ErrLinked is returned for a regular file with more than one hard link.
var ErrLinked = errors.New("has other hard links")

// ErrEscape is returned when a path would leave its root or go through a
// symlink that the caller does not allow.
var ErrEscape = errors.New("leads outside its folder or through a symlink")

// ErrTooLarge is returned when a file is larger than the caller's limit.
var ErrTooLarge = errors.New("too large")

// Mode says how a path beneath a root may be resolved.
type Mode int

const (
	// NoSymlinks refuses every symlink on the way (where moot writes).
	NoSymlinks Mode = iota
	// Beneath follows symlinks that stay beneath the root (where moot
	// reads a project's files).
	Beneath
)

// CheckRegular refuses what f is unless it is a regular file with a
// single link.
func CheckRegular(f *os.File) (fs.FileInfo, error) {
	if _, err := checkFD(int(f.Fd()), f.Name()); err != nil {
		return nil, err
	}
	return f.Stat()
}

// checkFD refuses what fd (named name) is unless it is a regular file
// with a single link, and returns its size.
func checkFD(fd int, name string) (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, fmt.Errorf("stat %s: %w", name, err)
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		return 0, fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, typeName(uint32(st.Mode)))
	}
	if st.Nlink > 1 {
		return 0, fmt.Errorf("%s: %w (%d links)", name, ErrLinked, st.Nlink)
	}
	return st.Size, nil
}

func typeName(m uint32) string {
	switch m & unix.S_IFMT {
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "a device"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFDIR:
		return "a folder"
	case unix.S_IFLNK:
		return "a symlink"
	}
	return "not a regular file"
}

// OpenRegular opens path for reading without following a final symlink and
// without blocking on a FIFO, and refuses anything but a regular file with
// a single link.
func OpenRegular(path string) (*os.File, error) {
	f, _, err := openRegular(path)
	return f, err
}

// openRegular is OpenRegular, also returning the file's size. The checks
// are made on the descriptor before it becomes an *os.File, which then
// starts blocking (no poller registration, no second fstat): a listing
// opens a dozen files per bug folder.
func openRegular(path string) (*os.File, int64, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, 0, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a symlink)", ErrNotRegular)}
		}
		return nil, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	size, err := checkFD(fd, path)
	if err == nil {
		// one F_SETFL, not SetNonblock's get and set: the only status
		// flag opened with is O_NONBLOCK (F_SETFL keeps the access mode)
		if _, err = unix.FcntlInt(uintptr(fd), unix.F_SETFL, 0); err != nil {
			err = fmt.Errorf("open %s: %w", path, err)
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, 0, err
	}
	return os.NewFile(uintptr(fd), path), size, nil
}

// regular checks f is a regular file with one link, and clears
// O_NONBLOCK; it closes f when it is refused.
func regular(f *os.File) (*os.File, error) {
	if _, err := CheckRegular(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := unix.SetNonblock(int(f.Fd()), false); err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", f.Name(), err)
	}
	return f, nil
}

// ReadFileString is ReadFile into a string, read in one allocation of
// the file's size: a large file (problema.md with its P) is held once,
// never as bytes and then as their string copy.
func ReadFileString(path string) (string, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if size > MaxRead {
		return "", fmt.Errorf("%s: %w (%d bytes, the limit is %d)", f.Name(), ErrTooLarge, size, int64(MaxRead))
	}
	var b strings.Builder
	if size > 0 {
		b.Grow(int(size))
	}
	if _, err := io.Copy(&b, io.LimitReader(f, MaxRead+1)); err != nil {
		return "", fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if b.Len() > MaxRead {
		return "", fmt.Errorf("%s: %w (over %d bytes)", f.Name(), ErrTooLarge, int64(MaxRead))
	}
	return b.String(), nil
}

// MaxRead is the largest file moot reads whole: the ceiling of every read
// through this package, whatever limit a caller gives. A committed file
// of 1 GB (git stores such zeros in about 1 MB) is refused with an error
// naming it and its size, never read into memory.
const MaxRead = 64 << 20

// ReadFile reads a regular file (see OpenRegular) of at most max bytes
// (max <= 0, or above MaxRead: MaxRead).
func ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f, size, max)
}

func readAll(f *os.File, max int64) ([]byte, error) {
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	return readSized(f, size, max)
}

// readSized reads f, whose size was size when it was checked, refusing
// more than max bytes (max <= 0, or above MaxRead: MaxRead).
func readSized(f *os.File, size, max int64) ([]byte, error) {
	var r io.Reader = f
	if max <= 0 || max > MaxRead {
		max = MaxRead
	}
	{
		if size > max {
			return nil, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", f.Name(), ErrTooLarge, size, max)
		}
		r = io.LimitReader(f, max+1)
	}
	// one allocation of the file's size (and room to see EOF), not a
	// doubling one: a large file is not held twice while it is read
	var buf bytes.Buffer
	if size > 0 && size < 1<<30 {
		buf.Grow(int(size) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(r)
	b := buf.Bytes()
	if b == nil {
		b = []byte{} // as io.ReadAll: empty, never nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: %w (over %d bytes)", f.Name(), ErrTooLarge, max)
	}
	return b, nil
}

// Root is a folder opened once; every path given to its methods is
// resolved beneath it.
type Root struct {
	f    *os.File
	mode Mode
}

// OpenRoot opens dir. With NoSymlinks dir itself must be a real folder
// (not a symlink); with Beneath it may be reached through one (it is the
// project the user works in).
func OpenRoot(dir string, mode Mode) (*Root, error) {
	flag := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if mode == NoSymlinks {
		flag |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(dir, flag, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fmt.Errorf("%w: it is not a real folder", ErrEscape)}
		}
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Root{f: os.NewFile(uintptr(fd), dir), mode: mode}, nil
}

// Name is the root's path.
func (r *Root) Name() string { return r.f.Name() }

// Chmod sets the root folder's own permissions.
func (r *Root) Chmod(perm os.FileMode) error { return r.f.Chmod(perm) }

// Close closes the root.
func (r *Root) Close() error { return r.f.Close() }

// clean checks rel is a relative path that stays beneath the root on its
// face (the kernel checks the rest).
func clean(rel string) (string, error) {
	c := filepath.Clean(rel)
	if filepath.IsAbs(c) || c == ".." || strings.HasPrefix(c, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: %w", rel, ErrEscape)
	}
	return c, nil
}

// Open opens rel beneath the root with flag (O_CLOEXEC added, and
// O_NOFOLLOW with NoSymlinks) and perm.
func (r *Root) Open(rel string, flag int, perm os.FileMode) (*os.File, error) {
	c, err := clean(rel)
	if err != nil {
		return nil, err
	}
	name := filepath.Join(r.f.Name(), c)
	flag |= unix.O_CLOEXEC
	if r.mode == NoSymlinks {
		flag |= unix.O_NOFOLLOW
	}
	fd, err := r.openat(c, flag, uint32(perm.Perm()))
	if err != nil {
		if flag&unix.O_DIRECTORY != 0 && errors.Is(err, unix.ENOTDIR) {
			err = unix.ELOOP // a symlink (or a file) where a folder is expected
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: explain(err)}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// explain turns the kernel's answers to an escape into ErrEscape.
func explain(err error) error {
	if errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ELOOP) {
		return fmt.Errorf("%w (%v)", ErrEscape, err)
	}
	return err
}

// OpenRegular opens rel beneath the root for reading and refuses anything
// but a regular file with a single link; a FIFO never blocks.
func (r *Root) OpenRegular(rel string) (*os.File, error) {
	f, err := r.Open(rel, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return regular(f)
}

// ReadFile reads the regular file rel beneath the root, of at most max
// bytes (max <= 0, or above MaxRead: MaxRead).
func (r *Root) ReadFile(rel string, max int64) ([]byte, error) {
	f, err := r.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, max)
}

// openDir opens the folder rel beneath the root, creating it and its
// missing parents with perm first when it is missing.
func (r *Root) openDir(rel string, perm os.FileMode) (*os.File, error) {
	d, err := r.Open(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	return r.makeDirs(rel, perm)
}

// MkdirAll creates rel and its missing parents beneath the root with perm;
// an existing component must be a real folder. A folder that is already
// there costs one lookup, not a mkdir per component.
func (r *Root) MkdirAll(rel string, perm os.FileMode) error {
	c, err := clean(rel)
	if err != nil || c == "." {
		return err
	}
	d, err := r.openDir(c, perm)
	if err != nil {
		return err
	}
	return d.Close()
}

// makeDirs creates the missing components of rel beneath the root with
// perm (an existing one must be a real folder) and returns the last one
// open.
func (r *Root) makeDirs(rel string, perm os.FileMode) (*os.File, error) {
	c, err := clean(rel)
	if err != nil {
		return nil, err
	}
	var d *os.File
	dir := ""
	for _, part := range strings.Split(c, string(filepath.Separator)) {
		if d != nil {
			d.Close() // the folder above; the last one is returned
		}
		dir = filepath.Join(dir, part)
		parent, err := r.Open(filepath.Dir(dir), unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			return nil, err
		}
		err = unix.Mkdirat(int(parent.Fd()), part, uint32(perm.Perm()))
		parent.Close()
		if err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, fmt.Errorf("create %s: %w", filepath.Join(r.f.Name(), dir), err)
		}
		if d, err = r.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Permissions of everything moot writes: owner-only.
const (
	FilePerm os.FileMode = 0o600
	DirPerm  os.FileMode = 0o700
)

// Remove removes the file rel beneath the root (a missing file is no
// error): its folder is opened beneath the root, and the name unlinked in
// it, so a symlink on the way never sends the removal elsewhere.
func (r *Root) Remove(rel string) error {
	c, err := clean(rel)
	if err != nil || c == "." {
		return fmt.Errorf("remove %s: not a file beneath the root", rel)
	}
	dir, err := r.Open(filepath.Dir(c), unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer dir.Close()
	if err := unix.Unlinkat(int(dir.Fd()), filepath.Base(c), 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return &fs.PathError{Op: "remove", Path: filepath.Join(r.f.Name(), c), Err: err}
	}
	return nil
}
