package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// start runs moot in the repository without waiting for it (its output
// in the returned buffers).
func (tr *tribunal) start(args ...string) (*exec.Cmd, *bytes.Buffer) {
	tr.t.Helper()
	c := exec.Command(mootBin, withBuilder(args)...)
	c.Dir = tr.repo
	c.Env = append(os.Environ(), "FAKE_JURY="+tr.jury, "FAKE_JURYLOG="+tr.jurylog, "NO_COLOR=1",
		"XDG_CONFIG_HOME="+filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME="+filepath.Join(tr.home, "cache"))
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		tr.t.Fatal(err)
	}
	return c, &errb
}

// withBuilder names the builder of a new review (a family no juror of
// these tests is), as a review always must, unless the args name one or
// resume a review.
func withBuilder(args []string) []string {
	if len(args) == 0 || args[0] != "review" || slices.Contains(args, "--builder") || slices.Contains(args, "--resume") {
		return args
	}
	return append(slices.Clone(args), "--builder", "mistral")
}

// runB runs moot in the repository, naming a new review's builder
// (withBuilder).
func (tr *tribunal) runB(args ...string) result {
	tr.t.Helper()
	return tr.run(withBuilder(args)...)
}

// waitExit waits for a started moot and returns its exit code.
func waitExit(t *testing.T, c *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(time.Minute):
		_ = c.Process.Kill()
		t.Fatal("moot did not end within a minute")
	}
	return -1
}

// forge writes a review folder as anyone can: moot's stamp as plain JSON
// and a record with the given fields, as a repository could carry one.
func (tr *tribunal) forge(parent, id, fields string) string {
	tr.t.Helper()
	dir := filepath.Join(parent, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tr.t.Fatal(err)
	}
	stamp := fmt.Sprintf(`{"owner":"moot review","id":%q,"created":"2026-01-01T00:00:00Z"}`+"\n", id)
	rec := fmt.Sprintf(`{"id":%q,"protocol":"review",%s,"contract":{"Intent":"fix","Criteria":"fixed"},"lenses":[{"Name":"defect","Text":"Defect: look."}],"lang":"en","rounds":[],"status":"running","calls":0,"tokens":0,"cost_usd":0,"started_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`+"\n", id, fields)
	for name, body := range map[string]string{".moot-review-stamp": stamp, "review.json": rec} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			tr.t.Fatal(err)
		}
	}
	return dir
}

