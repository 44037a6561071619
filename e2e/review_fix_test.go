package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// withRegister moves the sample register and its specs into the
// tribunal's repository (not committed: the change under review stays
// calc.go's) and returns the bug folder's path, relative to the repo.
func (tr *tribunal) withRegister(bugDir string) string {
	tr.t.Helper()
	sample := testutil.CopyTree(tr.t, "sample")
	for _, d := range []string{"_reversa_bugs", "_reversa_sdd"} {
		if err := os.Rename(filepath.Join(sample, d), filepath.Join(tr.repo, d)); err != nil {
			tr.t.Fatal(err)
		}
	}
	return filepath.Join("_reversa_bugs", "checkout", "bugs", bugDir)
}

// On a bug, the envelope's context is what must be true — the bug's
// Expected Behavior, its Acceptance Criteria and the effective spec —
// never its Summary, its Actual Behavior nor the latest debate's final
// answer (competing hypotheses, a winner, grafts).
func TestReviewEnvelopeOnABugCarriesNoProseAboutTheOldBehaviour(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug := tr.withRegister("BUG-20260702-Q2R8-frete-arredondado")
	env, _ := tr.envelopeOf(bug)
	for _, old := range []string{"viram 1234 centavos", "devolve 1234 para", "Enxertos", "o teste com 12,365 que separa", "Proposta B"} {
		if strings.Contains(env, old) {
			t.Errorf("the envelope carries %q (the bug's Summary, Actual Behavior or the debate's final answer)", old)
		}
	}
	for _, must := range []string{"## Context: Expected behaviour", "meio centavo arredonda para cima", "## Context: Acceptance criteria", "## Context: Effective spec: "} {
		if !strings.Contains(env, must) {
			t.Errorf("the envelope lacks %q:\n%s", must, env)
		}
	}
}

const fixPlan = `<!doctype html><html><body><h1>Plano</h1>
<table><tr><th>CHG</th><th>tipo</th><th>artefato</th><th>propósito</th></tr>
<tr><td>CHG-001</td><td>code</td><td>calc.go</td><td>apply the discount once</td></tr>
<tr><td>CHG-002</td><td>test</td><td>calc_test.go</td><td>reproduce the double discount</td></tr>
</table></body></html>`

// fixedBug is the sample's A7K3 bug with an applied fix: fix/CHG-001.diff
// (calc.go) and CHG-002.diff (calc_test.go), fix/plan.html, and its
// traceability naming the reproduction test.
func (tr *tribunal) fixedBug() (bug, bugMD string) {
	tr.t.Helper()
	bug = tr.withRegister("BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
	tr.write("calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(2, 3) != 6 {\n\t\tt.Fatal(Total(2, 3))\n\t}\n}\n")
	dir := filepath.Join(tr.repo, bug)
	md := filepath.Join(dir, "bug.md")
	b := strings.Replace(readText(tr.t, md), "reproduction_tests: []", "reproduction_tests: [\"calc_test.go::TestTotal\"]", 1)
	if err := os.WriteFile(md, []byte(b), 0o644); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "fix"), 0o755); err != nil {
		tr.t.Fatal(err)
	}
	for name, body := range map[string]string{
		"CHG-001.diff": "diff --git a/calc.go b/calc.go\n--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,4 @@\n package calc\n \n+// Total is the price of q items.\n func Total(p, q int) int { return p * q }\n",
		"CHG-002.diff": "diff --git a/calc_test.go b/calc_test.go\n--- /dev/null\n+++ b/calc_test.go\n@@ -0,0 +1,3 @@\n+package calc\n",
		"plan.html":    fixPlan,
	} {
		if err := os.WriteFile(filepath.Join(dir, "fix", name), []byte(body), 0o644); err != nil {
			tr.t.Fatal(err)
		}
	}
	return bug, b
}

