package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestQuorumMenuFitsASmallScreenUnderABanner: at 60×15 under the demo's
// banner the quorum menu's box closes on screen (its bottom border is
// drawn), and pgup scrolls up to its title, which huh no longer cuts off
// inside the form.
func TestQuorumMenuFitsASmallScreenUnderABanner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 60, 15)
	m.opts.Banner = "moot demo · recorded debate: no model, no network, no charge · /tmp/moot-demo-1"
	m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	if len(lines) > 15 {
		t.Fatalf("%d lines on a screen of 15", len(lines))
	}
	closed := false
	for _, l := range lines {
		if strings.Contains(l, "╰") && strings.Contains(l, "╯") && strings.Count(l, "─") > 20 {
			closed = true
		}
	}
	if !closed {
		t.Errorf("the menu's box has no bottom border on screen:\n%s", strings.Join(lines, "\n"))
	}
	for range 6 {
		m = keys(t, m, "pgup")
	}
	if top := ansi.Strip(m.View().Content); !strings.Contains(top, "Quorum lost in round") {
		t.Errorf("pgup does not reach the menu's title:\n%s", top)
	}
}
