package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The identity scan folds accents and drops invisible characters on both
// sides: an author git knows as "José Núñez" written "Jose Nunez", and a
// co-author's name split by a combining grapheme joiner (U+034F) or
// spaced by a Hangul filler (U+3164), are leaks: exit 2 before any call,
// nothing written.
func TestReviewFindsANameWithoutItsAccentsOrSplitByInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"by Jose Nunez", "by Ada Love\u034flace", "by Ada\u3164Lovelace"} {
		tr := newTribunal(t, juryEngines)
		tr.write("calc.go", "package calc\n\n// Total adds.\n// "+text+"\nfunc Total(a, b int) int { return a + b }\n")
		tr.git("-c", "user.name=José Núñez", "-c", "user.email=jose.nunez@example.com", "commit", "-qam", "doc\n\nCo-authored-by: Ada Lovelace <ada@example.org>")
		r := tr.review(append(change, "--lens", "defect")...)
		if r.code != 2 || !strings.Contains(r.stderr, "calc.go:4") {
			t.Errorf("%q: exit %d, want 2 naming calc.go:4\n%s", text, r.code, r.stderr)
		}
		if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
			t.Errorf("%q: jurors called %v or review written %v", text, tr.calls(), tr.reviews())
		}
	}
}

// A secret value of moot's environment inside a reviewed file is replaced
// before any juror reads it and before the envelope is written, and the
// plan names the file that held it.
func TestReviewRedactsASecretInAReviewedFile(t *testing.T) {
	const secret = "sk-openai-REVIEW-abcdef123456"
	t.Setenv("OPENAI_API_KEY", secret)
	tr := newTribunal(t, juryEngines)
	tr.write("calc.go", "package calc\n\n// key: "+secret+"\nfunc Total(a, b int) int { return a + b }\n")
	tr.git("commit", "-qam", "key")
	r := tr.review(append(change, "--lens", "defect")...)
	if r.code != 0 || !strings.Contains(r.stderr, "calc.go hold(s) a secret value of your environment") {
		t.Errorf("exit %d, want 0 and the plan naming calc.go\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(readText(t, p), secret) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if env := readText(t, filepath.Join(dir, "round-1", "envelope.md")); !strings.Contains(env, "// key: [REDACTED]") {
		t.Errorf("the envelope does not show the redaction:\n%s", env)
	}
}
