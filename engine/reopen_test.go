package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
)

// stampKind is a seated kind whose folders hold "stamp.NAME": it records
// the folders it reopened and the host it was handed, and reopens them as
// a round cut short (cancelled) whose seats then pass.
type stampKind struct {
	name     string
	refuse   error
	reopened []string
	host     any
	session  *seatScript
}

func (k *stampKind) Name() string { return k.name }
func (k *stampKind) Owns(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "stamp."+k.name))
	return err == nil
}
func (k *stampKind) Reopen(_ context.Context, dir string, host any) (engine.SeatedRun, error) {
	k.reopened, k.host = append(k.reopened, dir), host
	if k.refuse != nil {
		return engine.SeatedRun{}, k.refuse
	}
	k.session = &seatScript{status: engine.SeatedCancelled, rounds: 1, cont: true, gate: engine.SeatedPass}
	return engine.SeatedRun{Dir: dir, Protocol: k.session, Command: "moot " + k.name, Member: "seat", Calls: noCalls{}}, nil
}

// TestResumeReopensAFolderThroughTheKindThatOwnsIt: the runner's one
// resume (engine.Resume) reopens a seated folder through the kind that
// owns it — never another — handing it the front end's host, and
// continues it on the runner (its round cut short continued in place,
// resumed and debate_finished logged, the totals in the result); a folder
// no kind owns, or one its kind refuses, is an error with nothing
// written; without a folder the bug's debate is resumed, no kind asked.
func TestResumeReopensAFolderThroughTheKindThatOwnsIt(t *testing.T) {
	refusal := &bugfolder.InputError{Msg: "its seal does not verify"}
	cases := []struct {
		name      string
		stamp     string // the kind whose stamp the folder holds ("" none)
		refuse    error
		noFolder  bool
		wantBy    string // the kind that reopens it
		wantErr   string
		wantInput bool
	}{
		{name: "the second kind's folder", stamp: "beta", wantBy: "beta"},
		{name: "the first kind's folder", stamp: "alpha", wantBy: "alpha"},
		{name: "a folder no kind owns", wantErr: "no alpha or beta folder of moot's", wantInput: true},
		{name: "a folder its kind refuses", stamp: "alpha", refuse: refusal, wantBy: "alpha", wantErr: "its seal does not verify", wantInput: true},
		{name: "no folder: the bug's debate", noFolder: true, wantErr: "there is no debate to resume", wantInput: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.stamp != "" {
				if err := os.WriteFile(filepath.Join(dir, "stamp."+c.stamp), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			alpha, beta := &stampKind{name: "alpha", refuse: c.refuse}, &stampKind{name: "beta"}
			host := struct{ name string }{"the front end"}
			opts := engine.Options{Folder: dir, Kinds: []engine.SeatedKind{alpha, beta}, Host: host, Protocol: debate.Protocol{}}
			var bug *bugfolder.Bug
			if c.noFolder {
				opts.Folder = ""
				_, b, err := bugfolder.Resolve(testutil.CopyTree(t, "sample"), "7")
				if err != nil {
					t.Fatal(err)
				}
				bug = b
			}
			before, _ := os.ReadDir(dir)
			res, err := engine.Resume(context.Background(), bug, opts)
			for _, k := range []*stampKind{alpha, beta} {
				if by := k.name == c.wantBy; by != (len(k.reopened) == 1) || (by && (k.reopened[0] != dir || k.host != host)) {
					t.Errorf("kind %s reopened %v with host %v; want only %q to reopen %s with the front end's host", k.name, k.reopened, k.host, c.wantBy, dir)
				}
			}
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || bugfolder.IsInputError(err) != c.wantInput {
					t.Fatalf("err %v: want an input error saying %q", err, c.wantErr)
				}
				if after, _ := os.ReadDir(dir); len(after) != len(before) {
					t.Errorf("a refused resume wrote in the folder: %d entries, was %d", len(after), len(before))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := (map[string]*stampKind{"alpha": alpha, "beta": beta})[c.wantBy].session
			if res.Session != engine.Seated(s) || res.Dir != dir || res.Outcome != engine.OutcomeDone || res.Calls != 2 || res.Tokens != 30 || res.Seated.Status != engine.SeatedPass {
				t.Errorf("result %+v: want the kind's session, its folder, done, 2 calls and 30 tokens", res)
			}
			if len(s.begun) != 1 || s.begun[0] != 1 || s.fresh[0] {
				t.Errorf("rounds begun %v (fresh %v): want round 1 continued in place", s.begun, s.fresh)
			}
			if len(s.log) == 0 || s.log[0].Type != engine.EvResumed || s.log[len(s.log)-1].Type != engine.EvDebateFinished {
				t.Errorf("logged %v: want resumed first and debate_finished last", s.log)
			}
		})
	}
}

// a stampKind is a seated kind the runner can reopen.
var _ engine.SeatedKind = (*stampKind)(nil)
