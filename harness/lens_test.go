package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A command engine gets the participant's lens name as {lens} and
// MOOT_LENS (empty when it has none), as docs/cli.md says.
func TestLensPlaceholder(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "lens.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"arg=$1 env=$MOOT_LENS.\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := &EngineConfig{Name: "x", Kind: KindCommand, Command: []string{"./lens.sh", "{lens}"}}
	a, err := New(e, Options{ConfigDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for lens, want := range map[string]string{"data-integrity": "arg=data-integrity env=data-integrity.", "": "arg= env=."} {
		res := a.Call(context.Background(), Request{Role: "solver", SolverID: "agente-1", Lens: lens, Prompt: "p", Timeout: 10 * time.Second})
		if !strings.Contains(res.Body, want) {
			t.Errorf("lens %q: %q, want %q", lens, res.Body, want)
		}
	}
}
