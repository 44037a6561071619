package tui

import (
	"strings"
	"testing"
)

// TestWizardTitleNamesTheProtocol: the wizard's title says what it sets
// up — the protocol under the cursor on the protocol page, then the one
// chosen on its own page (a review's page never says "a debate").
func TestWizardTitleNamesTheProtocol(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var asked, reviewed [][]string
	opts := fiveProtocolOptions(f, t, &asked, &reviewed)
	for _, c := range []struct {
		keys []string
		want string
	}{
		{nil, "moot · set up a debate"},
		{[]string{"enter"}, "moot · set up a debate"},
		{[]string{"down"}, "moot · set up an argue on a question"},
		{[]string{"down", "enter"}, "moot · set up an argue on a question"},
		{[]string{"down", "down"}, "moot · set up a review of a change"},
		{[]string{"down", "down", "enter"}, "moot · set up a review of a change"},
	} {
		m := keys(t, sized(t, opts, 80, 24), c.keys...)
		text := screenText(m, f.proj)
		if first, _, _ := strings.Cut(lineWith(text, "moot ·"), " · BUG-"); first != c.want { // the bug, named after it when the page's heading is not shown
			t.Errorf("after %v the title reads %q, want %q:\n%s", c.keys, first, c.want, text)
		}
		if len(c.keys) > 0 && c.keys[len(c.keys)-1] == "enter" && c.want != "moot · set up a debate" && strings.Contains(text, "New debate") {
			t.Errorf("after %v the page is headed New debate:\n%s", c.keys, text)
		}
	}
}
