package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestFindInZoom: / in a zoom opens a prompt where letters are typed, not
// run (o would open $PAGER); enter jumps to the first match and says
// "match 1 of 3"; n/N move and scroll the match into view; esc closes the
// prompt, then clears the search, then leaves the zoom.
func TestFindInZoom(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var text strings.Builder
	for i := 0; i < 200; i++ {
		switch i {
		case 50, 120, 180:
			fmt.Fprintf(&text, "line %d holds the Alvo here\n", i)
		default:
			fmt.Fprintf(&text, "line %d\n", i)
		}
	}
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m, _ := liveModel(t, f, size[0], size[1])
			m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Text: text.String()}}})
			m.dv.focus = 1
			m = keys(t, m, "enter", "/", "a", "l", "v", "o")
			if foot := footer(m); !zoomShown(m) || !strings.HasPrefix(foot, "/alvo") || !strings.Contains(foot, "enter find · esc close") {
				t.Fatalf("the prompt did not take the letters: footer %q", foot)
			}
			t.Run("prompt", func(t *testing.T) { goldenScreen(t, m, f.proj) })
			m = keys(t, m, "enter")
			text := screenText(m, f.proj)
			if !strings.Contains(text, "match 1 of 3") || !strings.Contains(text, "line 50 holds") {
				t.Fatalf("enter shows the first match:\n%s", text)
			}
			if !strings.Contains(m.View().Content, "\x1b[7") && !strings.Contains(m.View().Content, ";7m") {
				t.Error("the current match is not highlighted")
			}
			m = keys(t, m, "n")
			text = screenText(m, f.proj)
			if !strings.Contains(text, "match 2 of 3") || !strings.Contains(text, "line 120 holds") {
				t.Fatalf("n moves to the second match:\n%s", text)
			}
			t.Run("match", func(t *testing.T) { goldenScreen(t, m, f.proj) })
			m = keys(t, m, "N", "N")
			if !strings.Contains(screenText(m, f.proj), "match 3 of 3") {
				t.Errorf("N wraps to the last match:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "/", "esc")
			if foot := footer(m); !zoomShown(m) || !strings.HasPrefix(foot, "match 3 of 3") {
				t.Errorf("esc closes the prompt only, the search for alvo kept: footer %q", foot)
			}
			m = keys(t, m, "esc")
			if !zoomShown(m) || strings.Contains(screenText(m, f.proj), "match") {
				t.Errorf("esc clears the search first, in the zoom:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "esc")
			if zoomShown(m) {
				t.Error("then esc leaves the zoom")
			}
			// / on the tab view zooms the focused pane and opens the prompt
			m = keys(t, m, "/")
			if !zoomShown(m) || !strings.Contains(footer(m), "enter find · esc close") {
				t.Errorf("/ on a pane opens the zoom's prompt:\n%s", screenText(m, f.proj))
			}

		})
	}
}

// TestFindMatches: matches are found case-insensitively, several on a
// line, in cells of the text as shown (colour codes and wide runes
// counted as the screen counts them).
func TestFindMatches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, q string
		want    []findHit
	}{
		{"abc abc\nx", "ABC", []findHit{{0, 0, 3}, {0, 4, 7}}},
		{"\x1b[1mtítulo\x1b[0m alvo", "alvo", []findHit{{0, 7, 11}}},
		{"日本 alvo", "alvo", []findHit{{0, 5, 9}}},
		{"nothing", "alvo", nil},
		{"x", "", nil},
	} {
		got := findMatches(c.text, c.q)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("findMatches(%q, %q) = %v, want %v", c.text, c.q, got, c.want)
		}
	}
}

// TestSearchInAFailedCallsZoomKeepsOneReason: the zoom over a failed call
// opens with the line saying why it failed; a search (and clearing it)
// shows that line once, not once more for every search.
func TestSearchInAFailedCallsZoomKeepsOneReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 30)
	m = keys(t, m, "right", "right", "enter") // agente-3 timed out
	const why = "why: no answer within 9s"
	if s := screenText(m, f.proj); !strings.HasPrefix(s, "agente-3") || strings.Count(s, why) != 1 {
		t.Fatalf("the zoom over agente-3 does not say once why it failed:\n%s", s)
	}
	for _, step := range [][]string{{"/", "a", "n", "s", "w", "e", "r", "enter"}, {"esc"}} {
		m = keys(t, m, step...)
		if s := screenText(m, f.proj); strings.Count(s, why) != 1 {
			t.Errorf("after %v the reason shows %d times:\n%s", step, strings.Count(s, why), s)
		}
	}
}
