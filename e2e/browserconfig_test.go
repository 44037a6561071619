package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestBrowserResumesARunStartedWithItsEnginesFile: at 80×24 and 140×45, a
// debate started with --config naming an engine only that file has,
// killed mid-run: r in the browser opened without --config says to pass
// the file (and how); the browser opened with --config (as run takes it)
// resumes it to the end.
func TestBrowserResumesARunStartedWithItsEnginesFile(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			p.env = []string{"FAKE_DELAY_MS=400"}
			other := killedRunOnItsOwnEngines(t, p, "0")

			resume := func(m *tmuxMoot) {
				m.wait("the browser", "A7K3")
				m.send("/")
				m.send("-l", "A7K3")
				m.send("Enter")
				m.wait("the filter applied", "1 of 6 match")
				m.send("r")
				m.waitAny("the resume asked or refused", "Resume", "no engine named")
				if s := m.settled(); strings.Contains(s, "Resume") && strings.Contains(s, "Cancel") {
					m.send("Enter") // the resume's cost: accepted
				}
			}
			without := startTmux(t, p, sz.w, sz.h)
			resume(without)
			// the refusal is wrapped at the window's width (a long folder may put
			// "slow" on the next line): its words are looked for one by one
			without.wait("advice to pass the engines file", "no engine named", `"slow"`, "--config FILE")

			with := startTmux(t, p, sz.w, sz.h, "--config", other)
			resume(with)
			with.waitAny("the debate resumed to its end", "· done", "waits for a human decision")
			if s := with.screen(); strings.Contains(s, "no engine named") {
				t.Errorf("the browser given --config did not resume with it:\n%s", s)
			}
		})
	}
}