// base is the change's first end as a commit id, as a record keeps it.
func (tr *tribunal) base() string {
	tr.t.Helper()
	c := exec.Command("git", "rev-parse", "HEAD~1")
	c.Dir = tr.repo
	out, err := c.Output()
	if err != nil {
		tr.t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// A review folder committed to the repository (moot's stamp is no secret
// format) never runs its test_cmd: resumed without --yes, with --yes, or
// through moot resume, it is refused naming its stamp (exit 2) before
// anything runs, and moot never says "not started" over a command that
// ran.
func TestReviewCommittedRecordNeverRunsItsTestCmd(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	marker := filepath.Join(tr.home, "PWNED")
	id := "20260101-000000"
	tr.forge(filepath.Join(tr.repo, ".moot", "reviews"), id, fmt.Sprintf(`"repo":".","change":"HEAD~1..HEAD","base":%q,"worktree":true,"touched":["calc.go"],"test_cmd":"id > %s"`, tr.base(), marker))
	tr.git("add", "-A")
	tr.git("commit", "-qm", "a review")
	for _, args := range [][]string{
		{"review", "--resume", id, "--config", tr.cfg},
		{"review", "--resume", id, "--config", tr.cfg, "--yes"},
		{"resume", id, "--config", tr.cfg, "--yes"},
	} {
		r := tr.runB(args...)
		if r.code != 2 || !strings.Contains(r.stderr, ".moot-review-stamp") {
			t.Errorf("%v: exit %d, want 2 naming the stamp\n%s", args, r.code, r.stderr)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%v: the record's test_cmd ran", args)
		}
	}
	if len(tr.calls()) != 0 {
		t.Errorf("jurors were called: %v", tr.calls())
	}
}

// A forged record naming another repository ("repo": "/etc") sends no
// file of it to a juror: it is refused (exit 2) and nothing is called.
func TestReviewForgedRepoNeverReachesAJuror(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	id := "20260101-000000"
	dir := tr.forge(filepath.Join(tr.repo, ".moot", "reviews"), id, `"repo":"/etc","files":["passwd","hostname"]`)
	r := tr.review("--resume", id)
	if r.code != 2 || !strings.Contains(r.stderr, id) {
		t.Errorf("exit %d, want 2 naming the review\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 {
		t.Errorf("jurors were called: %v", tr.calls())
	}
	if _, err := os.Stat(filepath.Join(dir, "round-1")); err == nil {
		t.Error("a round was written")
	}
}

// withRegister moves the sample register into the tribunal's repository
// (untracked: the change stays HEAD~1..HEAD); it returns a restricted bug's
// folder and an open one's.
func withRegister(t *testing.T, tr *tribunal) (restricted, open string) {
	t.Helper()
	sample := testutil.CopyTree(t, "sample")
	if err := os.Rename(filepath.Join(sample, "_reversa_bugs"), filepath.Join(tr.repo, "_reversa_bugs")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join("_reversa_bugs", "auth", "bugs", "BUG-20260720-R5T6-sessao-nao-expira"),
		filepath.Join("_reversa_bugs", "checkout", "bugs", "BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
}

// A forged "restricted": false in a restricted bug's review record never
// lets an external juror read the bug: the record is refused (exit 2).
func TestReviewForgedUnrestrictedRecordIsRefused(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := withRegister(t, tr)
	id := "20260101-000000"
	tr.forge(filepath.Join(tr.repo, bug, "review"), id, fmt.Sprintf(`"bug_id":"BUG-20260720-R5T6","repo":".","change":"HEAD~1..HEAD","base":%q,"worktree":true,"restricted":false`, tr.base()))
	r := tr.review(bug, "--resume", id)
	if r.code != 2 || !strings.Contains(r.stderr, ".moot-review-stamp") {
		t.Errorf("exit %d, want 2 naming the stamp\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 {
		t.Errorf("jurors were called: %v", tr.calls())
	}
}

// A resumed review reads the bug's visibility from its bug.md, not from
// its record: a bug made restricted since round 1 reaches no external
// juror in round 2.
func TestReviewResumeReadsVisibilityFromTheBug(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	_, bug := withRegister(t, tr)
	tr.jury = "*/defect@1=refuse"
	if r := tr.review(append([]string{bug}, append(change, "--lens", "defect")...)...); r.code != 4 {
		t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
	}
	p := filepath.Join(tr.repo, bug, "bug.md")
	md := strings.Replace(readText(t, p), "visibility: normal\n", "visibility: restricted\n", 1)
	if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders: %v", ms)
	}
	tr.jury = ""
	r := tr.review(bug, "--resume", filepath.Base(ms[0]))
	if r.code != 4 {
		t.Errorf("round 2: exit %d, want 4 (a local pass with no verifier holds)\n%s%s", r.code, r.stdout, r.stderr)
	}
	round2 := 0
	for _, c := range tr.calls() {
		if !strings.HasSuffix(c, "/2") {
			continue
		}
		round2++
		if !strings.HasPrefix(c, "loc/") {
			t.Errorf("an external juror read the bug made restricted: %s", c)
		}
	}
	if s := tr.seat(ms[0], 2, "defect"); round2 == 0 || s.Attempts[0].Status != "restricted" {
		t.Errorf("round 2 made %d call(s); its first rung %+v, want it skipped as restricted", round2, s.Attempts[0])
	}
}

// A record's "config" never chooses the engines file: a forged one naming
// a file outside the project is refused (exit 2), its command never runs.
func TestReviewRecordNeverChoosesTheEnginesFile(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	marker := filepath.Join(tr.home, "RAN")
	script := filepath.Join(tr.home, "outside-juror.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho RAN >> "+marker+"\ncat >/dev/null\nprintf '{\"lens\": \"%s\", \"verdict\": \"pass\", \"findings\": [], \"checked\": [\"x\"]}' \"$MOOT_LENS\"\n"), 0o755)
	outside := filepath.Join(tr.home, "outside.yaml")
	os.WriteFile(outside, []byte("engines:\n  juror-x: {kind: command, command: [\""+script+"\"], family: anthropic}\n"), 0o644)
	id := "20260101-000000"
	tr.forge(filepath.Join(tr.repo, ".moot", "reviews"), id, fmt.Sprintf(`"repo":".","change":"HEAD~1..HEAD","base":%q,"worktree":true,"touched":["calc.go"],"config":%q`, tr.base(), outside))
	if r := tr.runB("review", "--resume", id, "--yes"); r.code != 2 {
		t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the record's engines file ran its command")
	}
}

// A stop signal while --test-cmd runs stops the review as any stop does:
// exit 3, the test's processes killed, its worktree removed from the
// repository, nothing written.
func TestReviewSignalDuringTestCmdStopsLikeAnyStop(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			pidfile := filepath.Join(tr.home, "test.pid")
			c, errb := tr.start(append(append([]string{"review"}, change...), "--lens", "defect", "--config", tr.cfg, "--yes",
				"--test-cmd", "echo $$ > "+pidfile+"; exec sleep 600")...)
			waitFor(t, "the test command to start", 30*time.Second, func() bool {
				b, err := os.ReadFile(pidfile)
				return err == nil && strings.HasSuffix(string(b), "\n")
			})
			b, _ := os.ReadFile(pidfile)
			var pid int
			fmt.Sscan(string(b), &pid)
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, c); code != 3 {
				t.Errorf("exit %d, want 3\n%s", code, errb.String())
			}
			waitFor(t, "the test's process to be gone", 10*time.Second, func() bool {
				return syscall.Kill(pid, 0) != nil
			})
			wt := exec.Command("git", "worktree", "list")
			wt.Dir = tr.repo
			out, _ := wt.Output()
			if n := strings.Count(strings.TrimSpace(string(out)), "\n") + 1; n != 1 {
				t.Errorf("git worktree list holds %d worktrees, want only the repository's:\n%s", n, out)
			}
			if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
				t.Error("a juror was called or a review written")
			}
		})
	}
}

