package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/protocol/argue"
)

// pts are values of rounds 0, 1, …
func pts(vals ...float64) []argue.Point {
	out := make([]argue.Point, len(vals))
	for i, v := range vals {
		out[i] = argue.Point{Round: i, Value: v}
	}
	return out
}

// argueView is a two-persona argue stopped by convergence after round 2.
func argueView() *argue.View {
	return &argue.View{MaxScore: 80, Rounds: 3, Cap: 4, Rule: "convergence", Reason: "convergence: every persona's confidence moved less than 0.1 in rounds 1 and 2",
		Personas: []argue.ViewPersona{
			{ID: "agente-1", Name: "pragmatist", Confidence: pts(0.7, 0.72, 0.74), Scores: pts(55.5, 58, 61)},
			{ID: "agente-2", Name: "skeptic", Confidence: pts(0.65, 0.62, 0.66), Scores: []argue.Point{{Round: 0, Value: 60}, {Round: 2, Value: 52}}}},
		Concessions: []argue.ViewConcession{
			{Round: 0, Name: "pragmatist", Text: "Expected: staleness is real for revoked coupons."},
			{Round: 1, Name: "pragmatist", Text: "Caching usage limits would over-redeem; that part of my first proposal was wrong."},
			{Round: 1, Name: "skeptic", Text: "Caching definitions keeps the saving; I no longer object to it."},
			{Round: 2, Name: "pragmatist", Text: "A plain read is not enough under concurrency."}}}
}

// TestArgueLiveView: the Convergence tab of an argue debate draws each
// persona's confidence trajectory and round scores, the concession log
// (the latest that fit) and the stop reason, within the width; at 60×12 the
// oldest concessions give way.
func TestArgueLiveView(t *testing.T) {
	f := newFixture(t)
	for _, size := range []struct {
		name string
		w, h int
	}{{"100x20", 100, 20}, {"60x12", 60, 12}} {
		t.Run(size.name, func(t *testing.T) {
			m := sized(t, f.options(), size.w, size.h)
			lines := m.renderArgue(argueView(), size.w, size.h)
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size.w {
					t.Errorf("line wider than %d (%d): %q", size.w, w, ansi.Strip(l))
				}
			}
			out := ansi.Strip(strings.Join(lines, "\n")) + "\n"
			for _, want := range []string{"stopped — convergence", "r0 0.70 → 0.72 → 0.74", "r0 60.0  r2 52.0", "Round scores (of 80", "r2 pragmatist: A plain read"} {
				if !strings.Contains(out, want) {
					t.Errorf("view lacks %q:\n%s", want, out)
				}
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// A debate that is not argue has no argue view: the Convergence tab keeps
// debate's chart.
func TestArgueViewOnlyForArgue(t *testing.T) {
	if v, ok := argue.ReadView(t.TempDir()); ok || v != nil {
		t.Errorf("a folder without scoring/summary.json has an argue view: %+v", v)
	}
}
