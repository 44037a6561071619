package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/fakeprovider"
	"github.com/reversa/moot/internal/testutil"
)

// plantedKey must never appear in anything moot writes or prints.
const plantedKey = "sk-planted-e2e-0123456789abcdefSECRET"

// TestDebateWithEveryCLI: a debate with one
// solver per vendor CLI (codex, claude, gemini, opencode, qwen), judged by
// an HTTP engine, all pointed at the fake provider, completes through
// `moot run --headless` with the tokens of every call recorded, and the
// planted key appears nowhere.
func TestDebateWithEveryCLI(t *testing.T) {
	t.Parallel()
	bin := testutil.NeedCLIs(t, "codex", "claude", "gemini", "opencode", "qwen")
	srv := fakeprovider.New()
	defer srv.Close()
	p := newProject(t)
	p.env = append(p.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "MOOT_E2E_KEY="+plantedKey)
	engine := func(name, kind, base string) string {
		return "  " + name + ":\n    kind: " + kind + "\n    model: fake-model\n    base_url: " + base +
			"\n    api_key_env: MOOT_E2E_KEY\n    timeout: 3m\n    context_tokens: 200000\n"
	}
	v1 := srv.URL + "/v1"
	p.writeConfig("engines:\n" +
		engine("codex", "codex", v1) + engine("claude", "claude", srv.URL) + engine("gemini", "gemini", srv.URL) +
		engine("opencode", "opencode", v1) + engine("qwen", "qwen", v1) + engine("judge", "openai", v1) +
		"defaults: {solver: codex, judge: judge}\n")
	// the whole run is bounded by what moot itself allows a loaded machine
	// (p.moot's 3 minutes is not): five probes of up to quickTimeout (2m),
	// then two rounds of five node CLIs started at once, and the judge. It
	// took 112 s at a load average of 12 on two cores.
	r := p.mootWithin(8*time.Minute, "run", "7", "--mode", "diagnosis", "-n", "5", "-r", "1", "--yes", "--headless",
		"--solver", "codex", "--solver", "claude", "--solver", "gemini", "--solver", "opencode", "--solver", "qwen")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	d := p.readDebate()
	if d.State != bugfolder.StateDone || len(d.Rounds) != 2 {
		t.Fatalf("state %s, %d rounds", d.State, len(d.Rounds))
	}
	seen := map[string]bool{}
	for _, rd := range d.Rounds {
		for _, f := range rd.Files {
			seen[f.Engine] = true
			if f.Status != bugfolder.StatusOK || f.TokensIn < srv.TokensIn || f.TokensOut != srv.TokensOut || f.TokensEstimated {
				t.Errorf("%s (%s): status %s, tokens %d/%d estimated %v; want ok with the server's %d/%d", f.Path, f.Engine, f.Status, f.TokensIn, f.TokensOut, f.TokensEstimated, srv.TokensIn, srv.TokensOut)
			}
		}
	}
	for _, k := range []string{"codex", "claude", "gemini", "opencode", "qwen"} {
		if !seen[k] {
			t.Errorf("no debater file from %s", k)
		}
	}
	if d.Final == nil || d.Final.WinnerSolver == "" {
		t.Fatalf("no final synthesis: %+v", d.Final)
	}
	// the planted key is nowhere: not in any file of the bug, not on screen
	_ = filepath.WalkDir(p.bugDir(), func(path string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), plantedKey) {
				t.Errorf("the planted key is in %s", path)
			}
		}
		return nil
	})
	if strings.Contains(r.stdout+r.stderr, plantedKey) {
		t.Error("the planted key was printed")
	}
	// and it did reach the server, so the check above means something
	got := false
	for _, rq := range srv.Requests() {
		got = got || strings.Contains(rq.Header.Get("Authorization")+rq.Header.Get("X-Api-Key")+rq.Header.Get("X-Goog-Api-Key"), plantedKey)
	}
	if !got {
		t.Error("the key never reached the server")
	}
}
