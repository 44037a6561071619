package bugfolder

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// dirMemo keeps the folder listings read while one debate is indexed:
// the counts of calls, the shape and the unpriced check each walk the
// round folders, and a listing says without a system call that a folder
// (a round's raw/) is not there. It lives only as long as one index.
type dirMemo map[string]listing

// listing is one folder's entries, or why they could not be read.
type listing struct {
	ents []os.DirEntry
	err  error
}

// readDir lists a folder once per index (os.ReadDir without a memo).
func (m dirMemo) readDir(path string) ([]os.DirEntry, error) {
	if m == nil {
		return os.ReadDir(path)
	}
	if l, ok := m[path]; ok {
		return l.ents, l.err
	}
	if parent, ok := m[filepath.Dir(path)]; ok && parent.err == nil && !slices.ContainsFunc(parent.ents, func(e os.DirEntry) bool {
		return e.Name() == filepath.Base(path)
	}) {
		return nil, fs.ErrNotExist // its parent's listing has no such folder
	}
	ents, err := os.ReadDir(path)
	m[path] = listing{ents, err}
	return ents, err
}
