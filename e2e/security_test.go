package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsNeverLeak (the attack: an engine echoes AWS_SECRET_ACCESS_KEY
// or another engine's key): an engine that quotes its key (from the
// environment, through api_key_env), a vendor key of the environment, a
// cloud credential, another engine's api_key_env and a token from the
// engines file — in its answers, on stderr and in its error
// — leaves none of them in any file moot writes, the event stream, or any
// view of moot show / moot list.
func TestSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	const (
		envKey    = "sk-env-key-0123456789abcdef"
		vendorKey = "sk-openai-env-fedcba9876543210"
		awsKey    = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
		otherKey  = "other-engine-key-31415926535"
		fileToken = "tok-engines-file-5555aaaa7777"
	)
	p := newProject(t)
	p.writeConfig(`engines:
  leaky:
    kind: command
    command: ["` + fakeBin + `"]
    external: false
    api_key_env: MOOT_SEC_KEY
    env: {MY_SERVICE_TOKEN: ` + fileToken + `}
    env_passthrough: ["FAKE_*", OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, OTHER_ENGINE_KEY]
  other:
    kind: openai
    api_key_env: OTHER_ENGINE_KEY
defaults: {solver: leaky, judge: leaky}
`)
	p.Plan = "agente-2=leak:fail,*=leak"
	p.env = []string{"MOOT_SEC_KEY=" + envKey, "OPENAI_API_KEY=" + vendorKey, "AWS_SECRET_ACCESS_KEY=" + awsKey, "OTHER_ENGINE_KEY=" + otherKey,
		"FAKE_LEAK=MOOT_SEC_KEY,OPENAI_API_KEY,MY_SERVICE_TOKEN,AWS_SECRET_ACCESS_KEY,OTHER_ENGINE_KEY"}
	run := p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--json")
	if run.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	outputs := map[string]string{"moot run --json": run.stdout + run.stderr}
	for _, args := range [][]string{{"show", "7"}, {"show", "7", "--round", "0"}, {"show", "7", "--round", "1"}, {"show", "7", "--final"},
		{"show", "7", "--problem"}, {"show", "7", "--convergence"}, {"list", "--json"}, {"engines", "--json"}} {
		r := p.moot(args...).mustExit(t, 0)
		outputs["moot "+strings.Join(args, " ")] = r.stdout + r.stderr
	}
	redacted := 0
	_ = filepath.WalkDir(p.bugDir(), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			outputs[path] = string(b)
			redacted += strings.Count(string(b), "[REDACTED]")
		}
		return nil
	})
	for where, text := range outputs {
		for _, secret := range []string{envKey, vendorKey, fileToken, awsKey, otherKey} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shows the secret %s…", where, secret[:8])
			}
		}
	}
	// the engine did try to leak them: the answers, raw files and errors
	// carry the redaction mark instead
	if redacted < 5*6 {
		t.Errorf("only %d redactions in the bug folder: the engine's leaks did not happen as planned", redacted)
	}
}

// TestPathsCannotEscape: a bug argument, a symlinked bug folder or a
// planted symlink inside the debate never lets moot read a bug or write a
// file outside _reversa_bugs.
func TestPathsCannotEscape(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "bug.md"), []byte("---\nid: BUG-20990101-EVIL\ntitle: evil\n---\n# x\n"), 0o600)
	evil := filepath.Join(p.dir, "_reversa_bugs", "checkout", "bugs", "BUG-20990101-EVIL")
	if err := os.Symlink(outside, evil); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"../../../etc", "/etc", outside, evil, "_reversa_bugs/checkout/bugs/BUG-20990101-EVIL", "BUG-20990101-EVIL", "_reversa_bugs/../.."} {
		r := p.moot("run", arg, "--mode", "diagnosis", "--yes", "--headless")
		if r.code != 2 {
			t.Errorf("moot run %s: exit %d, want 2\n%s", arg, r.code, r.stderr)
		}
	}
	if list := p.moot("list", "--json").mustExit(t, 0); strings.Contains(list.stdout, "EVIL") {
		t.Error("moot list shows a bug folder that is a symlink out of the register")
	}
	// a debate folder planted as a symlink to the outside
	if err := os.Symlink(outside, p.debate()); err != nil {
		t.Fatal(err)
	}
	if r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless"); r.code != 2 || !strings.Contains(r.stderr, "outside") {
		t.Errorf("symlinked debate folder: exit %d\n%s", r.code, r.stderr)
	}
	os.Remove(p.debate())
	// a round folder planted as a symlink mid-debate: the debate waits at a
	// quorum loss, a symlink replaces round 1, the resume must refuse
	p.Plan = "agente-2@1=fail,agente-3@1=fail"
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 4)
	round1 := filepath.Join(p.debate(), "rodada-1")
	if err := os.RemoveAll(round1); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, round1); err != nil {
		t.Fatal(err)
	}
	p.Plan = ""
	r := p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "retry")
	if r.code == 0 {
		t.Errorf("resume through a symlinked round folder succeeded:\n%s", r.stderr)
	} else if r.code != 2 || !strings.Contains(r.stderr, "outside") {
		t.Errorf("resume through a symlinked round folder: exit %d, want 2 naming the folder\n%s", r.code, r.stderr)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("moot wrote outside the register: %v", names)
	}
}

// TestEverythingWrittenIsOwnerOnly: after a debate with retries, a failed
// judge attempt and raw output, every file moot wrote is 0600 (problema.md
// 0400) and every folder 0700.
func TestEverythingWrittenIsOwnerOnly(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-1@0#1=fail,juiz#1=judgebad"
	p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
	n := 0
	_ = filepath.WalkDir(p.debate(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir():
			want = 0o700
		case filepath.Base(path) == "problema.md":
			want = 0o400
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: %v, want %v", path, fi.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if n < 15 {
		t.Errorf("only %d entries checked", n)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "juiz", "tentativa-1.md")); err != nil {
		t.Errorf("the failed judge attempt was not kept: %v", err)
	}
}
