package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/livefile"
)

// A debate another moot process runs is watched here: its folder through
// fsnotify (every write shows at once), the one-second poll as fallback
// (a file system without notifications, a missed event). Between the
// writes of its event log, the running process publishes what its calls
// in flight have streamed (livefile), so tokens move here too.

type (
	// fsWatchMsg says the watched debate folder changed.
	fsWatchMsg struct{ w *fsWatch }
	// liveMsg carries the running process's streamed figures.
	liveMsg struct {
		dir string
		st  livefile.State
	}
)

// fsWatch follows one debate folder.
type fsWatch struct {
	dir string
	w   *fsnotify.Watcher
	ch  chan struct{}
}

// watchDir starts following dir; nil when notifications are not to be
// had (the poll still looks every second).
func watchDir(dir string) *fsWatch {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil
	}
	fw := &fsWatch{dir: dir, w: w, ch: make(chan struct{}, 1)}
	go func() {
		for {
			select {
			case _, ok := <-w.Events:
				if !ok {
					close(fw.ch)
					return
				}
				select { // coalesced: one pending wake-up is enough
				case fw.ch <- struct{}{}:
				default:
				}
			case _, ok := <-w.Errors:
				if !ok {
					close(fw.ch)
					return
				}
			}
		}
	}()
	return fw
}

// close stops following the folder.
func (fw *fsWatch) close() {
	if fw != nil {
		fw.w.Close()
	}
}

// next waits for the folder's next change.
func (fw *fsWatch) next() tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-fw.ch; !ok {
			return nil
		}
		return fsWatchMsg{fw}
	}
}

// readLiveCmd reads the running process's streamed figures.
func readLiveCmd(dir string) tea.Cmd {
	return func() tea.Msg {
		st, err := livefile.Read(dir)
		if err != nil {
			return nil // display only: the figures wait for the next write
		}
		return liveMsg{dir: dir, st: st}
	}
}

// watchingOther reports whether the debate on screen is run by another
// moot process (so it is watched, not run here).
func (d debateState) watchingOther(f *frame) bool {
	return f.screen == scrDebate && d.deb != nil && !f.run.on && d.deb.heldBy != ""
}

// followsDisk reports whether the debate on screen is to be followed on
// disk: one not run here that is not finished, or finished with a result
// that waits for a human decision (another process's moot decide must
// show on its Final tab).
func (d debateState) followsDisk(f *frame) bool {
	return f.screen == scrDebate && d.deb != nil && !f.run.on && d.deb.dir != "" && (d.deb.state != "done" || d.deb.awaitsDecision())
}

// follow starts or stops the folder watch as the debate on screen
// changes: a debate followsDisk says is followed.
func (d *debateState) follow(f *frame) tea.Cmd {
	want := ""
	if d.followsDisk(f) {
		want = d.deb.dir
	}
	if d.fsw != nil && d.fsw.dir == want {
		return nil
	}
	d.fsw.close()
	d.fsw = nil
	if want == "" {
		return nil
	}
	if d.fsw = watchDir(want); d.fsw == nil {
		return nil
	}
	return d.fsw.next()
}

// folderChanged looks at the watched debate at once and waits for the
// next change.
func (d debateState) folderChanged(f *frame, msg fsWatchMsg) tea.Cmd {
	if msg.w != d.fsw || d.deb == nil {
		return nil // a watch since replaced
	}
	cmds := []tea.Cmd{d.fsw.next(), checkDebateCmd(d.deb.dir, d.deb.stamp)}
	if d.watchingOther(f) {
		cmds = append(cmds, readLiveCmd(d.deb.dir))
	}
	return tea.Batch(cmds...)
}

// applyLive shows what the other process's calls in flight have streamed.
func (d *debateView) applyLive(st livefile.State) {
	for _, r := range d.rounds {
		for _, p := range r.panes {
			if p.status == "running" {
				p.streamed = 0
			}
		}
	}
	if d.judge != nil && d.judge.status == "running" {
		d.judge.streamed = 0
	}
	for key, n := range st.Streamed {
		k, id, ok := livefile.ParseKey(key)
		if !ok || n < 0 {
			continue
		}
		p := d.paneOf(engine.Event{Round: k, SolverID: id, Role: d.roleOf(id)})
		if p == nil || (p.status != "" && p.status != "running" && (p.attempt == 0 || p.attempt >= st.Attempt[key])) {
			continue // the call's file is written: its own figures count
		}
		p.status, p.streamed, p.attempt = "running", n, st.Attempt[key]
		if k < len(d.rounds) {
			d.current = max(d.current, k) // a call in flight is in the current round
		}
		if t := st.Started[key]; !t.IsZero() {
			p.started = t
		}
	}
}

// roleOf is the role of a debater id in this debate.
func (d *debateView) roleOf(id string) bugfolder.Role {
	if id == d.lang.Names().JudgeID {
		return bugfolder.RoleJudge
	}
	return bugfolder.RoleSolver
}

// holderLine names another moot process briefly (fits 80 columns).
func holderLine(h *bugfolder.LockInfo) string {
	return fmt.Sprintf("moot pid %d since %s", h.PID, h.StartedAt.Local().Format(time.TimeOnly[:5]))
}

// changed reads the debate on screen again when another process
// wrote it.
func (d debateState) changed(f *frame, bug *bugfolder.Bug, msg debateChangedMsg) tea.Cmd {
	if d.deb == nil || d.deb.dir != msg.dir || f.run.on || bug == nil {
		return nil
	}
	d.deb.stamp = msg.stamp
	return func() tea.Msg {
		lm := loadDebateCmd(bug)().(debateLoadedMsg)
		lm.refresh = true
		return lm
	}
}

// filesRead takes what was read of the debate on screen: its
// convergence, argue's scores, its final answer and cost trend.
func (d *debateState) filesRead(f *frame, msg tea.Msg) (tea.Cmd, bool) {
	shown := func(dir string) bool { return d.deb != nil && dir == d.deb.dir }
	switch msg := msg.(type) {
	case convergenceMsg:
		if shown(msg.dir) {
			d.conv = msg.rows
			if msg.path != "" {
				d.deb.convPath = msg.path
			}
		}
	case argueMsg:
		// a read begun before the last one applied is older news: dropped
		if shown(msg.dir) && !msg.at.Before(d.argueAt) {
			d.argueView, d.argueAt = msg.view, msg.at
		}
	case finalMsg:
		if shown(msg.dir) {
			d.deb.final = msg.final
			return loadTrendCmd(f.opts.Register, msg.dir, msg.final), true
		}
	case trendMsg:
		if shown(msg.dir) {
			d.deb.trend = msg.rows
		}
	default:
		return nil, false
	}
	return nil, true
}
