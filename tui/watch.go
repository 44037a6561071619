package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
)

// watchEvery is how often the UI looks for debates another moot process
// is writing: the browser's rows and a debate shown but not run here.
const watchEvery = time.Second

type (
	// watchTickMsg asks for a look at the files on screen.
	watchTickMsg struct{}
	// rowsChangedMsg carries rows whose debate changed on disk, read again.
	rowsChangedMsg struct {
		items  []indexItem
		stamps map[int]string
		// left is set for the row of the debate view just left: what it
		// showed there was notified there
		left bool
	}
	// debateChangedMsg says the debate on screen changed on disk.
	debateChangedMsg struct {
		dir   string
		stamp string
	}
)

func watchTick() tea.Cmd {
	return tea.Tick(watchEvery, func(time.Time) tea.Msg { return watchTickMsg{} })
}

// debateStamp sums up what changes when a debate is written: its folder,
// its event log (in either language's name) and its lock.
func debateStamp(dir string) string {
	stamp := ""
	for _, name := range []string{"", "eventos.jsonl", "events.jsonl", bugfolder.LockFile} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && name == "" {
			stamp += "d;" // the folder's mtime moves with every live sidecar rewrite: its presence is enough
		} else if err == nil {
			stamp += fmt.Sprintf("%d/%d;", fi.ModTime().UnixNano(), fi.Size())
			if name == bugfolder.LockFile && !holderAlive(filepath.Join(dir, name)) {
				stamp += "gone;" // its moot was killed: nothing on disk moves, but the row must
			}
		} else {
			stamp += "-;"
		}
	}
	return stamp
}

// rowStamp is a row's debateStamp and its bug.md's: a bug folder made
// before its bug.md (found while the browser is open) is read again once
// bug.md is written.
func rowStamp(dir bugfolder.BugDir) string {
	st := "-;"
	if fi, err := os.Stat(filepath.Join(dir.Dir, bugfolder.BugFile)); err == nil {
		st = fmt.Sprintf("%d/%d;", fi.ModTime().UnixNano(), fi.Size())
	}
	return st + debateStamp(dir.DebateFolder())
}

// holderAlive reports whether the process a lock file names still runs
// (an unreadable lock counts as alive: the debate's own read decides).
func holderAlive(path string) bool {
	info := bugfolder.ReadLockInfo(path)
	if info == nil {
		return true
	}
	return info.Alive()
}

// watchedRows are the rows worth a look: those on screen, and those whose
// debate is running or waits for a decision.
func (b *browser) watchedRows(rows int) []int {
	seen := map[int]bool{}
	var out []int
	off := visibleOffset(b.offset, b.cursor, rows, len(b.visible))
	for vi := off; vi < min(len(b.visible), off+rows); vi++ {
		seen[b.visible[vi]] = true
		out = append(out, b.visible[vi])
	}
	for i, r := range b.rows {
		if !seen[i] && r.sum != nil && (r.sum.State == bugfolder.StateRunning || r.sum.State == bugfolder.StateWaiting) {
			out = append(out, i)
		}
	}
	return out
}

// checkRowsCmd reads again the rows whose debate changed since their stamp.
func checkRowsCmd(reg *bugfolder.Register, b *browser, rows int) tea.Cmd {
	type job struct {
		i     int
		dir   bugfolder.BugDir
		stamp string
	}
	var jobs []job
	for _, i := range b.watchedRows(rows) {
		r := b.rows[i]
		if r.sum == nil {
			continue // the index has not read it yet
		}
		jobs = append(jobs, job{i, r.dir, r.stamp})
	}
	return func() tea.Msg {
		msg := rowsChangedMsg{stamps: map[int]string{}}
		for _, j := range jobs {
			st := rowStamp(j.dir)
			if st == j.stamp {
				continue
			}
			msg.stamps[j.i] = st
			if j.stamp == "" {
				continue // first look: the index read it just now
			}
			s, err := bugfolder.IndexSubject(reg, j.dir)
			msg.items = append(msg.items, indexItem{i: j.i, sum: s, err: err})
		}
		return msg
	}
}

