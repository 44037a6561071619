package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Regression tests for the hostile new-user test of issue 11
// (attack-11): each is named after the finding it keeps fixed.

// Finding 1: a teammate's engines file with the same relative command but
// another program behind it is another engine: the resume stops (exit 2)
// naming the program's difference.
func TestFinding1TeammateSameRelativeCommandIsCaught(t *testing.T) {
	p := newProject(t)
	p.Plan = "agente-2@1=invalid,agente-3@1=invalid"
	reg := filepath.Join(p.dir, "_reversa_bugs")
	script := func(dir, tag string) {
		t.Helper()
		os.MkdirAll(dir, 0o700)
		body := "#!/bin/sh\n# " + tag + "\nexec '" + fakeBin + "' \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, "fk.sh"), []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg := `engines:
  rel-1:
    kind: command
    command: ["./fk.sh", "--role", "{role}"]
    external: false
    timeout: 20s
defaults:
  solver: rel-1
  judge: rel-1
`
	script(reg, "relA")
	p.writeConfig(cfg)
	p.moot("run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless").mustExit(t, 4)
	if id := p.readDebate().Problem.Engines["rel-1"]; id["program"] != filepath.Join(reg, "fk.sh") || len(id["program_sha256"]) != 64 {
		t.Fatalf("problema.md records the resolved program and its digest: %v", id)
	}
	xdg := filepath.Join(p.dir, ".xdg", "moot")
	script(xdg, "IMPOSTOR-B")
	if err := os.WriteFile(filepath.Join(xdg, "moot.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(reg, "moot.yaml"))
	logBefore := fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl"))
	r := p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "retry").mustExit(t, 2)
	if !strings.Contains(r.stderr, "engine rel-1: ") || !strings.Contains(r.stderr, "program_sha256") {
		t.Errorf("the refusal names the program's difference:\n%s", r.stderr)
	}
	if fileBytes(t, filepath.Join(p.debate(), "eventos.jsonl")) != logBefore {
		t.Error("a refused resume ran or logged something")
	}
}
