package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A run cancelled by its client still reports its folder as a full path:
// the folder's lookup (moot list) ran on the cancelled call's context and
// failed, leaving the event's relative "debate".
func TestACancelledRunNamesItsWholeFolder(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "moot")
	script := `#!/bin/sh
if [ "$1" = list ]; then
  printf '%s\n' '[{"kind":"bug","bug_id":"BUG-1","display_number":7,"status":"running","path":"_reversa_bugs/c/bugs/BUG-1-x"}]'
  exit 0
fi
printf '%s\n' '{"type":"setup","path":"debate"}'
trap 'exit 3' INT
sleep 5
exit 3
`
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{moot: commander{exe: exe, dir: dir}, dir: dir}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(500 * time.Millisecond); cancel() }()
	_, out, err := s.run(ctx, nil, RunInput{Bug: "7", AcceptPlan: true, Setup: Setup{Mode: "diagnosis"}})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(out.Folder) || filepath.Base(out.Folder) != "debate" {
		t.Errorf("folder %q, want the bug's debate folder as a full path", out.Folder)
	}
}
