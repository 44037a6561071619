package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// find is the search inside a zoomed pane or document: a prompt while the
// query is typed (every key goes to it), then the matches, highlighted,
// with n/N moving between them.
type find struct {
	input  textinput.Model
	typing bool
	query  string
	hits   []findHit
	at     int
	// text is the zoom's content as rendered, without highlights.
	text string
}

// findHit is one match: its line and its cells [start, end).
type findHit struct{ line, start, end int }

// findMatches finds query in text, case-insensitively, line by line, in
// cells of the text as shown (escape sequences ignored).
func findMatches(text, query string) []findHit {
	q := strings.ToLower(query)
	if q == "" {
		return nil
	}
	var hits []findHit
	for i, line := range strings.Split(text, "\n") {
		plain := strings.ToLower(ansi.Strip(line))
		for off := 0; ; {
			j := strings.Index(plain[off:], q)
			if j < 0 {
				break
			}
			start := ansi.StringWidth(plain[:off+j])
			hits = append(hits, findHit{line: i, start: start, end: start + ansi.StringWidth(q)})
			off += j + len(q)
		}
	}
	return hits
}

// set shows text in the zoom, under the zoomed pane's whole option (a
// tradeoff's) and the line that says why the zoomed call failed.
func (z *zoomState) set(f *frame, d *debateState, text string) {
	z.setText(d.zoomOption(f) + d.zoomReason(f) + text)
}

// setText shows the zoom's whole text (its reason line included), every
// match of the search marked.
func (z *zoomState) setText(text string) {
	z.find.text = text
	if z.find.query == "" {
		z.vp.SetContent(text)
		return
	}
	z.find.hits = findMatches(text, z.find.query)
	z.find.at = min(z.find.at, max(0, len(z.find.hits)-1))
	z.vp.SetContent(z.highlighted())
}

// highlighted is the zoom's text with every match marked, the current one
// in reverse video (visible without colour too).
func (z zoomState) highlighted() string {
	lines := strings.Split(z.find.text, "\n")
	byLine := map[int][]lipgloss.Range{}
	for i, h := range z.find.hits {
		st := lipgloss.NewStyle().Underline(true).Bold(true)
		if i == z.find.at {
			st = lipgloss.NewStyle().Reverse(true).Bold(true)
		}
		byLine[h.line] = append(byLine[h.line], lipgloss.NewRange(h.start, h.end, st))
	}
	for i, rs := range byLine {
		lines[i] = lipgloss.StyleRanges(lines[i], rs...)
	}
	return strings.Join(lines, "\n")
}

// findHint and decisionWaits are the hints beside the search prompt.
const (
	findHint      = "  enter find · esc close"
	decisionWaits = " · m: a decision waits"
)

// openFind opens the search prompt over the zoom, empty (the last query
// is its placeholder: typing starts a new one).
func (z *zoomState) openFind(f *frame) tea.Cmd {
	z.find.input = textinput.New()
	z.find.input.Prompt = "/"
	z.find.input.Placeholder = "search this document"
	// the hints after the prompt stay whole (findHint, a waiting decision)
	z.find.input.SetWidth(max(8, min(40, f.w-ansi.StringWidth(findHint+decisionWaits)-4)))
	if z.find.query != "" {
		z.find.input.Placeholder = z.find.query // a new query starts empty; the last one shows
	}
	z.find.typing = true
	return z.find.input.Focus()
}

// findKey takes a key while the prompt is open: enter searches and jumps
// to the first match, esc closes the prompt; everything else is typed.
func (z *zoomState) findKey(f *frame, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, f.keys.Back):
		z.find.typing = false
		return nil
	case key.Matches(msg, f.keys.Enter):
		z.find.typing = false
		q := strings.TrimSpace(z.find.input.Value())
		if q == "" {
			q = z.find.query // enter on an empty prompt finds the last query again
		}
		z.find.query, z.find.at = q, 0
		z.setText(z.find.text) // its reason line is in it already
		z.showMatch()
		return nil
	}
	var c tea.Cmd
	z.find.input, c = z.find.input.Update(msg)
	return c
}

// stepMatch moves to the next (or previous) match, wrapping around.
func (z *zoomState) stepMatch(by int) {
	if n := len(z.find.hits); n > 0 {
		z.find.at = (z.find.at + by + n) % n
		z.vp.SetContent(z.highlighted())
		z.showMatch()
	}
}

// showMatch scrolls the current match into view, a third down the zoom,
// and holds the zoom there.
func (z *zoomState) showMatch() {
	if z.find.at >= len(z.find.hits) {
		return
	}
	line := z.find.hits[z.find.at].line
	if off := z.vp.YOffset(); line < off || line >= off+z.vp.Height() {
		z.vp.SetYOffset(max(0, line-z.vp.Height()/3))
	}
	z.hold = true
}

// clearFind ends the search and takes its highlights away.
func (z *zoomState) clearFind() {
	text := z.find.text
	z.find = find{}
	z.setText(text)
}

// findFooter is the zoom's footer while a search is open or shown.
func (z zoomState) findFooter() string {
	switch {
	case z.find.typing:
		return z.find.input.View() + findHint
	case z.find.query == "":
		return ""
	case len(z.find.hits) == 0:
		return fmt.Sprintf("no match for %q · / search again · esc clear", z.find.query)
	}
	return fmt.Sprintf("match %d of %d · n/N next/previous · / search · esc clear", z.find.at+1, len(z.find.hits))
}
