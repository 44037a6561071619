// Package testgate runs a project's tests for a review (docs/protocols/review.md,
// --test-cmd / --red): in separate git worktrees, never the user's
// checkout, each run in its own process group with a timeout. It checks
// that the candidate's suite passes, that it is not worse than the
// baseline, that the test files are untouched since the red commit, and
// that the candidate's tests fail on the red commit's code (a pass there
// is a false green).
package testgate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/gitcmd"
)

// The checks' names, in the order Run returns them.
const (
	NewTestsPass  = "new-tests-pass"
	SuiteNotWorse = "suite-not-worse"
	Untouched     = "tests-untouched-since-red"
	FalseGreen    = "false-green"
)

// DefaultTimeout bounds one run when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Minute

// Options says what to test and how.
type Options struct {
	Repo      string        // git root
	Base      string        // baseline commit (A of A..B); "" = no baseline comparison
	Candidate string        // commit to test; "" = the working tree as it is (copied into the worktree)
	Red       string        // --red COMMIT, "" = none
	Cmd       string        // --test-cmd, run with sh -c in the worktree's root
	TestFiles []string      // the candidate's test files in the envelope (repo-relative)
	Timeout   time.Duration // per run
}

// gate is one Run: its scratch folder and the worktrees it added.
type gate struct {
	o       Options
	repo    string // the git root, absolute
	scratch string
	trees   []string
}

// Run makes separate git worktrees (never the user's checkout; removed
// afterwards, on error and cancellation too) and returns the checks, in a
// stable order: new-tests-pass, then suite-not-worse (with Base), then
// tests-untouched-since-red and false-green (with Red). An error only when
// the checks could not be run at all (not a git repo, cmd empty, a commit
// git cannot resolve, ctx ended); a failing check is a TestCheck with OK
// false.
func Run(ctx context.Context, o Options) (checks []envelope.TestCheck, err error) {
	if strings.TrimSpace(o.Cmd) == "" {
		return nil, errors.New("--test-cmd is empty: give the command that runs the project's tests (run with sh -c at the project's root)")
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	top, err := gitcmd.Output(ctx, o.Repo, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--test-cmd: %s is not a git repository (%w): the test checks run in git worktrees of the project", o.Repo, err)
	}
	g := &gate{o: o, repo: strings.TrimSpace(string(top))}
	cand, base, red, err := g.commits(ctx)
	if err != nil {
		return nil, err
	}
	if g.scratch, err = os.MkdirTemp("", "moot-testgate-"); err != nil {
		return nil, fmt.Errorf("--test-cmd: a scratch folder for the worktrees: %w", err)
	}
	defer g.cleanup()

	candDir, err := g.worktree(ctx, "candidate", cand)
	if err != nil {
		return nil, err
	}
	if o.Candidate == "" {
		if err := copyWorkingTree(ctx, g.repo, candDir); err != nil {
			return nil, err
		}
	}
	candRun, err := runCmd(ctx, candDir, g.scratch, o.Cmd, o.Timeout)
	if err != nil {
		return nil, err
	}
	checks = append(checks, newTestsPass(candRun, o.Timeout))
	if base != "" {
		c, err := g.suiteNotWorse(ctx, base, candRun)
		if err != nil {
			return nil, err
		}
		checks = append(checks, c)
	}
	if red != "" {
		c, err := untouched(ctx, g.repo, red, candDir, o.TestFiles)
		if err != nil {
			return nil, err
		}
		checks = append(checks, c)
		if c, err = g.falseGreen(ctx, red, candDir); err != nil {
			return nil, err
		}
		checks = append(checks, c)
	}
	return checks, nil
}

// commits resolves the candidate (HEAD for the working tree), the
// baseline and the red commit ("" when not given).
func (g *gate) commits(ctx context.Context) (cand, base, red string, err error) {
	candRev := g.o.Candidate
	if candRev == "" {
		candRev = "HEAD"
	}
	if cand, err = resolve(ctx, g.repo, "the candidate", candRev); err != nil {
		return "", "", "", err
	}
	if g.o.Base != "" {
		if base, err = resolve(ctx, g.repo, "the baseline", g.o.Base); err != nil {
			return "", "", "", err
		}
	}
	if g.o.Red != "" {
		if red, err = resolve(ctx, g.repo, "--red", g.o.Red); err != nil {
			return "", "", "", err
		}
	}
	return cand, base, red, nil
}

// resolve returns the commit rev names; what says which one in an error.
func resolve(ctx context.Context, repo, what, rev string) (string, error) {
	out, err := gitcmd.Output(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	sha := strings.TrimSpace(string(out))
	if err != nil || sha == "" {
		return "", fmt.Errorf("%s %q: git cannot resolve it to a commit in %s: check the name (git log --oneline)", what, rev, repo)
	}
	return sha, nil
}

// worktree adds a detached worktree of commit under the scratch folder.
func (g *gate) worktree(ctx context.Context, name, commit string) (string, error) {
	dir := filepath.Join(g.scratch, name)
	if _, err := gitcmd.Output(ctx, g.repo, "worktree", "add", "--detach", "--quiet", dir, commit); err != nil {
		return "", fmt.Errorf("a worktree of %s for the test checks: %w", short(commit), err)
	}
	g.trees = append(g.trees, dir)
	return dir, nil
}

// cleanup removes the worktrees and the scratch folder, on a context of
// its own: it runs after an error or a cancellation too.
func (g *gate) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), gitcmd.Timeout)
	defer cancel()
	failed := false
	for _, dir := range g.trees {
		if _, err := gitcmd.Output(ctx, g.repo, "worktree", "remove", "--force", "--force", dir); err != nil {
			failed = true
		}
	}
	_ = os.RemoveAll(g.scratch)
	if failed {
		// git still lists a worktree whose folder is now gone
		_, _ = gitcmd.Output(ctx, g.repo, "worktree", "prune")
	}
}

