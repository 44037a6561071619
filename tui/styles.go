// Package tui is moot's terminal UI: the browser of past debates, the setup
// wizard, the cost screen, the live view of a running debate and the menus
// it asks. It only watches and asks; all work stays in the engine.
package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles holds every style of the UI, built for a light or dark background.
type Styles struct {
	isDark bool

	Title     lipgloss.Style
	Subtle    lipgloss.Style
	Faint     lipgloss.Style
	Bold      lipgloss.Style
	Header    lipgloss.Style
	StatusBar lipgloss.Style
	Error     lipgloss.Style
	Warning   lipgloss.Style
	Selected  lipgloss.Style
	TabActive lipgloss.Style
	Tab       lipgloss.Style
	Pane      lipgloss.Style
	PaneFocus lipgloss.Style
	Box       lipgloss.Style
	Button    lipgloss.Style
	ButtonOn  lipgloss.Style

	accent, ok, warn, bad, dim color.Color
}

// NewStyles builds the styles for a background.
func NewStyles(isDark bool) *Styles {
	ld := lipgloss.LightDark(isDark)
	s := &Styles{isDark: isDark}
	s.accent = ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#A78BFA"))
	s.ok = ld(lipgloss.Color("#1B7F3B"), lipgloss.Color("#4ADE80"))
	s.warn = ld(lipgloss.Color("#9A6700"), lipgloss.Color("#FACC15"))
	s.bad = ld(lipgloss.Color("#B42318"), lipgloss.Color("#F87171"))
	s.dim = ld(lipgloss.Color("#6B7280"), lipgloss.Color("#9CA3AF"))
	text := ld(lipgloss.Color("#111827"), lipgloss.Color("#E5E7EB"))

	s.Title = lipgloss.NewStyle().Bold(true).Foreground(s.accent)
	s.Subtle = lipgloss.NewStyle().Foreground(s.dim)
	s.Faint = lipgloss.NewStyle().Faint(true)
	s.Bold = lipgloss.NewStyle().Bold(true).Foreground(text)
	s.Header = lipgloss.NewStyle().Bold(true).Foreground(text)
	s.StatusBar = lipgloss.NewStyle().Foreground(s.dim)
	s.Error = lipgloss.NewStyle().Foreground(s.bad).Bold(true)
	s.Warning = lipgloss.NewStyle().Foreground(s.warn)
	s.Selected = lipgloss.NewStyle().Bold(true).Foreground(s.accent)
	s.TabActive = lipgloss.NewStyle().Bold(true).Foreground(s.accent).Underline(true)
	s.Tab = lipgloss.NewStyle().Foreground(s.dim)
	s.Pane = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.dim)
	s.PaneFocus = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.accent)
	s.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(s.accent).Padding(0, 1)
	s.Button = lipgloss.NewStyle().Padding(0, 2).Foreground(text)
	s.ButtonOn = lipgloss.NewStyle().Padding(0, 2).Bold(true).Reverse(true).Foreground(s.accent)
	return s
}

// Badge renders a call status as a short colored word.
func (s *Styles) Badge(status string) string {
	c := s.dim
	switch status {
	case "ok", "done", "pass":
		c = s.ok
	case "running", "waiting":
		c = s.accent
	case "timeout", "invalid-output", "judge-failed", "cancelled", "refuse", "hold", "stalled":
		c = s.warn
	case "error":
		c = s.bad
	}
	return lipgloss.NewStyle().Foreground(c).Bold(true).Render(status)
}
