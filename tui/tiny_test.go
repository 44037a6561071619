package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestTinyTerminal: at 60×15 the help keeps its border and scrolls, the
// footer keeps "? keys · q quit", the Final tab wraps its lines instead of
// cutting them, and the quorum and judge menus keep their choices on
// screen (golden files for each).
func TestTinyTerminal(t *testing.T) {
	t.Parallel()
	const w, h = 60, 15
	f := newFixture(t)
	browser := loadBrowser(t, f, w, h)
	j := engine.JudgeFailure{Attempt: 1, Reason: "invalid answer: ## Vencedora: names 2 labels (A, B); exactly one is allowed", Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}, {Label: "B", Preview: "H1: b"}}}
	states := []struct {
		name   string
		make   func() Model
		want   []string
		footer bool
	}{
		{"help", func() Model { return keys(t, browser, "?") }, []string{"Keys", "sort: register order, newest, status,", "cost, health", "(1–9 of"}, false},
		{"help-scrolled", func() Model {
			return keys(t, browser, slices.Concat([]string{"?"}, slices.Repeat([]string{"down"}, 22))...)
		}, []string{"an archived result still waits", "external engine", "running it now", "of 31)"}, false},
		{"cost", func() Model {
			opts := f.options()
			bug := f.bug(t, "7")
			opts.Bug = bug
			opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
			return sized(t, opts, w, h)
		}, []string{"COST", "unknown price\n", "  unknown\n", "scripted", "▸ Start ◂"}, false},
		{"decision-aside", func() Model {
			m, _ := liveModel(t, f, w, h)
			m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
			return keys(t, m, "esc")
		}, []string{"a decision waits", "unknown · running", "? keys · q quit"}, true},
		{"final", func() Model {
			m := keys(t, browser, "j", "j", "j", "enter")
			m.dv.tab = m.dv.finalTab()
			return m
		}, []string{"Winner: proposal B", "labels: A = agente-2", "Debate degradado", "… enter shows it all", "enter open", "$0.04 · done"}, true},
		{"judge-failed", func() Model {
			m := keys(t, browser, "j", "j", "j", "j", "enter")
			m.dv.tab = m.dv.finalTab()
			return m
		}, []string{"The judge failed", "folder.", "the winner yourself", "starts a new"}, true},
		{"quorum", func() Model {
			m, _ := liveModel(t, f, w, h)
			return pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
		}, []string{"What now?", "Other…", "more above"}, false},
		{"judge", func() Model {
			m, _ := liveModel(t, f, w, h)
			return pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
		}, []string{"What now?", "Cancel (everything is kept"}, false},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			m := st.make()
			text := checkFrame(t, m, w, h, f.proj, st.want)
			plain := strings.Split(strings.TrimRight(text, "\n"), "\n")
			if st.footer && !strings.HasSuffix(plain[len(plain)-1], "? keys · q quit") {
				t.Errorf("the footer lost ? and q: %q", plain[len(plain)-1])
			}
			if strings.HasPrefix(st.name, "help") {
				top, bottom := -1, -1
				for i, l := range plain {
					if strings.Contains(l, "╭") {
						top = i
					}
					if strings.Contains(l, "╰") {
						bottom = i
					}
				}
				if top < 0 || bottom < 0 {
					t.Fatalf("the help lost its border:\n%s", text)
				}
				for _, l := range plain[top+1 : bottom] {
					if strings.Count(l, "│") < 2 {
						t.Errorf("a help line lost its right border: %q", l)
					}
				}
			}
			goldenScreen(t, m, f.proj)
		})
	}
}
