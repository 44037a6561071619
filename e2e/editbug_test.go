package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEEditsTheBugInTheEditor: e in the browser and in a debate opens the
// selected bug's bug.md in $VISUAL, handing it the terminal, and moot
// comes back when the editor exits.
func TestEEditsTheBugInTheEditor(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	got := filepath.Join(t.TempDir(), "edited")
	editor := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\necho \"$1\" >> "+got+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	p.env = []string{"VISUAL=" + editor}
	m := startTmux(t, p, 80, 24)
	m.wait("the browser", "BUG-20260715-A7K3")
	m.send("/", "A7K3", "Enter", "e")
	waitFor(t, "the editor to be run on bug.md", 30*time.Second, func() bool {
		b, _ := os.ReadFile(got)
		return strings.Contains(string(b), filepath.Join(a7k3, "bug.md"))
	})
	m.wait("moot back after the editor", "BUG-20260715-A7K3", "1 of 6 match")
	m.send("Escape")
	m.wait("the filter cleared", "6/6")
	m.send("/", "Q2R8", "Enter", "Enter")
	m.wait("the debate", "Final")
	m.send("e")
	waitFor(t, "the editor run from the debate", 30*time.Second, func() bool {
		b, _ := os.ReadFile(got)
		return strings.Contains(string(b), "BUG-20260702-Q2R8")
	})
}
