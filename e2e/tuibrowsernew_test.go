package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTUIBrowserNewStartsEveryProtocol: at 80×24 and 140×45, `n` in the
// browser on a bug opens the wizard that offers the five protocols, and
// each is set up there (the round cap 0, every other answer its default or
// typed), priced on its cost screen and watched to its end in its live
// view; esc goes back to the list, whose row names the protocol. On the
// way, what a user would otherwise have lost: a result waiting for a
// human decision is asked about before the wizard opens, and after the run
// `moot decide` still records it; the preview shows the new debate, not
// the archived one's answer; two identical tradeoff options are refused in
// the wizard; the calls figure ends as the plan's count, all finished.
func TestTUIBrowserNewStartsEveryProtocol(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		for i, proto := range []string{"debate", "council", "tradeoff", "argue", "review"} {
			t.Run(fmt.Sprintf("%s-%dx%d", proto, sz.w, sz.h), func(t *testing.T) {
				t.Parallel()
				var m *tmuxMoot
				var p *project
				if proto == "review" { // a change in git, and jurors of two families
					tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
					tr.withRegister("BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
					m = tribunalTmux(t, tr, sz.w, sz.h, "--config", tr.cfg)
				} else {
					p = newProject(t)
					p.specDebate("7") // its result waits for a human decision
					m = startTmux(t, p, sz.w, sz.h)
				}
				m.wait("the browser", "A7K3")
				m.send("/", "A7K3", "Enter")
				m.send("n")
				if p != nil {
					m.wait("the pending decision asked first", "Archive it")
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
				if proto == "review" {
					m.wait("the live view, ended", "defect · pass", "pass · round 1 of 1")
				} else {
					s := m.wait("the live view, ended", "done", "Final")
					head, _, _ := strings.Cut(s, "\n")
					if f := regexp.MustCompile(`(\d+)/(\d+)`).FindStringSubmatch(head); f == nil || f[1] != f[2] {
						t.Errorf("the header's calls figure is not the plan's count, all finished: %q", head)
					}
				}
				m.send("Escape")
				m.wait("back in the list", "A7K3")
				if proto != "argue" && proto != "review" { // the new debate archived the spec one
					if s := m.settled(); strings.Contains(s, "Leitura da regra") {
						t.Errorf("the preview shows the archived debate's answer under the new one's row:\n%s", s)
					}
				}
				row := "A7K3"
				if proto == "review" { // the review's row, under its bug's
					row = "document Total"
				}
				if proto == "argue" { // the question's row, not the bug's
					m.send("/", "C-u")
					m.send("-l", "should")
					m.send("Enter")
					row = "Should"
				}
				m.waitLine("the list's row naming the protocol", row, proto)
				if p != nil { // the spec verdict is still recordable: on the bug, or its archived folder
					m.send("q")
					archived, _ := filepath.Glob(filepath.Join(p.dir, "_reversa_bugs", "checkout", "bugs", "BUG-20260715-A7K3-*", "debate-*"))
					switch {
					case proto == "argue" && len(archived) == 0: // a question's debate archives no bug's
						p.moot("decide", "7", "approve").mustExit(t, 0)
					case proto != "argue" && len(archived) == 1:
						if r := p.moot("decide", archived[0], "approve").mustExit(t, 0); !strings.Contains(r.stdout, "recorded on the archived debate") {
							t.Errorf("decide did not say it recorded on the archived result:\n%s", r.stdout)
						}
					default:
						t.Errorf("%s: archived debates %q", proto, archived)
					}
				}
			})
		}
	}
}

// setUp answers a protocol's wizard to its cost screen: the round cap 0;
// two options typed (B first the same as A, which is refused); a question,
// or a review's change, contract, builder and lens typed; external engines
// confirmed; every other answer its default.
func (m *tmuxMoot) setUp() {
	m.t.Helper()
	rounds, same := false, false
	empty := func(s, field string) bool { return strings.Contains(s, "┃ "+field) && strings.Contains(s, "┃ >\n") }
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); {
		s := m.settled()
		switch {
		case strings.Contains(s, "Cost of the "):
			return
		case !rounds && (strings.Contains(s, "┃ Rounds after round 0") || strings.Contains(s, "┃ Rebuttal rounds") || strings.Contains(s, "┃ Rounds (cap R)")):
			m.send("BSpace", "BSpace", "0")
			rounds = true
		case strings.Contains(s, "┃ Option A"):
			m.send("C-u")
			m.send("-l", "Strip discounts first")
		case strings.Contains(s, "┃ Option B") && !same:
			m.send("C-u")
			m.send("-l", "Strip discounts first")
			m.send("Enter")
			m.wait("two identical options refused", "same statement")
			m.send("C-u")
			m.send("-l", "Recalculate first")
			same = true
		case empty(s, "Question"):
			m.send("-l", "Should checkout cache coupon lookups?")
		case empty(s, "Change"):
			m.send("-l", "HEAD~1..HEAD")
		case empty(s, "Contract"):
			m.send("-l", "document Total | Total has a doc comment")
		case empty(s, "Builder"):
			m.send("-l", "mistral")
		case empty(s, "Lenses"):
			m.send("-l", "defect")
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

// waitLine waits until one line of the screen shows every part.
func (m *tmuxMoot) waitLine(what string, parts ...string) {
	m.t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		for _, l := range strings.Split(m.screen(), "\n") {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(l, p)
			}
			if all {
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
