package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestFixedStatesAtBothSizes renders every fixed state at 80×24 and
// 140×45 (golden files), and checks each frame fits the window and keeps
// what the state is about.
//
// Every page and dialog has a state here (the browser, the wizard, the
// cost screen, the live view, a zoom and its search, the help overlays,
// the quorum, judge, budget, quit, engine-change, trust, pending-decision
// and decide dialogs, the review view and its zoom): a golden view of
// each at 80×24 and at 140×45.
func TestFixedStatesAtBothSizes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	states := []struct {
		name string
		make func(w, h int) Model
		want []string
	}{
		{"cost", func(w, h int) Model {
			opts := f.options()
			bug := f.bug(t, "7")
			opts.Bug = bug
			opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
			return sized(t, opts, w, h)
		}, []string{"Cost of the debate", "unknown price", "▸ Start ◂"}},
		{"wizard", func(w, h int) Model {
			opts := f.options()
			opts.Bug = f.bug(t, "7")
			return sized(t, opts, w, h)
		}, []string{"BUG-20260715-A7K3", "Mode", "Solvers (N)"}},
		{"live", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return m
		}, []string{"2/10", "40s", "running", "agente-3"}},
		{"quorum", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
		}, []string{"Quorum lost in round 1", "What now?"}},
		{"quorum-aside", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
			return keys(t, m, "esc")
		}, []string{"a decision waits"}},
		{"judge", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}, {Label: "B", Preview: "H1: b"}}}
			return pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
		}, []string{"The judge failed (attempt 1)", "Choose the winner myself"}},
		{"final", func(w, h int) Model {
			m := loadBrowser(t, f, w, h)
			return keys(t, m, "j", "j", "j", "enter")
		}, []string{"Winner: proposal B (agente-1)", "done"}},
		{"help", func(w, h int) Model {
			m := loadBrowser(t, f, w, h)
			return keys(t, m, "?")
		}, []string{"Keys", "closed by DONE.md"}},
		{"browser", func(w, h int) Model { return loadBrowser(t, f, w, h) },
			[]string{"debates over", "BUG-20260702-Q2R8", "enter open"}},
		{"zoom", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return keys(t, m, "enter")
		}, []string{"agente-1", "scroll", "/ search"}},
		{"search", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return keys(t, m, "enter", "/", "H", "1")
		}, []string{"/H1", "enter find"}},
		{"live-help", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return keys(t, m, "?")
		}, []string{"Keys", "next / previous tab"}},
		{"quit", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			return keys(t, m, "q")
		}, []string{"Leave this debate?", "Keep watching"}},
		{"quit-config", func(w, h int) Model { // a run on an engines file given with --config: the hint repeats it
			m, _ := liveModel(t, f, w, h)
			m.opts.EnginesFile = "/opt/team/engines/slow.yaml"
			return keys(t, m, "q")
		}, []string{"Leave this debate?", "moot resume BUG-20260715-A7K3 --config /opt/team/engines/slow.yaml"}},
		{"budget", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			reach := engine.BudgetReach{Cap: engine.Budget{MaxUSD: 0.5, MaxTokens: 40000}, SpentUSD: 0.31, SpentTokens: 30000, NextTokens: 12000, Round: 1, Who: "agente-2", FinalWord: "judge"}
			return pump(t, m, engineMsg{then: askBudgetMsg{reach, make(chan budgetAnswer, 1)}})
		}, []string{"The budget cap is reached", "Raise the cap"}},
		{"engine-change", func(w, h int) Model {
			m, _ := liveModel(t, f, w, h)
			refusal := &engine.EngineChangeError{Path: "problema.md", Diffs: []string{"engine scripted: model m-1 → m-2"}}
			return pump(t, m, engineMsg{then: runDoneMsg{err: refusal}})
		}, []string{"engine scripted: model m-1 → m-2", "Leave it"}},
		{"trust", func(w, h int) Model {
			opts := f.options()
			opts.Untrusted = &TrustRequest{File: "_reversa_bugs/moot.yaml", Reasons: []string{"engine evil runs a command ([\"sh\"])"}, Trust: func() error { return nil }}
			return sized(t, opts, w, h)
		}, []string{"engine evil runs a command"}},
		{"pending", func(w, h int) Model {
			g := newFixture(t)
			makePending(t, g)
			return keys(t, loadBrowser(t, g, w, h), "n")
		}, []string{"Decide it now", "Archive it"}},
		{"decide", func(w, h int) Model {
			g := newFixture(t)
			makePending(t, g)
			return keys(t, loadBrowser(t, g, w, h), "n", "enter")
		}, []string{"Record the human decision", "approve"}},
		{"review", func(w, h int) Model {
			g := newFixture(t)
			br, _ := reviewsFor(t, g)
			return openReviewRow(t, sized(t, g.options(), w, h), br.f.ID)
		}, []string{"defect", "refuse", "? keys"}},
		{"review-zoom", func(w, h int) Model {
			g := newFixture(t)
			br, _ := reviewsFor(t, g)
			return keys(t, openReviewRow(t, sized(t, g.options(), w, h), br.f.ID), "enter")
		}, []string{"review ", "defect", "scroll"}},
		{"review-help", func(w, h int) Model {
			g := newFixture(t)
			br, _ := reviewsFor(t, g)
			return keys(t, openReviewRow(t, sized(t, g.options(), w, h), br.f.ID), "?")
		}, []string{"Keys", "move between lenses"}},
	}
	for _, st := range states {
		for _, size := range [][2]int{{80, 24}, {140, 45}} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s/%dx%d", st.name, w, h), func(t *testing.T) {
				m := st.make(w, h)
				proj := m.opts.Register.Project // a state on a fixture of its own names its folder
				checkFrame(t, m, w, h, proj, st.want)
				goldenScreen(t, m, proj)
			})
		}
	}
}

// TestCostScreenButtonsAlwaysShown: at 80×24 with many warnings the
// Start/Edit/Cancel buttons stay on screen; the text above them says how
// much more there is, and ↓/pgdn scroll to its end.
func TestCostScreenButtonsAlwaysShown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	bug := f.bug(t, "7")
	opts.Bug = bug
	opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
	m := sized(t, opts, 80, 24)
	if !costPriced(m) {
		t.Fatalf("no priced plan:\n%s", screenText(m, f.proj))
	}

	for i := range 12 {
		m.cost.plan.Warnings = append(m.cost.plan.Warnings, fmt.Sprintf("warning number %d about this debate", i))
	}
	text := screenText(m, f.proj)
	if !strings.Contains(text, "▸ Start ◂") || !strings.Contains(text, "more (↓ pgdn scroll)") {
		t.Fatalf("many warnings:\n%s", text)
	}
	m = keys(t, m, "pgdown", "pgdown", "pgdown", "pgdown")
	text = screenText(m, f.proj)
	if !strings.Contains(text, "▸ Start ◂") || !strings.Contains(text, "warning number 11") {
		t.Errorf("scrolled to the end:\n%s", text)
	}
	if n := len(strings.Split(m.Render(), "\n")); n != 24 {
		t.Errorf("%d lines at 80×24", n)
	}
}
