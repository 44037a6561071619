package review

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reversa/moot/engine"
)

// builderSaid names the builder in a report: "Builder: ENGINE (engine,
// family F)", "Builder: ENGINE (engine, family unknown)" — never an
// engine's name as a family — else "Builder family: F".
func builderSaid(st *State) string {
	switch {
	case st.BuilderEngine != "" && st.BuilderFamilyUnknown:
		return fmt.Sprintf("Builder: %s (engine, family unknown)", st.BuilderEngine)
	case st.BuilderEngine != "":
		return fmt.Sprintf("Builder: %s (engine, family %s)", st.BuilderEngine, st.BuilderFamily)
	}
	return "Builder family: " + st.BuilderFamily
}

// SoloNote is what a solo review's report says of its weakened gate.
const SoloNote = "blind same-family, not cross-family"

// oneLine folds text to one line for a table or a list.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes text safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// RenderRoutes writes round k's route table: for each lens, every rung
// of its ladder with its family and what became of it (sat, verifier,
// builder-family, capacity, restricted, unusable, wrong-lens with its raw
// tail, hold, not-reached), and reasoning as the engine's default.
func RenderRoutes(st *State, k int, seats []Seat) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Route table, round %d\n\n", k)
	switch {
	case st.BuilderFamily != "" && st.Solo:
		fmt.Fprintf(&b, "%s — solo rig: its family's rungs may sit (%s).\n\n", builderSaid(st), SoloNote)
	case st.BuilderFamily != "":
		fmt.Fprintf(&b, "%s — every rung of it is excluded before dispatch.\n\n", builderSaid(st))
	default:
		b.WriteString("Builder: not declared (no family excluded).\n\n")
	}
	if note := PanelNote(st, seats); note != "" {
		fmt.Fprintf(&b, "Gate weakened: %s.\n\n", note)
	}
	b.WriteString(reasoningLine(seats))
	for _, s := range seats {
		if s.Lens == MootLens {
			continue
		}
		fmt.Fprintf(&b, "\n## %s — %s", s.Lens, strings.ToUpper(string(s.Outcome)))
		if s.Engine != "" {
			fmt.Fprintf(&b, " (seat: %s, family %s)", s.Engine, familyName(s.Family))
		}
		b.WriteString("\n\n| rung | engine | family | external | status | reason |\n|---|---|---|---|---|---|\n")
		for i, a := range s.Attempts {
			fmt.Fprintf(&b, "| %d | %s | %s | %v | %s | %s |\n", i+1, cell(a.Engine), cell(familyName(a.Family)), a.External, a.Status, cell(a.Reason))
		}
		if len(s.Attempts) == 0 {
			b.WriteString("| – | – | – | – | hold | no rung on the ladder |\n")
		}
		for _, a := range s.Attempts {
			if a.RawTail != "" {
				fmt.Fprintf(&b, "\nRaw tail of %s (%s):\n\n````text\n%s\n````\n", a.Engine, a.Status, strings.ReplaceAll(a.RawTail, "````", "` ` ` `"))
			}
		}
	}
	return b.String()
}

// reasoningLine says which called rungs ran with reasoning off and which
// could not (no verified switch: the engine's default).
func reasoningLine(seats []Seat) string {
	var off, def []string
	for _, s := range seats {
		for _, a := range s.Attempts {
			if a.Skip != "" || a.Status == StatusNotReached {
				continue
			}
			name := a.Engine
			if a.Reasoning != "" && a.Reasoning != Reasoning {
				if name += " " + strings.TrimPrefix(a.Reasoning, "off "); !slices.Contains(off, name) {
					off = append(off, name)
				}
			} else if !slices.Contains(def, name) {
				def = append(def, name)
			}
		}
	}
	var b strings.Builder
	b.WriteString("Reasoning: ")
	if len(off) > 0 {
		fmt.Fprintf(&b, "off on %s", strings.Join(off, ", "))
		if len(def) > 0 {
			b.WriteString("; ")
		}
	}
	if len(def) > 0 || len(off) == 0 {
		fmt.Fprintf(&b, "%s on %s (no verified switch: only an openai engine's verdict_reasoning_effort turns it off)", Reasoning, orNone(strings.Join(def, ", ")))
	}
	b.WriteString(".\n")
	return b.String()
}

