package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// q2r8 is the sample bug whose Summary and debate answer these tests look for.
const q2r8 = "BUG-20260702-Q2R8-frete-arredondado"

// oldBehaviour are phrases of the Q2R8 bug's Summary and Actual Behavior
// and of its debate's final answer (its hypotheses, its winner).
var oldBehaviour = []string{"viram 1234 centavos", "devolve 1234 para", "Meio-para-o-par", "Vencedora", "Enxertos"}

// A traceability.specs locator that lands in a file of the bug register —
// the bug's own bug.md, its debate's final answer, reached by the
// register's path, by the bug folder's relative path or through "..":
// — never brings that prose into a review's envelope: it is left out,
// said in a warning and in the envelope's list of what was left out; the
// real spec sections still join.
func TestReviewSpecLocatorIntoTheRegisterIsLeftOut(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug := tr.withRegister(q2r8)
	md := filepath.Join(tr.repo, bug, "bug.md")
	reg := "_reversa_bugs/checkout/bugs/" + q2r8
	locs := `specs: ["_reversa_sdd/sdd/checkout.md#frete", "` + reg + `/bug.md#summary", "` + reg + `/debate/resposta-final.md#hipóteses", "debate/resposta-final.md#vencedora", "/_reversa_sdd/../` + reg + `/bug.md#actual-behavior"]`
	setSpecs(t, md, locs)
	env, r := tr.envelopeOf(bug)
	for _, old := range oldBehaviour {
		if strings.Contains(env, old) {
			t.Errorf("the envelope carries %q (the bug's own prose or its debate's answer):\n%s", old, env)
		}
	}
	for _, must := range []string{"## Context: Effective spec: _reversa_sdd/sdd/checkout.md", "## Left out of the envelope", reg + "/bug.md", reg + "/debate/resposta-final.md"} {
		if !strings.Contains(env, must) {
			t.Errorf("the envelope lacks %q:\n%s", must, env)
		}
	}
	if !strings.Contains(r.stderr, "warning: left out of the envelope: "+reg+"/debate/resposta-final.md") {
		t.Errorf("no warning names the refused locator:\n%s", r.stderr)
	}
}

