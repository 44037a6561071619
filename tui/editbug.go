package tui

import (
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
)

// editBug opens a bug's bug.md in $VISUAL (else $EDITOR, else vi), giving
// it the terminal until it exits: e edits the bug, the engineer's own
// record; a debate's files are moot's records of what was said (o reads
// them), and a question's problem is frozen by its hash, so neither is
// offered for editing.
func (f frame) editBug(dir string, question bool) tea.Cmd {
	if question || dir == "" {
		return statusCmd("e edits a bug's bug.md; a question has none (o reads its problem)")
	}
	path := filepath.Join(dir, bugfolder.BugFile)
	getenv := f.opts.env
	return func() tea.Msg {
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			return statusMsg("e edits bug.md, and " + path + " is not a file")
		}
		return editorCmd(path, getenv)()
	}
}

// editorCmd runs the engineer's editor on a file ($VISUAL, else $EDITOR,
// else vi).
func editorCmd(path string, getenv func(string) string) tea.Cmd {
	return execOn(programOf(getenv, "vi", "VISUAL", "EDITOR"), path,
		statusMsg("edited "+filepath.Base(filepath.Dir(path))+"/"+bugfolder.BugFile))
}
