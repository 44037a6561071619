package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// notify rings the terminal's bell and, where the terminal shows them,
// posts a desktop notification (OSC 9): a debate finished or needs a
// decision.
func notify(text string) tea.Cmd {
	seq := "\a"
	switch os.Getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		seq += "\x1b]9;moot: " + clipLine(sanitize(text), 120) + "\x07"
	}
	return tea.Raw(seq)
}

// windowTitle names the screen in the terminal's title: the debate and its
// status, marked when a decision waits.
func (m Model) windowTitle() string {
	if m.screen == scrReview && m.rv.view != nil {
		return "moot · review " + m.rv.view.st.ID + " · " + reviewStatus(m.rv.view.st)
	}
	if m.screen != scrDebate || m.dv.deb == nil {
		return "moot"
	}
	t := "moot · " + m.dv.deb.bugID + " · " + m.dv.deb.state
	if m.dlg.menu != nil && m.dlg.menu.kind != menuQuit || m.dlg.aside != nil {
		t = "⚠ " + t + " · a decision waits"
	}
	return t
}

// focusedPath is the file of what has the focus: the pane's answer, the
// tab's document, or the bug's folder in the browser.
func (m Model) focusedPath() string {
	if m.screen == scrBrowser {
		if r := m.browser.selected(); r != nil {
			return r.dir.Dir
		}
		return ""
	}
	if m.dv.deb == nil {
		return ""
	}
	if k := m.dv.zoomDocKey(&m.frame); k.path != "" {
		return k.path
	}
	if p := m.dv.zoomPane(&m.frame); p != nil {
		return p.path
	}
	return ""
}

// copyPath puts a path on the clipboard (OSC 52) and says so.
func (f frame) copyPath(path string) tea.Cmd {
	if path == "" {
		return statusCmd("nothing to copy here: the focused pane has no file yet")
	}
	return tea.Batch(tea.SetClipboard(path), statusCmd("copied "+f.opts.Register.Rel(path)))
}

// openFile shows a file in $PAGER (else $EDITOR, else less), giving it the
// terminal until it exits. The file is looked at off the UI goroutine.
func (f frame) openFile(path string) tea.Cmd {
	if path == "" {
		return statusCmd("nothing to open here: the focused pane has no file yet")
	}
	getenv := f.opts.env
	return func() tea.Msg {
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			return statusMsg("o opens a file; " + filepath.Base(path) + " is not one")
		}
		return pagerCmd(path, getenv)() // the program runs it, holding the terminal
	}
}

// pagerCmd runs the pager (or editor) on a file ($PAGER, else $EDITOR,
// else less).
func pagerCmd(path string, getenv func(string) string) tea.Cmd {
	return execOn(programOf(getenv, "less", "PAGER", "EDITOR"), path, nil)
}

// programOf is the program the first of vars set in the environment
// names, split into its words (a program with its flags), else fallback.
func programOf(getenv func(string) string, fallback string, vars ...string) []string {
	for _, v := range vars {
		if argv := strings.Fields(getenv(v)); len(argv) > 0 {
			return argv
		}
	}
	return []string{fallback}
}

// execOn gives argv the terminal on path until it exits: done is the
// message when it exits cleanly, a toast naming the program when not.
func execOn(argv []string, path string, done tea.Msg) tea.Cmd {
	c := exec.Command(argv[0], append(argv[1:], path)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		if err != nil {
			return statusMsg(argv[0] + " failed: " + err.Error())
		}
		return done
	})
}

// wheel scrolls what is under the pointer: the zoom, or the browser's list.
func (m Model) wheel(msg tea.MouseWheelMsg) Model {
	up := msg.Button == tea.MouseWheelUp
	switch {
	case m.dlg.menu != nil && !m.dlg.hidden:
	case (m.screen == scrDebate || m.screen == scrReview) && m.zm.on:
		if up {
			m.zm.vp.ScrollUp(3)
		} else {
			m.zm.vp.ScrollDown(3)
		}
		m.zm.holdZoom(up)
	case m.screen == scrBrowser:
		d := 1
		if up {
			d = -1
		}
		m.browser.move(d, m.lay.rows)
	}
	return m
}

// click focuses the pane under the pointer, or selects a browser row.
func (m Model) click(msg tea.MouseClickMsg) Model {
	if m.dlg.menu != nil && !m.dlg.hidden {
		return m
	}
	y := msg.Y - m.lay.top
	switch {
	case m.screen == scrBrowser:
		row := y - 3 // title, count, heading
		if row >= 0 && row < m.lay.rows {
			off := visibleOffset(m.browser.offset, m.browser.cursor, m.lay.rows, len(m.browser.visible))
			if i := off + row; i < len(m.browser.visible) {
				m.browser.cursor = i
				m.browser.keepVisible(m.lay.rows)
			}
		}
	case m.screen == scrDebate && m.dv.deb != nil && !m.zm.on && m.dv.roundOfTab() >= 0:
		panes := m.dv.focusedPanes()
		cols, rows := gridShape(len(panes), m.lay.bodyW, m.lay.bodyH)
		pw, ph := m.lay.bodyW/cols, m.lay.bodyH/rows
		by := y - 2 // header, tabs
		if by >= 0 && pw > 0 && ph > 0 {
			if i := (by/ph)*cols + msg.X/pw; i < len(panes) && msg.X/pw < cols {
				m.dv.focus = i
			}
		}
	}
	return m
}

// env reads an environment variable (Options.getenv, else os.Getenv).
func (o Options) env(key string) string {
	if o.getenv != nil {
		return o.getenv(key)
	}
	return os.Getenv(key)
}
