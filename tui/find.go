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

// setZoom fills the zoom with text, the current search's matches
// highlighted in it.
func (m *Model) setZoom(text string) {
	text = m.dv.zoomReason(&m.frame) + text
	m.zm.find.text = text
	if m.zm.find.query == "" {
		m.zm.vp.SetContent(text)
		return
	}
	m.zm.find.hits = findMatches(text, m.zm.find.query)
	m.zm.find.at = min(m.zm.find.at, max(0, len(m.zm.find.hits)-1))
	m.zm.vp.SetContent(m.zm.highlighted())
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
func (m Model) openFind() (Model, tea.Cmd) {
	m.zm.find.input = textinput.New()
	m.zm.find.input.Prompt = "/"
	m.zm.find.input.Placeholder = "search this document"
	// the hints after the prompt stay whole (findHint, a waiting decision)
	m.zm.find.input.SetWidth(max(8, min(40, m.w-ansi.StringWidth(findHint+decisionWaits)-4)))
	if m.zm.find.query != "" {
		m.zm.find.input.Placeholder = m.zm.find.query // a new query starts empty; the last one shows
	}
	m.zm.find.typing = true
	return m, m.zm.find.input.Focus()
}

// findKey takes a key while the prompt is open: enter searches and jumps
// to the first match, esc closes the prompt; everything else is typed.
func (m Model) findKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Back):
		m.zm.find.typing = false
		return m, nil
	case key.Matches(msg, m.keys.Enter):
		m.zm.find.typing = false
		q := strings.TrimSpace(m.zm.find.input.Value())
		if q == "" {
			q = m.zm.find.query // enter on an empty prompt finds the last query again
		}
		m.zm.find.query, m.zm.find.at = q, 0
		m.setZoom(m.zm.find.text)
		m.zm.showMatch()
		return m, nil
	}
	var c tea.Cmd
	m.zm.find.input, c = m.zm.find.input.Update(msg)
	return m, c
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
func (m *Model) clearFind() {
	text := m.zm.find.text
	m.zm.find = find{}
	m.setZoom(text)
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
