package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestRestrictedFailsClosedThroughTheBinary: a visibility moot cannot read
// as exactly normal or internal keeps the bug listed, warns, and refuses an
// external engine before anything is written.
func TestRestrictedFailsClosedThroughTheBinary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, from, to string }{
		{"visibility_list", "visibility: normal", "visibility: [restricted]"},
		{"visibility_mapping", "visibility: normal", "visibility: {level: normal}"},
		{"merge_key", "visibility: normal", "<<: {visibility: restricted}"},
		{"wrong_case_key", "visibility: normal", "Visibility: restricted"},
		{"unknown_value_private", "visibility: normal", "visibility: private"},
		{"cyrillic_letter_in_key", "visibility: normal", "vis\u0456bility: restricted"},
		{"bom_before_key", "visibility: normal", "\ufeffvisibility: restricted"},
		{"zero_width_space_in_key", "visibility: normal", "visi\u200bbility: restricted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			f := filepath.Join(p.bugDir(), "bug.md")
			raw, _ := os.ReadFile(f)
			if !strings.Contains(string(raw), tc.from) {
				t.Fatalf("bug.md has no %q", tc.from)
			}
			os.WriteFile(f, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o600)
			fp := testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs"))
			r := p.moot("run", "7", "--mode", "diagnosis", "--solver", "ext", "--yes", "--headless")
			if r.code != 2 || !strings.Contains(r.stderr, "restricted") || !strings.Contains(r.stderr, "ext") {
				t.Errorf("external engine on %s: exit %d, stderr %q", tc.name, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "warning: "+f) {
				t.Errorf("no warning naming %s: %q", f, r.stderr)
			}
			if testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs")) != fp {
				t.Error("a refused run wrote something")
			}
			l := p.moot("list", "--json").mustExit(t, 0)
			if !strings.Contains(l.stdout, `"visibility": "restricted"`) || !strings.Contains(l.stderr, f) {
				t.Errorf("list: the bug must stay listed as restricted, with a warning:\n%s\n%s", l.stdout, l.stderr)
			}
		})
	}
}

// wildK9P2 is the bug of testdata/wild with every locator form and a
// debate run by hand by a host agent.
const wildK9P2 = "reversa/bugs/export/bugs/BUG-20260801-K9P2-csv-export-drops-rows"

