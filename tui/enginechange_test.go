package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
)

// TestEngineChangeMenu: a resume refused because an engine now resolves
// differently asks whether to accept the change as an amendment; leaving
// keeps the refusal (exit 2), accepting resumes with the change.
func TestEngineChangeMenu(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	refusal := &engine.EngineChangeError{Path: "problema.md", Diffs: []string{"engine scripted: model m-1 → m-2"}}
	m = pump(t, m, engineMsg{then: runDoneMsg{err: refusal}})
	if !menuDrawn(m, menuEngineChange) {
		t.Fatalf("no engine-change menu: %+v", m.dlg.menu)
	}
	text := screenText(m, f.proj)
	for _, want := range []string{"engine scripted: model m-1 → m-2", "Accept the change as an amendment and resume", "Leave it"} {
		if !strings.Contains(text, want) {
			t.Errorf("menu lacks %q:\n%s", want, text)
		}
	}
	left := keys(t, m, "enter") // "Leave it" is focused
	var ece *engine.EngineChangeError
	// justified: acceptEngines is the consent a resume would pass to the engine; it is not drawn
	if anyMenuDrawn(left) || left.dv.acceptEngines || !errors.As(left.Outcome().Err, &ece) {
		t.Errorf("leaving must keep the refusal: err %v\n%s", left.Outcome().Err, screenText(left, ""))
	}
}
