package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bugEnvelope rewrites the Q2R8 bug's body, reviews the change on it and
// returns the envelope the jurors read.
func (tr *tribunal) bugEnvelope(body string) string {
	tr.t.Helper()
	bug := tr.withRegister("BUG-20260702-Q2R8-frete-arredondado")
	md := filepath.Join(tr.repo, bug, "bug.md")
	old := readText(tr.t, md)
	i := strings.Index(old, "\n---\n")
	if err := os.WriteFile(md, []byte(old[:i+5]+body), 0o644); err != nil {
		tr.t.Fatal(err)
	}
	env, _ := tr.envelopeOf(bug)
	return env
}

// envelopeOf reviews bug's change with the defect lens
// and returns the one envelope its jurors read, and the run.
func (tr *tribunal) envelopeOf(bug string) (string, result) {
	tr.t.Helper()
	r := tr.review(append([]string{bug}, append(change, "--lens", "defect")...)...)
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "envelope.md"))
	if len(ms) != 1 {
		tr.t.Fatalf("exit %d, envelopes %v\n%s%s", r.code, ms, r.stdout, r.stderr)
	}
	return readText(tr.t, ms[0]), r
}

// Whatever the headings' language or level, only what must be true
// reaches the jurors: a Portuguese record's Resumo and Comportamento
// Atual, and an Actual Behavior or Resumo nested under Expected Behavior,
// never do.
func TestReviewEnvelopeOfABugIgnoresOldBehaviourUnderAnyHeading(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"portuguese": "\n# Título VELHO-TITULO\n\n## Resumo\n\nVELHO-RESUMO\n\n## Comportamento Esperado\n\nESPERADO-OK\n\n## Comportamento Atual\n\nVELHO-ATUAL\n\n## Critérios de Aceite\n\nCRITERIO-OK\n\n## Notas do Agente\n\nVELHO-NOTAS\n",
		"nested":     "\n## Summary\n\nVELHO-RESUMO\n\n## Expected Behavior\n\nESPERADO-OK\n\n### Actual Behavior\n\nVELHO-ATUAL\n\n### Resumo\n\nVELHO-RESUMO\n\n## Acceptance Criteria\n\nCRITERIO-OK\n",
	} {
		t.Run(name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			env := tr.bugEnvelope(body)
			for _, old := range []string{"VELHO-TITULO", "VELHO-RESUMO", "VELHO-ATUAL", "VELHO-NOTAS"} {
				if strings.Contains(env, old) {
					t.Errorf("the envelope carries %s:\n%s", old, env)
				}
			}
			if !strings.Contains(env, "ESPERADO-OK") {
				t.Errorf("the envelope lacks the expected behaviour:\n%s", env)
			}
		})
	}
}

// A value of a secret-named variable of moot's environment in a
// reviewed file never reaches a juror; the plan names the file.
func TestReviewRedactsAPasswordOfTheEnvironment(t *testing.T) {
	for _, kv := range [][2]string{{"DB_PASS", "hunter2-prod-7731"}, {"MYSQL_PWD", "s3cr3t-mysql-991"}, {"GITHUB_AUTH", "ghx_abcdef1234567890"}} {
		tr := newTribunal(t, juryEngines)
		tr.write("calc.go", calcChange+"// dsn: app:"+kv[1]+"@db\n")
		tr.git("commit", "-qam", "dsn")
		t.Setenv(kv[0], kv[1])
		r := tr.review(append(change, "--lens", "defect")...)
		for _, m := range append(tr.reviews(), "") {
			if m == "" {
				continue
			}
			if env := readText(t, filepath.Join(m, "round-1", "envelope.md")); strings.Contains(env, kv[1]) {
				t.Errorf("%s's value reached the envelope (exit %d)\n%s", kv[0], r.code, r.stderr)
			}
		}
		if !strings.Contains(r.stderr, "calc.go") {
			t.Errorf("%s: the plan does not name calc.go as holding a secret\n%s", kv[0], r.stderr)
		}
	}
}

// The identity scan reads a builder's name written with look-alike
// letters of another script (Cyrillic А, В) or fullwidth forms, or split
// by a soft hyphen or a zero-width joiner, as the name.
func TestReviewIdentityScanSeesThroughLookAlikes(t *testing.T) {
	t.Parallel()
	for _, leak := range []string{"Ada Buil\u00adder", "Ada Bui\u200dlder", "Ａｄａ Ｂｕｉｌｄｅｒ", "\u0410da \u0412uilder", "Ad\u0430 Builder"} {
		tr := newTribunal(t, juryEngines)
		tr.write("calc.go", calcChange+"// reviewed with "+leak+"\n")
		tr.git("commit", "-qam", "leak")
		r := tr.review(change...)
		if r.code != 2 || !strings.Contains(r.stderr, "calc.go") || len(tr.calls()) != 0 {
			t.Errorf("%q: exit %d, calls %v, want 2 naming calc.go before any call\n%s", leak, r.code, tr.calls(), r.stderr)
		}
	}
}

// A local pass whose verifier passes with a minor finding is a refuse.
func TestReviewVerifiersMinorFindingClosesTheGate(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    defect: [loc, ext-anth]\n")
	tr.jury = "ext-anth/defect=minorpass"
	r := tr.review(append(change, "--lens", "defect")...)
	if r.code != 4 {
		t.Errorf("a verifier's minor finding: exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
}