// refreshRowCmd reads one row again (the bug or question a debate view
// just left).
func refreshRowCmd(reg *bugfolder.Register, i int, dir bugfolder.BugDir) tea.Cmd {
	return func() tea.Msg {
		st := rowStamp(dir)
		s, err := bugfolder.IndexSubject(reg, dir)
		return rowsChangedMsg{stamps: map[int]string{i: st}, items: []indexItem{{i: i, sum: s, err: err}}, left: true}
	}
}

// rowOf is the index of the bug's row, or -1 (no index yet, no such row).
func (b *browser) rowOf(bug *bugfolder.Bug) int {
	if bug == nil {
		return -1
	}
	return slices.IndexFunc(b.rows, func(r *browserRow) bool { return r.dir.Dir == bug.Dir })
}

// checkDebateCmd looks whether the debate on screen changed on disk.
func checkDebateCmd(dir, stamp string) tea.Cmd {
	return func() tea.Msg {
		if st := debateStamp(dir); st != stamp {
			return debateChangedMsg{dir: dir, stamp: st}
		}
		return nil
	}
}

// onWatchTick looks at what is on screen and arms the next look.
func (m Model) onWatchTick() (Model, tea.Cmd) {
	cmds := []tea.Cmd{watchTick()}
	switch {
	case m.screen == scrBrowser && !m.browser.loading:
		cmds = append(cmds, checkRowsCmd(m.opts.Register, &m.browser.browser, m.lay.rows), listReviewsCmd(m.opts.keeper(), m.opts.Register),
			scanNewDirsCmd(m.opts.Register, m.browser.knownDirs())) // the poll: new folders without a notification
		if m.browser.watch.arm() {
			cmds = append(cmds, m.browser.watch.next()) // fsnotify's word, between two polls
		}
	case m.screen == scrReview && m.rv.view != nil:
		m.now = m.clock() // a running review's elapsed time ticks, as a debate's
		cmds = append(cmds, m.rv.followReview(&m.frame))
	case m.screen == scrReview && m.rv.alone != "":
		cmds = append(cmds, loadReviewCmd(m.opts.keeper(), m.rv.alone, 0)) // its record was not readable yet
	case m.dv.followsDisk(&m.frame):
		cmds = append(cmds, checkDebateCmd(m.dv.deb.dir, m.dv.deb.stamp))
		if m.dv.watchingOther(&m.frame) {
			m.now = m.clock() // its elapsed time ticks here too
			cmds = append(cmds, readLiveCmd(m.dv.deb.dir))
		}
	}
	return m, tea.Batch(cmds...)
}

// applyRowChanges puts rows read again into the browser; it returns what
// to notify the engineer of: a debate another moot process ran that now
// waits for a decision or has finished (watchedNote).
func (b *browser) applyRowChanges(msg rowsChangedMsg) (notes []string) {
	for i, st := range msg.stamps {
		if i < len(b.rows) {
			b.rows[i].stamp = st
		}
	}
	for _, it := range msg.items {
		if it.i < len(b.rows) && it.sum != nil {
			r := b.rows[it.i]
			if r.held() && !msg.left {
				if n := watchedNote(it.sum.Bug.ID, r.sum.State, it.sum.State); n != "" {
					notes = append(notes, n)
				}
			}
			b.setSum(r, it.sum)
			r.err = nil
		}
	}
	if len(msg.items) > 0 && (b.sortBy != "" || b.filter.Value() != "" || b.hasPending()) {
		b.refilter()
	}
	return notes
}

// watchedNote is what the terminal's notification says when a debate
// another moot process runs, watched from here, changes state: a decision
// it now waits for, or its end; "" when there is nothing to say.
func watchedNote(bugID string, was, now bugfolder.State) string {
	if was == now {
		return ""
	}
	switch now {
	case bugfolder.StateWaiting:
		return bugID + " needs a decision: the quorum was lost"
	case bugfolder.StateJudgeFailed:
		return bugID + " needs a decision: its final step failed"
	case bugfolder.StateDone, bugfolder.StateCancelled, bugfolder.StateInterrupted:
		return bugID + " finished: " + string(now)
	}
	return ""
}
