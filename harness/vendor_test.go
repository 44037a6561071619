package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stubCodex is a stand-in codex that reports its environment and working
// folder on stderr, refreshes its stored token, echoes the old one, and
// answers in codex's JSON.
const stubCodex = `#!/bin/sh
cat > /dev/null
env >&2
echo "cwd=$(pwd)" >&2
echo "old=$(cat "$CODEX_HOME/auth.json")" >&2
printf '{"token":"refreshed-token-abcdefghijklmnop"}' > "$CODEX_HOME/auth.json"
printf '%s\n' '{"type":"item.completed","item":{"type":"agent_message","text":"## Hipóteses\n\nok"}}'
printf '%s\n' '{"type":"turn.completed","usage":{"input_tokens":7,"output_tokens":3}}'
`

func TestVendorCallHygiene(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "codex"), []byte(stubCodex), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	for _, k := range specs[KindCodex].keyVars {
		t.Setenv(k, "")
	}
	t.Setenv("MOOT_UNRELATED_VARIABLE", "must-not-reach-the-cli")
	auth := filepath.Join(home, ".codex", "auth.json")
	os.MkdirAll(filepath.Dir(auth), 0o700)
	old := `{"token":"stored-token-0123456789abcdef"}`
	if err := os.WriteFile(auth, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := New(&EngineConfig{Name: "cx", Kind: KindCodex, ProjectAccess: "none"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	res := a.Call(context.Background(), Request{Role: "solver", Prompt: "p", P: "# P", Timeout: 20 * time.Second, Stdout: &out, Stderr: &errb})
	if statusOf(res) != "ok" || res.TokensIn != 7 || res.TokensOut != 3 || !strings.Contains(res.Body, "## Hipóteses") {
		t.Fatalf("%+v\n%s", res, errb.String())
	}
	env := errb.String()
	if strings.Contains(env, "MOOT_UNRELATED_VARIABLE") {
		t.Error("moot's whole environment reached the CLI")
	}
	if strings.Contains(env, "HOME="+home+"\n") || !strings.Contains(env, "HOME="+os.TempDir()) {
		t.Error("the CLI did not get a private HOME")
	}
	if !strings.Contains(env, "NO_COLOR=1") || !strings.Contains(env, "TMPDIR="+os.TempDir()) {
		t.Errorf("missing quiet/private settings:\n%s", env)
	}
	if !strings.Contains(env, "cwd="+os.TempDir()) || !strings.Contains(env, "/work") {
		t.Error("the CLI did not run in its scratch folder")
	}
	if strings.Contains(env, "stored-token-0123456789abcdef") || !strings.Contains(env, "old=") {
		t.Error("the stored token was not redacted from the raw stderr")
	}
	if i := strings.Index(env, "cwd="); i >= 0 {
		dir := strings.TrimSuffix(strings.SplitN(env[i+4:], "\n", 2)[0], "/work")
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the private folder %s outlived the call", dir)
		}
	}
	b, _ := os.ReadFile(auth)
	if string(b) != `{"token":"refreshed-token-abcdefghijklmnop"}` {
		t.Errorf("the refreshed token was not copied back: %s", b)
	}
	if fi, _ := os.Stat(auth); fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials mode %v", fi.Mode().Perm())
	}
}

func TestVendorMissingBinary(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a, _ := New(&EngineConfig{Name: "q", Kind: KindQwen}, Options{})
	res := a.Call(context.Background(), Request{Prompt: "p", Timeout: time.Second})
	if statusOf(res) != "error" || res.Failure != FailEngine || !strings.Contains(res.Err, "npm install -g @qwen-code/qwen-code") {
		t.Errorf("%+v", res)
	}
}

// TestCodexProjectAccess: only with project_access read-only does codex
// run in the project, and always under its read-only sandbox.
func TestCodexProjectAccess(t *testing.T) {
	for access, wantDir := range map[string]string{"none": "", "read-only": "/the/project"} {
		v := &vendorCLI{cfg: &EngineConfig{Name: "cx", Kind: KindCodex, ProjectAccess: access}, opts: Options{ProjectDir: "/the/project"}, spec: specs[KindCodex]}
		c, err := v.prepare(Request{P: "# P"})
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Join(codexArgs(c), " ")
		if wantDir == "" {
			wantDir = c.dirs.work
		}
		if !strings.Contains(args, "-C "+wantDir+" ") || !strings.Contains(args, "--sandbox read-only") {
			t.Errorf("%s: %s", access, args)
		}
		if b, err := os.ReadFile(filepath.Join(c.dirs.work, "P.md")); err != nil || string(b) != "# P" {
			t.Errorf("P is not in the scratch folder: %v", err)
		}
		os.RemoveAll(c.dirs.root)
	}
}
