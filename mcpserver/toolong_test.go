package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input too long for a command line (a 2 MB question) is a clear tool
// error saying nothing ran, not "fork/exec …: argument list too long".
func TestAnInputTooLongForACommandLineIsAClearError(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "moot")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{moot: commander{exe: exe, dir: dir}, dir: dir}
	_, _, err := s.run(context.Background(), nil, RunInput{Question: strings.Repeat("q", 2<<20)})
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); !strings.Contains(msg, "too long") || !strings.Contains(msg, "nothing was run or written") || strings.Contains(msg, "fork/exec") {
		t.Errorf("error %q", msg)
	}
}