// wildProject copies testdata/wild (Reversa 1.2.58 layout: the register in
// reversa/bugs, named by .reversa/state.json; doc_language English) with
// the fake as its local engine.
func wildProject(t *testing.T) *project {
	t.Helper()
	dir := testutil.CopyTree(t, "wild")
	p := &project{t: t, dir: dir, log: filepath.Join(dir, "fake.log")}
	cfg := "engines:\n  zeta-engine:\n    kind: command\n    command: [\"" + fakeBin + "\", \"--role\", \"{role}\"]\n    external: false\n    timeout: 20s\n    env_passthrough: [\"FAKE_*\"]\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\ndefaults:\n  solver: zeta-engine\n  judge: zeta-engine\n"
	if err := os.WriteFile(filepath.Join(dir, "reversa", "bugs", "moot.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	p.moot("trust").mustExit(t, 0) // the register's own engines file, trusted by its owner
	return p
}

// TestWildRegister: list, show, plan and a headless run read the wild
// register as its files say, and agree with each other.
func TestWildRegister(t *testing.T) {
	t.Parallel()
	p := wildProject(t)
	// list: every bug, the incomplete one too, exit 0; loose fields warned
	l := p.moot("list", "--json").mustExit(t, 0)
	var list []map[string]any
	if err := json.Unmarshal([]byte(l.stdout), &list); err != nil || len(list) != 4 {
		t.Fatalf("list: %v\n%s", err, l.stdout)
	}
	byID := map[string]map[string]any{}
	for _, e := range list {
		byID[e["bug_id"].(string)] = e
	}
	k := byID["BUG-20260801-K9P2"]
	if k["display_number"] != 8.0 || k["status"] != "done" || k["n"] != 3.0 || k["r"] != 2.0 || k["winner"] != "agente-2" || k["cost_usd"] != nil || k["started_at"] != "2026-08-02T12:00:00Z" || k["visibility"] != "internal" {
		t.Errorf("hand-run debate listed as %v", k)
	}
	if m := byID["BUG-20260802-M3Q7"]; m["display_number"] != 9.0 || m["visibility"] != "restricted" {
		t.Errorf("loose bug listed as %v", m)
	}
	if z := byID["BUG-20260803-Z1Z1"]; z["incomplete"] != true {
		t.Errorf("folder without bug.md listed as %v", z)
	}
	if r := byID["BUG-20260715-R2D2"]; r == nil || r["display_number"] != 7.0 {
		t.Errorf("id with the slug listed as %v", r)
	}
	for _, w := range []string{`visibility: "private" is not one of`, "carries the slug", "is resolved but the bug folder has no DONE.md", "BUG-20260803-Z1Z1-import-times-out/bug.md: missing"} {
		if !strings.Contains(l.stderr, w) {
			t.Errorf("list warnings lack %q:\n%s", w, l.stderr)
		}
	}
	if strings.Contains(l.stderr+l.stdout, "<nil>") {
		t.Error("a message prints <nil>")
	}
	// show agrees with list
	s := p.moot("show", "8").mustExit(t, 0)
	for _, w := range []string{"N=3 · R=2", "2026-08-02 12:00:00 UTC", "neither tokens nor cost were recorded", "| winner | agente-2", "critic-security"} {
		if !strings.Contains(s.stdout, w) {
			t.Errorf("show lacks %q:\n%s", w, s.stdout)
		}
	}
	// plan: the locators, the archive and the dot-named files
	pl := p.moot("plan", "8", "--mode", "repair", "--json").mustExit(t, 0)
	for _, w := range []string{"debate-20260802T120000Z/resposta-final.md", "dot-named evidence files are not included", ".env.local"} {
		if !strings.Contains(pl.stdout, w) {
			t.Errorf("plan lacks %q:\n%s", w, pl.stdout)
		}
	}
	p.moot("run", "9", "--mode", "diagnosis", "-r", "0", "--solver", "zeta-engine", "--yes", "--headless").mustExit(t, 0) // restricted, local engine: runs
	if r := p.moot("plan", "BUG-20260803-Z1Z1"); r.code != 2 || !strings.Contains(r.stderr, "bug.md") {
		t.Errorf("plan on an incomplete bug: exit %d %s", r.code, r.stderr)
	}
	// a headless run: the hand-run debate is archived, the new one is written
	// with Portuguese names and English headings, and leaves no lock
	p.moot("run", "8", "--mode", "repair", "-r", "1", "--yes", "--headless").mustExit(t, 0)
	bug := filepath.Join(p.dir, wildK9P2)
	if _, err := os.Stat(filepath.Join(bug, "debate-20260802T120000Z", "resposta-final.md")); err != nil {
		t.Errorf("the hand-run debate was not archived: %v", err)
	}
	final, err := os.ReadFile(filepath.Join(bug, "debate", "resposta-final.md"))
	if err != nil || !strings.Contains(string(final), "## Winner") || !strings.Contains(string(final), "## Synthesis") {
		t.Errorf("debate/resposta-final.md with English headings: %v\n%s", err, final)
	}
	for _, d := range []string{"debate", "debate-20260802T120000Z"} {
		if _, err := os.Stat(filepath.Join(bug, d, ".moot.lock")); err == nil {
			t.Errorf("%s carries a lock file", d)
		}
	}
	prob, _ := os.ReadFile(filepath.Join(bug, "debate", "problema.md"))
	for _, w := range []string{"located by: requirement ID — table row", "located by: line anchor — lines 20–26", "located by: heading number", "in force for reversa/sdd/requirements.md#RF-06"} {
		if !strings.Contains(string(prob), w) {
			t.Errorf("problema.md's P lacks %q", w)
		}
	}
	l2 := p.moot("list", "--json").mustExit(t, 0)
	var after []map[string]any
	json.Unmarshal([]byte(l2.stdout), &after)
	for _, e := range after {
		if e["bug_id"] == "BUG-20260801-K9P2" && (e["status"] != "done" || e["debates"] != 2.0 || e["mode"] != "repair" || e["r"] != 1.0 || e["cost_usd"] == nil) {
			t.Errorf("after the run: %v", e)
		}
	}
	if s := p.moot("show", "8").mustExit(t, 0); !strings.Contains(s.stdout, "N=3 · R=1") || !strings.Contains(s.stdout, "(2 debates in all)") {
		t.Errorf("show after the run:\n%s", s.stdout)
	}
}

// TestHandRunDebateIsNeverADeadEnd: a debate run by hand whose judge
// failed takes `resume --winner`; one that stopped before its judge is
// explained, and `run` archives it.
func TestHandRunDebateIsNeverADeadEnd(t *testing.T) {
	t.Parallel()
	p := wildProject(t)
	deb := filepath.Join(p.dir, wildK9P2, "debate")
	os.Remove(filepath.Join(deb, "resposta-final.md"))
	os.MkdirAll(filepath.Join(deb, "juiz"), 0o700)
	os.WriteFile(filepath.Join(deb, "juiz", "tentativa-1.md"), []byte("The judge stopped mid-answer.\n"), 0o600)
	var list []map[string]any
	json.Unmarshal([]byte(p.moot("list", "--json").mustExit(t, 0).stdout), &list)
	for _, e := range list {
		if e["bug_id"] == "BUG-20260801-K9P2" && e["status"] != "judge-failed" {
			t.Errorf("listed as %v", e["status"])
		}
	}
	r := p.moot("resume", "8", "--yes", "--headless")
	if r.code != 4 || !strings.Contains(r.stderr, "--winner") || !strings.Contains(r.stderr, "Proposal A") {
		t.Errorf("resume without --winner: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	p.moot("resume", "8", "--yes", "--headless", "--winner", "B").mustExit(t, 0)
	final, _ := os.ReadFile(filepath.Join(deb, "resposta-final.md"))
	for _, w := range []string{"decided_by: human", "## Winner\n\nProposal B", "## Synthesis"} {
		if !strings.Contains(string(final), w) {
			t.Errorf("resposta-final.md lacks %q:\n%s", w, final)
		}
	}
	if _, err := os.Stat(filepath.Join(deb, ".moot.lock")); err == nil {
		t.Error("the finished debate carries a lock file")
	}
	// stopped before its judge: explained, then archived by run
	os.Remove(filepath.Join(deb, "resposta-final.md"))
	os.RemoveAll(filepath.Join(deb, "juiz"))
	os.Remove(filepath.Join(deb, "eventos.jsonl"))
	r = p.moot("resume", "8", "--yes", "--headless")
	if r.code != 2 || !strings.Contains(r.stderr, "run by hand") || !strings.Contains(r.stderr, "debate-20260802T120000Z") {
		t.Errorf("resume on an unfinished hand-run debate: exit %d\n%s", r.code, r.stderr)
	}
	pl := p.moot("plan", "8", "--mode", "diagnosis").mustExit(t, 0)
	if !strings.Contains(pl.stdout, "run by hand") || !strings.Contains(pl.stdout, "will be archived as") {
		t.Errorf("the plan must say the hand-run debate will be archived:\n%s", pl.stdout)
	}
	p.moot("run", "8", "--mode", "diagnosis", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	if _, err := os.Stat(filepath.Join(p.dir, wildK9P2, "debate-20260802T120000Z", "rodada-2", "agente-3.md")); err != nil {
		t.Errorf("the hand-run debate was not archived: %v", err)
	}
}
