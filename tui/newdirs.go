package tui

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/reversa/moot/bugfolder"
)

// A bug folder (or a question's folder under .moot/debates/) created while
// the browser is open joins its list: the folders that hold them are
// followed through fsnotify (a new folder shows at once), and the
// one-second poll looks too (a file system without notifications, a
// missed event, a folder that did not exist when the watch started).

// newRowsMsg carries the subject folders found since the list was made,
// each read (indexed) already.
type newRowsMsg struct {
	items []newRow
}

type newRow struct {
	dir bugfolder.BugDir
	sum *bugfolder.Summary
	err error
	// stamp is rowStamp before the read: a later write reads it again
	stamp string
}

// scanNewDirsCmd lists the register's subjects again and reads those the
// browser does not have (known holds the folders it has).
func scanNewDirsCmd(reg *bugfolder.Register, known map[string]bool) tea.Cmd {
	return func() tea.Msg {
		dirs, _ := bugfolder.SubjectDirs(reg) // a folder that cannot be read was reported when the list was made
		var msg newRowsMsg
		for _, d := range dirs {
			if known[d.Dir] {
				continue
			}
			st := rowStamp(d)
			s, err := bugfolder.IndexSubject(reg, d)
			msg.items = append(msg.items, newRow{dir: d, sum: s, err: err, stamp: st})
		}
		if len(msg.items) == 0 {
			return nil
		}
		return msg
	}
}

// knownDirs are the folders of the browser's rows.
func (b *browser) knownDirs() map[string]bool {
	out := make(map[string]bool, len(b.rows))
	for _, r := range b.rows {
		out[r.dir.Dir] = true
	}
	return out
}

// contextsMsg carries the register's contexts and their bugs/ folders,
// listed off the UI goroutine (listContextsCmd).
type contextsMsg struct{ dirs []string }

// listContextsCmd lists the register's contexts and their bugs/ folders:
// the folders where a new bug's folder appears.
func listContextsCmd(reg *bugfolder.Register) tea.Cmd {
	if reg == nil || reg.Root == "" {
		return nil
	}
	root := reg.Root
	return func() tea.Msg {
		var dirs []string
		ents, _ := os.ReadDir(root) // none yet: the root's watch sees the first
		for _, e := range ents {
			if e.IsDir() && e.Name()[0] != '.' && e.Name()[0] != '_' {
				ctx := filepath.Join(root, e.Name())
				dirs = append(dirs, ctx)
				if fi, err := os.Stat(filepath.Join(ctx, "bugs")); err == nil && fi.IsDir() {
					dirs = append(dirs, filepath.Join(ctx, "bugs"))
				}
			}
		}
		return contextsMsg{dirs: dirs}
	}
}

// holders are the folders whose new sub-folders are new subjects: the
// register's root (a new context), each context, each bugs/ folder, and
// the project's questions folder.
func (b *browser) holders() []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if d != "" && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	if b.reg.Root != "" {
		add(b.reg.Root)
		for _, d := range b.contexts {
			add(d)
		}
	}
	if b.reg.Project != "" {
		add(filepath.Join(b.reg.Project, bugfolder.QuestionsDir))
	}
	parent := ""
	for _, r := range b.rows {
		// rows come grouped by folder: a row under the last parent seen
		// needs no filepath.Dir (50,000 rows, the browser's first screen)
		if d := r.dir.Dir; parent != "" && len(d) > len(parent) && d[len(parent)] == filepath.Separator &&
			d[:len(parent)] == parent && !strings.ContainsRune(d[len(parent)+1:], filepath.Separator) {
			continue
		}
		parent = filepath.Dir(r.dir.Dir)
		add(parent)
	}
	return out
}

// holderWatch is the browser's subscription to the process's one
// fsnotify watcher of holder folders (one inotify instance for every
// browser of the process, never one each: instances are few per user).
type holderWatch struct {
	ch chan struct{}
	// armed is set while a wait (next) is out: the watch tick arms the
	// first, each change the next, never two at once
	armed atomic.Bool
	mu    sync.Mutex
	// dirs are the folders whose changes wake this browser.
	dirs map[string]bool
	// seen is closed (and replaced) at each change: every waiter of it
	// hears, where ch wakes one
	seen chan struct{}
}

