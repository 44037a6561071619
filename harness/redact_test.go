package harness

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

func TestRedactorString(t *testing.T) {
	r := NewRedactor("sk-abcdefgh12345", "short", "", "sk-abcdefgh12345-longer")
	for in, want := range map[string]string{
		"key=sk-abcdefgh12345 ok":           "key=" + Redacted + " ok",
		"sk-abcdefgh12345-longer":           Redacted, // the longer secret whole
		"short stays: values under 8 bytes": "short stays: values under 8 bytes",
		"nothing here":                      "nothing here",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactorStreamSplit: a secret cut across writes is still caught.
func TestRedactorStreamSplit(t *testing.T) {
	secret := "sk-planted-0123456789"
	text := "before " + secret + " middle " + secret + secret + " after s"
	for size := 1; size <= len(text); size++ {
		var out bytes.Buffer
		w, flush := NewRedactor(secret).Writer(&out)
		for i := 0; i < len(text); i += size {
			_, _ = w.Write([]byte(text[i:min(i+size, len(text))]))
		}
		flush()
		want := strings.ReplaceAll(text, secret, Redacted)
		if out.String() != want {
			t.Fatalf("chunks of %d: %q, want %q", size, out.String(), want)
		}
	}
}

// TestEngineRedactsSecrets runs a command engine that prints its key to
// stdout, stderr and in its answer: none of it may reach moot's raw files,
// live output or result.
func TestEngineRedactsSecrets(t *testing.T) {
	t.Setenv("MOOT_TEST_REDACT_KEY", plantedKey)
	e := &EngineConfig{Name: "leaky", Kind: KindCommand, APIKeyEnv: "MOOT_TEST_REDACT_KEY",
		Command: []string{"sh", "-c", `printf 'answer with %s inside\n' "$MOOT_TEST_REDACT_KEY"; printf 'error: key %s rejected\n' "$MOOT_TEST_REDACT_KEY" >&2; exit 3`}}
	a, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	var live strings.Builder
	res := a.Call(context.Background(), Request{Role: bugfolder.RoleSolver, Prompt: "x", Timeout: 10 * time.Second,
		Stdout: &out, Stderr: &errb, OnOutput: func(s string) { live.WriteString(s) }})
	for name, s := range map[string]string{"raw stdout": out.String(), "raw stderr": errb.String(), "live": live.String(), "body": res.Body, "error": res.Err} {
		if strings.Contains(s, plantedKey) {
			t.Errorf("the key appears in the %s: %q", name, s)
		}
		if !strings.Contains(s, Redacted) {
			t.Errorf("the %s lost the text around the key: %q", name, s)
		}
	}
}

// FuzzRedactorStream: whatever the text and however it is cut, the
// streamed output equals redacting the whole, and holds no secret.
func FuzzRedactorStream(f *testing.F) {
	f.Add("abc sk-secret-123 def", "sk-secret-123", uint8(3))
	f.Add("sk-secret-12sk-secret-123", "sk-secret-123", uint8(1))
	f.Fuzz(func(t *testing.T, text, secret string, size uint8) {
		r := NewRedactor(secret)
		var out bytes.Buffer
		w, flush := r.Writer(&out)
		n := int(size) + 1
		for i := 0; i < len(text); i += n {
			_, _ = w.Write([]byte(text[i:min(i+n, len(text))]))
		}
		flush()
		if out.String() != r.String(text) {
			t.Fatalf("streamed %q, whole %q", out.String(), r.String(text))
		}
		if !r.Empty() && strings.Contains(out.String(), strings.TrimSpace(secret)) && !strings.Contains(Redacted, strings.TrimSpace(secret)) {
			t.Fatalf("the secret survived: %q", out.String())
		}
	})
}
