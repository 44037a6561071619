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

// focusedPath is the file of what has the focus: the pane's answer or
// the tab's document.
func (d debateState) focusedPath(f *frame) string {
	if d.deb == nil {
		return ""
	}
	if k := d.zoomDocKey(f); k.path != "" {
		return k.path
	}
	if p := d.zoomPane(f); p != nil {
		return p.path
	}
	return ""
}

// focusedPath is the selected row's folder.
func (b browser) focusedPath() string {
	if r := b.selected(); r != nil {
		return r.dir.Dir
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
	return handOver(c, func(err error) tea.Msg {
		if err != nil {
			return statusMsg(argv[0] + " failed: " + err.Error())
		}
		return done
	})
}

// mouse routes the wheel and a click to what is under the pointer: the
// zoom, the debate's panes, or the browser's list (an open menu takes
// neither).
func (m Model) mouse(msg tea.Msg) Model {
	if m.dlg.menu != nil && !m.dlg.hidden {
		return m
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		up := msg.Button == tea.MouseWheelUp
		switch {
		case (m.screen == scrDebate || m.screen == scrReview) && m.zm.on:
			m.zm.wheel(up)
		case m.screen == scrBrowser:
			m.browser.wheel(&m.frame, up)
		}
	case tea.MouseClickMsg:
		switch {
		case m.screen == scrBrowser:
			m.browser.click(&m.frame, msg)
		case m.screen == scrDebate && m.dv.deb != nil && !m.zm.on && m.dv.roundOfTab() >= 0:
			m.dv.click(&m.frame, msg)
		}
	}
	return m
}

// wheel scrolls the zoom.
func (z *zoomState) wheel(up bool) {
	if up {
		z.vp.ScrollUp(3)
	} else {
		z.vp.ScrollDown(3)
	}
	z.holdZoom(up)
}

// wheel moves the list's cursor.
func (b *browser) wheel(f *frame, up bool) {
	d := 1
	if up {
		d = -1
	}
	b.move(d, f.lay.rows)
}

// click selects the row under the pointer.
func (b *browser) click(f *frame, msg tea.MouseClickMsg) {
	row := msg.Y - f.lay.top - f.lay.browseAbove - 1 // title and count (those drawn), heading
	if row >= 0 && row < f.lay.rows {
		off := visibleOffset(b.offset, b.cursor, f.lay.rows, len(b.visible))
		if i := off + row; i < len(b.visible) {
			b.cursor, b.moved = i, true
			b.keepVisible(f.lay.rows)
		}
	}
}

// click focuses the pane under the pointer.
func (d *debateState) click(f *frame, msg tea.MouseClickMsg) {
	panes := d.focusedPanes()
	cols, rows := gridShape(len(panes), f.lay.bodyW, f.lay.bodyH)
	pw, ph := f.lay.bodyW/cols, f.lay.bodyH/rows
	by := msg.Y - f.lay.top - 2 // header, tabs
	if by >= 0 && pw > 0 && ph > 0 {
		if i := (by/ph)*cols + msg.X/pw; i < len(panes) && msg.X/pw < cols {
			d.focus = i
		}
	}
}

// env reads an environment variable (Options.getenv, else os.Getenv).
func (o Options) env(key string) string {
	if o.getenv != nil {
		return o.getenv(key)
	}
	return os.Getenv(key)
}
