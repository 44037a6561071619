package e2e

import (
	"strings"
	"testing"
)

// TestHumanChoiceMenuNamesEachProposalsPane: resuming on a terminal a
// hand-run debate whose judge failed, "Choose the winner myself" lists
// each proposal with the member whose pane holds it (the panes are titled
// agente-1, agente-2; the labels A, B alone matched nothing on screen).
func TestHumanChoiceMenuNamesEachProposalsPane(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 80, 24, "resume", "6")
	m.wait("the judge menu", "What now?", "Choose the winner myself")
	m.send("Enter")
	s := m.wait("the human choice", "Which proposal wins?")
	for _, want := range []string{"proposal A (agente-1)", "proposal B (agente-2)"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
	m.send("Enter")
	m.wait("the result", "Winner: proposal A (agente-1)")
}
