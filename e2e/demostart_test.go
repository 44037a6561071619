package e2e

import (
	"os"
	"strings"
	"testing"
)

// TestCouncilDemoStartsAsTheDebateDemo: moot demo --protocol council on a
// terminal opens on the cost screen (titled by its protocol), as the
// debate demo does, not on the setup wizard; its banner says nothing is
// charged; leaving says how to remove the copy it made.
func TestCouncilDemoStartsAsTheDebateDemo(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 80, 24, "demo", "--protocol", "council")
	s := m.wait("the cost screen", "Cost of the council", "Start")
	if !strings.Contains(s, "no model, no network, no charge") {
		t.Errorf("the banner does not say nothing is charged:\n%s", s)
	}
	m.send("q")
	m.exitCode()
	s = m.screen()
	at := regexpMust(`rm -rf (\S+moot-demo-\S+)`).FindStringSubmatch(strings.ReplaceAll(s, "\n", "")) // the terminal wraps the path
	if at == nil {
		t.Fatalf("leaving the demo does not say how to remove its copy:\n%s", s)
	}
	t.Cleanup(func() { os.RemoveAll(at[1]) })
}
