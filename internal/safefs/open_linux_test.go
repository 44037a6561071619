package safefs

import (
	"errors"
	"testing"
)

// TestWalkFallback: where the kernel has no openat2, the O_NOFOLLOW walk
// refuses every symlink on the way (stricter than openat2's Beneath).
func TestWalkFallback(t *testing.T) {
	noOpenat2.Store(true)
	defer noOpenat2.Store(false)
	root, _ := tree(t)
	for _, mode := range []Mode{NoSymlinks, Beneath} {
		r, err := OpenRoot(root, mode)
		if err != nil {
			t.Fatal(err)
		}
		for rel, want := range map[string]error{"dir/file": nil, "in-link": ErrEscape, "out-link": ErrEscape, "out-dir/secret": ErrEscape, "../outside/secret": ErrEscape, "fifo": ErrNotRegular, "linked": ErrLinked} {
			_, err := r.ReadFile(rel, 0)
			if want == nil && err != nil || want != nil && !errors.Is(err, want) {
				t.Errorf("mode %d: ReadFile(%q) = %v, want %v", mode, rel, err, want)
			}
		}
		r.Close()
	}
}
