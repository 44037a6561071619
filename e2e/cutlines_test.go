package e2e

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestArgueCostScreenWrapsItsCallsLineAt140Columns: the argue cost
// screen's calls line (its round cap and what may stop it earlier) is
// longer than 140 columns: it wraps under its key, never running into the
// edge; every line as wide as the terminal ends with … or a border.
func TestArgueCostScreenWrapsItsCallsLineAt140Columns(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 140, 45, "ask", "Should we retry payment webhooks forever or give up at once and alert someone about it?", "--protocol", "argue")
	s := m.wait("the cost screen", "Start", "calls")
	flat := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(flat, "on convergence or null production") {
		t.Errorf("the calls line is cut:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if utf8.RuneCountInString(l) >= 140 && !strings.HasSuffix(l, "…") && !strings.ContainsAny(l[len(l)-3:], "│┃╮╯┓┛") {
			t.Errorf("a line cut at the edge without …: %q", l)
		}
	}
	m.send("Escape")
}