// changed is closed at the next change of the holder folders.
func (hw *holderWatch) changed() <-chan struct{} {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	return hw.seen
}

// holderWatchMsg says a holder folder of the browser changed.
type holderWatchMsg struct{ hw *holderWatch }

var holderWatcher struct {
	once sync.Once
	w    *fsnotify.Watcher
	mu   sync.Mutex
	subs []*holderWatch
}

// watchHolders subscribes to changes of dirs (a new subscription when hw
// is nil, else hw widened to them); nil when notifications are not to be
// had — the poll still looks every second.
func watchHolders(hw *holderWatch, dirs []string) *holderWatch {
	hwr := &holderWatcher
	hwr.once.Do(func() {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			return
		}
		hwr.w = w
		go func() {
			for {
				select {
				case ev, ok := <-w.Events:
					if !ok {
						return
					}
					hwr.mu.Lock()
					for _, s := range hwr.subs {
						s.mu.Lock()
						hit := s.dirs[filepath.Dir(ev.Name)] || s.dirs[ev.Name]
						if hit {
							close(s.seen)
							s.seen = make(chan struct{})
						}
						s.mu.Unlock()
						if hit {
							select { // coalesced: one pending wake-up is enough
							case s.ch <- struct{}{}:
							default:
							}
						}
					}
					hwr.mu.Unlock()
				case _, ok := <-w.Errors:
					if !ok {
						return
					}
				}
			}
		}()
	})
	if hwr.w == nil {
		return nil
	}
	if hw == nil {
		hw = &holderWatch{ch: make(chan struct{}, 1), dirs: map[string]bool{}, seen: make(chan struct{})}
		hwr.mu.Lock()
		hwr.subs = append(hwr.subs, hw)
		hwr.mu.Unlock()
	}
	for _, d := range dirs {
		hw.mu.Lock()
		known := hw.dirs[d]
		hw.mu.Unlock()
		if known {
			continue
		}
		if err := hwr.w.Add(d); err == nil { // a folder that does not exist (yet) is the poll's
			hw.mu.Lock()
			hw.dirs[d] = true
			hw.mu.Unlock()
		}
	}
	return hw
}

// arm reports whether a wait is to be sent out now (none is out).
func (hw *holderWatch) arm() bool {
	return hw != nil && hw.armed.CompareAndSwap(false, true)
}

// next waits for the next change of the browser's holder folders.
func (hw *holderWatch) next() tea.Cmd {
	return func() tea.Msg {
		<-hw.ch
		hw.armed.Store(false)
		return holderWatchMsg{hw}
	}
}

// addRows puts new subjects into the list, in the current order and
// filter, the selected row kept selected (and at its place on screen).
func (b *browser) addRows(items []newRow, rows int) {
	known := b.knownDirs()
	pos := b.cursor - b.offset
	added := false
	for _, it := range items {
		if known[it.dir.Dir] {
			continue // found twice (the watch and the poll)
		}
		known[it.dir.Dir] = true
		b.addRow(&browserRow{dir: it.dir, sum: it.sum, err: it.err, stamp: it.stamp})
		b.loaded++
		if it.err != nil {
			b.errs = append(b.errs, it.err)
		}
		added = true
	}
	if !added {
		return
	}
	b.refilter()
	b.offset = max(0, b.cursor-pos)
	b.keepVisible(rows)
}

// registerOrder orders two rows as the register lists them (SubjectDirs):
// bugs by context then folder name, then questions by name.
func (b *browser) registerOrder(i, j int) int {
	ri, rj := b.rows[i].dir, b.rows[j].dir
	return cmp.Or(cmpBool(b.rows[i].rev != nil, b.rows[j].rev != nil), cmpBool(ri.Question, rj.Question), cmp.Compare(ri.Context, rj.Context),
		cmp.Compare(filepath.Base(ri.Dir), filepath.Base(rj.Dir)), cmp.Compare(i, j))
}
