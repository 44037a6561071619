//go:build !linux

package safefs

// openat resolves rel beneath the root with the O_NOFOLLOW walk.
func (r *Root) openat(rel string, flag int, perm uint32) (int, error) {
	return r.walk(rel, flag, perm)
}
