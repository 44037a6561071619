package tui

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/par"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
)

// BenchmarkLiveViewFrame: the live view with 16 panes, each receiving a
// delta every 10 ms. One op is a frame: 10 ms of streaming (a delta to
// every pane, taken by Update, which wraps it) followed by a View().
// Target: ≤ 2 ms per frame (ms/frame); ms/Update and ms/View split it.
func BenchmarkLiveViewFrame(b *testing.B) {
	proj := testutil.CopyTree(b, "sample")
	_, bug, err := bugfolder.Resolve(proj, "7")
	if err != nil {
		b.Fatal(err)
	}
	solvers := make([]string, 12)
	for i := range solvers {
		solvers[i] = "scripted"
	}
	s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 12, R: 2, Solvers: solvers, Critics: []string{"scripted", "scripted", "scripted", "scripted"}, Judge: "scripted"}
	reg := bug.Register
	cfg, _ := harness.LoadConfig(filepath.Join(reg.Root, "moot.yaml"))
	m := New(Options{Protocol: debate.Protocol{}, Register: reg, Config: cfg, Bug: bug, Setup: s, Now: func() time.Time { return fixedNow }})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m = nm.(Model)
	m.dv.deb = newLiveView(s)
	m.screen, m.dv.tab, m.run.on = scrDebate, 2, true // round 1: 12 solvers + 4 critics
	var evs []engine.Event
	for _, p := range m.dv.deb.rounds[1].panes {
		evs = append(evs, engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: p.id, Role: bugfolder.Role(p.role), Attempt: 1, Time: fixedNow})
	}
	nm, _ = m.Update(engineMsg{events: evs})
	m = nm.(Model)
	delta := "a hipótese explica o log do fechamento e a taxa de sete em dez; "
	// justified: a benchmark's precondition, not an assertion on
	// behaviour: 16 panes do not fit a 200×60 frame, so it cannot count them
	if len(m.dv.deb.rounds[1].panes) != 16 {
		b.Fatalf("%d panes", len(m.dv.deb.rounds[1].panes))
	}
	var deltas []engine.Event
	for _, p := range m.dv.deb.rounds[1].panes {
		deltas = append(deltas, engine.Event{Type: engine.EvOutput, Round: 1, SolverID: p.id, Role: bugfolder.Role(p.role), Text: delta})
	}
	var updateTime, viewTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		nm, _ = m.Update(engineMsg{events: deltas})
		m = nm.(Model)
		mid := time.Now()
		_ = m.View()
		updateTime += mid.Sub(start)
		viewTime += time.Since(mid)
	}
	n := float64(b.N) * 1000
	b.ReportMetric(float64(updateTime.Microseconds())/n, "ms/Update")
	b.ReportMetric(float64(viewTime.Microseconds())/n, "ms/View")
	b.ReportMetric(float64((updateTime+viewTime).Microseconds())/n, "ms/frame")
}

