package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A review in the register has no display number and its own rounds:
// list does not print "(<nil>)" for the number, and status gives the
// review's round (it said round 0 for a review that ran round 1).
func TestAReviewIsListedAndFollowedAsWhatItIs(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "moot")
	entries := `[{"kind":"review","bug_id":"20261202-070000","display_number":null,"status":"refuse","title":"document Total","path":".moot/reviews/20261202-070000","rounds":2,"calls":3,"tokens":900}]`
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nprintf '%s\\n' '"+entries+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{moot: commander{exe: exe, dir: dir}, dir: dir}
	ctx := context.Background()
	res, _, err := s.list(ctx, nil, struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; strings.Contains(text, "nil") || !strings.HasPrefix(text, "review 20261202-070000 refuse: document Total") {
		t.Errorf("list says %q", text)
	}
	_, st, err := s.status(ctx, nil, StatusInput{TargetInput: TargetInput{Target: "20261202-070000"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Round != 2 || st.Calls != 3 || st.Tokens != 900 || st.State != "refuse" {
		t.Errorf("status %+v", st)
	}
}

// A debate stopped at a menu has no result yet: result says a human
// answers it (moot, or moot resume), not just "waiting".
func TestAResultWaitingAtAMenuSaysAHumanAnswersIt(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "moot")
	entries := `[{"kind":"bug","bug_id":"BUG-1","display_number":7,"status":"waiting","protocol":"debate","path":"_reversa_bugs/c/bugs/BUG-1-x"}]`
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n[ \"$1\" = list ] && printf '%s\\n' '"+entries+"'\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{moot: commander{exe: exe, dir: dir}, dir: dir}
	res, out, err := s.result(context.Background(), nil, TargetInput{Target: "7"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if out.Next != humanNeeded || !strings.Contains(text, "moot resume") {
		t.Errorf("result %q, next %q", text, out.Next)
	}
}
