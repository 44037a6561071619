package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The engines file's review.builder is the user's own word; a trailer
// naming another family (which the builder itself may have written) never
// lets review.builder's family sit on the change: the contradiction is
// exit 2 before any call, asking for --builder.
func TestReviewTrailersNeverSeatTheEnginesFilesBuilder(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  builder: anthropic\n  ladders:\n    default: [ext-anth, ext-oai, loc]\n")
	tr.write("calc.go", calcChange+"// Total never rounds.\n")
	tr.git("commit", "-qam", "doc\n\nModel: gpt-5")
	r := tr.run("review", "--config", tr.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment")
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "ext-anth/") {
			t.Errorf("review.builder says anthropic, a trailer says gpt-5: the anthropic engine sat (%s), exit %d\n%s", c, r.code, r.stderr)
		}
	}
	if r.code != 2 || !strings.Contains(r.stderr, "review.builder") || !strings.Contains(r.stderr, "--builder") || len(tr.reviews()) != 0 {
		t.Errorf("trailers contradicting review.builder: exit %d, want 2 naming review.builder and --builder, nothing written\n%s", r.code, r.stderr)
	}
}

// An engine serving the builder's model never sits on its change, even
// when its family: field names someone else (the server's owner).
func TestReviewExcludesAnEngineServingTheBuildersModel(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+`  proxy:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: proxy}
    model: claude-sonnet-4
    family: mistral
review:
  ladders:
    default: [proxy, ext-oai, loc]
`)
	r := tr.review(append(change, "--builder", "claude", "--lens", "defect")...)
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "proxy/") {
			t.Errorf("--builder claude: an engine serving claude-sonnet-4 sat (%s), exit %d\n%s", c, r.code, r.stderr)
		}
	}
}