// orNone shows an empty list.
func orNone(s string) string {
	if s == "" {
		return "no called rung"
	}
	return s
}

// familyName shows an unknown family.
func familyName(f string) string {
	if f == "" {
		return "unknown"
	}
	return f
}

// RenderSummary writes summary.md (resumo.md): the gate, each lens's
// verdict, every finding, the convergence by round and what happens next.
func RenderSummary(id string, st *State, res RunResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Review %s — %s\n\n", id, strings.ToUpper(st.Status))
	fmt.Fprintf(&b, "- Round: %d\n", res.Round)
	if st.Change != "" {
		fmt.Fprintf(&b, "- Change: %s\n", st.Change)
	} else {
		fmt.Fprintf(&b, "- Files: %s\n", strings.Join(st.Files, ", "))
	}
	fmt.Fprintf(&b, "- Contract: %s | %s\n", oneLine(st.Contract.Intent), oneLine(st.Contract.Criteria))
	switch {
	case st.BuilderFamily != "" && st.Solo:
		fmt.Fprintf(&b, "- %s — solo rig: %s\n", builderSaid(st), SoloNote)
	case st.BuilderFamily != "":
		fmt.Fprintf(&b, "- %s (excluded from every ladder)\n", builderSaid(st))
	default:
		b.WriteString("- Builder: not declared\n")
	}
	if note := PanelNote(st, res.Seats); note != "" {
		fmt.Fprintf(&b, "- Panel: gate weakened: %s\n", note)
	}
	if st.Status == StatusError {
		fmt.Fprintf(&b, "- ERROR: a file of this round could not be saved, so the gate stays closed whatever the jurors said: %s\n", oneLine(st.Error))
	}
	fmt.Fprintf(&b, "- Gate: %s — %s\n", res.Gate.Outcome, res.Gate.Reason)
	b.WriteString("\n## Verdicts\n\n| lens | verdict | seat | note |\n|---|---|---|---|\n")
	for _, s := range res.Seats {
		seat := "–"
		if s.Engine != "" {
			seat = s.Engine + " (" + familyName(s.Family) + ")"
			if s.Verifier != "" {
				seat += ", verified by " + s.Verifier
			}
		}
		note := s.Reason
		if s.Dry {
			note = strings.TrimSpace(note + " dry pass: low information")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.Lens, s.Outcome, cell(seat), cell(note))
	}
	b.WriteString("\n## Findings\n\n")
	n := 0
	for _, s := range res.Seats {
		for _, f := range s.Findings {
			n++
			fmt.Fprintf(&b, "- [%s] %s: %s", s.Lens, f.Severity, oneLine(f.Claim))
			if f.File != "" {
				fmt.Fprintf(&b, " (%s)", oneLine(f.File))
			}
			if e := oneLine(f.Evidence); e != "" {
				fmt.Fprintf(&b, " — evidence: %s", e)
			}
			b.WriteString("\n")
		}
	}
	if n == 0 {
		b.WriteString("None.\n")
	}
	b.WriteString("\n## Convergence (new findings per round)\n\n")
	for _, r := range st.Rounds {
		fmt.Fprintf(&b, "- round %d: %d new, %s\n", r.Round, len(r.New), r.Gate.Outcome)
	}
	b.WriteString("\n## Next\n\n")
	resume := engine.ResumeArgs(id, st.Config) // the engines file it ran on, so the command works as written
	switch {
	case st.Status == StatusCancelled:
		fmt.Fprintf(&b, "The review was cancelled before every juror answered: this round is no verdict on the change. `moot resume %s` continues it: the lenses that sat keep their verdicts, the others are called.\n", resume)
	case st.Status == StatusBudget:
		fmt.Fprintf(&b, "The budget cap stopped the round before every juror answered: this round is no verdict on the change. `moot resume %s --max-usd …` (or `--max-tokens …`) raises the cap and calls the lenses that did not sit.\n", resume)
	case st.Status == StatusError:
		fmt.Fprintf(&b, "Fix what kept the files from being saved, then `moot resume %s` re-convenes every juror.\n", resume)
	case st.Status == StatusPassed:
		b.WriteString("Unanimous pass: the gate opens.\n")
	case st.Status == StatusHeld:
		fmt.Fprintf(&b, "The review holds: it waits for a human decision (`moot decide %s approve|decline|revise`), or fix what held it and `moot resume %s` re-convenes every juror.\n", id, resume)
	case res.Stalled:
		fmt.Fprintf(&b, "New findings were stable or growing two rounds in a row: the review stops and waits for a human decision (`moot decide %s approve|decline|revise`).\n", id)
	default:
		fmt.Fprintf(&b, "Fix every finding (each becomes a failing test first), then `moot resume %s` re-convenes every juror on the current files.\n", resume)
	}
	fmt.Fprintf(&b, "\nThe route table of this round is %s/%s.\n", RoundDir(res.Round), RoutesFile)
	return b.String()
}

