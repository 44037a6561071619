package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestArgueHelpAndPanesSpeakArgue: on an argue question's debate, ? lists
// no key that does nothing there (a: a question holds one debate; e: it
// has no bug.md; d: its synthesis waits for no decision), and the
// scorer's pane is titled as the scorer, its file's id beside it.
func TestArgueHelpAndPanesSpeakArgue(t *testing.T) {
	t.Parallel()
	opts, bug := questionFixture(t, "20261201-should-we-cache-coupon-lookups")
	m := openQuestion(t, opts, bug, 140, 45)
	help := ansi.Strip(keys(t, m, "?").View().Content)
	for _, idle := range []string{"the bug's earlier debate", "edit the bug's bug.md", "record the human decision"} {
		if strings.Contains(help, idle) {
			t.Errorf("? on an argue question lists %q:\n%s", idle, help)
		}
	}
	if !strings.Contains(help, "zoom") && !strings.Contains(help, "tab") {
		t.Errorf("? lists no key at all:\n%s", help)
	}
	round := ansi.Strip(keys(t, m, "1").View().Content)
	if !strings.Contains(round, "scorer (critic-1)") {
		t.Errorf("round 1 does not title the scorer's pane as the scorer:\n%s", round)
	}
}
