package tui

import (
	"sort"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// setLenses labels each participant's panes with its frozen lens.
func (d *debateView) setLenses(lenses map[string]bugfolder.Lens) {
	for _, rd := range d.rounds {
		for _, p := range rd.panes {
			p.lens = termsafe.Line(lenses[p.id].Name)
		}
	}
}

// setupLenses maps a setup's solver lenses to the solvers' ids.
func setupLenses(s engine.Setup) map[string]bugfolder.Lens {
	out := map[string]bugfolder.Lens{}
	for i, l := range s.Lenses {
		out[s.Lang.SolverID(i+1)] = l
	}
	return out
}

// paneName is a pane's id with its lens ("agente-1 [security]").
func (p *pane) paneName() string {
	if p.lens == "" {
		return p.id
	}
	return p.id + " [" + p.lens + "]"
}

// lensLine is the browser preview's line naming the selected debate's
// lenses ("" when it has none).
func (m Model) lensLine() string {
	r := m.browser.selected()
	if r == nil || r.sum == nil || r.sum.Latest == nil || r.sum.Latest.Problem == nil || len(r.sum.Latest.Problem.Lenses) == 0 {
		return ""
	}
	var parts []string
	for id, l := range r.sum.Latest.Problem.Lenses {
		parts = append(parts, id+" "+termsafe.Line(l.Name))
	}
	sort.Strings(parts)
	return m.st.Subtle.Render("lenses: ") + strings.Join(parts, " · ")
}
