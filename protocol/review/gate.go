package review

import (
	"fmt"
	"path"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/lazyre"
)

// MootLens is the lens of moot's own refusals (its test checks).
const MootLens = "moot"

// Gate is the round's result over every seat: only a unanimous pass opens it.
type Gate struct {
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason"`
	Passes  int     `json:"passes"`
	Dry     int     `json:"dry"`
	Refuses int     `json:"refuses"`
	Holds   int     `json:"holds"`
	// Weakened marks a gate whose panel proves no cross-family review
	// (WeakenedNote): its reason says why, so it never reads as a plain
	// unanimous pass.
	Weakened bool `json:"weakened,omitempty"`
}

// Weaken labels a round's gate weakened when WeakenedNote says it is:
// Weakened set and the note joined to the reason ("unanimous pass of 8
// juror(s) — gate weakened: builder unknown …").
func Weaken(g Gate, st *State, seats []Seat) Gate {
	if note := WeakenedNote(st, seats); note != "" {
		g.Weakened = true
		g.Reason += " — gate weakened: " + note
	}
	return g
}

// WeakenedMark follows a weakened pass wherever a review's verdict or
// status is one word (moot list, the browser, the MCP result): "pass
// (weakened)" never reads as a plain pass (docs/protocols/review.md).
const WeakenedMark = " (weakened)"

// VerdictWord is a gate's outcome as a list shows it: "pass (weakened)"
// for a weakened pass, else the outcome.
func VerdictWord(g Gate) string {
	if g.Weakened && g.Outcome == OutcomePass {
		return string(g.Outcome) + WeakenedMark
	}
	return string(g.Outcome)
}

// Decide applies the gate's rules to a round's seats:
//   - any refuse closes it (refuse); when a pass is dry and a refuse is
//     detailed, the reason says the detailed refuse stands over the dry
//     passes (they never outweigh it);
//   - else any hold (no rung, never answered, UNVERIFIED) keeps it shut (hold);
//   - else every seat passed: the gate opens (pass), unless every pass is
//     dry — low-information votes are never the only proof (hold).
func Decide(seats []Seat) Gate {
	var g Gate
	var refused, held []string
	detailed := false
	for _, s := range seats {
		switch s.Outcome {
		case OutcomePass:
			g.Passes++
			if s.Dry {
				g.Dry++
			}
		case OutcomeRefuse:
			g.Refuses++
			refused = append(refused, s.Lens)
			detailed = detailed || s.Detailed()
		default:
			g.Holds++
			held = append(held, s.Lens)
		}
	}
	switch {
	case g.Refuses > 0:
		g.Outcome = OutcomeRefuse
		g.Reason = "refused by " + strings.Join(refused, ", ")
		if g.Dry > 0 && detailed {
			g.Reason += fmt.Sprintf("; a detailed refuse stands: %d dry pass(es) never outweigh it", g.Dry)
		}
		if len(held) > 0 {
			g.Reason += "; held: " + strings.Join(held, ", ")
		}
	case g.Holds > 0:
		g.Outcome, g.Reason = OutcomeHold, "held: "+strings.Join(held, ", ")
	case g.Passes == 0:
		g.Outcome, g.Reason = OutcomeHold, "no juror sat"
	case g.Dry == g.Passes:
		g.Outcome, g.Reason = OutcomeHold, "every pass is dry (no finding, nothing named as checked): low information is never the only proof"
	default:
		g.Outcome, g.Reason = OutcomePass, fmt.Sprintf("unanimous pass of %d juror(s)", g.Passes)
	}
	return g
}

// MootSeat is moot's own refusal from its test checks: one blocker
// finding per failed check, naming the file or "false green"; nil when
// every check passed (or none ran).
func MootSeat(round int, checks []envelope.TestCheck) *Seat {
	var fs []Finding
	for _, c := range checks {
		if c.OK {
			continue
		}
		claim := c.Name + " failed"
		if c.Name == "false-green" {
			claim = "false green: the candidate's tests pass against the red commit's code"
		}
		if c.File != "" {
			claim += " (" + c.File + ")"
		}
		fs = append(fs, Finding{Severity: SevBlocker, Claim: claim, Evidence: c.Detail, File: c.File})
	}
	if len(fs) == 0 {
		return nil
	}
	return &Seat{Lens: MootLens, Round: round, Outcome: OutcomeRefuse, Engine: MootLens, Reason: "a test check moot ran failed", Findings: fs}
}

var nonWord = lazyre.New(`[^\p{L}\p{N}]+`)

// Identity is a finding's identity across rounds: its claim normalized
// (case, punctuation and spacing folded) and its file (the one it names,
// else the first envelope file its claim or evidence mentions).
func Identity(f Finding, files []string) string {
	claim := strings.TrimSpace(nonWord.ReplaceAllString(strings.ToLower(f.Claim), " "))
	file := cleanFile(f.File)
	if file == "" {
		for _, p := range files {
			if strings.Contains(f.Claim, p) || strings.Contains(f.Evidence, p) {
				file = p
				break
			}
		}
	}
	return claim + "|" + file
}

// cleanFile is a finding's file as one path: slashes, path.Clean, no
// leading "./" ("./calc.go" and "calc.go" are the same file).
func cleanFile(f string) string {
	f = strings.TrimSpace(strings.ReplaceAll(f, "\\", "/"))
	if f == "" {
		return ""
	}
	f = path.Clean(f)
	for strings.HasPrefix(f, "./") {
		f = f[2:]
	}
	if f == "." {
		return ""
	}
	return f
}

// NewFindings are the identities of a round's findings that no earlier
// round raised (seen), once each.
func NewFindings(seats []Seat, files []string, seen map[string]bool) []string {
	var out []string
	here := map[string]bool{}
	for _, s := range seats {
		for _, f := range s.Findings {
			id := Identity(f, files)
			if !seen[id] && !here[id] {
				here[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// Stalled is the stop rule (docs/protocols/review.md: measure convergence by new findings
// per round): round k ≥ 2 stalls when it raised new findings and no fewer
// than round k-1 did — stable or growing, two rounds in a row. news[i] is
// round i+1's count.
func Stalled(news []int) bool {
	k := len(news)
	return k >= 2 && news[k-1] > 0 && news[k-1] >= news[k-2]
}
