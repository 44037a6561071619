package bugfolder

import "path/filepath"

// DocPath is the path of a debate document (names.Problem,
// names.Convergence, names.Final) in dir: the canonical name moot writes,
// or the translated name when only that one is on disk (a hand-run debate).
func DocPath(dir, canonical string) string {
	p := filepath.Join(dir, canonical)
	if exists(p) {
		return p
	}
	for _, pair := range [][2]string{
		{names[PT].Problem, translated.Problem},
		{names[PT].Convergence, translated.Convergence},
		{names[PT].Final, translated.Final},
	} {
		if pair[0] == canonical && exists(filepath.Join(dir, pair[1])) {
			return filepath.Join(dir, pair[1])
		}
	}
	return p
}
