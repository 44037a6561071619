package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/refmoot"
)

// TestReferenceProcessAnswersEveryCallFromItsRunFile: the run file's
// calls reach the engine (here cat, which answers with its prompt) and
// every answer lands in the run's folder.
func TestReferenceProcessAnswersEveryCallFromItsRunFile(t *testing.T) {
	dir := t.TempDir()
	cfg := refmoot.Config{Argv: []string{"cat"}, Env: os.Environ(), Dir: filepath.Join(dir, "out"),
		Stages: [][]refmoot.Call{{{Role: "solver", ID: "s1", Prompt: []byte("P one")}, {Role: "solver", ID: "s2", Prompt: []byte("P two")}}}}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "run.json")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{name}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"s1": "P one", "s2": "P two"} {
		got, err := os.ReadFile(filepath.Join(dir, "out", "stage-0", id+".md"))
		if err != nil || string(got) != want {
			t.Errorf("answer of %s = %q, %v; want %q", id, got, err, want)
		}
	}
}

// TestReferenceProcessNamesABadRunFile: a run file that is not JSON is an
// error naming the file.
func TestReferenceProcessNamesABadRunFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(name, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{name}, {}} {
		err := run(args)
		if err == nil {
			t.Fatalf("run(%q) succeeded", args)
		}
		if len(args) == 1 && !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
}