// short abbreviates a commit id for a detail.
func short(sha string) string { return sha[:min(len(sha), 12)] }

// newTestsPass is the candidate's own suite, the new tests in it.
func newTestsPass(run outcome, timeout time.Duration) envelope.TestCheck {
	c := envelope.TestCheck{Name: NewTestsPass, OK: run.passed}
	if run.passed {
		c.Detail = "the candidate's suite passes"
	} else {
		c.Detail = withTail("the candidate's suite "+run.describe(timeout), run)
	}
	return c
}

// suiteNotWorse runs the suite at base and compares: a baseline that
// passes must still pass; a baseline that already fails does not count
// the candidate's failure as worse.
func (g *gate) suiteNotWorse(ctx context.Context, base string, cand outcome) (envelope.TestCheck, error) {
	dir, err := g.worktree(ctx, "baseline", base)
	if err != nil {
		return envelope.TestCheck{}, err
	}
	run, err := runCmd(ctx, dir, g.scratch, g.o.Cmd, g.o.Timeout)
	if err != nil {
		return envelope.TestCheck{}, err
	}
	c := envelope.TestCheck{Name: SuiteNotWorse}
	at := " at the baseline " + short(base)
	switch {
	case run.passed && cand.passed:
		c.OK, c.Detail = true, "the suite passes"+at+" and on the candidate"
	case run.passed:
		c.Detail = withTail("worse than the baseline: the suite passes"+at+" and "+cand.describe(g.o.Timeout)+" on the candidate", cand)
	case run.timedOut && cand.passed:
		c.OK, c.Detail = true, "the suite "+run.describe(g.o.Timeout)+at+"; the candidate passes"
	case run.timedOut:
		c.Detail = "cannot compare: the suite " + run.describe(g.o.Timeout) + at + " and " + cand.describe(g.o.Timeout) + " on the candidate"
	case cand.passed:
		c.OK, c.Detail = true, "the suite already "+run.describe(g.o.Timeout)+at+"; the candidate passes"
	default:
		c.OK, c.Detail = true, "the baseline already fails: the suite "+run.describe(g.o.Timeout)+at+", so the candidate's failure is not counted worse"
	}
	return c, nil
}

// withTail adds the run's output tail to a detail.
func withTail(detail string, run outcome) string {
	if run.tail == "" {
		return detail
	}
	return detail + ":\n" + run.tail
}