// RenderPlanned writes round k's route table before any call: each
// lens's ladder with the rungs excluded before dispatch and why. The
// table is rewritten with what became of every rung when the round ends.
func RenderPlanned(st *State, k int, routes []Route) string {
	seats := make([]Seat, 0, len(routes))
	for _, r := range routes {
		s := Seat{Lens: r.Lens.Name, Outcome: "planned"}
		for _, g := range r.Rungs {
			a := Attempt{Rung: g, Status: g.Skip, Reason: g.Why}
			if g.Skip == "" {
				a.Status = "to call"
			}
			s.Attempts = append(s.Attempts, a)
		}
		seats = append(seats, s)
	}
	return RenderRoutes(st, k, seats)
}

// RenderProgress is what `moot show` says of a review whose round has not
// ended (running, or interrupted: its moot was killed): its status, the
// round under way, the lenses seated so far (their verdict files, sealed)
// and those not yet, and how to continue it. id is the review's ID,
// status its listed status (ListedStatus).
func RenderProgress(dir, id, status string, st *State) string {
	k := len(st.Rounds) + 1
	for ; k > 1; k-- {
		if fi, err := os.Stat(filepath.Join(dir, RoundDir(k))); err == nil && fi.IsDir() {
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Review %s: %s\n\n", id, status)
	fmt.Fprintf(&b, "- Contract: %s\n", oneLine(st.Contract.Intent))
	switch status {
	case StatusInterrupted:
		fmt.Fprintf(&b, "- Status: interrupted — the moot running round %d is gone; no summary was written for it\n", k)
	case StatusRunning:
		fmt.Fprintf(&b, "- Status: running — a moot is running round %d; its summary is written when the round ends\n", k)
	default:
		fmt.Fprintf(&b, "- Status: %s — round %d has no summary yet\n", status, k)
	}
	var seated, open []string
	for _, l := range st.Lenses {
		s, err := ReadSealedSeat(dir, k, l.Name)
		if err != nil {
			open = append(open, l.Name)
			continue
		}
		what := string(s.Outcome)
		if s.Engine != "" {
			what += ", " + s.Engine
		}
		seated = append(seated, fmt.Sprintf("%s (%s)", l.Name, what))
	}
	fmt.Fprintf(&b, "- Lenses seated so far in round %d: %s\n", k, orNone(strings.Join(seated, ", ")))
	fmt.Fprintf(&b, "- Lenses not yet seated: %s\n", orNone(strings.Join(open, ", ")))
	if status != StatusRunning {
		fmt.Fprintf(&b, "\n`moot resume %s` continues the round: the lenses seated keep their verdicts, the others are called.\n", engine.ResumeArgs(id, st.Config))
	}
	return b.String()
}
