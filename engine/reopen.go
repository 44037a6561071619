package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// SeatedKind is a seated protocol's folders as the runner's resume finds
// and reopens them (review.Kind): the front end hands the kinds it runs
// to Resume (Options.Kinds), so the engine imports no protocol and one
// resume serves a debate and a seated run alike.
type SeatedKind interface {
	// Name is the protocol's name ("review").
	Name() string
	// Owns reports whether dir is one of its folders (its stamp is there),
	// reading nothing else.
	Owns(dir string) bool
	// Reopen reads dir's record (checked: one it cannot trust is an
	// error, nothing written) and returns the session that resumes it.
	// host is Options.Host as the front end gave it: what the protocol
	// needs of the front end (the engines file, git, the plan accepted),
	// each kind saying what it must implement.
	Reopen(ctx context.Context, dir string, host any) (SeatedRun, error)
}

// resumeSeated resumes the seated folder opts.Folder: the kind that owns
// it reopens it, and RunSeated continues it (a round cut short in place,
// else a new round). A folder no kind owns is refused, nothing written.
func resumeSeated(ctx context.Context, opts Options) (*Result, error) {
	var names []string
	for _, k := range opts.Kinds {
		names = append(names, k.Name())
		if !k.Owns(opts.Folder) {
			continue
		}
		run, err := k.Reopen(ctx, opts.Folder, opts.Host)
		if err != nil {
			return nil, err
		}
		run.Resume = true
		out, err := RunSeated(ctx, run)
		if err != nil && out.Status != "" { // a round ran: name the run; else the refusal as it is
			err = fmt.Errorf("%s %s: %w", k.Name(), filepath.Base(run.Dir), err)
		}
		return &Result{Outcome: SeatedOutcome(out.Status), Dir: run.Dir, Reason: out.Reason, Calls: out.Totals.Calls, Tokens: out.Totals.Tokens,
			USD: out.Totals.USD, CostUnknown: out.Totals.CostUnknown, Session: run.Protocol, Seated: out}, err
	}
	return nil, &bugfolder.InputError{Path: opts.Folder, Msg: fmt.Sprintf("is no folder moot can resume: no %s folder of moot's holds it (its stamp is missing); nothing was called or written", strings.Join(names, " or "))}
}
