package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/argue"
)

// TestHeaderMoneyIsTheSharedTotal: the header's money is the one
// figure list, the browser and show give (bugfolder.CallTotals, priced by
// what the calls recorded): an engine the engines file gives no price
// (codex, a command engine) whose calls recorded their cost is no
// "+unknown"; a call that recorded no cost is.
func TestHeaderMoneyIsTheSharedTotal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	t.Run("a debate read from its folder", func(t *testing.T) {
		m := sized(t, f.options(), 160, 30)
		m = pump(t, m, loadDebateCmd(f.bug(t, "5"))())
		got := headerLine(m)
		if !strings.Contains(got, "$0.04") || strings.Contains(got, "unknown") {
			t.Errorf("header %q: want $0.04 as moot list says, no +unknown", got)
		}
		goldenScreen(t, m, f.proj)
	})
	t.Run("a run shown live", func(t *testing.T) {
		m, _ := liveModel(t, f, 160, 30)
		m.dv.deb = newLiveView(m.opts.Setup) // scripted, which the engines file gives no price
		m.dv.deb.sessionStart = fixedNow
		m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok", TokensIn: 100, CostUSD: 0.03})
		if got := headerLine(m); !strings.Contains(got, "$0.03 ·") {
			t.Errorf("header %q: every call made is priced, want $0.03", got)
		}
		m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, SolverID: "agente-2", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok", TokensIn: 100, CostUnknown: true})
		if got := headerLine(m); !strings.Contains(got, "$0.03+unknown") {
			t.Errorf("header %q: a call without a price, want $0.03+unknown", got)
		}
	})
}

// TestHeaderLongIDKeepsTheFigures: a question's folder name of
// 56 characters at 80 columns: the ID is shortened with "…" before any
// figure goes — round, elapsed, calls, tokens, money and status stay.
func TestHeaderLongIDKeepsTheFigures(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := "20261201-should-checkout-cache-coupon-lookups-for-a-very"
	if len(id) != 56 {
		t.Fatalf("id is %d long", len(id))
	}
	s := engine.Setup{Lang: bugfolder.EN, N: 2, R: 1, Solvers: []string{"scripted", "scripted"}, Judge: "scripted",
		Bug: &bugfolder.Bug{ID: id, Title: "Should checkout cache coupon lookups for a very long time?"}}
	for _, w := range []int{80, 100} {
		m := sized(t, f.options(), w, 24)
		m.dv.deb = newLiveView(s)
		m.screen, m.dv.tab, m.now = scrDebate, 1, fixedNow
		m.dv.deb.startedAt, m.dv.deb.sessionStart = fixedNow.Add(-95*time.Second), fixedNow.Add(-95*time.Second)
		for k := 0; k <= 1; k++ {
			for _, sid := range []string{s.Lang.SolverID(1), s.Lang.SolverID(2)} {
				m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, Round: k, SolverID: sid, Role: bugfolder.RoleSolver, Status: "ok", TokensIn: 1200, TokensOut: 300, CostUSD: 0.0007})
			}
		}
		m.dv.deb.current = 1
		m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, Role: bugfolder.RoleJudge, SolverID: "judge", Status: "ok", TokensIn: 900, TokensOut: 200, CostUSD: 0.0006})
		m.dv.deb.apply(engine.Event{Type: engine.EvDebateFinished, Outcome: bugfolder.OutcomeDone, Time: fixedNow})
		got := headerLine(m)
		if ansi.StringWidth(got) > w {
			t.Errorf("%d columns: header is %d wide: %q", w, ansi.StringWidth(got), got)
		}
		for _, want := range []string{"r1/1", "1m35s", "5/5", "7.1k", "$0.0034", "done"} {
			if !strings.Contains(got, want) {
				t.Errorf("%d columns: header %q lacks %q", w, got, want)
			}
		}
		if w == 80 {
			if !strings.Contains(got, "…") {
				t.Errorf("header %q: the ID is not shortened", got)
			}
			goldenScreen(t, m, f.proj)
		}
	}
}

// TestHeaderCountsCallsCutByAKill: after kill -9 the header
// counts the calls cut in flight, as after q's "leave it" and as list and
// show do (bugfolder.CountModelCalls): 7 started, 5 finished is 7 calls.
func TestHeaderCountsCallsCutByAKill(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	evs := []bugfolder.Event{{Type: bugfolder.EvSetup}}
	for i := range 7 {
		id := fmt.Sprintf("agente-%d", i%3+1)
		evs = append(evs, bugfolder.Event{Type: bugfolder.EvCallStarted, Round: i / 3, SolverID: id, Attempt: 1})
		if i < 5 {
			evs = append(evs, bugfolder.Event{Type: bugfolder.EvCallFinished, Round: i / 3, SolverID: id, Attempt: 1})
		}
	}
	deb := &bugfolder.Debate{Dir: t.TempDir(), Lang: bugfolder.PT, Events: evs, State: bugfolder.StateInterrupted}
	m := sized(t, f.options(), 160, 30)
	m.dv.deb = viewFromFiles(f.bug(t, "7"), deb, readFolderFacts(deb))
	m.screen, m.now = scrDebate, fixedNow
	if got := headerLine(m); !strings.Contains(got, "calls 7/") {
		t.Errorf("header %q: want the 7 calls started counted (5 finished, 2 cut by the kill)", got)
	}
}

