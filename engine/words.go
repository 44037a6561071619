package engine

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/termsafe"
)

// SetupLine is one line of a setup as a person reads it: a key ("panel",
// "protocol", "lenses", "option A") and its text.
// Note, when set, describes the line's subject (a lens's one-line
// description), shown after the text where there is room; a line whose
// Key is empty continues the list of the line above (one lens a line).
type SetupLine struct{ Key, Text, Note string }

// SetupLines describe a setup in its protocol's words, from Describe: the
// panel (its size, rounds, support role and final step), then the panel's
// lenses or the options. moot plan and the TUI's cost screen share them.
func SetupLines(s Setup) []SetupLine {
	in := Describe(s.Protocol)
	var parts []string
	key := "panel"
	if in.Named && s.Protocol != nil {
		key = "protocol"
		parts = append(parts, s.Protocol.Name())
	}
	panel := fmt.Sprintf("N=%d %s", s.N, in.Members)
	if in.N > 0 { // a fixed panel needs no N=
		panel = fmt.Sprintf("%d %s", s.N, in.Members)
	}
	if in.PanelNote != "" {
		panel += ", " + in.PanelNote
	}
	parts = append(parts, panel)
	rounds := fmt.Sprintf(in.Rounds, s.R)
	if in.MaxR > 0 && in.MaxR < MaxRounds {
		rounds += fmt.Sprintf(" (at most %d)", in.MaxR)
	}
	parts = append(parts, rounds)
	if in.Support || len(s.Critics) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s(s)", len(s.Critics), in.Supporter))
	}
	final := in.Final + " " + s.Judge
	if s.VerifyJudge {
		final += " (order-swap check)"
	}
	if s.AllowSameFamily {
		final += " (same family allowed)"
	}
	parts = append(parts, final)
	out := []SetupLine{{Key: key, Text: strings.Join(parts, " · ")}}
	switch {
	case in.Options:
		for i, l := range s.Lenses {
			out = append(out, SetupLine{Key: "option " + termsafe.Line(l.Name), Text: s.Lang.SolverID(i+1) + ": " + termsafe.Line(l.Text)})
		}
	case len(s.Lenses) > 0 || in.LensEach:
		word := cmp.Or(in.LensesWord, "lenses")
		if len(s.Lenses) == 0 {
			out = append(out, SetupLine{Key: word})
		}
		for i, l := range s.Lenses {
			key := ""
			if i == 0 {
				key = word
			}
			out = append(out, SetupLine{Key: key, Text: s.Lang.SolverID(i+1) + " " + termsafe.Line(l.Name), Note: LensSummary(l.Text)})
		}
	}
	if len(s.Criteria) > 0 {
		out = append(out, SetupLine{Key: "criteria", Text: termsafe.Line(strings.Join(s.Criteria, "; "))})
	}
	if st := s.Stakes; st.Stated() {
		var parts []string
		if st.Valued {
			parts = append(parts, "value at risk "+strconv.FormatFloat(st.ValueAtRisk, 'f', -1, 64))
		}
		if st.Irreversible {
			parts = append(parts, "irreversible")
		}
		out = append(out, SetupLine{Key: "stakes", Text: strings.Join(parts, " · "), Note: "frozen in problema.md; the synthesis escalates on them"})
	}
	if tl, ok := s.Protocol.(TimeLimited); ok {
		lim := tl.TimeLimits()
		out = append(out, SetupLine{Key: "limits", Text: fmt.Sprintf("%s a call, %s a round, %s in all", humantime.Duration(lim.Call), humantime.Duration(lim.Round), humantime.Duration(lim.Debate)),
			Note: "the protocol's defaults: --timeout (or the engine's own), --round-timeout and --debate-timeout override them"})
	}
	return out
}

// LensSummary is a lens's description in one line: a persona's part in
// its style ("part: questioner: …") when the lens states one, else the
// first line of its text, cut to its first sentence when the line holds
// several, for a front end to show beside the lens's name where there is
// room.
func LensSummary(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if part, ok := strings.CutPrefix(strings.TrimSpace(l), "Part: "); ok {
			return termsafe.Line("part: " + part) // a persona's part in its style says more than its domain
		}
	}
	line := ""
	for _, l := range strings.Split(text, "\n") {
		if line = strings.Join(strings.Fields(l), " "); line != "" {
			break
		}
	}
	if i := strings.Index(line, ". "); i > 0 {
		line = line[:i+1]
	}
	return termsafe.Line(line)
}

// degradedLine opens a final answer that only k of the n panel members
// reached. the debate protocol's debate keeps its line as written (a contract); a
// Named protocol says it in its own words.
func degradedLine(l bugfolder.Lang, in Inputs, k, n int) string {
	switch {
	case !in.Named && l == bugfolder.EN:
		return fmt.Sprintf("> Degraded debate: %d of %d debaters took part.\n\n", k, n)
	case !in.Named:
		return fmt.Sprintf("> Debate degradado: %d de %d debatedores participaram.\n\n", k, n)
	case l == bugfolder.EN:
		return fmt.Sprintf("> Degraded: %d of %d %s took part.\n\n", k, n, in.Members)
	}
	pt := in.MembersPT
	if pt == "" {
		pt = in.Members
	}
	return fmt.Sprintf("> Degradado: %d de %d %s participaram.\n\n", k, n, pt)
}
