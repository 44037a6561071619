package cli

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/protocol/review"
)

// reviewParents are the folders that hold reviews: the git root's and the
// project's .moot/reviews/, and every bug's review/ in the register.
func reviewParents(e *env, reg *bugfolder.Register) []string {
	var roots []string
	if root, err := gitRoot(e.cwd); err == nil {
		roots = append(roots, root)
	}
	return review.Parents(append(roots, bugfolder.ProjectRoot(e.cwd)), reg)
}

// reviewTarget is the review folder a TARGET names (its ID or folder), or "".
func reviewTarget(e *env, arg string) string {
	if !review.IsID(arg) && !review.Stamped(arg) {
		return "" // a bug or a question: no folder walk, no git call
	}
	reg, _ := bugfolder.FindRoot(e.cwd)
	return review.Find(arg, reviewParents(e, reg))
}

// printReview prints a review's summary (show and transcript).
func printReview(e *env, dir string) error {
	st, err := review.ReadState(dir)
	if err != nil {
		return err
	}
	status := review.ListedStatus(st, dir)
	b, err := safefs.ReadFile(filepath.Join(dir, review.SummaryFile(st.LangOf())), 4<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// a round under way or cut by a killed moot: what there is so far
		return renderMarkdown(e, review.RenderProgress(dir, filepath.Base(dir), status, st))
	case err != nil:
		return &bugfolder.InputError{Path: dir, Msg: "its summary cannot be read: " + err.Error(), Err: err}
	case status == review.StatusInterrupted || status == review.StatusRunning:
		// an earlier round's summary, and the round under way
		return renderMarkdown(e, string(b)+"\n"+review.RenderProgress(dir, filepath.Base(dir), status, st))
	}
	return renderMarkdown(e, string(b)+review.DecisionLine(st))
}

// reviewEntries lists the reviews for moot list --json.
func reviewEntries(e *env, reg *bugfolder.Register) ([]listEntry, []error) {
	states, dirs, errs := review.List(reviewParents(e, reg))
	var out []listEntry
	for i, st := range states {
		en := listEntry{BugID: st.ID, Title: st.Contract.Intent, Path: dirs[i], Status: st.Status, Kind: "review",
			Protocol: ptr(review.Name), Debates: len(st.Rounds), Visibility: bugfolder.VisibilityNormal}
		if reg != nil {
			en.Path = reg.Rel(dirs[i])
		}
		if st.BugID != "" {
			en.Context = st.BugID
		}
		if st.Status == review.StatusError { // List gave a killed review's status (interrupted) already
			en.Warnings = append(en.Warnings, "a file of the review could not be saved: "+st.Error)
		}
		if st.Restricted {
			en.Visibility = bugfolder.VisibilityRestricted
		}
		if st.Decision != "" {
			en.Decision = ptr(st.Decision)
		}
		if !st.StartedAt.IsZero() {
			en.StartedAt = ptr(st.StartedAt.UTC().Format(time.RFC3339))
		}
		evs, _ := review.ReadEvents(dirs[i]) // an unreadable log: the record's count
		en.Calls, en.Tokens = review.Calls(st, evs), st.Tokens
		en.ElapsedSeconds = reviewElapsed(evs)
		en.CostUSD, en.CostPartlyUnknown = ptr(st.CostUSD), st.CostUnknown
		if st.CostUnknown && st.CostUSD == 0 {
			en.CostUSD = nil // no call recorded a cost: unknown, not zero
		}
		n := len(st.Lenses)
		en.N, en.R, en.Rounds = &n, ptr(len(st.Rounds)), ptr(len(st.Rounds))
		if g, ok := review.LastGate(st); ok {
			en.Verdict, en.Weakened = ptr(string(g.Outcome)), g.Weakened && g.Outcome == review.OutcomePass
			en.Lenses = &lensOutcomes{Passed: g.Passes, Held: g.Holds, Refused: g.Refuses}
		}
		out = append(out, en)
	}
	return out, errs
}
