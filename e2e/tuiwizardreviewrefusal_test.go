package e2e

import (
	"strings"
	"testing"
)

// TestTUIWizardReviewRefusalKeepsTheTextTypedAfterIt: at 80×24, a review
// set up in the wizard on a bug with no applied fix, its Change left
// empty and enter sent with the text after it in one go (a fast typist,
// a paste), is refused whole in the wizard's words (the Change field,
// not moot review's --change/--files), and the text typed after enter
// lands in Change, the field that refused: the focus stays there.
func TestTUIWizardReviewRefusalKeepsTheTextTypedAfterIt(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	tr.withRegister("BUG-20260702-Q2R8-frete-arredondado")
	m := tribunalTmux(t, tr, 80, 24, "run", "BUG-20260702-Q2R8", "--solver", "loc", "--config", tr.cfg)
	m.wait("the protocol list", "review — of a change")
	m.send("Down", "Down", "Down", "Down", "Enter")
	m.wait("the review's page", "┃ Change", "Contract")
	m.send("Enter", "HEAD~1..HEAD")
	s := m.wait("the text typed after enter in Change", "┃ > HEAD~1..HEAD")
	flat := strings.Join(strings.Fields(s), " ")
	for _, want := range []string{"has no applied fix to review", "give the change in the Change field"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the refusal is not shown whole in the wizard's words (%q):\n%s", want, s)
		}
	}
	if strings.Contains(s, "--change") || strings.Contains(s, "--files") {
		t.Errorf("the refusal names moot review's flags, which the wizard does not have:\n%s", s)
	}
	if strings.Contains(s, "┃ Contract") {
		t.Errorf("the focus moved on past the field that refused:\n%s", s)
	}
}
