package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRedactorString(t *testing.T) {
	r := NewRedactor("sk-abcdefgh12345", "abc", "true", "", "sk-abcdefgh12345-longer", "hunt3r")
	for in, want := range map[string]string{
		"key=sk-abcdefgh12345 ok":           "key=" + Redacted + " ok",
		"sk-abcdefgh12345-longer":           Redacted, // the longer secret whole
		"abc stays: values under 4 bytes":   "abc stays: values under 4 bytes",
		"true stays: a setting, not secret": "true stays: a setting, not secret",
		"pw hunt3r, a short password":       "pw " + Redacted + ", a short password",
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
	res := a.Call(context.Background(), Request{Role: "solver", Prompt: "x", Timeout: 10 * time.Second,
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

// TestAttackSecretSplitAcrossSSEDeltas: an OpenAI-compatible server that
// echoes a secret in two deltas (as a model splits tokens) leaves it
// neither in the answer nor in the raw file, which keeps the SSE frames.
func TestAttackSecretSplitAcrossSSEDeltas(t *testing.T) {
	const secret = "sk-localKEYabcdef0123456789"
	t.Setenv("MOOT_TEST_SPLIT_TOKEN", secret)
	cases := []struct {
		name   string
		pieces []string
	}{
		{"two deltas", []string{"key: sk-localKEYab", "cdef0123456789 end"}},
		{"one char each", strings.Split("key: "+secret+" end", "")},
		{"three deltas", []string{"key: sk-loc", "alKEYabcdef0", "123456789 end"}},
		{"twice", []string{"a sk-localKEYab", "cdef0123456789 b sk-", "localKEYabcdef0123456789 end"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for _, p := range c.pieces {
					b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "m",
						"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": p}}}})
					fmt.Fprintf(w, "data: %s\n\n", b)
				}
				fmt.Fprint(w, "data: [DONE]\n\n")
			}))
			defer srv.Close()
			e := &EngineConfig{Name: "local", Kind: KindOpenAI, BaseURL: srv.URL + "/v1", Model: "m", ProjectAccess: "none"}
			a, err := New(e, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var raw, errb bytes.Buffer
			res := a.Call(context.Background(), Request{Role: "solver", Prompt: "x", Timeout: 10 * time.Second, Stdout: &raw, Stderr: &errb})
			if strings.Contains(res.Body, "localKEY") || !strings.Contains(res.Body, Redacted) {
				t.Errorf("answer: %q", res.Body)
			}
			var text strings.Builder
			for _, line := range strings.Split(raw.String(), "\n") {
				if fr := parseFrame(line); fr.doc != nil {
					text.WriteString(fr.text)
				}
			}
			for _, half := range []string{"sk-localKEYab", "cdef0123456789", "localKEY"} {
				if strings.Contains(raw.String(), half) || strings.Contains(text.String(), half) {
					t.Errorf("the raw file holds %q:\n%s", half, raw.String())
				}
			}
			if !strings.Contains(text.String(), "end") || !strings.Contains(text.String(), Redacted) || !strings.Contains(raw.String(), "[DONE]") {
				t.Errorf("the raw file lost the text around the secret:\n%s", raw.String())
			}
		})
	}
}

// FuzzFrameWriter: whatever the deltas and however the stream is cut, the
// text the raw frames carry holds no secret, and what held none is kept.
func FuzzFrameWriter(f *testing.F) {
	f.Add("key: sk-secret-1", "23 end", "sk-secret-123", uint8(7))
	f.Add("a", "b", "sk-secret-123", uint8(0))
	f.Fuzz(func(t *testing.T, d1, d2, secret string, size uint8) {
		r := NewRedactor(secret)
		var stream strings.Builder
		for _, d := range []string{d1, d2} {
			b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]any{"content": d}}}})
			fmt.Fprintf(&stream, "data: %s\n\n", b)
		}
		var out bytes.Buffer
		w, flush := r.frameWriterFor(&out)
		s, n := stream.String(), int(size)+1
		for i := 0; i < len(s); i += n {
			_, _ = w.Write([]byte(s[i:min(i+n, len(s))]))
		}
		flush()
		text, orig := framesText(out.String()), framesText(s)
		if r.Empty() {
			return
		}
		v := strings.TrimSpace(secret)
		if strings.Contains(text, v) && !strings.Contains(Redacted, v) {
			t.Fatalf("the secret survived in %q", text)
		}
		if !strings.Contains(orig, v) && !strings.Contains(s, v) && text != orig {
			t.Fatalf("text changed: %q from %q", text, orig)
		}
	})
}

// framesText joins the text the frames of a raw stream carry.
func framesText(raw string) string {
	var text strings.Builder
	for _, line := range strings.Split(raw, "\n") {
		if fr := parseFrame(line); fr.doc != nil {
			text.WriteString(fr.text)
		}
	}
	return text.String()
}

// A variable's name says it holds a secret by a word in it or a short
// ending (DB_PASS, MYSQL_PWD, GITHUB_AUTH); the shell's folders (PWD,
// OLDPWD) and an author's name are no secret.
func TestSecretNameReadsPasswordsUnderShortNames(t *testing.T) {
	for name, want := range map[string]bool{
		"OPENAI_API_KEY": true, "GH_TOKEN": true, "DB_PASS": true, "MYSQL_PWD": true, "GITHUB_AUTH": true,
		"SSH_PASSPHRASE": true, "APP_DSN": true, "GITHUB_PAT": true, "db_pass": true,
		"PWD": false, "OLDPWD": false, "GIT_AUTHOR_NAME": false, "PATH": false, "HOME": false, "PASSTHROUGH_MODE": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%s) = %v, want %v", name, got, want)
		}
	}
}