// A spec locator whose file is a symbolic link into the bug register —
// a spec file linking to the bug's bug.md or to its debate's answer, or
// a folder linking to the bug folder — is judged by where it leads, not
// by its name: left out, said in a warning and in the envelope.
func TestReviewSpecLinkedIntoTheRegisterIsLeftOut(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug := tr.withRegister(q2r8)
	reg := "_reversa_bugs/checkout/bugs/" + q2r8
	links := map[string]string{
		"_reversa_sdd/sdd/notes.md":  "../../" + reg + "/bug.md",
		"_reversa_sdd/sdd/answer.md": "../../" + reg + "/debate/resposta-final.md",
		"_reversa_sdd/casefile":      "../" + reg,
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(tr.repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	linked := []string{"_reversa_sdd/sdd/notes.md", "_reversa_sdd/sdd/answer.md", "_reversa_sdd/casefile/bug.md"}
	md := filepath.Join(tr.repo, bug, "bug.md")
	locs := `specs: ["_reversa_sdd/sdd/checkout.md#frete", "` + linked[0] + `#summary", "` + linked[1] + `#vencedora", "` + linked[2] + `#actual-behavior"]`
	setSpecs(t, md, locs)
	env, r := tr.envelopeOf(bug)
	for _, old := range oldBehaviour {
		if strings.Contains(env, old) {
			t.Errorf("the envelope carries %q (the bug's own prose or its debate's answer) through a link:\n%s", old, env)
		}
	}
	if !strings.Contains(env, "## Context: Effective spec: _reversa_sdd/sdd/checkout.md") || !strings.Contains(env, "## Left out of the envelope") {
		t.Errorf("the envelope lacks the real spec or its list of what was left out:\n%s", env)
	}
	for _, l := range linked {
		if !strings.Contains(env, l) {
			t.Errorf("the envelope does not name the linked locator %s as left out:\n%s", l, env)
		}
		if !strings.Contains(r.stderr, "warning: left out of the envelope: "+l) {
			t.Errorf("no warning names the linked locator %s:\n%s", l, r.stderr)
		}
	}
}

// A change that touches the bug's bug.md beside the code: bug.md is a
// record of the register, not code, so it is never a file the jurors read
// whole — left out, said in a warning and in the envelope — for a
// --change range and for a fix review whose CHG diff touches it.
func TestReviewChangeTouchingTheBugRecordLeavesItOut(t *testing.T) {
	t.Parallel()
	t.Run("range", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines)
		bug := tr.withRegister(q2r8)
		tr.git("add", "-A")
		tr.git("commit", "-qm", "register")
		tr.write("calc.go", calcChange+"// Total rounds half up.\n")
		md := filepath.Join(tr.repo, bug, "bug.md")
		if err := os.WriteFile(md, []byte(readText(t, md)+"\nfixed in calc.go\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tr.git("commit", "-qam", "fix and note")
		r := tr.review(bug, "--change", "HEAD~1..HEAD", "--contract", "round half up | one rounding rule", "--lens", "defect")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
		if len(ms) != 1 {
			t.Fatalf("envelopes %v", ms)
		}
		checkRecordLeftOut(t, readText(t, ms[0]), r.stderr, bug)
	})
	t.Run("fix", func(t *testing.T) {
		t.Parallel()
		tr := newTribunal(t, juryEngines)
		bug, _ := tr.fixedBug()
		diff := "diff --git a/" + bug + "/bug.md b/" + bug + "/bug.md\n--- a/" + bug + "/bug.md\n+++ b/" + bug + "/bug.md\n@@ -1 +1,2 @@\n ---\n+status: fixed\n"
		if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(diff), 0o644); err != nil {
			t.Fatal(err)
		}
		r := tr.review(bug)
		ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
		if len(ms) != 1 {
			t.Fatalf("exit %d, envelopes %v\n%s%s", r.code, ms, r.stdout, r.stderr)
		}
		checkRecordLeftOut(t, readText(t, ms[0]), r.stderr, bug)
		md := readText(t, filepath.Join(filepath.Dir(filepath.Dir(ms[0])), "fix-review.md"))
		if evidence, _, _ := strings.Cut(md, "\n## Issues"); strings.Contains(evidence, "/bug.md`") || !strings.Contains(evidence, "`calc.go`") {
			t.Errorf("fix-review.md's evidence reviewed is not what the jurors read (bug.md was left out):\n%s", md)
		}
	})
}

// checkRecordLeftOut checks that the envelope shows no bug.md and says it
// left it out, and that moot warned.
func checkRecordLeftOut(t *testing.T, env, stderr, bug string) {
	t.Helper()
	rel := filepath.ToSlash(bug) + "/bug.md"
	if strings.Contains(env, "### "+rel) || strings.Contains(env, "## Summary") {
		t.Errorf("the envelope shows bug.md:\n%s", env)
	}
	for _, old := range oldBehaviour[:2] {
		if strings.Contains(env, old) {
			t.Errorf("the envelope carries %q:\n%s", old, env)
		}
	}
	if !strings.Contains(env, "## Left out of the envelope") || !strings.Contains(env, "- "+rel+" (touched by the change)") {
		t.Errorf("the envelope does not say bug.md was left out:\n%s", env)
	}
	if !strings.Contains(env, "### calc.go") {
		t.Errorf("the envelope lacks the code:\n%s", env)
	}
	if !strings.Contains(stderr, "warning: left out of the envelope: "+rel) {
		t.Errorf("no warning names bug.md:\n%s", stderr)
	}
}

// moot's own check of a fix review, change-set-matches-plan, is in the
// envelope once, and its failure is one blocker issue of the fix review
// and one line on stdout — never twice.
func TestReviewOfAFixListsItsPlanCheckOnce(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	extra := "diff --git a/calc.go b/calc.go\n--- a/calc.go\n+++ b/calc.go\n@@ -1 +1 @@\n package calc\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4 (the plan check refuses)\n%s%s", r.code, r.stdout, r.stderr)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders %v", ms)
	}
	if n := strings.Count(readText(t, filepath.Join(ms[0], "round-1", "envelope.md")), "change-set-matches-plan"); n != 1 {
		t.Errorf("the envelope lists the plan check %d times", n)
	}
	js := readText(t, filepath.Join(ms[0], "fix-review.json"))
	if n := strings.Count(js, "change-set-matches-plan failed"); n != 1 {
		t.Errorf("fix-review.json lists the plan check %d times, want one issue:\n%s", n, js)
	}
	if n := strings.Count(r.stdout, "CHG-003.diff"); n != 1 {
		t.Errorf("stdout names the extra diff %d times:\n%s", n, r.stdout)
	}
}

// A commit author named "dev" is no leak in "/dev/null": the fix review
// of a bug whose CHG diff creates a file (--- /dev/null) and whose code
// "dev" committed runs, while "dev" written as a word in the code is
// still refused.
func TestReviewAuthorNamedDevIsNotFoundInDevNull(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	tr.write("calc.go", calcChange+"// run: go test ./... > /dev/null\n")
	tr.git("add", "calc.go", "calc_test.go")
	tr.git("-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qm", "fix")
	if r := tr.review(bug); r.code != 0 {
		t.Fatalf("exit %d, want the review to run\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr.write("calc.go", calcChange+"// reviewed by dev\n")
	tr.git("-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "-qam", "note")
	if r := tr.review(bug); r.code != 2 || !strings.Contains(r.stderr, `"dev"`) {
		t.Errorf("the name as a word: exit %d, want 2 naming \"dev\"\n%s", r.code, r.stderr)
	}
}

// setSpecs replaces the sample bug.md's traceability.specs with locs.
func setSpecs(t *testing.T, md, locs string) {
	t.Helper()
	body := strings.Replace(readText(t, md), `specs: ["_reversa_sdd/sdd/checkout.md#frete", "_reversa_sdd/sdd/frete.md#cotacao"]`, locs, 1)
	if body == readText(t, md) {
		t.Fatal("the sample's traceability.specs changed: update the test")
	}
	if err := os.WriteFile(md, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