// bigRegister is a generated register of n debates, kept in the temp
// folder across runs of the benchmarks (generating 50,000 takes a while).
func bigRegister(b *testing.B, n int) string {
	b.Helper()
	dir, err := testutil.CachedRegister(n, testutil.ShapeRecorded)
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// openBrowser opens the browser at 120×40 and returns the time to the
// first screen (every visible row read) and to the full index.
func openBrowser(b *testing.B, reg *bugfolder.Register, n int) (first, full time.Duration) {
	start := time.Now()
	m := New(Options{Protocol: debate.Protocol{}, Register: reg, Config: harness.BuiltinConfig()})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = nm.(Model)
	msg := listBugDirsCmd(reg)()
	nm, cmd := m.Update(msg)
	m = nm.(Model)
	visible := m.lay.rows
	for cmd != nil {
		next := cmd()
		if batch, ok := next.(tea.BatchMsg); ok {
			cmd = nil
			for _, c := range batch {
				if r := c(); r != nil {
					if _, isIdx := r.(indexMsg); isIdx {
						next = r
						break
					}
				}
			}
		}
		nm, cmd = m.Update(next)
		m = nm.(Model)
		if first == 0 {
			ready := true
			// justified: timing: rendering at every message would add the View's cost to what this measures
			for i := 0; i < min(visible, len(m.browser.rows)); i++ {
				ready = ready && m.browser.rows[i].sum != nil
			}
			if ready {
				first = time.Since(start)
				_ = m.View()
			}
		}
		// justified: the index's progress is read from the browser, not the
		// frame: the frame draws it ("reading N/M…"), but rendering at every
		// message would add the View's cost to the time this measures
		if !m.browser.loading {
			break
		}
		// justified: the benchmark drives the index stream itself
		if idx, ok := next.(indexMsg); ok && !idx.done {
			cmd = waitForIndex(idx.ch)
		}
	}
	full = time.Since(start)
	// justified: a benchmark's precondition: rows past the frame cannot be counted on it
	if m.browser.loaded != n {
		b.Fatalf("loaded %d", m.browser.loaded)
	}
	return first, full
}

// floorRead is the minimal program: the same four workers as the index
// (startIndexing), reading what the browser's row needs and parsing
// nothing — the register's listings, each bug.md, DONE.md's presence, the
// head of problema.md (its front matter), resposta-final.md, and each
// round folder's listing and call files' heads (the COST cell says
// "+unknown" when a call recorded no cost, so the index reads them too).
func floorRead(b *testing.B, root string) time.Duration {
	start := time.Now()
	reg, _ := bugfolder.OpenRegister(root)
	dirs, _ := bugfolder.BugDirs(reg)
	var n atomic.Int64
	par.Each(len(dirs), indexWorkers, func(i int) {
		d := dirs[i]
		head := make([]byte, 4096)
		readHead := func(path string) {
			if f, err := os.Open(path); err == nil {
				k, _ := f.Read(head)
				n.Add(int64(k))
				f.Close()
			}
		}
		os.ReadDir(d.Dir)
		os.Stat(filepath.Join(d.Dir, "DONE.md"))
		for _, f := range []string{"bug.md", "debate/resposta-final.md"} {
			if raw, err := os.ReadFile(filepath.Join(d.Dir, f)); err == nil {
				n.Add(int64(len(raw)))
			}
		}
		deb := filepath.Join(d.Dir, "debate")
		ents, _ := os.ReadDir(deb)
		readHead(filepath.Join(deb, "problema.md"))
		for _, e := range ents {
			if !e.IsDir() || !strings.HasPrefix(e.Name(), "rodada-") {
				continue
			}
			calls, _ := os.ReadDir(filepath.Join(deb, e.Name()))
			for _, c := range calls {
				readHead(filepath.Join(deb, e.Name(), c.Name()))
			}
		}
	})
	if n.Load() == 0 {
		b.Fatal("read nothing")
	}
	return time.Since(start)
}

// BenchmarkBrowser10000: opening the browser on 10,000 debates (warm file
// cache). Targets: first screen ≤ 300 ms; full index within 2× of the
// minimal program reading the same files with the same four workers.
func BenchmarkBrowser10000(b *testing.B) {
	dir := bigRegister(b, 10000)
	reg, err := bugfolder.FindRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	floorRead(b, reg.Root) // warm the cache
	var first, full, floor time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, u := openBrowser(b, reg, 10000)
		first += f
		full += u
		floor += floorRead(b, reg.Root)
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first-screen")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full-index")
	b.ReportMetric(float64(floor.Milliseconds())/float64(b.N), "ms-floor")
	b.ReportMetric(float64(full)/float64(floor), "index/floor")
}

// BenchmarkBrowser50000: the first screen on 50,000 debates (warm file
// cache). Target: ≤ 100 ms.
func BenchmarkBrowser50000(b *testing.B) {
	reg, err := bugfolder.FindRoot(bigRegister(b, 50000))
	if err != nil {
		b.Fatal(err)
	}
	openBrowser(b, reg, 50000) // warm the cache
	var first, full time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, u := openBrowser(b, reg, 50000)
		first += f
		full += u
	}
	b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1000, "ms-first-screen")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full-index")
}

// BenchmarkBrowser10000Cold: the same with the page cache dropped first
// (needs root; skipped otherwise).
func BenchmarkBrowser10000Cold(b *testing.B) {
	dir := bigRegister(b, 10000)
	reg, _ := bugfolder.FindRoot(dir)
	drop := func() bool {
		syncCmd := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0o200)
		return syncCmd == nil
	}
	if !drop() {
		b.Skip("cannot drop the page cache here (needs root and /proc/sys/vm/drop_caches)")
	}
	var first, full, floor time.Duration
	for i := 0; i < b.N; i++ {
		drop()
		f, u := openBrowser(b, reg, 10000)
		first += f
		full += u
		drop()
		floor += floorRead(b, reg.Root)
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first-screen")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full-index")
	b.ReportMetric(float64(floor.Milliseconds())/float64(b.N), "ms-floor")
	b.ReportMetric(float64(full)/float64(floor), "index/floor")
}
