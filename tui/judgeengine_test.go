package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
)

// TestJudgeMenuSwitchesEngine: "Retry with another engine…" offers the
// engines the engine allows that passed their probe, goes back on esc and
// on "← Back", and answers a retry on the chosen engine.
func TestJudgeMenuSwitchesEngine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Engine: "scripted", Engines: []string{"scripted", "local"},
		Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}, {Label: "B", Preview: "H1: b"}}}
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m, _ := liveModel(t, f, size[0], size[1])
			reply := make(chan judgeAnswer, 1)
			m = pump(t, m, engineMsg{then: askJudgeMsg{j, reply}})
			if !strings.Contains(screenText(m, f.proj), "Retry with another engine…") {
				t.Fatalf("the judge menu does not offer another engine:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "down", "enter")
			if !menuDrawn(m, menuJudgeEngine) {
				t.Fatalf("menu %+v", m.dlg.menu)
			}
			text := screenText(m, f.proj)
			if !strings.Contains(text, "local  (openai)") || strings.Contains(text, "scripted  (command)") || !strings.Contains(text, "now: scripted") {
				t.Errorf("the engine menu offers the others, not the failed judge:\n%s", text)
			}
			goldenScreen(t, m, f.proj)
			for _, back := range [][]string{{"esc"}, {"down", "enter"}} {
				m = keys(t, m, back...)
				if !menuDrawn(m, menuJudge) {
					t.Fatalf("%v goes back to the judge menu: %+v", back, m.dlg.menu)
				}
				m = keys(t, m, "down", "enter")
			}
			keys(t, m, "enter")
			a := recv(t, reply)
			// justified: the decision the engine receives on the menu's channel; no frame shows it
			if a.d.Choice != engine.JudgeRetry || a.d.Engine != "local" || a.d.By != "human" {
				t.Errorf("answer %+v, want a retry on local", a.d)
			}
		})
	}
}

// TestJudgeMenuOffersOnlyProbedEngines: an engine whose probe failed is
// not offered, and with no other engine the option is not shown.
func TestJudgeMenuOffersOnlyProbedEngines(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 30)
	m.opts.Status = map[string]EngineStatus{"scripted": {OK: true}, "local": {OK: false, Why: "connection refused"}}
	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Engine: "scripted", Engines: []string{"scripted", "local"},
		Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}}}
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
	if strings.Contains(screenText(m, f.proj), "another engine") {
		t.Errorf("an engine that failed its probe is offered:\n%s", screenText(m, f.proj))
	}
}