// A fix review whose diffs name files outside the repository ("../x",
// an absolute path) never reads them into the envelope, and bug.md is
// left as it was.
func TestReviewOfAFixNeverReadsAFileOutsideTheRepository(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, before := tr.fixedBug()
	secret := filepath.Join(tr.home, "outside.go")
	if err := os.WriteFile(secret, []byte("package x // OUTSIDE-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	diff := "diff --git a/../outside.go b/../outside.go\n--- a/../outside.go\n+++ b/../outside.go\n@@ -1 +1 @@\n-x\n+y\n" +
		"--- a/" + secret + "\n+++ " + secret + "\n@@ -1 +1 @@\n-x\n+y\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug)
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
	for _, m := range ms {
		if strings.Contains(readText(t, m), "OUTSIDE-SECRET") {
			t.Errorf("the envelope carries a file outside the repository\n%s", r.stderr)
		}
	}
	if after := readText(t, filepath.Join(tr.repo, bug, "bug.md")); after != before {
		t.Error("bug.md changed")
	}
	if len(ms) != 1 || !strings.Contains(r.stderr, "../outside.go") && !strings.Contains(r.stdout, "CHG-003") {
		t.Errorf("the fix review did not run on the rest of the fix: %v\n%s%s", ms, r.stdout, r.stderr)
	}
}

// A fix diff whose path leaves the repository (a "../" path, an absolute
// one) is never dropped silently: a warning and the envelope's list of
// what was left out name it, and since the jurors then read less than
// the whole fix, moot's change-set check fails and the review refuses.
func TestReviewOfAFixNamesADiffPathOutsideTheRepository(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	abs := filepath.Join(tr.home, "abs-outside.txt")
	diff := "diff --git a/calc.go b/calc.go\n--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,4 @@\n package calc\n \n+// Total is the price of q items.\n func Total(p, q int) int { return p * q }\n" +
		"--- a/../outside.txt\n+++ b/../outside.txt\n@@ -1 +1 @@\n-x\n+y\n" +
		"--- " + abs + "\n+++ " + abs + "\n@@ -1 +1 @@\n-x\n+y\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-001.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug)
	for _, p := range []string{"../outside.txt", abs} {
		if !strings.Contains(r.stderr, "warning: left out of the envelope: "+p+" (named by fix/CHG-001.diff)") {
			t.Errorf("no warning names %s:\n%s", p, r.stderr)
		}
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
	if len(ms) != 1 {
		t.Fatalf("envelopes %v\n%s%s", ms, r.stdout, r.stderr)
	}
	env := readText(t, ms[0])
	_, left, _ := strings.Cut(env, "## Left out of the envelope")
	for _, p := range []string{"../outside.txt (named by fix/CHG-001.diff)", abs + " (named by fix/CHG-001.diff)"} {
		if !strings.Contains(left, p) {
			t.Errorf("the envelope's list of what was left out lacks %q:\n%s", p, env)
		}
	}
	if !strings.Contains(env, "change-set-matches-plan: FAILED") || r.code != 4 {
		t.Errorf("a fix the jurors read only part of: exit %d, want 4 with change-set-matches-plan failed\n%s\n%s%s", r.code, env, r.stdout, r.stderr)
	}
}

// The solo rig lets the builder's family sit blind, never the builder's
// own engine: with --builder naming an engine, that engine is excluded
// by name even under --solo.
func TestReviewSoloRigNeverSeatsTheBuildersOwnEngine(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, `engines:
  oai-a:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: oai-a}
    family: openai
  oai-b:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: oai-b}
    family: openai
review:
  ladders:
    default: [oai-a, oai-b]
`)
	r := tr.review(append(change, "--builder", "oai-a", "--solo", "--lens", "defect")...)
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "oai-a/") {
			t.Errorf("--solo: the builder's own engine sat on its change (%s)\n%s%s", c, r.stdout, r.stderr)
		}
	}
	if r.code != 0 || !strings.Contains(r.stdout, "blind same-family") {
		t.Errorf("--solo with another engine of the builder's family: exit %d, want a pass labelled blind same-family\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A fix review whose diff names a file inside .git (the repository's
// config may hold a remote's credentials) never sends it to a juror.
func TestReviewOfAFixNeverReadsTheGitFolder(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	tr.git("config", "--unset", "user.name")
	tr.git("config", "--unset", "user.email")
	tr.git("remote", "add", "origin", "https://ada:GITCRED-4242@example.org/x.git")
	diff := "diff --git a/.git/config b/.git/config\n--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-x\n+y\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug)
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
	for _, m := range ms {
		if strings.Contains(readText(t, m), "GITCRED-4242") {
			t.Errorf("the envelope carries .git/config\n%s", r.stderr)
		}
	}
	if strings.Contains(r.stderr, "(3 file(s))") {
		t.Errorf(".git/config was taken into the change set\n%s", r.stderr)
	}
}

// A fix review whose diff names another bug's record that is restricted
// is restricted itself: no external juror reads that record.
func TestReviewOfAFixNeverSendsARestrictedBugToAnExternalJuror(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	other := "_reversa_bugs/auth/bugs/BUG-20260720-R5T6-sessao-nao-expira/bug.md"
	diff := "diff --git a/" + other + " b/" + other + "\n--- a/" + other + "\n+++ b/" + other + "\n@@ -1 +1 @@\n-x\n+y\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug)
	for _, c := range tr.calls() {
		if !strings.HasPrefix(c, "loc/") {
			t.Errorf("a restricted bug's record reached the external juror %s\n%s", c, r.stderr)
			break
		}
	}
	if !strings.Contains(r.stderr, "the review is restricted") {
		t.Errorf("the plan does not say the review became restricted\n%s", r.stderr)
	}
}

// A change whose commits a coding agent authored ("Claude
// <noreply@anthropic.com>" as the commit's author, or a Signed-off-by
// trailer) names its builder as a Co-authored-by trailer does.
func TestReviewLearnsTheBuilderFromTheCommitsAuthor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, engines string }{
		{"no review.builder", juryEngines},
		{"review.builder of another family", juryEngines + "review:\n  builder: openai\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, c.engines)
			tr.write("calc.go", calcChange+"// Total never rounds.\n")
			tr.git("-c", "user.name=Claude", "-c", "user.email=noreply@anthropic.com", "commit", "-qam", "doc")
			r := tr.run("review", "--config", tr.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment")
			for _, call := range tr.calls() {
				if strings.HasPrefix(call, "ext-anth/") {
					t.Errorf("a change authored by Claude: the anthropic engine sat (%s), exit %d\n%s", call, r.code, r.stderr)
				}
			}
			if r.code == 0 && !strings.Contains(r.stderr, "excluded from every ladder: ext-anth") {
				t.Errorf("exit 0 without excluding anthropic\n%s", r.stderr)
			}
		})
	}
	tr := newTribunal(t, juryEngines)
	tr.write("calc.go", calcChange+"// Total never rounds.\n")
	tr.git("commit", "-qam", "doc\n\nSigned-off-by: Codex <codex@openai.com>")
	if r := tr.run("review", "--config", tr.cfg, "--yes", "--lens", "defect", "--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment"); r.code != 0 || !strings.Contains(r.stderr, "excluded from every ladder: ext-oai") {
		t.Errorf("Signed-off-by: Codex: exit %d, want openai excluded\n%s", r.code, r.stderr)
	}
}

// A family: field spelt as a model ("claude") or with a hyphen
// ("open-ai") is the family it names: such an engine never sits on its
// family's change.
func TestReviewReadsAFamilySpeltAnotherWay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ family, builder string }{{"claude", "anthropic"}, {"open-ai", "openai"}, {"Gemini", "google"}} {
		tr := newTribunal(t, juryEngines+`  odd:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: odd}
    family: `+c.family+`
review:
  ladders:
    default: [odd, ext-anth, ext-oai, loc]
`)
		r := tr.review(append(change, "--builder", c.builder, "--lens", "defect")...)
		for _, call := range tr.calls() {
			if strings.HasPrefix(call, "odd/") {
				t.Errorf("family: %s sat on a change built by %s (exit %d)\n%s", c.family, c.builder, r.code, r.stderr)
			}
		}
	}
}

// A model named by its alias (sonnet, opus, haiku: Claude's) is of its
// family: an engine serving it through a proxy never sits on Claude's
// change.
func TestReviewReadsAModelAlias(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+`  proxy:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: proxy}
    model: opus
    family: litellm
review:
  ladders:
    default: [proxy, ext-oai, loc]
`)
	r := tr.review(append(change, "--builder", "claude", "--lens", "defect")...)
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "proxy/") {
			t.Errorf("--builder claude: an engine serving opus sat (%s), exit %d\n%s", c, r.code, r.stderr)
		}
	}
}
