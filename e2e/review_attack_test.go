package e2e

import (
	"encoding/json"
	"github.com/reversa/moot/internal/testutil"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// head is the commit id of rev in the tribunal's repository.
func (tr *tribunal) head(rev string) string {
	tr.t.Helper()
	out, err := exec.Command("git", "-C", tr.repo, "rev-parse", rev).Output()
	if err != nil {
		tr.t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// --resume reviews the same change on the current files: the base is
// kept as a commit id (HEAD~1 re-resolved after a fix commit would lose
// the first commit's files), the envelope keeps every file of round 1,
// and a range given by fixed commit ids reads the fix, not the old files.
func TestReviewResumeKeepsTheChangeAndReadsTheFix(t *testing.T) {
	t.Parallel()
	for _, fixed := range []bool{false, true} {
		tr := newTribunal(t, juryEngines)
		tr.write("a.go", "package calc\n\nconst A = 1\n")
		tr.write("b.go", "package calc\n\nconst B = 1\n")
		tr.git("add", "a.go", "b.go")
		tr.git("commit", "-qm", "two files")
		rng := "HEAD~1..HEAD"
		if fixed {
			rng = tr.head("HEAD~1") + ".." + tr.head("HEAD")
		}
		tr.jury = "*/defect@1=refuse"
		if r := tr.review("--change", rng, "--contract", "consts | A and B exist", "--lens", "defect"); r.code != 4 {
			t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
		}
		tr.write("a.go", "package calc\n\nconst A = 2 // fixed\n")
		tr.git("commit", "-qam", "fix a")
		tr.jury = ""
		dir := tr.only()
		if r := tr.review("--resume", filepath.Base(dir)); r.code != 0 {
			t.Fatalf("fixed %v round 2: exit %d\n%s", fixed, r.code, r.stderr)
		}
		env := readText(t, filepath.Join(dir, "round-2", "envelope.md"))
		for _, want := range []string{"b.go", "const B = 1", "const A = 2 // fixed"} {
			if !strings.Contains(env, want) {
				t.Errorf("fixed %v: round 2's envelope lacks %q:\n%s", fixed, want, env)
			}
		}
	}
}

// listed is the review's entry of moot list --json.
func (tr *tribunal) listed(id string) map[string]any {
	tr.t.Helper()
	r := tr.run("list", "--json")
	var es []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil {
		tr.t.Fatalf("list --json: exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	for _, e := range es {
		if e["bug_id"] == id {
			return e
		}
	}
	tr.t.Fatalf("review %s not listed:\n%s", id, r.stdout)
	return nil
}

// Nothing is created through a symbolic link: a linked .moot/reviews is
// refused before any call, its target left empty, and the message names
// the review folder (there is no bug register here).
func TestReviewNeverCreatesThroughALink(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	target := t.TempDir()
	os.MkdirAll(filepath.Join(tr.repo, ".moot"), 0o700)
	if err := os.Symlink(target, filepath.Join(tr.repo, ".moot", "reviews")); err != nil {
		t.Fatal(err)
	}
	r := tr.review(append(change, "--lens", "defect")...)
	if r.code != 2 || !strings.Contains(r.stderr, "symbolic link") || strings.Contains(r.stderr, "_reversa_bugs") {
		t.Errorf("exit %d, want 2 naming the link (not a bug register)\n%s", r.code, r.stderr)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("%d entries were created through the link", len(ents))
	}
	if c := tr.calls(); len(c) != 0 {
		t.Errorf("jurors were called: %v", c)
	}
}

// A stamp file moot did not write (garbage) is refused like a missing
// one: exit 2, nothing deleted, nothing called.
func TestReviewRefusesAStampItDidNotWrite(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	dir := filepath.Join(tr.repo, ".moot", "reviews", "20200101-000000")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, ".moot-review-stamp"), []byte("garbage\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "summary.md"), []byte("theirs\n"), 0o600)
	r := tr.review("--resume", "20200101-000000")
	if r.code != 2 || !strings.Contains(r.stderr, "stamp") {
		t.Fatalf("exit %d, want 2 naming the stamp\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); string(b) != "theirs\n" {
		t.Errorf("summary.md was touched: %q", b)
	}
	if len(tr.calls()) != 0 {
		t.Error("jurors were called")
	}
}

// --files in a git repository scans the people of the commits that
// touched the files (the builder's name in a file is a leak, exit 2), and
// a file's path too.
func TestReviewFilesScansGitIdentitiesAndPaths(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.write("calc.go", calcChange+"// thanks to Ada  Builder\n")
	tr.git("commit", "-qam", "thanks")
	r := tr.review("--files", "calc.go", "--contract", "document Total | Total has a doc comment", "--lens", "defect")
	if r.code != 2 || !strings.Contains(r.stderr, "calc.go:5") || !strings.Contains(r.stderr, "Ada Builder") {
		t.Errorf("a git author in --files: exit %d, want 2 naming calc.go:5\n%s", r.code, r.stderr)
	}
	tr2 := newTribunal(t, juryEngines)
	os.MkdirAll(filepath.Join(tr2.repo, "Ada Builder"), 0o755)
	tr2.write("Ada Builder/notes.go", "package notes\n")
	tr2.git("add", ".")
	tr2.git("commit", "-qm", "notes")
	r = tr2.review("--change", "HEAD~1..HEAD", "--contract", "notes | a package", "--lens", "defect")
	if r.code != 2 || !strings.Contains(r.stderr, "in the file's path") {
		t.Errorf("a name in a path: exit %d, want 2\n%s", r.code, r.stderr)
	}
	if len(tr.calls())+len(tr2.calls()) != 0 {
		t.Error("jurors were called")
	}
}

// --builder: a typo is exit 2 naming it and the known families; a known
// family with no rung is printed loudly; with the builder unknown and
// every seat of one family, every report says blind same-family.
func TestReviewBuilderIsCheckedAndOneFamilyIsSaid(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review(append(change, "--builder", "opneai", "--lens", "defect")...)
	if r.code != 2 || !strings.Contains(r.stderr, `"opneai"`) || !strings.Contains(r.stderr, "openai") || !strings.Contains(r.stderr, "mistral") {
		t.Errorf("a typo: exit %d\n%s", r.code, r.stderr)
	}
	if len(tr.reviews()) != 0 || len(tr.calls()) != 0 {
		t.Error("a typo wrote or called")
	}
	r = tr.review(append(change, "--builder", "mistral", "--lens", "defect")...)
	if !strings.Contains(r.stderr, "no rung of family mistral; nothing excluded") {
		t.Errorf("a family with no rung: exit %d\n%s", r.code, r.stderr)
	}
	one := strings.ReplaceAll(juryEngines, "family: openai", "family: anthropic")
	one = strings.ReplaceAll(one, "family: alibaba", "family: anthropic")
	tr2 := newTribunal(t, one)
	r = tr2.review(append(change, "--builder", "unknown", "--lens", "defect", "--lens", "security")...)
	if !strings.Contains(r.stderr, "blind same-family, not cross-family") {
		t.Errorf("one family, no builder: stderr lacks the degradation\n%s", r.stderr)
	}
	dir := tr2.only()
	for _, f := range []string{"summary.md", filepath.Join("round-1", "routes.md")} {
		if !strings.Contains(readText(t, filepath.Join(dir, f)), "blind same-family, not cross-family") {
			t.Errorf("%s lacks the degradation", f)
		}
	}
}

// A review that holds with nobody able to sit (a restricted bug: its
// local seat UNVERIFIED) waits for a human: listed pending, and moot
// decide takes it.
func TestReviewThatHoldsIsDecided(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	sample := testutil.CopyTree(t, "sample")
	if err := os.Rename(filepath.Join(sample, "_reversa_bugs"), filepath.Join(tr.repo, "_reversa_bugs")); err != nil {
		t.Fatal(err)
	}
	bug := filepath.Join("_reversa_bugs", "auth", "bugs", "BUG-20260720-R5T6-sessao-nao-expira")
	r := tr.review(append([]string{bug}, append(change, "--lens", "defect")...)...)
	if r.code != 4 || !strings.Contains(r.stdout, "moot decide") {
		t.Fatalf("exit %d, want 4 naming moot decide\n%s%s", r.code, r.stdout, r.stderr)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders under the bug: %v", ms)
	}
	id := filepath.Base(ms[0])
	env := readText(t, filepath.Join(ms[0], "round-1", "envelope.md"))
	if strings.Contains(env, "Detalhes exploráveis omitidos") {
		t.Errorf("the bug's Summary section reached the jurors (prose about the old behaviour):\n%s", env)
	}
	if e := tr.listed(id); e["status"] != "hold" || e["decision"] != "pending" {
		t.Errorf("listed as %v / %v, want hold / pending", e["status"], e["decision"])
	}
	if r := tr.run("decide", id, "approve"); r.code != 0 {
		t.Fatalf("decide a hold: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ms[0], "decisao.md")); err != nil {
		t.Errorf("decisao.md: %v", err)
	}
}

// --timeout and --parallel under what makes sense are exit 2 naming the
// flag, before anything is called or written.
func TestReviewRefusesANonPositiveTimeoutOrParallel(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	for _, c := range [][]string{{"--timeout", "0s"}, {"--timeout", "-1s"}, {"--parallel", "0"}, {"--parallel", "-1"}} {
		r := tr.review(append(append([]string{}, change...), append(c, "--lens", "defect")...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c[0]+" "+strings.TrimSuffix(c[1], "s")) {
			t.Errorf("%v: exit %d, want 2 naming the flag\n%s", c, r.code, r.stderr)
		}
	}
	if len(tr.reviews()) != 0 || len(tr.calls()) != 0 {
		t.Error("written or called")
	}
}

// --resume takes the engines file from its own flags, never from the
// record: without --config the default engines plan no juror (exit 2,
// nothing called, the record's file named), with it round 2 runs; and a
// round with no rung to call for any lens is refused before anything is
// written.
func TestReviewResumeTakesTheEnginesFileFromItsFlags(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect@1=refuse"
	if r := tr.review(append(change, "--lens", "defect")...); r.code != 4 {
		t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
	}
	tr.jury = ""
	id := filepath.Base(tr.only())
	if r := tr.run("review", "--resume", id, "--yes"); r.code != 2 || !strings.Contains(r.stderr, tr.cfg) {
		t.Fatalf("resume without --config: exit %d, want 2 naming round 1's engines file\n%s", r.code, r.stderr)
	}
	if r := tr.review("--resume", id); r.code != 0 {
		t.Fatalf("resume with --config: exit %d, want 0\n%s", r.code, r.stderr)
	}
	var round2 int
	for _, c := range tr.calls() {
		if strings.HasSuffix(c, "/2") {
			round2++
		}
	}
	if round2 != 1 {
		t.Errorf("round 2 made %d call(s) of round 1's engines, want 1", round2)
	}

	small := strings.ReplaceAll(juryEngines, "    family:", "    context_tokens: 100\n    family:")
	tr2 := newTribunal(t, small)
	r := tr2.review(append(change, "--lens", "defect")...)
	if r.code != 2 || !strings.Contains(r.stderr, "no lens has a rung moot can call") {
		t.Errorf("no callable rung: exit %d, want 2\n%s", r.code, r.stderr)
	}
	// the refusal itself says which rung was skipped and why, and what to
	// do: a screen that shows only it has no plan "above"
	refusal := r.stderr[strings.Index(r.stderr, "no lens has a rung"):]
	for _, want := range []string{"skipped on the ladders of defect (capacity: needs ≈", "add engines that can sit", "--solo"} {
		if !strings.Contains(refusal, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, refusal)
		}
	}
	if strings.Contains(refusal, "above") {
		t.Errorf("the refusal points above, where a screen shows nothing:\n%s", refusal)
	}
	if len(tr2.reviews()) != 0 || len(tr2.calls()) != 0 {
		t.Error("written or called")
	}
}

// Smaller promises: the --json plan line's usd is null when an engine has
// no price; a change that shows jurors nothing (only a symbolic link) is
// exit 2; show names reviews among what a name may be.
func TestReviewSmallerPromises(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review(append(change, "--lens", "defect", "--json")...)
	plan := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, `"type":"plan"`) {
			plan = l
		}
	}
	if !strings.Contains(plan, `"usd":null`) {
		t.Errorf("plan line %q, want usd null (exit %d)\n%s", plan, r.code, r.stderr)
	}
	tr2 := newTribunal(t, juryEngines)
	if err := os.Symlink("calc.go", filepath.Join(tr2.repo, "link.go")); err != nil {
		t.Fatal(err)
	}
	tr2.git("add", "link.go")
	tr2.git("commit", "-qm", "link")
	r = tr2.review("--change", "HEAD~1..HEAD", "--contract", "link | a link", "--lens", "defect")
	if r.code != 2 || !strings.Contains(r.stderr, "nothing to review") || len(tr2.calls()) != 0 || len(tr2.reviews()) != 0 {
		t.Errorf("only a link: exit %d, want 2 nothing to review\n%s", r.code, r.stderr)
	}
	if r := tr2.run("show", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, "review") {
		t.Errorf("show nosuch: exit %d, want 2 mentioning reviews\n%s", r.code, r.stderr)
	}
}

// A new round whose folder already exists (moot did not create it) is
// refused before any call; nothing is written into it.
func TestReviewRefusesARoundFolderItDidNotCreate(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect@1=refuse"
	if r := tr.review(append(change, "--lens", "defect")...); r.code != 4 {
		t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
	}
	dir := tr.only()
	os.MkdirAll(filepath.Join(dir, "round-2", "verdicts", "defect.json"), 0o700)
	before := len(tr.calls())
	r := tr.review("--resume", filepath.Base(dir))
	if r.code != 2 || !strings.Contains(r.stderr, "round-2") {
		t.Errorf("exit %d, want 2 naming round-2\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != before {
		t.Error("jurors were called")
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "round-2")); len(ents) != 1 {
		t.Errorf("round-2 holds %d entries, want only what was there", len(ents))
	}
	if st := readText(t, filepath.Join(dir, "review.json")); !strings.Contains(st, `"status": "refuse"`) {
		t.Errorf("review.json changed:\n%s", st)
	}
}