// TestBrowserCountWordsSingular: one question is "1 question",
// one bug "1 bug".
func TestBrowserCountWordsSingular(t *testing.T) {
	t.Parallel()
	rows := func(bugs, questions int) []*browserRow {
		var out []*browserRow
		for range bugs {
			out = append(out, &browserRow{})
		}
		for range questions {
			out = append(out, &browserRow{dir: bugfolder.BugDir{Question: true}})
		}
		return out
	}
	reg := &bugfolder.Register{Root: "/r"}
	for _, tc := range []struct {
		b, q int
		reg  *bugfolder.Register
		want string
	}{
		{7, 1, reg, "7 bugs, 1 question"},
		{1, 2, reg, "1 bug, 2 questions"},
		{1, 0, reg, "1 bug"},
		{0, 1, &bugfolder.Register{}, "1 question"},
	} {
		b := &browser{reg: tc.reg, rows: rows(tc.b, tc.q)}
		if got := b.countWords(); got != tc.want {
			t.Errorf("%d bugs, %d questions: %q, want %q", tc.b, tc.q, got, tc.want)
		}
	}
}

// TestConvergenceNotRecordedOnAFinishedDebate: a finished debate
// whose convergencia.md is missing or malformed says its rounds finished
// and convergence is not recorded — never "no round finished yet".
func TestConvergenceNotRecordedOnAFinishedDebate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(path string) error
	}{
		{"missing", os.Remove},
		{"malformed", func(p string) error { return os.WriteFile(p, []byte("# Convergência\n\nnot a table\n"), 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			bug := f.bug(t, "5") // Q2R8: done, rounds 0–2
			if err := tc.edit(filepath.Join(bug.Dir, bugfolder.DebateDir, "convergencia.md")); err != nil {
				t.Fatal(err)
			}
			m := loadBrowser(t, f, 120, 34)
			m = keys(t, m, "j", "j", "j", "enter")
			if got := debateOf(m); got != bug.ID {
				t.Fatalf("opened %q, want %s:\n%s", got, bug.ID, screenText(m, f.proj))
			}
			m.dv.tab = m.dv.convTab()
			text := screenText(m, f.proj)
			if strings.Contains(text, "no round finished yet") || !strings.Contains(text, "convergence: not recorded (3 rounds finished") {
				t.Errorf("convergence tab:\n%s", text)
			}
			if tc.name == "missing" {
				goldenScreen(t, m, f.proj)
			}
		})
	}
}

// questionLive is a running argue of a question whose ID (its folder's
// name) is 55 characters long, in round 2 of 2 with every call made, at
// w×h: the live view moot ask opens after Start.
func questionLive(t *testing.T, w, h int) (Model, string) {
	t.Helper()
	f := newFixture(t)
	const id = "20261203-should-checkout-retry-payment-webhooks-forever"
	q := *f.bug(t, "7")
	q.ID, q.Title, q.IsQuestion = id, "Should checkout retry payment webhooks forever?", true
	s := engine.Setup{Protocol: argue.Protocol{}, Bug: &q, Lang: bugfolder.EN, N: 2, R: 2, Solvers: []string{"scripted", "scripted"}, Critics: []string{"scripted"}, Judge: "scripted"}
	opts := f.options()
	opts.Protocol, opts.Bug, opts.Setup = argue.Protocol{}, &q, s
	m := sized(t, opts, w, h)
	m.run.bridge, m.run.on = newBridge(), true
	m.dv.deb = newLiveView(s)
	m.screen, m.dv.tab, m.now = scrDebate, 1, fixedNow
	m.dv.deb.startedAt, m.dv.deb.sessionStart = fixedNow.Add(-31*time.Second), fixedNow.Add(-31*time.Second)
	for k := 0; k <= 2; k++ {
		m.dv.deb.current = k
		for _, sid := range []string{"agente-1", "agente-2", "critic-1"} {
			m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, Round: k, SolverID: sid, Status: "ok", TokensIn: 1200, TokensOut: 300, CostUSD: 0.0007})
		}
	}
	return m, id
}

// TestHeaderOfALongQuestionIDKeepsItsFigures: the live header of a
// question whose ID is 55 characters long gives the figures first at every
// width: at 60 columns round, calls and money stay beside an ID cut in its
// middle (its date and its last word read, as in the browser), where it
// showed the ID alone; at 80 and 140 every figure stays, the ID cut in its
// middle when it must be.
func TestHeaderOfALongQuestionIDKeepsItsFigures(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		w, h int
		want []string
	}{
		{60, 15, []string{"r2/2", "9/", "$0.0063", "running"}},
		{80, 24, []string{"r2/2", "31s", "9/", "calls", "$0.0063", "running"}},
		{140, 45, []string{"round 2 of 2", "31s", "calls 9/", "tokens", "$0.0063", "running"}},
	} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			m, id := questionLive(t, size.w, size.h)
			got := headerLine(m)
			if ansi.StringWidth(got) > size.w {
				t.Errorf("header is %d wide: %q", ansi.StringWidth(got), got)
			}
			for _, want := range size.want {
				if !strings.Contains(got, want) {
					t.Errorf("header %q lacks %q", got, want)
				}
			}
			if !strings.HasPrefix(got, id[:9]) || !strings.Contains(got, "forever") {
				t.Errorf("header %q: the ID is not cut in its middle (its date and its last word kept)", got)
			}
			goldenScreen(t, m, "")
		})
	}
	m, id := questionLive(t, 140, 45)
	for w := 30; w <= 140; w++ { // every width: the money and the status stay, an ID beside them
		m.lay.w = w
		got := headerLine(m)
		if ansi.StringWidth(got) > w || !strings.Contains(got, "$0.0063 · running") || !strings.HasPrefix(got, id[:3]) {
			t.Errorf("%d columns: header %q", w, got)
		}
	}
}
