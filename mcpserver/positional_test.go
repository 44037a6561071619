package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A bug, question or target named like a flag reaches moot as what it
// is, never as a flag: a review or run with bug "--yes" and no
// accept_plan must not run moot with --yes (it would run and spend, the
// plan never accepted).
func TestAPositionalNamedLikeAFlagStaysPositional(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	exe := filepath.Join(dir, "moot")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + log + "\nexit 4\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{moot: commander{exe: exe, dir: dir}, dir: dir}
	ctx := context.Background()
	calls := map[string]func(){
		"review": func() { _, _, _ = s.review(ctx, nil, ReviewInput{Bug: "--yes", Files: []string{"x.go"}}) },
		"run":    func() { _, _, _ = s.run(ctx, nil, RunInput{Bug: "--yes", Setup: Setup{Mode: "diagnosis"}}) },
		"ask":    func() { _, _, _ = s.run(ctx, nil, RunInput{Question: "--yes"}) },
		"plan":   func() { _, _, _ = s.plan(ctx, nil, PlanInput{Bug: "--yes"}) },
	}
	for name, call := range calls {
		_ = os.Remove(log)
		call()
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatalf("%s: moot was not run: %v", name, err)
		}
		args := strings.Split(strings.TrimSpace(string(b)), "\n")
		flags := args
		if i := slices.Index(args, "--"); i >= 0 {
			flags = args[:i]
		}
		if slices.Contains(flags, "--yes") {
			t.Errorf("%s: bug \"--yes\" without accept_plan ran moot %q: --yes is a flag there", name, args)
		}
		if args[len(args)-1] != "--yes" {
			t.Errorf("%s: the target is not the last, positional argument: %q", name, args)
		}
	}
}
