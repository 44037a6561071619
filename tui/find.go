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
	text = m.zoomReason() + text
	m.find.text = text
	if m.find.query == "" {
		m.zoomVP.SetContent(text)
		return
	}
	m.find.hits = findMatches(text, m.find.query)
	m.find.at = min(m.find.at, max(0, len(m.find.hits)-1))
	m.zoomVP.SetContent(m.highlighted())
}

// highlighted is the zoom's text with every match marked, the current one
// in reverse video (visible without colour too).
func (m Model) highlighted() string {
	lines := strings.Split(m.find.text, "\n")
	byLine := map[int][]lipgloss.Range{}
	for i, h := range m.find.hits {
		st := lipgloss.NewStyle().Underline(true).Bold(true)
		if i == m.find.at {
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
	m.find.input = textinput.New()
	m.find.input.Prompt = "/"
	m.find.input.Placeholder = "search this document"
	// the hints after the prompt stay whole (findHint, a waiting decision)
	m.find.input.SetWidth(max(8, min(40, m.w-ansi.StringWidth(findHint+decisionWaits)-4)))
	if m.find.query != "" {
		m.find.input.Placeholder = m.find.query // a new query starts empty; the last one shows
	}
	m.find.typing = true
	return m, m.find.input.Focus()
}

// findKey takes a key while the prompt is open: enter searches and jumps
// to the first match, esc closes the prompt; everything else is typed.
func (m Model) findKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Back):
		m.find.typing = false
		return m, nil
	case key.Matches(msg, m.keys.Enter):
		m.find.typing = false
		q := strings.TrimSpace(m.find.input.Value())
		if q == "" {
			q = m.find.query // enter on an empty prompt finds the last query again
		}
		m.find.query, m.find.at = q, 0
		m.setZoom(m.find.text)
		m.showMatch()
		return m, nil
	}
	var c tea.Cmd
	m.find.input, c = m.find.input.Update(msg)
	return m, c
}

// stepMatch moves to the next (or previous) match, wrapping around.
func (m *Model) stepMatch(by int) {
	if n := len(m.find.hits); n > 0 {
		m.find.at = (m.find.at + by + n) % n
		m.zoomVP.SetContent(m.highlighted())
		m.showMatch()
	}
}

// showMatch scrolls the current match into view, a third down the zoom,
// and holds the zoom there.
func (m *Model) showMatch() {
	if m.find.at >= len(m.find.hits) {
		return
	}
	line := m.find.hits[m.find.at].line
	if off := m.zoomVP.YOffset(); line < off || line >= off+m.zoomVP.Height() {
		m.zoomVP.SetYOffset(max(0, line-m.zoomVP.Height()/3))
	}
	m.zoomHold = true
}

// clearFind ends the search and takes its highlights away.
func (m *Model) clearFind() {
	text := m.find.text
	m.find = find{}
	m.setZoom(text)
}

// findFooter is the zoom's footer while a search is open or shown.
func (m Model) findFooter() string {
	switch {
	case m.find.typing:
		return m.find.input.View() + findHint
	case m.find.query == "":
		return ""
	case len(m.find.hits) == 0:
		return fmt.Sprintf("no match for %q · / search again · esc clear", m.find.query)
	}
	return fmt.Sprintf("match %d of %d · n/N next/previous · / search · esc clear", m.find.at+1, len(m.find.hits))
}
