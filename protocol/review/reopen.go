package review

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Kind is the review's folders as the runner's resume reopens them
// (engine.SeatedKind): moot resume ID hands a review's folder to
// engine.Resume, which finds it is a review's (its stamp) and reopens it
// here.
type Kind struct{}

var _ engine.SeatedKind = Kind{}

// Host is what a review's resume needs of the front end that started it,
// which this package cannot do itself (it never calls the harness or
// asks a human): Prepare rebuilds the round's inputs for the reopened
// record — the envelope from the current files, the routes from the
// engines file and its probes, the call path — once the plan is accepted.
// ctx is the resume's: cancelled, it stops the round.
type Host interface {
	Prepare(ctx context.Context, f *Folder, st *State) (RunInput, error)
}

// Name is the protocol's name.
func (Kind) Name() string { return Name }

// Owns reports whether dir is a review folder, or claims to be one: moot
// stamped it, or it is named as a review is (Reopen then refuses a folder
// moot did not stamp, naming its files).
func (Kind) Owns(dir string) bool { return Stamped(dir) || IsID(filepath.Base(dir)) }

// Reopen reads the review in dir (OpenRecord), has host prepare its
// round and returns the session that resumes it on the runner.
func (Kind) Reopen(ctx context.Context, dir string, host any) (engine.SeatedRun, error) {
	h, ok := host.(Host)
	if !ok {
		return engine.SeatedRun{}, fmt.Errorf("resume review %s: the front end gave no review.Host (%T)", dir, host)
	}
	f, st, err := OpenRecord(dir)
	if err != nil {
		return engine.SeatedRun{}, err
	}
	in, err := h.Prepare(ctx, f, st)
	if err != nil {
		return engine.SeatedRun{}, err
	}
	in.Folder, in.State, in.Resume = f, st, true
	return session(&tribunal{in: in}), nil
}

// OpenRecord opens the review in dir for a resume: its stamp verified
// before anything is read, its record's seal verified. A review a human
// decided, or one stalled waiting for that decision, is refused (a new
// round would override it); nothing is written either way.
func OpenRecord(dir string) (*Folder, *State, error) {
	f, err := OpenFolder(dir)
	if err != nil {
		return nil, nil, err
	}
	st, err := ReadState(dir)
	if err != nil {
		return nil, nil, err
	}
	if Decided(st) {
		return nil, nil, &bugfolder.InputError{Msg: fmt.Sprintf("review %s was decided by a human: %s (moot decide; %s): a resumed round would override that decision, so moot does not resume it; nothing was called or written. For a new candidate, start a new review (moot review --change …)",
			f.ID, st.Decision, filepath.Join(dir, DecisionFile))}
	}
	if st.Status == StatusStalled && st.Decision == "pending" {
		return nil, nil, &bugfolder.InputError{Msg: fmt.Sprintf("review %s stalled and waits for a human decision: moot decide %s approve|decline|revise", f.ID, f.ID)}
	}
	return f, st, nil
}

// ResultOf is what a review's round resumed by engine.Resume ended with
// (the report's), read from its session; false when res is no review's.
func ResultOf(res *engine.Result) (RunResult, bool) {
	if res == nil {
		return RunResult{}, false
	}
	t, ok := res.Session.(*tribunal)
	if !ok {
		return RunResult{}, false
	}
	out := t.res
	out.Round, out.TimedOut = res.Seated.Round, res.Seated.TimedOut
	return out, true
}

// Range is the range a round reviews and whether its end is read from its
// commit (not the disk): round 1's as given; a resumed round's from round
// 1's resolved base to HEAD, read from disk when round 1's range ended at
// the working tree.
func (s *State) Range(resumed bool) (change string, committed bool) {
	if !resumed || s.Base == "" || s.Change == "" {
		return s.Change, false
	}
	return s.Base + "..HEAD", !s.Worktree
}

// Cap is the budget cap the record holds (none: no limit), the one a
// resume starts from.
func (s *State) Cap() engine.Budget {
	if s.Budget == nil {
		return engine.Budget{}
	}
	return engine.Budget{MaxUSD: s.Budget.MaxUSD, MaxTokens: s.Budget.MaxTokens}
}
