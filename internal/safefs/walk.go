package safefs

import (
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// walk opens rel one component at a time from the root, each with
// O_NOFOLLOW, so no symlink is ever followed (stricter than Beneath, which
// openat2 can afford to check in the kernel).
func (r *Root) walk(rel string, flag int, perm uint32) (int, error) {
	dir, err := unix.Dup(int(r.f.Fd()))
	if err != nil {
		return -1, err
	}
	parts := strings.Split(filepath.Clean(rel), string(filepath.Separator))
	for i, part := range parts {
		if part == ".." {
			unix.Close(dir)
			return -1, unix.EXDEV
		}
		last := i == len(parts)-1
		fl, mode := unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(0)
		if last {
			fl, mode = flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm
		}
		fd, err := unix.Openat(dir, part, fl, mode)
		unix.Close(dir)
		if err != nil {
			if errors.Is(err, unix.ENOTDIR) && !last {
				err = unix.ELOOP // a symlink (or a file) where a folder is expected
			}
			return -1, err
		}
		dir = fd
	}
	return dir, nil
}
