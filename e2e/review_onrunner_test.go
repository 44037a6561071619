package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// fixedHistory writes the tribunal's repository again with the same two
// commits at fixed dates, so their ids are the same on every machine (a
// recorded review names its range's base by id).
func (tr *tribunal) fixedHistory() {
	tr.t.Helper()
	if err := os.RemoveAll(filepath.Join(tr.repo, ".git")); err != nil {
		tr.t.Fatal(err)
	}
	git := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = tr.repo
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
		if out, err := c.CombinedOutput(); err != nil {
			tr.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "Ada Builder")
	git("config", "user.email", "ada.builder@example.com")
	tr.write("calc.go", calcBase)
	git("add", "calc.go")
	git("commit", "-qm", "base")
	tr.write("calc.go", calcChange)
	git("commit", "-qam", "document Total")
}

// pricedJury is juryEngines with a price on both external engines and one
// ladder of them for every lens.
func pricedJury() string {
	priced := strings.ReplaceAll(juryEngines, "    family: anthropic\n", "    family: anthropic\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	priced = strings.ReplaceAll(priced, "    family: openai\n", "    family: openai\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\n")
	return priced + "review:\n  ladders:\n    default: [ext-anth, ext-oai]\n"
}

// logged reads a review folder's event log.
func logged(t *testing.T, dir string) []bugfolder.Event {
	t.Helper()
	return jsonEvents(t, readText(t, filepath.Join(dir, "eventos.jsonl")))
}

// typed are the events of one type.
func typed(evs []bugfolder.Event, ty bugfolder.EventType) []bugfolder.Event {
	var out []bugfolder.Event
	for _, e := range evs {
		if e.Type == ty {
			out = append(out, e)
		}
	}
	return out
}

// A review killed with SIGKILL mid-round is resumed by the runner, as a
// debate is: moot resume --json streams resumed, the warning that the juror the killed moot left
// running was killed (logged too, not only printed), and the round ends
// without calling the seated lens again; its calls are one figure in
// debate_finished and in moot list.
func TestReviewKilledMidRoundIsResumedByTheRunner(t *testing.T) {
	t.Parallel()
	tr, dir := killedMidRound(t)
	tr.jury = ""
	r := tr.run("resume", filepath.Base(dir), "--config", tr.cfg, "--yes", "--json")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	evs := jsonEvents(t, r.stdout)
	if len(evs) == 0 || evs[0].Type != bugfolder.EvResumed || evs[0].Path != dir {
		t.Fatalf("the resumed stream opens with %+v, want resumed naming the review's folder", evs[:min(1, len(evs))])
	}
	warned := func(evs []bugfolder.Event) bool {
		for _, w := range typed(evs, bugfolder.EvWarning) {
			if strings.Contains(w.Text, "killed 1 juror process") {
				return true
			}
		}
		return false
	}
	if !warned(evs) || !warned(logged(t, dir)) {
		t.Errorf("the juror left running was not reported killed in the stream and the log:\n%s", r.stdout)
	}
	seen := map[string]int{}
	for _, call := range tr.calls() {
		seen[strings.Split(call, "/")[1]]++
	}
	if seen["security"] != 1 || seen["defect"] != 2 {
		t.Errorf("calls by lens %v: security sat once, defect was cut and called again", seen)
	}
	if last := evs[len(evs)-1]; last.Type != bugfolder.EvDebateFinished || last.Outcome != bugfolder.OutcomeDone || last.Calls < 2 {
		t.Errorf("last event %+v: want debate_finished, done, the calls of the resumed round", last)
	}
	// the call the killed moot left in flight counts once, in the event and
	// in the list alike: one number wherever it is shown
	if listed, last := tr.listed(filepath.Base(dir))["calls"], evs[len(evs)-1].Calls; listed != float64(last) || last != 3 {
		t.Errorf("debate_finished says %d call(s), moot list --json %v: want the same 3 (security, defect killed, defect again)", last, listed)
	}
}

// --json and a budget cap on a review: the cut round streams
// debate_finished as budget_cut (waiting), and a resume that raises the
// cap logs and streams the cap's change as a human's budget decision, as
// a debate's resume does, then calls only the lens left.
func TestReviewJSONBudgetCapAndItsRaiseAreEvents(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, pricedJury())
	args := append(append([]string{"review", "--config", tr.cfg, "--parallel", "1"}, change...), "--lens", "alpha: read it whole.", "--lens", "bravo: read it whole.", "--json")
	tokens, _ := planFigures(t, tr.runB(args...))
	r := tr.runB(append(args, "--yes", "--max-tokens", fmt.Sprint(tokens/2+1))...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4 at the cap\n%s%s", r.code, r.stdout, r.stderr)
	}
	evs := jsonEvents(t, r.stdout)
	if last := evs[len(evs)-1]; last.Type != bugfolder.EvDebateFinished || last.Outcome != bugfolder.OutcomeWaiting || !strings.HasPrefix(last.Reason, "budget_cut") || last.Calls != 1 {
		t.Fatalf("last event %+v: want debate_finished, waiting, budget_cut, 1 call", last)
	}
	dir := tr.only()
	r = tr.run("resume", filepath.Base(dir), "--config", tr.cfg, "--yes", "--json", "--max-tokens", "1000000")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for name, evs := range map[string][]bugfolder.Event{"stream": jsonEvents(t, r.stdout), "log": logged(t, dir)} {
		ds := typed(evs, bugfolder.EvDecision)
		if len(ds) != 1 || ds[0].Point != bugfolder.PointBudget || ds[0].Choice != "raise" || ds[0].By != "human" || ds[0].MaxTokens != 1000000 {
			t.Errorf("%s: decisions %+v, want one budget raise by human to 1000000 tokens", name, ds)
		}
	}
	if n := len(tr.calls()); n != 2 {
		t.Errorf("%d calls in all, want 2 (the lens that sat is never called again): %v", n, tr.calls())
	}
}

