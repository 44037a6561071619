package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
)

// PointResult is the decision point of a human decision on a result that
// waits for one (a spec debate's recommended verdict): `moot decide` or
// the TUI's form, never moot on its own.
const PointResult = "result"

// HumanDecision is a human's decision on a debate's result.
type HumanDecision struct {
	// Root is the folder that holds the debate folder Dir (the bug folder).
	Root, Dir string
	// Lang is the project's language, for a folder that does not say its own.
	Lang bugfolder.Lang
	// BugID or QuestionID names the subject in decisao.md.
	BugID, QuestionID string
	Choice            bugfolder.Choice
	Note              string
	// By names who decided (whoami.Name).
	By string
	// Command names the holder in the lock file.
	Command string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// ErrNothingPending is wrapped by Decide's refusal of a result that waits
// for no decision.
var ErrNothingPending = fmt.Errorf("waits for no decision")

// Decide records a human decision: decisao.md beside the final answer
// (owner-only, atomic, under the debate's lock) and a decision event in the
// event log. A result that waits for nothing, a revise without a note, a
// closed bug or a debate another moot writes is an input error and nothing
// is written. It returns decisao.md's path.
func Decide(h HumanDecision) (string, error) {
	if h.Choice.NeedsNote() && strings.TrimSpace(h.Note) == "" {
		return "", &bugfolder.InputError{Field: "note", Msg: "revise needs a note saying what to revise; nothing was written"}
	}
	if n := len(strings.TrimSpace(h.Note)); n > bugfolder.MaxNoteBytes {
		return "", &bugfolder.InputError{Field: "note", Msg: fmt.Sprintf("is %d bytes; a decision's note is at most %d (say what to revise; put the rest in the bug); nothing was written", n, bugfolder.MaxNoteBytes)}
	}
	d, err := bugfolder.ReadDebate(h.Dir, h.Lang)
	if err != nil {
		return "", err
	}
	if d.DecisionClosed() {
		return "", bugfolder.DecisionClosedError(d)
	}
	if !d.AwaitsDecision() {
		return "", &bugfolder.InputError{Path: h.Dir, Msg: nothingPending(d) + "; nothing was written", Err: ErrNothingPending}
	}
	w, err := bugfolder.OpenWriter(h.Root, h.Dir, d.Lang, h.Command)
	if err != nil {
		return "", err
	}
	defer w.Close()
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	at := now().UTC()
	finalRaw, err := safefs.ReadFile(d.Final.Path, 0)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", d.Final.Path, err)
	}
	data, err := bugfolder.RenderDecision(d.Lang, bugfolder.DecisionMeta{
		BugID: h.BugID, QuestionID: h.QuestionID, Choice: h.Choice, By: h.By, DecidedAt: bugfolder.Timestamp(at),
		Note: strings.TrimSpace(h.Note), RecommendedVerdict: d.Final.RecommendedVerdict, FinalSHA256: sha256Hex(finalRaw),
	})
	if err != nil {
		return "", err
	}
	p, err := w.WriteDecision(data)
	if err != nil {
		return "", err
	}
	round := 0
	if d.Problem != nil {
		round = d.Problem.R
	}
	line, err := json.Marshal(Event{Type: EvDecision, Time: at, Point: PointResult, Choice: string(h.Choice), By: "human", Round: round})
	if err != nil {
		return p, err
	}
	if err := w.AppendEvent(line, true); err != nil {
		return p, err
	}
	return p, nil
}

// nothingPending says why a debate's result waits for no decision.
func nothingPending(d *bugfolder.Debate) string {
	switch {
	case d.Decision != nil:
		return fmt.Sprintf("already decided: %s by %s at %s (%s)", d.Decision.Choice, d.Decision.By, d.Decision.At.UTC().Format(time.RFC3339), bugfolder.DecisionFile)
	case d.Final == nil:
		return fmt.Sprintf("the debate is %s and has no final answer yet, so no decision waits", d.State)
	}
	return "its final answer waits for no human decision (a spec debate's recommended verdict, a tradeoff and an escalated council do)"
}

// sha256Hex is the hex sha256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