// planFigures reads a review's plan (--json, not accepted): its tokens
// and dollars.
func planFigures(t *testing.T, r result) (tokens int, usd float64) {
	t.Helper()
	var p struct {
		Tokens struct{ Input, Output int }
		USD    *float64
	}
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatalf("plan: %v\n%s", err, r.stdout)
	}
	if p.USD != nil {
		usd = *p.USD
	}
	return p.Tokens.Input + p.Tokens.Output, usd
}

// A budget cap (--max-tokens, --max-usd, or the engines file's budget:)
// that pays one juror's call of two stops the round before the second
// (exit 4, status budget_cut, the gate shut); moot resume with a raised
// cap calls only the lens left — the lens that sat is never called again —
// and the round passes.
func TestReviewBudgetCapStopsARoundAndResumeCallsOnlyTheLensLeft(t *testing.T) {
	t.Parallel()
	priced := strings.ReplaceAll(juryEngines, "    family: anthropic\n", "    family: anthropic\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	priced = strings.ReplaceAll(priced, "    family: openai\n", "    family: openai\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	ladders := "review:\n  ladders:\n    default: [ext-anth, ext-oai]\n"
	lenses := []string{"--lens", "alpha: read it whole.", "--lens", "bravo: read it whole."}
	for _, how := range []string{"--max-tokens", "--max-usd", "budget:"} {
		t.Run(how, func(t *testing.T) {
			tr := newTribunal(t, priced+ladders)
			args := append(append([]string{"review", "--config", tr.cfg, "--parallel", "1"}, change...), lenses...)
			tokens, usd := planFigures(t, tr.runB(append(args, "--json")...))
			one := tokens/2 + 1 // one call's estimate: both lenses' prompts are the same size
			switch how {
			case "--max-tokens":
				args = append(args, how, fmt.Sprint(one))
			case "--max-usd":
				args = append(args, how, fmt.Sprintf("%.8f", usd/2*1.0001))
			default:
				tr.config(priced + ladders + fmt.Sprintf("budget:\n  max_tokens: %d\n", one))
			}
			r := tr.runB(append(args, "--yes")...)
			if r.code != 4 || !strings.Contains(r.stderr, "budget") {
				t.Fatalf("exit %d, want 4 at the budget cap\n%s%s", r.code, r.stdout, r.stderr)
			}
			if n := len(tr.calls()); n != 1 {
				t.Fatalf("%d calls under a cap that pays one: %v", n, tr.calls())
			}
			dir := tr.only()
			if st := readText(t, filepath.Join(dir, "review.json")); !strings.Contains(st, `"status": "budget_cut"`) {
				t.Errorf("review.json:\n%s", st)
			}
			raise := "--max-tokens"
			if how == "--max-usd" {
				raise = how
			}
			r = tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes", raise, "1000000")
			if r.code != 0 {
				t.Fatalf("resume with a raised cap: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			seen := map[string]int{}
			for _, c := range tr.calls() {
				parts := strings.Split(c, "/")
				seen[parts[1]+"/"+parts[2]]++
			}
			if seen["alpha/1"] != 1 || seen["bravo/1"] != 1 || len(seen) != 2 {
				t.Errorf("calls by lens and round %v: each lens once, in round 1", seen)
			}
			if _, err := os.Stat(filepath.Join(dir, "round-2")); err == nil {
				t.Error("a new round was started instead of continuing the one the cap cut")
			}
		})
	}
}

// --json on a review streams the one typed event schema (bugfolder.Event,
// no field it does not name), from setup to a debate_finished that sums
// the calls, tokens and cost.
func TestReviewJSONStreamsTheOneEventSchema(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review(append(change, "--lens", "defect", "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	evs := jsonEvents(t, r.stdout)
	if len(evs) < 3 || evs[0].Type != bugfolder.EvSetup || evs[1].Type != bugfolder.EvPlan {
		t.Fatalf("the stream opens with %v, want setup then plan", evs[:min(len(evs), 2)])
	}
	last := evs[len(evs)-1]
	if last.Type != bugfolder.EvDebateFinished || last.Calls != 1 || last.Tokens <= 0 || last.Outcome != bugfolder.OutcomeDone {
		t.Errorf("last event %+v: want debate_finished, done, 1 call and its tokens", last)
	}
}

// killedMidRound is a review of two lenses killed with SIGKILL once
// security's juror answered and defect's juror hangs in its call: the
// tribunal (its jury back to answering) and the review's folder.
func killedMidRound(t *testing.T) (*tribunal, string) {
	t.Helper()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	return tr, tr.killMidRound(filepath.Join(tr.repo, ".moot", "reviews", "*"), change...)
}

// killMidRound starts `moot review ARGS --lens defect --lens security`,
// kills it with SIGKILL once security's verdict is written and defect's
// juror called (it hangs), and returns the review's folder (the one
// folder the glob parent matches).
func (tr *tribunal) killMidRound(parent string, args ...string) string {
	t := tr.t
	t.Helper()
	tr.jury = "*/defect@1=hang"
	c, _ := tr.start(append(append([]string{"review"}, args...), "--lens", "defect", "--lens", "security", "--config", tr.cfg, "--yes")...)
	var dir string
	waitFor(t, "security's verdict and defect's call", time.Minute, func() bool {
		rs, _ := filepath.Glob(parent)
		if len(rs) != 1 {
			return false
		}
		dir = rs[0]
		_, err := os.Stat(filepath.Join(dir, "round-1", "verdicts", "security.json"))
		return err == nil && strings.Contains(strings.Join(tr.calls(), " "), "defect")
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	tr.jury = ""
	return dir
}

// A review killed with SIGKILL is listed interrupted; resumed, its round
// continues on the same files: the lens that sat keeps its verdict (its
// juror is not called again), the one cut is called, and the juror the
// killed moot left running is killed.
func TestReviewKilledRoundContinuesWithoutRepeatingASeatedLens(t *testing.T) {
	t.Parallel()
	tr, dir := killedMidRound(t)
	if e := tr.listed(filepath.Base(dir)); e["status"] != "interrupted" {
		t.Errorf("listed as %v, want interrupted", e["status"])
	}
	tr.jury = ""
	r := tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	seen := map[string]int{}
	for _, call := range tr.calls() {
		seen[strings.Split(call, "/")[1]]++
	}
	if seen["security"] != 1 || seen["defect"] != 2 {
		t.Errorf("calls by lens %v: security sat once, defect was cut and called again", seen)
	}
	if !strings.Contains(r.stderr, "killed 1 juror process") {
		t.Errorf("the juror left running was not killed:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "round-2")); err == nil {
		t.Error("a new round was started instead of continuing round 1")
	}
}

// A record edited by hand is no longer moot's: list, show and resume
// refuse it naming review.json (exit 2), and it is never listed with the
// status the edit wrote.
func TestReviewHandEditedRecordIsRefusedNamingIt(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	if r := tr.review(append(change, "--lens", "defect")...); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	dir := tr.only()
	p := filepath.Join(dir, "review.json")
	os.WriteFile(p, []byte(strings.Replace(readText(t, p), `"status": "pass"`, `"status": "running"`, 1)), 0o600)
	for _, args := range [][]string{{"list", "--json"}, {"show", filepath.Base(dir)}, {"review", "--resume", filepath.Base(dir), "--config", tr.cfg, "--yes"}} {
		r := tr.runB(args...)
		if r.code != 2 || !strings.Contains(r.stderr, "review.json") || strings.Contains(r.stdout, `"running"`) {
			t.Errorf("%v: exit %d, want 2 naming review.json\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// A review killed mid-round whose files then changed resumes in a new
// round: the cut round stays on the record (interrupted) with the
// verdict that sat, untouched, and every juror is called on the current
// files in round 2.
func TestReviewKilledRoundWhoseFilesChangedResumesInANewRound(t *testing.T) {
	t.Parallel()
	tr, dir := killedMidRound(t)
	before := readText(t, filepath.Join(dir, "round-1", "verdicts", "security.json"))
	tr.write("calc.go", calcChange+"\n// changed after the kill\n")
	r := tr.runB("resume", filepath.Base(dir), "--config", tr.cfg, "--yes")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "changed since round 1 was cut short") {
		t.Errorf("the change of files was not said:\n%s", r.stderr)
	}
	for _, lens := range []string{"defect", "security"} {
		if _, err := os.Stat(filepath.Join(dir, "round-2", "verdicts", lens+".json")); err != nil {
			t.Errorf("round 2 has no verdict of %s: %v", lens, err)
		}
	}
	if after := readText(t, filepath.Join(dir, "round-1", "verdicts", "security.json")); after != before {
		t.Error("the cut round's verdict was written over")
	}
	if rec := readText(t, filepath.Join(dir, "review.json")); !strings.Contains(rec, `"status": "interrupted"`) {
		t.Errorf("the cut round is not on the record as interrupted:\n%s", rec)
	}
}
