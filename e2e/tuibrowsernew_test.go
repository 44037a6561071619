package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestTUIBrowserNewStartsEveryBugProtocol: at 80×24 and 140×45, in the
// browser `n` on a bug opens the wizard that offers the five protocols;
// debate, council and tradeoff are each set up there (the round cap 0,
// every other answer its default or typed), priced on the cost screen,
// and watched to their end in the live view; esc goes back to the list.
func TestTUIBrowserNewStartsEveryBugProtocol(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		for i, proto := range []string{"debate", "council", "tradeoff"} {
			t.Run(fmt.Sprintf("%s-%dx%d", proto, sz.w, sz.h), func(t *testing.T) {
				t.Parallel()
				p := newProject(t)
				m := startTmux(t, p, sz.w, sz.h)
				m.wait("the browser", "A7K3")
				m.send("/", "A7K3", "Enter")
				m.send("n")
				m.waitAny("the wizard or the pending decision's question", "debate —", "Archive it")
				if strings.Contains(m.screen(), "Archive it") { // the sample's latest result waits for a decision
					m.send("Down", "Enter")
				}
				m.wait("the wizard's protocols", "debate —", "council —", "tradeoff —", "argue — on a question", "review — of a change")
				for range i {
					m.send("Down")
				}
				m.send("Enter")
				m.setUp()
				m.wait("the cost screen", "Cost of the ", "▸ Start ◂")
				m.send("Enter")
				m.wait("the live view, ended", "done", "Final")
				m.send("Escape")
				m.wait("back in the list", "A7K3", proto)
			})
		}
	}
}

// setUp answers a bug protocol's wizard to its cost screen: the round
// cap 0, two options typed when they are not prefilled, external engines
// confirmed, every other answer its default.
func (m *tmuxMoot) setUp() {
	m.t.Helper()
	rounds := false
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); {
		s := m.settled()
		switch {
		case strings.Contains(s, "Cost of the "):
			return
		case !rounds && (strings.Contains(s, "┃ Rounds after round 0") || strings.Contains(s, "┃ Rebuttal rounds")):
			m.send("BSpace", "BSpace", "0")
			rounds = true
		case strings.Contains(s, "┃ Option A") && strings.Contains(s, "┃ >\n"):
			m.send("-l", "Strip discounts first")
		case strings.Contains(s, "┃ Option B") && strings.Contains(s, "┃ >\n"):
			m.send("-l", "Recalculate first")
		case strings.Contains(s, "Send this bug to external engines?"):
			m.send("Left")
		}
		m.send("Enter")
	}
	m.t.Fatalf("the wizard did not reach the cost screen; the screen:\n%s", m.screen())
}

// waitAny waits until the screen shows one of wants.
func (m *tmuxMoot) waitAny(what string, wants ...string) {
	m.t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		s := m.screen()
		for _, w := range wants {
			if strings.Contains(s, w) {
				return
			}
		}
	}
	m.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, m.screen())
}

// settled is the screen once it stopped changing for 400ms: an answer is
// read, and the next key sent, only on a screen done drawing.
func (m *tmuxMoot) settled() string {
	last, since := m.screen(), time.Now()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if s := m.screen(); s != last {
			last, since = s, time.Now()
		} else if time.Since(since) > 400*time.Millisecond {
			break
		}
	}
	return last
}