// A review folder an older moot wrote (review.json beside its rounds,
// testdata/review-old: a round stopped at the budget cap) stays moot's:
// moot list and moot show read it without touching a byte of it, and
// moot resume continues it on the runner — the lens that sat is kept,
// the raised cap is logged as a budget decision — and the gate opens.
func TestReviewOldRecordIsListedShownAndResumed(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, pricedJury())
	tr.fixedHistory() // the record's base commit
	const id = "20261202-093721"
	dir := filepath.Join(tr.repo, ".moot", "reviews", id)
	copyTree(t, filepath.Join("..", "testdata", "review-old", id), dir)
	key := readText(t, filepath.Join("..", "testdata", "review-old", "seal.key"))
	if err := os.MkdirAll(filepath.Join(tr.home, "xdg", "moot"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tr.home, "xdg", "moot", "seal.key"), []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	before := readText(t, filepath.Join(dir, "review.json"))
	e := tr.listed(id)
	if e["kind"] != "review" || e["status"] != "budget_cut" || e["calls"] != 1.0 {
		t.Errorf("listed as %v, want a review, budget_cut, 1 call", e)
	}
	if r := tr.run("show", id); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "bravo") {
		t.Errorf("show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := readText(t, filepath.Join(dir, "review.json")); after != before {
		t.Fatal("list or show rewrote the old record")
	}
	r := tr.run("resume", id, "--config", tr.cfg, "--yes", "--max-tokens", "1000000")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if calls := tr.calls(); len(calls) != 1 || !strings.Contains(calls[0], "alpha") {
		t.Errorf("calls %v: only alpha, the lens the cap stopped, is called", calls)
	}
	evs := logged(t, dir)
	if ds := typed(evs, bugfolder.EvDecision); len(ds) != 1 || ds[0].Choice != "raise" {
		t.Errorf("decisions %+v: the raised cap is a budget decision", ds)
	}
	if sum := readText(t, filepath.Join(dir, "summary.md")); !strings.Contains(sum, "- Round: 1\n") {
		t.Errorf("the summary names another round than the one resumed:\n%s", sum)
	}
	if e := tr.listed(id); e["status"] != "pass" || e["verdict"] != "pass" {
		t.Errorf("listed as %v after the resume, want pass", e)
	}
}

// copyTree copies a folder (its files owner-only, as moot writes them).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