// `moot review BUG` on a bug with an applied fix is Reversa's fix
// reviewer as a blind tribunal: the change set from fix/CHG-*.diff (no
// --change), the contract from the plan's CHG items, the four checks as
// lenses, the tests from traceability; the verdict is written under the
// bug's review/<stamp>/ in the reviewer's terms — reject with each
// issue's severity, file, evidence, impact and smallest follow-up, or
// approve — and bug.md is left byte for byte as it was.
func TestReviewOfABugsAppliedFixWritesTheReviewersVerdict(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, before := tr.fixedBug()
	tr.jury = "*/fix-tests=refuseissue"
	r := tr.review(bug)
	if r.code != 4 || !strings.Contains(r.stdout, "fix review of BUG-20260715-A7K3: REJECT") {
		t.Fatalf("exit %d, want 4 and a reject\n%s%s", r.code, r.stdout, r.stderr)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders %v", ms)
	}
	env := readText(t, filepath.Join(ms[0], "round-1", "envelope.md"))
	for _, must := range []string{"CHG-001 (code, calc.go): apply the discount once", "### calc.go\n", "### calc_test.go", "change-set-matches-plan: passed"} {
		if !strings.Contains(env, must) {
			t.Errorf("the envelope lacks %q:\n%s", must, env)
		}
	}
	if strings.Contains(env, "@@ ") || strings.Contains(env, "+// Total") {
		t.Errorf("the envelope carries diff hunks:\n%s", env)
	}
	for _, lens := range []string{"fix-scope", "fix-regression", "fix-tests", "fix-spec"} {
		if _, err := os.Stat(filepath.Join(ms[0], "round-1", "verdicts", lens+".json")); err != nil {
			t.Errorf("lens %s did not sit: %v", lens, err)
		}
	}
	md := readText(t, filepath.Join(ms[0], "fix-review.md"))
	for _, must := range []string{"# Fix review of BUG-20260715-A7K3: reject", "[major] the discount is still applied twice (fix-tests)", "- File: calc.go", "- Evidence: calc.go: Total applies d after the loop",
		"- Impact: orders are undercharged", "- Smallest follow-up: apply the discount once, in Total", "`fix/CHG-001.diff`", "`fix/plan.html`"} {
		if !strings.Contains(md, must) {
			t.Errorf("fix-review.md lacks %q:\n%s", must, md)
		}
	}
	if js := readText(t, filepath.Join(ms[0], "fix-review.json")); !strings.Contains(js, `"verdict": "reject"`) || !strings.Contains(js, `"follow_up": "apply the discount once, in Total"`) {
		t.Errorf("fix-review.json:\n%s", js)
	}
	if after := readText(t, filepath.Join(tr.repo, bug, "bug.md")); after != before {
		t.Error("bug.md was changed by the review")
	}

	// the fixer follows up; --resume re-convenes every juror on the files
	// as they are now, and the verdict is written again
	tr.jury = ""
	if r := tr.run("review", bug, "--resume", filepath.Base(ms[0]), "--config", tr.cfg, "--yes"); r.code != 0 || !strings.Contains(r.stdout, "fix review of BUG-20260715-A7K3: APPROVE") {
		t.Errorf("resumed after the follow-up: exit %d, want an approve\n%s%s", r.code, r.stdout, r.stderr)
	}
	if md := readText(t, filepath.Join(ms[0], "fix-review.md")); !strings.Contains(md, "# Fix review of BUG-20260715-A7K3: approve") || !strings.Contains(md, "Blind tribunal, round 2") {
		t.Errorf("fix-review.md after the resumed round:\n%s", md)
	}
	if after := readText(t, filepath.Join(tr.repo, bug, "bug.md")); after != before {
		t.Error("bug.md was changed by the resumed review")
	}

	ok := newTribunal(t, juryEngines)
	bug, _ = ok.fixedBug()
	if r := ok.review(bug); r.code != 0 || !strings.Contains(r.stdout, "fix review of BUG-20260715-A7K3: APPROVE") {
		t.Errorf("every lens passes: exit %d, want an approve\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A bug with no fix/CHG-*.diff and no --change or --files is exit 2
// saying what is missing, and nothing is written.
func TestReviewOfABugWithoutAFixSaysWhatIsMissing(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug := tr.withRegister("BUG-20260715-A7K3-desconto-aplicado-duas-vezes")
	r := tr.review(bug)
	if r.code != 2 || !strings.Contains(r.stderr, "fix/CHG-*.diff") || !strings.Contains(r.stderr, "--change") {
		t.Errorf("exit %d, want 2 naming fix/CHG-*.diff and --change\n%s", r.code, r.stderr)
	}
	if ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review")); len(ms) != 0 || len(tr.calls()) != 0 {
		t.Errorf("a refused review wrote %v or called %v", ms, tr.calls())
	}
}
