package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// idRE is the shape of a review's ID (its stamp).
var idRE = lazyre.New(`^[0-9]{8}-[0-9]{6}(-[0-9]+)?$`)

// IsID reports whether s has the shape of a review's ID.
func IsID(s string) bool { return idRE.MatchString(s) }

// Stamped reports whether dir is a review folder moot stamped.
func Stamped(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, StampFile))
	return err == nil && fi.Mode().IsRegular()
}

// StatusInterrupted is how a list shows a review whose record says running
// but whose writer is gone.
const StatusInterrupted = engine.SeatedInterrupted

// ListedStatus is the one predicate of a review's status as moot shows it
// (moot list, the browser's rows, the review view): its record's, except
// that a record saying running whose writer is gone (killed with kill -9,
// so no live process holds its lock) is interrupted.
func ListedStatus(st *State, dir string) string {
	return engine.ListedStatus(st.Status, dir)
}

// Find returns the stamped review folder an argument names: a folder
// path, or an ID under one of parents ("" when none).
func Find(arg string, parents []string) string {
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() && Stamped(arg) {
		abs, _ := filepath.Abs(arg)
		return abs
	}
	if !IsID(arg) {
		return ""
	}
	for _, p := range parents {
		if d := filepath.Join(p, arg); Stamped(d) {
			return d
		}
	}
	return ""
}

// List reads the stamped review folders under parents, oldest first, each
// record's status as a list shows it (ListedStatus); a folder whose record
// cannot be read is skipped with its error.
func List(parents []string) ([]*State, []string, []error) {
	var out []*State
	var dirs []string
	var errs []error
	for _, p := range parents {
		ms, _ := filepath.Glob(filepath.Join(p, "*"))
		slices.Sort(ms)
		for _, d := range ms {
			if !Stamped(d) || slices.Contains(dirs, d) {
				continue
			}
			st, err := ReadState(d)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			st.Status = ListedStatus(st, d)
			out, dirs = append(out, st), append(dirs, d)
		}
	}
	return out, dirs, errs
}

// LastGate is the gate of the review's last round that ended with a
// verdict on the change (false before any, or when the last round was cut
// short: cancelled, stopped at the budget cap, or unsaved).
func LastGate(st *State) (Gate, bool) {
	if len(st.Rounds) == 0 || st.Status == StatusRunning || Resumable(st.Status) {
		return Gate{}, false
	}
	return st.Rounds[len(st.Rounds)-1].Gate, true
}

// WaitsForDecision reports whether a review waits for a human: it
// stalled, or it holds (a lens nobody could sit: a restricted bug's
// UNVERIFIED local seats, every ladder exhausted) — a hold may also be
// resumed.
func WaitsForDecision(st *State) bool {
	switch st.Status {
	case StatusStalled:
		return st.Decision == "pending"
	case StatusHeld:
		return st.Decision == "pending" || st.Decision == ""
	}
	return false
}

// Decided reports a human's closing decision: approve or decline. A
// resumed round would override it, so --resume refuses a decided review
// (docs/protocols/review.md: a review that stops escalates to the human, and moot never
// grinds on past the human's word). revise is the human sending the
// change back to the loop: a resume after it runs, and the decision stays
// on the record beside the new rounds.
func Decided(st *State) bool {
	return st.Decision == string(bugfolder.ChoiceApprove) || st.Decision == string(bugfolder.ChoiceDecline)
}

// DecisionLine is what show prints under the summary: the human decision
// on the review ("" when none was taken; pending is in the summary).
func DecisionLine(st *State) string {
	if st.Decision == "" || st.Decision == "pending" {
		return ""
	}
	return fmt.Sprintf("\n**Human decision:** %s (%s)\n", st.Decision, DecisionFile)
}

// Decision is a human's decision on a stalled review.
type Decision struct {
	Dir    string
	Choice bugfolder.Choice
	Note   string
	By     string
	Now    func() time.Time
}

// DecideHuman records the human decision a stalled review waits for:
// decisao.md in its folder (owner-only, atomic), the record's decision and
// a decision event. A review that waits for none is an input error and
// nothing is written.
func DecideHuman(d Decision) (string, error) {
	f, err := OpenFolder(d.Dir)
	if err != nil {
		return "", err
	}
	st, err := ReadState(d.Dir)
	if err != nil {
		return "", err
	}
	if !WaitsForDecision(st) {
		why := fmt.Sprintf("review %s is %s and waits for no human decision (only a stalled review or one that holds does)", f.ID, st.Status)
		if st.Decision != "" && st.Decision != "pending" {
			why = fmt.Sprintf("review %s is already decided: %s", f.ID, st.Decision)
		}
		return "", &bugfolder.InputError{Path: d.Dir, Msg: why + "; nothing was written", Err: engine.ErrNothingPending}
	}
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	at := now().UTC()
	summary := SummaryFile(st.LangOf())
	raw, err := safefs.ReadFile(filepath.Join(d.Dir, summary), 0)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", filepath.Join(d.Dir, summary), err)
	}
	sum := sha256.Sum256(raw)
	data, err := bugfolder.RenderDecision(st.LangOf(), bugfolder.DecisionMeta{BugID: st.BugID, Choice: d.Choice, By: d.By,
		DecidedAt: bugfolder.Timestamp(at), Note: d.Note, FinalSHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return "", err
	}
	data = bytes.ReplaceAll(data, []byte("resposta-final.md"), []byte(summary))
	if err := f.Write(DecisionFile, data); err != nil {
		return "", err
	}
	st.Decision, st.UpdatedAt = string(d.Choice), at
	if err := f.WriteJSON(StateFile, st); err != nil {
		return "", err
	}
	k := len(st.Rounds)
	if err := f.Append(engine.Event{Type: engine.EvDecision, Time: at, Point: engine.PointResult, Choice: string(d.Choice), By: "human", Round: k}); err != nil {
		return "", err
	}
	return filepath.Join(d.Dir, DecisionFile), nil
}

// Parents are the folders that hold reviews: each root's .moot/reviews/
// (the git root, the project), then every bug's review/ in the register;
// moot list and the TUI's browser read the same ones.
func Parents(roots []string, reg *bugfolder.Register) []string {
	var out []string
	seen := map[string]bool{} // a register of 50,000 bugs: no quadratic scan
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, r := range roots {
		if r != "" {
			add(filepath.Join(r, ReviewsDir))
		}
	}
	if reg != nil && reg.Root != "" {
		dirs, _ := bugfolder.BugDirs(reg)
		for _, bd := range dirs {
			if !bd.Question {
				add(filepath.Join(bd.Dir, BugReviewDir))
			}
		}
	}
	return out
}
