package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// argueMsg delivers a debate's scores, read from its own files by its
// protocol (engine.Scorer; nil: a protocol without scores, or nothing
// scored yet).
type argueMsg struct {
	dir  string
	view *engine.ScoreView
	// at is when the read began: reads run concurrently, and one begun
	// earlier (before the stop was written) may land after a later one
	at time.Time
}

// loadArgueCmd reads a debate's scores, confidences, concessions and stop
// reason from its folder, through its protocol (engine.Scorer: argue).
func loadArgueCmd(p engine.Protocol, dir string) tea.Cmd {
	sc, ok := p.(engine.Scorer)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		at := time.Now()
		v, _ := sc.ReadScores(dir)
		return argueMsg{dir: dir, view: v, at: at}
	}
}

// spark draws values in [0, top] as one block per round, from round 0; a
// round without a value is a dot.
func spark(pts []engine.ScorePoint, top float64) string {
	blocks := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	next := 0
	for _, p := range pts {
		for ; next < p.Round; next++ {
			b.WriteRune('·')
		}
		next = p.Round + 1
		i := 0
		if top > 0 {
			i = int(p.Value / top * float64(len(blocks)-1))
		}
		b.WriteRune(blocks[max(0, min(len(blocks)-1, i))])
	}
	return b.String()
}

// nums writes the values with the precision given, joined by sep; the
// first carries its round ("r0 0.70 → 0.72"), and so does any after a
// round without a value ("r0 54.5  r2 56.0").
func nums(pts []engine.ScorePoint, format, sep string) string {
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = fmt.Sprintf(format, p.Value)
		if i == 0 || p.Round != pts[i-1].Round+1 {
			parts[i] = fmt.Sprintf("r%d %s", p.Round, parts[i])
		}
	}
	return strings.Join(parts, sep)
}

// renderArgue is argue's live view on the Convergence tab: each persona's
// confidence trajectory and round scores as a small chart, the concession
// log as it grows (the latest that fit), and why the debate stopped.
func (f *frame) renderArgue(v *engine.ScoreView, width, height int) []string {
	fit := func(s string) string { return ansi.Truncate(termsafe.Text(s), max(10, width-2), "…") }
	state := "running (it may stop early: convergence, null production)"
	if v.Rule != "" {
		state = "stopped — " + v.Reason
	}
	head := fmt.Sprintf("Argue · round %d, cap %d after round 0", max(0, v.Rounds-1), v.Cap)
	if v.Rule != "" {
		head = fmt.Sprintf("Argue · stopped at round %d, cap %d (%s)", v.Rounds-1, v.Cap, v.Rule)
	}
	lines := []string{f.st.Bold.Render(fit(head)), fit("  " + state)}
	if note := f.run.stopNote(f); note != "" {
		lines = append(lines, f.st.Warning.Render(fit("  "+note)))
	}
	nameW := 6
	for _, p := range v.Personas {
		nameW = max(nameW, min(18, len(p.Name)))
	}
	row := func(name, chart, text string) string {
		return fit(fmt.Sprintf("  %-*s %s  %s", nameW, ansi.Truncate(name, nameW, "…"), f.st.Selected.Render(chart), text))
	}
	// a large panel in a small window: one line a persona (its latest
	// confidence and score), then as many as fit and how many more
	if len(lines)+2*len(v.Personas)+4 > height {
		lines = append(lines, f.st.Bold.Render(fmt.Sprintf("Confidence (0–1) · latest score (of %g), by persona", v.MaxScore)))
		shown := v.Personas
		if room := height - len(lines) - 3; len(shown) > room {
			shown = shown[:max(0, room-1)]
		}
		for _, p := range shown {
			text := f.st.Subtle.Render("not scored yet")
			if n := len(p.Scores); n > 0 {
				text = fmt.Sprintf("score %.1f (r%d)", p.Scores[n-1].Value, p.Scores[n-1].Round)
			}
			if n := len(p.Confidence); n > 0 {
				text = fmt.Sprintf("%.2f · %s", p.Confidence[n-1].Value, text)
			}
			lines = append(lines, row(p.Name, spark(p.Confidence, 1), text))
		}
		if more := len(v.Personas) - len(shown); more > 0 {
			lines = append(lines, f.st.Subtle.Render(fit(fmt.Sprintf("  … %d more personas: enter zooms the whole view", more))))
		}
	} else {
		lines = append(lines, f.st.Bold.Render("Confidence by round (0–1)"))
		for _, p := range v.Personas {
			lines = append(lines, row(p.Name, spark(p.Confidence, 1), nums(p.Confidence, "%.2f", " → ")))
		}
		lines = append(lines, f.st.Bold.Render(fmt.Sprintf("Round scores (of %g, the seed's weights)", v.MaxScore)))
		for _, p := range v.Personas {
			text := nums(p.Scores, "%.1f", "  ")
			if len(p.Scores) == 0 {
				text = f.st.Subtle.Render("not scored yet")
			}
			lines = append(lines, row(p.Name, spark(p.Scores, v.MaxScore), text))
		}
	}
	lines = append(lines, f.st.Bold.Render(fmt.Sprintf("Concession log (%d)", len(v.Concessions))))
	room := max(0, height-len(lines))
	log := v.Concessions
	if len(log) > room {
		// the newest that fit, under a line saying how many are above
		keep := max(0, room-1)
		lines = append(lines, f.st.Subtle.Render(fit(fmt.Sprintf("  … %d earlier: enter zooms the whole log", len(log)-keep))))
		log = log[len(log)-keep:]
	}
	for _, c := range log {
		lines = append(lines, fit(fmt.Sprintf("  r%d %s: %s", c.Round, c.Name, c.Text)))
	}
	if len(v.Concessions) == 0 && room > 0 {
		lines = append(lines, f.st.Subtle.Render("  none yet"))
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	return lines
}

// argueZoom is the whole argue view for the Convergence tab's zoom: every
// persona's trajectory and scores and the whole concession log.
func (f *frame) argueZoom(v *engine.ScoreView) string {
	return strings.Join(f.renderArgue(v, f.w-2, 1<<20), "\n")
}

// keepsArtifacts: the debate running here rewrites files of its own as
// each call lands (argue), which its live view reads.
func (f frame) keepsArtifacts() bool {
	_, ok := f.opts.Protocol.(engine.Artifacts)
	return ok
}

// argueStopKey asks a running argue debate to stop after the round in
// flight and synthesize it (the manual stop of docs/protocols/argue.md).
const argueStopKey = "S"

// canStopArgue: a debate of a protocol that stops early runs here.
func (r runState) canStopArgue(f *frame) bool {
	_, ok := f.opts.Protocol.(engine.Stopper)
	return ok && r.on && r.bridge != nil
}

// stopArgue asks the runner, through the bridge, to stop after this round.
func (f *frame) stopArgue() {
	f.run.bridge.stop.Store(true)
	f.toast.text, f.toast.until = "stop asked: the debate stops after this round, then the synthesis", f.clock().Add(4*time.Second)
}

// stopNote says what the stop key does, or that a stop was asked.
func (r runState) stopNote(f *frame) string {
	switch {
	case !r.canStopArgue(f):
		return ""
	case r.bridge.stop.Load():
		return "stop asked: the debate stops after this round, then the synthesis"
	}
	return argueStopKey + " stops after this round and synthesizes"
}
