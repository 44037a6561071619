package safefs

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel said it has no openat2.
var noOpenat2 atomic.Bool

// openat resolves rel beneath the root in the kernel: openat2 with
// RESOLVE_BENEATH (and RESOLVE_NO_SYMLINKS unless the root follows
// symlinks that stay beneath it); the O_NOFOLLOW walk where the kernel
// has no openat2.
func (r *Root) openat(rel string, flag int, perm uint32) (int, error) {
	if !noOpenat2.Load() {
		how := unix.OpenHow{Flags: uint64(flag), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
		if r.mode == NoSymlinks {
			how.Resolve |= unix.RESOLVE_NO_SYMLINKS
		}
		if flag&unix.O_CREAT != 0 {
			how.Mode = uint64(perm)
		}
		for {
			fd, err := unix.Openat2(int(r.f.Fd()), rel, &how)
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
				continue // a rename raced the lookup: try again
			}
			if errors.Is(err, unix.ENOSYS) {
				noOpenat2.Store(true)
				break
			}
			return fd, err
		}
	}
	return r.walk(rel, flag, perm)
}
