package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// listEntry is the part of `moot list --json` these tests read.
type listEntry struct {
	BugID    string  `json:"bug_id"`
	Kind     string  `json:"kind"`
	Protocol *string `json:"protocol"`
	Decision *string `json:"decision"`
	Path     string  `json:"path"`
	Title    string  `json:"title"`
}

// list runs moot list --json and returns its entries by bug (or question) ID.
func (p *project) list() map[string]listEntry {
	p.t.Helper()
	r := p.moot("list", "--json").mustExit(p.t, 0)
	var es []listEntry
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil {
		p.t.Fatalf("list --json: %v\n%s", err, r.stdout)
	}
	out := map[string]listEntry{}
	for _, e := range es {
		out[e.BugID] = e
	}
	return out
}

// specDebate runs a spec debate on bug num, which ends waiting for a human
// decision, and returns the headless output.
func (p *project) specDebate(num string) result {
	p.t.Helper()
	return p.moot("run", num, "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(p.t, 0)
}

// A spec debate's result waits for a human: `moot decide` records each
// choice in decisao.md (who, when, choice, note; owner-only), logs a
// decision event, and list --json and show report it. On a restricted bug
// too: deciding makes no engine call.
func TestDecideRecordsTheHumanDecision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, bug, id, choice, note string
	}{
		{"approve", "7", "BUG-20260715-A7K3", "approve", ""},
		{"decline with a note", "7", "BUG-20260715-A7K3", "Decline", "the spec is right; the code is wrong"},
		{"revise", "7", "BUG-20260715-A7K3", "revise", "weigh the addendum of July"},
		{"restricted bug", "8", "BUG-20260720-R5T6", "approve", "ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = append(p.env, "GIT_CONFIG_GLOBAL="+filepath.Join(p.dir, "gitconfig"), "GIT_CONFIG_NOSYSTEM=1", "USER=fallback-user")
			if err := os.WriteFile(filepath.Join(p.dir, "gitconfig"), []byte("[user]\n\tname = Ana Souza\n\temail = ana@example.org\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			run := p.specDebate(tc.bug)
			if !strings.Contains(run.stderr, "moot decide "+tc.id+" approve|decline|revise") {
				t.Errorf("the headless output of a pending result names the moot decide to run:\n%s", run.stderr)
			}
			if got := p.list()[tc.id]; got.Decision == nil || *got.Decision != "pending" || got.Kind != "bug" || got.Protocol == nil || *got.Protocol != "debate" {
				t.Errorf("list --json before deciding: %+v", got)
			}
			before := time.Now().UTC().Add(-time.Second)
			args := []string{"decide", tc.bug, tc.choice}
			if tc.note != "" {
				args = append(args, "--note", tc.note)
			}
			p.moot(args...).mustExit(t, 0)
			choice := strings.ToLower(tc.choice)
			var dir string
			for _, e := range p.list() {
				if e.BugID == tc.id {
					if e.Decision == nil || *e.Decision != choice {
						t.Errorf("list --json after deciding: decision %v, want %s", e.Decision, choice)
					}
					dir = filepath.Join(p.dir, e.Path, "debate")
				}
			}
			path := filepath.Join(dir, "decisao.md")
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatalf("decisao.md: %v", err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("decisao.md is %o, want owner-only 600", fi.Mode().Perm())
			}
			raw, _ := os.ReadFile(path)
			dec, err := bugfolder.ParseDecision(path, raw)
			if err != nil {
				t.Fatal(err)
			}
			if string(dec.Choice) != choice || dec.By != "Ana Souza <ana@example.org>" || dec.Note != tc.note || dec.At.Before(before) || dec.At.After(time.Now().Add(time.Second)) {
				t.Errorf("decisao.md records %+v", dec)
			}
			if !strings.Contains(string(raw), "# Decisão humana") || (tc.note != "" && !strings.Contains(string(raw), "## Nota\n\n> "+tc.note)) {
				t.Errorf("decisao.md's body is in the debate's language and carries the note:\n%s", raw)
			}
			evs := eventsOf(t, filepath.Join(dir, "eventos.jsonl"))
			last := evs[len(evs)-1]
			if last["type"] != "decision" || last["point"] != "result" || last["choice"] != choice || last["by"] != "human" {
				t.Errorf("the event log's last event: %v", last)
			}
			show := p.moot("show", tc.bug).mustExit(t, 0)
			if !strings.Contains(show.stdout, "| decision | "+choice+", by Ana Souza <ana@example.org>") {
				t.Errorf("show prints the decision:\n%s", show.stdout)
			}
			again := p.moot("decide", tc.bug, "approve").mustExit(t, 2)
			if !strings.Contains(again.stderr, "already decided") {
				t.Errorf("a second decision: %s", again.stderr)
			}
			if raw2, _ := os.ReadFile(path); string(raw2) != string(raw) {
				t.Error("a refused decision changed decisao.md")
			}
		})
	}
}

// revise without --note, a bad choice, and a result that waits for nothing
// are exit 2 with nothing written; who falls back to $USER without git.
func TestDecideRefusals(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.specDebate("7")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"decide", "7", "revise"}, "--note"},
		{[]string{"decide", "7", "revise", "--note", "  "}, "--note"},
		{[]string{"decide", "7", "maybe"}, "approve, decline or revise"},
		{[]string{"decide", "7", "revise", "--note", strings.Repeat("x", 2001)}, "--note is 2001 bytes; a decision's note is at most 2000"},
		{[]string{"decide", "5", "approve"}, "waits for no human decision"},
		{[]string{"decide", "6", "approve"}, "no final answer yet, so no decision waits"},
	} {
		r := p.moot(tc.args...).mustExit(t, 2)
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, r.stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); err == nil {
		t.Fatal("a refused decision wrote decisao.md")
	}
	// a diagnosis debate waits for nothing
	q := newProject(t)
	q.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	r := q.moot("decide", "7", "approve").mustExit(t, 2)
	if !strings.Contains(r.stderr, "waits for no human decision") {
		t.Errorf("decide on a diagnosis: %s", r.stderr)
	}
	if e := q.list()["BUG-20260715-A7K3"]; e.Decision != nil {
		t.Errorf("a diagnosis debate's decision is null, got %v", *e.Decision)
	}
	// who: $USER when git names nobody
	p.env = append(p.env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "USER=bob")
	p.moot("decide", "7", "decline").mustExit(t, 0)
	raw, _ := os.ReadFile(filepath.Join(p.debate(), "decisao.md"))
	if dec, err := bugfolder.ParseDecision("decisao.md", raw); err != nil || dec.By != "bob" {
		t.Errorf("who without git config: %+v %v", dec, err)
	}
}

// eventsOf reads an event log.
func eventsOf(t *testing.T, path string) []map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}
