package bugfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/reversa/moot/internal/safefs"
)

// ProjectFile is one Markdown file of a project's own folder (lenses,
// personas): its path and its bytes.
type ProjectFile struct {
	Path string
	Raw  []byte
}

// ReadProjectFiles reads every *.md of the folder dir under the project
// (e.g. .moot/lenses), by name, beneath the project and never through a
// symlink, each at most maxBytes; a missing folder is none. what names a
// file's kind in errors ("lens", "persona"), which are input errors naming
// the folder or the file.
func ReadProjectFiles(project, dir, what string, maxBytes int64) ([]ProjectFile, error) {
	root, err := safefs.OpenRoot(project, safefs.NoSymlinks)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", project, err)
	}
	defer root.Close()
	d, err := root.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	where := filepath.Join(project, dir)
	if err != nil {
		return nil, &InputError{Path: where, Msg: fmt.Sprintf("cannot be read (a %s folder is a real folder inside the project): %v", what, err), Err: err}
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, &InputError{Path: where, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	sort.Strings(names)
	var out []ProjectFile
	for _, name := range names {
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		rel := filepath.Join(dir, name)
		path := filepath.Join(project, rel)
		raw, err := root.ReadFile(rel, maxBytes)
		if err != nil {
			return nil, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read as a %s (a regular file of at most %d bytes): %v", what, maxBytes, err), Err: err}
		}
		out = append(out, ProjectFile{Path: path, Raw: raw})
	}
	return out, nil
}
