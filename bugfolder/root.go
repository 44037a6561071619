package bugfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reversa/moot/internal/safefs"
)

// maxStateBytes bounds .reversa/state.json, a few settings of Reversa's.
const maxStateBytes = 1 << 20

// RootName is the name of the bug register's folder.
const RootName = "_reversa_bugs"

// ErrNoRoot is returned when no _reversa_bugs folder can be found.
var ErrNoRoot = errors.New("no " + RootName + "/ folder found")

// Register is a project's bug register: the _reversa_bugs folder, the
// project around it and the project's Reversa settings.
type Register struct {
	// Root is the absolute path of the _reversa_bugs folder.
	Root string
	// Project is the folder that holds Root (the project's top).
	Project string
	// OutputFolder is the specs folder named in .reversa/state.json
	// (default _reversa_sdd), relative to Project.
	OutputFolder string
	// DocLanguage is the raw doc_language of .reversa/state.json.
	DocLanguage string
	// Lang is the protocol form moot writes in this project.
	Lang Lang
	// Warnings are what finding the register passed over (a legacy
	// _reversa_bugs/ beside the register state.json names).
	Warnings []error
}

// FindRoot returns the register for dir: the first _reversa_bugs/ found as a
// child of dir or of any of its ancestors, or an ancestor (or dir itself)
// that is named _reversa_bugs, or the folder that an ancestor's
// .reversa/state.json names in bugs_folder.
func FindRoot(dir string) (*Register, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	var passed []string
	for d := abs; ; {
		if filepath.Base(d) == RootName && isDir(d) {
			return OpenRegister(d)
		}
		c, why := stateBugsFolderWhy(d)
		if why != nil {
			passed = append(passed, why.Error())
		}
		if c != "" {
			r, err := openRegister(c, d)
			if legacy := filepath.Join(d, RootName); err == nil && isDir(legacy) && legacy != c {
				r.Warnings = append(r.Warnings, &InputError{Path: legacy, Msg: fmt.Sprintf("is a register too, but .reversa/state.json names %s in bugs_folder: moot uses that one, and the bugs in %s/ are not listed (move them, or point bugs_folder at it)", r.Rel(c), RootName)})
			}
			return r, err
		}
		if c := filepath.Join(d, RootName); isDir(c) {
			return OpenRegister(c)
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if len(passed) > 0 {
		return nil, fmt.Errorf("%w in %s or any folder above it, and no usable bugs_folder: %s", ErrNoRoot, abs, strings.Join(passed, "; "))
	}
	return nil, fmt.Errorf("%w in %s or any folder above it: run moot inside a project with a Reversa bug register", ErrNoRoot, abs)
}

// stateBugsFolder returns the register folder that project's
// .reversa/state.json names in bugs_folder (Reversa 1.2.58 and later:
// reversa/bugs), when it names one inside the project that exists.
func stateBugsFolder(project string) string {
	c, _ := stateBugsFolderWhy(project)
	return c
}

// stateBugsFolderWhy is stateBugsFolder, with why a state.json that is
// there names no usable register (invalid JSON, a bugs_folder outside the
// project or naming no folder); nil when there is no state.json or no
// bugs_folder.
func stateBugsFolderWhy(project string) (string, error) {
	named, path, field, err := namedBugsFolder(project)
	if err != nil || named == "" {
		return "", err
	}
	bf := filepath.Clean(filepath.FromSlash(named))
	if filepath.IsAbs(bf) { // an absolute path inside the project is the project's folder
		if rel, err := filepath.Rel(project, bf); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			bf = rel
		}
	}
	if filepath.IsAbs(bf) || bf == "." || bf == ".." || strings.HasPrefix(bf, ".."+string(filepath.Separator)) {
		return "", &InputError{Path: path, Field: field, Msg: fmt.Sprintf("%q is not a folder inside the project; use a path such as reversa/bugs", named)}
	}
	if c := filepath.Join(project, bf); isDir(c) {
		return c, nil
	}
	return "", &InputError{Path: path, Field: field, Msg: fmt.Sprintf("%q names no folder; create it or fix the path", named)}
}

// namedBugsFolder is the register folder a project names, as written, with
// the file and field that name it: .reversa/state.json's bugs_folder, else
// .reversa/setup.json's paths.bugs-dir (of which newer state.json schemas
// make bugs_folder a compatibility alias, so a project may name it only
// there). "" when neither names one.
func namedBugsFolder(project string) (named, path, field string, err error) {
	path = filepath.Join(project, ".reversa", "state.json")
	b, err := readSettings(path)
	if err != nil {
		return "", path, "", err
	}
	if b != nil {
		var st struct {
			BugsFolder string `json:"bugs_folder"`
		}
		if err := json.Unmarshal([]byte(NormalizeText(b)), &st); err != nil {
			return "", path, "", &InputError{Path: path, Msg: fmt.Sprintf("is not valid JSON (%v), so its bugs_folder cannot be read; fix the file", err), Err: err}
		}
		if st.BugsFolder != "" {
			return st.BugsFolder, path, "bugs_folder", nil
		}
	}
	path = filepath.Join(project, ".reversa", "setup.json")
	if b, err = readSettings(path); err != nil || b == nil {
		return "", "", "", err
	}
	dir, err := setupPath(path, b, "bugs-dir")
	return dir, path, "paths.bugs-dir", err
}

// readSettings reads one of Reversa's small settings files (state.json,
// setup.json) at most maxStateBytes: nil without the file; a FIFO, a link
// or a file of 2 GB is named, never waited on or read whole.
func readSettings(path string) ([]byte, error) {
	b, err := safefs.ReadFile(path, maxStateBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read (%v); Reversa writes a small regular JSON file there", err), Err: err}
	}
	return b, nil
}

// setupPath reads one of .reversa/setup.json's paths (bugs-dir, sdd-dir);
// "" when it names none.
func setupPath(path string, raw []byte, key string) (string, error) {
	var st struct {
		Paths map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(NormalizeText(raw)), &st); err != nil {
		return "", &InputError{Path: path, Msg: fmt.Sprintf("is not valid JSON (%v), so its paths.%s cannot be read; fix the file", err, key), Err: err}
	}
	v, ok := st.Paths[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", &InputError{Path: path, Field: "paths." + key, Msg: "is not a text path; write a folder inside the project, such as reversa/bugs"}
	}
	return s, nil
}

// rootInside refuses a register folder that is a symlink leading outside
// its project: moot would list, read and write another tree.
func rootInside(abs, project string) error {
	if _, err := os.Lstat(abs); err != nil {
		return nil
	}
	// every component counts, not only the last: a state.json's
	// bugs_folder "evil/bugs" with evil a link out of the project leaves it
	real, err := filepath.EvalSymlinks(abs)
	proj, perr := filepath.EvalSymlinks(project)
	if err != nil || perr != nil || !Within(proj, real) {
		return &InputError{Path: abs, Msg: "leads outside the project through a symlink (itself or a folder on its path); a register is a folder of the project: replace the link with the folder"}
	}
	return nil
}

// OpenRegister opens the register whose _reversa_bugs folder is root and
// reads the project's .reversa/state.json when there is one. The project
// is the folder above root, or — for a register that state.json's
// bugs_folder names (reversa/bugs) — the folder holding that state.json.
func OpenRegister(root string) (*Register, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", root, err)
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if stateBugsFolder(d) == abs {
			return openRegister(abs, d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return openRegister(abs, filepath.Dir(abs))
}

func openRegister(abs, project string) (*Register, error) {
	if err := rootInside(abs, project); err != nil {
		return nil, err
	}
	r := &Register{Root: abs, Project: project, OutputFolder: "_reversa_sdd"}
	statePath := filepath.Join(r.Project, ".reversa", "state.json")
	b, err := safefs.ReadFile(statePath, maxStateBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, &InputError{Path: statePath, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	default:
		var st struct {
			OutputFolder string `json:"output_folder"`
			DocLanguage  string `json:"doc_language"`
		}
		if err := json.Unmarshal([]byte(NormalizeText(b)), &st); err != nil {
			return nil, &InputError{Path: statePath, Msg: fmt.Sprintf("not valid JSON (%v); fix the file or remove it to use the defaults", err), Err: err}
		}
		if st.OutputFolder != "" {
			of := filepath.Clean(filepath.FromSlash(st.OutputFolder))
			if filepath.IsAbs(of) || of == ".." || strings.HasPrefix(of, ".."+string(filepath.Separator)) {
				return nil, &InputError{Path: statePath, Field: "output_folder", Msg: fmt.Sprintf("%q leaves the project; use a folder inside it", st.OutputFolder)}
			}
			r.OutputFolder = of
		}
		r.DocLanguage = st.DocLanguage
	}
	if r.OutputFolder == "_reversa_sdd" && (err != nil || !strings.Contains(string(b), `"output_folder"`)) {
		// a project that names its folders only in setup.json
		setup := filepath.Join(r.Project, ".reversa", "setup.json")
		if raw, rerr := safefs.ReadFile(setup, maxStateBytes); rerr == nil {
			if of, _ := setupPath(setup, raw, "sdd-dir"); of != "" {
				if c := filepath.Clean(filepath.FromSlash(of)); !filepath.IsAbs(c) && c != ".." && !strings.HasPrefix(c, ".."+string(filepath.Separator)) && isDir(filepath.Join(r.Project, c)) {
					r.OutputFolder = c
				}
			}
		}
	}
	r.Lang = LangFromDocLanguage(r.DocLanguage)
	return r, nil
}

// Rel returns path relative to the project, with forward slashes, for
// headers and messages.
func (r *Register) Rel(path string) string {
	if rel, err := filepath.Rel(r.Project, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// Within reports whether path (after resolving symlinks) lies inside base.
func Within(base, path string) bool {
	rb, err := filepath.EvalSymlinks(base)
	if err != nil {
		rb = base
	}
	rp, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(rb, rp)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// isRealDir reports whether p is a folder and not a symlink to one (a
// context's bugs/ symlinked out of the register is never listed).
func isRealDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
