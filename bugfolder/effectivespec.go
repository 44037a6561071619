package bugfolder

import (
	"path/filepath"
	"slices"
	"strings"
)

// EffectiveSpec returns the effective spec P assembles for the bug: the
// sections its traceability.specs locates and its active addenda (parts
// of kind PartSpec and PartAddendum only, as AssembleP reads them: the
// same locators, links refused, restricted addenda left out). A review's
// contract on a bug is built from what must be true, never from what the
// bug observed: a locator that lands in a file of the bug register
// (IsRecord: a bug.md, a debate's or a review's files) is refused, and
// its path returned in refused (docs/protocols/review.md).
func EffectiveSpec(b *Bug) (parts []Part, refused []string, err error) {
	if b.Incomplete {
		return nil, nil, b.Warnings[0]
	}
	all, err := locateSpecs(b)
	if err != nil {
		return nil, nil, err
	}
	oldLayout := filepath.Join(b.Dir, "spec.md") // an older layout's spec beside bug.md is a spec
	for _, p := range all {
		if p.Kind != PartSpec && p.Kind != PartAddendum {
			continue
		}
		abs := filepath.Join(b.Register.Project, filepath.FromSlash(p.Path))
		if abs != oldLayout && b.Register.IsRecord(abs) {
			if !slices.Contains(refused, p.Path) {
				refused = append(refused, p.Path)
			}
			continue
		}
		parts = append(parts, p)
	}
	return parts, refused, nil
}

// IsRecord reports whether the file at path is a record of the bug
// register rather than a spec or code: anything under the register's
// folder (bug.md, evidence, debate/, review/, fix/) or under any folder
// named _reversa_bugs, and moot's own review folders (.moot/). Such a
// file says what the code did before, or what a debate or review
// concluded; a review's jurors never read it.
//
// A symbolic link is judged by where it leads, not by its name: a spec
// file that links into the register (or a folder on its path that does)
// is a record all the same.
func (r *Register) IsRecord(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true // unplaceable: never read as a spec
	}
	if isRecordAt(abs, r.Root, r.Project) {
		return true
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || real == abs {
		return false // nothing there (or no link on its path): its name was judged
	}
	return isRecordAt(real, resolved(r.Root), resolved(r.Project))
}

// resolved is dir with its symbolic links resolved ("" stays "", and a
// dir that cannot be resolved stays as it is).
func resolved(dir string) string {
	if dir == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// isRecordAt judges the absolute path abs against the register's root and
// the project, both given in the same form (as named, or resolved).
func isRecordAt(abs, root, project string) bool {
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	rel := abs
	if project != "" {
		if x, err := filepath.Rel(project, abs); err == nil {
			rel = x
		}
	}
	return IsRecordPath(filepath.ToSlash(rel))
}

// IsRecordPath reports whether a project-relative slash path names a file
// of a bug register (a folder named _reversa_bugs on its path) or of
// moot's own review folders (.moot/ at the top).
func IsRecordPath(rel string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) > 0 && parts[0] == ".moot" {
		return true
	}
	return slices.Contains(parts, RootName)
}
