package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// prepHost is a front end that records what it was asked to prepare.
type prepHost struct{ asked []string }

func (h *prepHost) Prepare(_ context.Context, f *Folder, st *State) (RunInput, error) {
	h.asked = append(h.asked, f.ID+"/"+st.Status)
	return RunInput{}, nil
}

// TestReviewKindReopensOnlyARecordItMayResume: the runner's resume
// reopens a review folder through Kind — a record cut short is handed to
// the front end to prepare and comes back as a resumed session of that
// folder; a record a human decided, one stalled waiting for that
// decision, one edited after moot sealed it, or a folder moot never
// stamped is refused before the front end is asked anything.
func TestReviewKindReopensOnlyARecordItMayResume(t *testing.T) {
	cases := []struct {
		name    string
		st      State
		edit    bool // review.json rewritten after sealing
		unstamp bool // the stamp removed
		wantErr string
	}{
		{name: "a round cut short", st: State{Status: StatusCancelled}},
		{name: "approved by a human", st: State{Status: StatusHeld, Decision: string(bugfolder.ChoiceApprove)}, wantErr: "decided by a human"},
		{name: "stalled, waiting for a decision", st: State{Status: StatusStalled, Decision: "pending"}, wantErr: "waits for a human decision"},
		{name: "its record edited", st: State{Status: StatusCancelled}, edit: true, wantErr: "review.json"},
		{name: "never stamped", st: State{Status: StatusCancelled}, unstamp: true, wantErr: StampFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := NewFolder(t.TempDir(), fixedTime)
			if err != nil {
				t.Fatal(err)
			}
			st := c.st
			st.ID, st.Protocol = f.ID, Name
			if err := f.WriteJSON(StateFile, &st); err != nil {
				t.Fatal(err)
			}
			if c.edit {
				if err := os.WriteFile(filepath.Join(f.Dir, StateFile), []byte(`{"id": "`+f.ID+`", "status": "cancelled"}`), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if c.unstamp {
				if err := os.Remove(filepath.Join(f.Dir, StampFile)); err != nil {
					t.Fatal(err)
				}
			}
			if !(Kind{}).Owns(f.Dir) {
				t.Fatalf("Kind does not own %s, a review's folder", f.Dir)
			}
			h := &prepHost{}
			run, err := Kind{}.Reopen(context.Background(), f.Dir, h)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v: want a refusal naming %q", err, c.wantErr)
				}
				if len(h.asked) > 0 {
					t.Errorf("the front end was asked to prepare %v: a refused record asks nothing", h.asked)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(h.asked) != 1 || h.asked[0] != f.ID+"/"+StatusCancelled || run.Dir != f.Dir || !run.Resume || run.Protocol == nil || run.Command != "moot review" {
				t.Errorf("asked %v, session %+v: want the record prepared once and a resumed session of %s", h.asked, run, f.Dir)
			}
		})
	}
	if (Kind{}).Owns(t.TempDir()) {
		t.Error("Kind owns a folder that is neither stamped nor named as a review")
	}
	if _, err := (Kind{}).Reopen(context.Background(), t.TempDir(), struct{}{}); err == nil || !strings.Contains(err.Error(), "review.Host") {
		t.Errorf("a front end that is no review.Host: err %v", err)
	}
}

// TestResumedRoundReviewsFromTheRecordedBaseToHead: round 1 reviews the
// range as given; a resumed round reviews from round 1's resolved base to
// HEAD (however HEAD moved), read from its commit unless round 1's range
// ended at the working tree; --files reviews have no range.
func TestResumedRoundReviewsFromTheRecordedBaseToHead(t *testing.T) {
	cases := []struct {
		name          string
		st            State
		resumed       bool
		want          string
		wantCommitted bool
	}{
		{"round 1", State{Change: "HEAD~1..HEAD", Base: "abc"}, false, "HEAD~1..HEAD", false},
		{"resumed, a committed range", State{Change: "HEAD~1..HEAD", Base: "abc"}, true, "abc..HEAD", true},
		{"resumed, a range ending at the working tree", State{Change: "HEAD~1..HEAD", Base: "abc", Worktree: true}, true, "abc..HEAD", false},
		{"resumed, --files", State{Files: []string{"calc.go"}}, true, "", false},
	}
	for _, c := range cases {
		if got, committed := c.st.Range(c.resumed); got != c.want || committed != c.wantCommitted {
			t.Errorf("%s: Range = %q, %v; want %q, %v", c.name, got, committed, c.want, c.wantCommitted)
		}
	}
	if c := (&State{Budget: &Cap{MaxUSD: 0.1, MaxTokens: 500}}).Cap(); c.MaxUSD != 0.1 || c.MaxTokens != 500 {
		t.Errorf("the record's cap read back as %+v", c)
	}
	if (&State{}).Cap().Set() {
		t.Error("a record without a cap reads back a cap")
	}
}
