package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// handRegister is a Reversa 1.2.58 project (register in reversa/bugs, named
// by .reversa/state.json, doc_language English) built in the test, with the
// fake as its local engine, for the findings of the hostile new-user test.
func handRegister(t *testing.T) *project {
	t.Helper()
	dir := t.TempDir()
	p := &project{t: t, dir: dir, log: filepath.Join(dir, "fake.log")}
	p.file(".reversa/state.json", `{"doc_language":"en","bugs_folder":"reversa/bugs","output_folder":"reversa/sdd"}`+"\n")
	p.file("reversa/bugs/moot.yaml", "engines:\n  zeta-engine:\n    kind: command\n    command: [\""+fakeBin+"\", \"--role\", \"{role}\"]\n    external: false\n    timeout: 20s\n    env_passthrough: [\"FAKE_*\"]\ndefaults:\n  solver: zeta-engine\n  judge: zeta-engine\n")
	p.moot("trust").mustExit(t, 0) // the register's own engines file, trusted by its owner
	return p
}

// file writes a file of the project (folders made as needed).
func (p *project) file(rel, body string) {
	p.t.Helper()
	path := filepath.Join(p.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		p.t.Fatal(err)
	}
}

// bug writes reversa/bugs/ctx/bugs/<id>-x/bug.md and returns the folder,
// relative to the project.
func (p *project) bug(id, num, title, extra string) string {
	rel := "reversa/bugs/ctx/bugs/" + id + "-x"
	p.file(rel+"/bug.md", "---\nid: "+id+"\ndisplay_number: "+num+"\ntitle: "+title+"\nstatus: open\nvisibility: normal\n"+extra+"---\n# "+title+"\n")
	return rel
}

// listJSON runs list --json and returns its entries by bug ID.
func (p *project) listJSON(code int) (map[string]map[string]any, result) {
	p.t.Helper()
	r := p.moot("list", "--json").mustExit(p.t, code)
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		p.t.Fatalf("list --json: %v\n%s", err, r.stdout)
	}
	out := map[string]map[string]any{}
	for _, e := range list {
		out[e["bug_id"].(string)] = e
	}
	return out, r
}

const handSolver = "## Hypotheses\n\nx\n\n## Proposed root cause\n\nx\n\n## Test\n\nx\n\n## Impact on the spec\n\nx\n\n## Risks and side effects\n\nx\n\n## Evidence\n\nx\n\n## Confidence\n\nhigh — x\n"

// handDebate writes a hand-run debate: problema.md, round 0 with n
// solvers, and the judge's file when final is not empty.
func (p *project) handDebate(bug, problem string, n int, final string) {
	p.file(bug+"/debate/problema.md", problem)
	for i := 1; i <= n; i++ {
		p.file(bug+"/debate/rodada-0/agente-"+string(rune('0'+i))+".md", handSolver)
	}
	if final != "" {
		p.file(bug+"/debate/resposta-final.md", final)
	}
}

// TestWinnerMisreadFromTheJudgesOwnWords: the winner was misread from the judge's own words and shown
// "decided by judge"; two winners named are unknown, with a warning.
func TestWinnerMisreadFromTheJudgesOwnWords(t *testing.T) {
	t.Parallel()
	p := handRegister(t)
	tests := []struct{ id, final, winner string }{
		{"BUG-20261101-WIN1", "# Judge\n\nProposal A wins on cost but loses on risk; overall **Proposal C wins**.\n", "Proposal C"},
		{"BUG-20261101-WIN2", "# Judge\n\nAdopt Proposal C as the winning proposal. Proposal A wins nothing here.\n", "Proposal C"},
		{"BUG-20261101-WIN3", "# Judge\n\nI would not adopt Proposal A as the winning proposal; adopt Proposal B instead.\n", "Proposal B"},
		{"BUG-20261101-WIN4", "# Judge\n\nProposal A wins on cost. Proposal B wins on risk.\n", ""},
	}
	for i, tt := range tests {
		b := p.bug(tt.id, string(rune('1'+i)), "winner", "")
		p.handDebate(b, "---\nmode: diagnosis\n---\n", 3, tt.final)
	}
	list, r := p.listJSON(0)
	for _, tt := range tests {
		got, _ := list[tt.id]["winner"].(string)
		if got != tt.winner {
			t.Errorf("%s: winner %q, want %q", tt.id, got, tt.winner)
		}
	}
	if !strings.Contains(r.stderr, "names more than one winner (Proposal A, Proposal B)") {
		t.Errorf("no ambiguity warning:\n%s", r.stderr)
	}
	s := p.moot("show", "4").mustExit(t, 0)
	if !strings.Contains(s.stdout, "| winner | unknown") || strings.Contains(s.stdout, "decided by judge") {
		t.Errorf("show of an ambiguous judge:\n%s", s.stdout)
	}
}

// TestFinalAnswerHeadingsInTheDebatesLanguage: an English project whose model answers in Portuguese got a
// resposta-final.md with Portuguese headings (judge sections and the
// synthesis' mode sections); the raw output keeps what the model wrote.
func TestFinalAnswerHeadingsInTheDebatesLanguage(t *testing.T) {
	t.Parallel()
	p := handRegister(t)
	b := p.bug("BUG-20261101-LNG1", "1", "language", "")
	p.Plan = "*=otherlang"
	r := p.moot("run", "1", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	final, err := os.ReadFile(filepath.Join(p.dir, b, "debate", "resposta-final.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"## Winner", "## Grafts", "## Rationale per criterion", "## Synthesis", "## Hypotheses", "## Proposed root cause", "## Test\n", "## Evidence\n", "## Confidence"} {
		if !strings.Contains(string(final), h) {
			t.Errorf("resposta-final.md lacks %q", h)
		}
	}
	for _, h := range []string{"## Vencedora", "## Enxertos", "## Síntese", "## Hipóteses", "## Teste", "## Evidências"} {
		if strings.Contains(string(final), h) {
			t.Errorf("resposta-final.md keeps the Portuguese %q:\n%s", h, final)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(p.dir, b, "debate", "juiz", "raw", "juiz.attempt-1.stdout"))
	if !strings.Contains(string(raw), "## Vencedora") {
		t.Errorf("the raw output must keep the model's headings:\n%s", raw)
	}
	if !strings.Contains(r.stdout+r.stderr, "winner: proposal") {
		t.Errorf("the headless output names the winner in the UI.s words (proposal A):\n%s", r.stdout)
	}
}

// TestUnknownCostIsUnknownEverywhere: an engine without a price records no cost, and every view
// says unknown: list ("unknown", --json null), the headless lines and end
// ("cost unknown"), the JSON events (null), show.
func TestUnknownCostIsUnknownEverywhere(t *testing.T) {
	t.Parallel()
	p := handRegister(t)
	p.bug("BUG-20261101-CST1", "1", "cost", "")
	r := p.moot("run", "1", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	if out := r.stdout + r.stderr; strings.Contains(out, "$0.00") || !strings.Contains(out, "tokens, cost unknown —") {
		t.Errorf("headless output of an unpriced engine:\n%s", out)
	}
	list, _ := p.listJSON(0)
	if e := list["BUG-20261101-CST1"]; e["cost_usd"] != nil || e["status"] != "done" {
		t.Errorf("list --json: %v", e)
	}
	if l := p.moot("list").mustExit(t, 0); strings.Contains(l.stdout, "$0.00") || !strings.Contains(l.stdout, "unknown") {
		t.Errorf("list:\n%s", l.stdout)
	}
	if s := p.moot("show", "1").mustExit(t, 0); !strings.Contains(s.stdout, "cost unknown") {
		t.Errorf("show:\n%s", s.stdout)
	}
	p.bug("BUG-20261101-CST2", "2", "cost json", "")
	j := p.moot("run", "2", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--json").mustExit(t, 0)
	for _, line := range strings.Split(strings.TrimSpace(j.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch ev["type"] {
		case "call_finished":
			if v, ok := ev["cost_usd"]; !ok || v != nil {
				t.Errorf("call_finished cost_usd %v, want null", v)
			}
		case "debate_finished":
			if v, ok := ev["usd"]; !ok || v != nil {
				t.Errorf("debate_finished usd %v, want null", v)
			}
		}
	}
}

// TestHandRunStatusesAndResumeMessages: a hand-run debate is never "running" (nothing runs
// it); resume explains at once, without asking for --yes; every round and
// no judge's answer takes --winner and counts no call; a folder without
// bug.md has one status word in list, list --json and the browser.
func TestHandRunStatusesAndResumeMessages(t *testing.T) {
	t.Parallel()
	p := handRegister(t)
	unf := p.bug("BUG-20261101-UNF1", "4", "unfinished by hand", "")
	p.handDebate(unf, "---\nmode: diagnosis\nsolvers: 3\nepochs: 2\n---\n", 1, "")
	jdg := p.bug("BUG-20261101-JDG9", "9", "no judge", "")
	p.handDebate(jdg, "- mode: diagnosis\n- N: 2\n- R: 1\n", 2, "")
	p.file(jdg+"/debate/rodada-1/agente-1.md", handSolver)
	p.file(jdg+"/debate/rodada-1/agente-2.md", handSolver)
	p.file("reversa/bugs/ctx/bugs/BUG-20261101-NOBG-x/debate/rodada-0/agente-1.md", handSolver)

	list, _ := p.listJSON(0)
	for id, want := range map[string]string{"BUG-20261101-UNF1": "interrupted", "BUG-20261101-JDG9": "waiting", "BUG-20261101-NOBG": "interrupted"} {
		if got := list[id]["status"]; got != want {
			t.Errorf("%s listed %v, want %s", id, got, want)
		}
	}
	if e := list["BUG-20261101-UNF1"]; e["n"] != 3.0 || e["r"] != 2.0 {
		t.Errorf("an unfinished hand-run debate keeps what problema.md planned: %v×%v", e["n"], e["r"])
	}
	if l := p.moot("list").mustExit(t, 0); !strings.Contains(l.stdout, "interrupted (incomplete)") || strings.Contains(l.stdout, "running") {
		t.Errorf("list:\n%s", l.stdout)
	}
	for _, args := range [][]string{{"resume", "4", "--headless"}, {"resume", "4", "--headless", "--yes"}} {
		r := p.moot(args...)
		if r.code != 2 || !strings.Contains(r.stderr, "run by hand") || strings.Contains(r.stdout+r.stderr, "--yes") {
			t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	r := p.moot("resume", "9", "--headless")
	if r.code != 4 || !strings.Contains(r.stdout+r.stderr, "--winner A") || !strings.Contains(r.stdout+r.stderr, "no judge's answer") {
		t.Errorf("resume of a judge-less hand-run debate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	w := p.moot("resume", "9", "--winner", "B", "--headless").mustExit(t, 0)
	if out := w.stdout + w.stderr; !strings.Contains(out, "done: 0 calls, 0 tokens, cost unknown") {
		t.Errorf("a human choice makes no call:\n%s", out)
	}
	list, _ = p.listJSON(0)
	if e := list["BUG-20261101-JDG9"]; e["status"] != "done" || e["winner"] != "Proposal B" {
		t.Errorf("after --winner: %v", e)
	}
}

// TestHandRunStartTime: a hand-run debate's start came from problema.md's mtime,
// labelled UTC (a git clone resets it), and a bullet created_at was
// ignored. Now: created_at (front matter or bullet), else the earliest
// started_at of its files, else unknown; plan and run archive it under one
// name.
func TestHandRunStartTime(t *testing.T) {
	t.Parallel()
	p := handRegister(t)
	bul := p.bug("BUG-20261101-MTM1", "3", "bullet created_at", "")
	p.handDebate(bul, "# Debate\n\n- mode: diagnosis\n- N: 2\n- created_at: 2026-08-01T07:00:00-03:00\n", 2, "# Judge\n\nWinner: Proposal B\n")
	fil := p.bug("BUG-20261101-FIL1", "5", "started_at in the files", "")
	p.handDebate(fil, "- mode: diagnosis\n", 0, "# Judge\n\nWinner: Proposal A\n")
	p.file(fil+"/debate/rodada-0/agente-1.md", "---\nstarted_at: 2026-07-02T09:00:00Z\n---\n"+handSolver)
	p.file(fil+"/debate/rodada-0/agente-2.md", "---\nstarted_at: 2026-07-01T09:00:00Z\n---\n"+handSolver)
	none := p.bug("BUG-20261101-NON1", "6", "nothing records a start", "")
	p.handDebate(none, "- mode: diagnosis\n", 2, "# Judge\n\nWinner: Proposal A\n")
	list, _ := p.listJSON(0)
	for id, want := range map[string]any{"BUG-20261101-MTM1": "2026-08-01T10:00:00Z", "BUG-20261101-FIL1": "2026-07-01T09:00:00Z", "BUG-20261101-NON1": nil} {
		if got := list[id]["started_at"]; got != want {
			t.Errorf("%s started_at %v, want %v", id, got, want)
		}
	}
	if s := p.moot("show", "3").mustExit(t, 0); !strings.Contains(s.stdout, "2026-08-01 10:00:00 UTC") {
		t.Errorf("show 3:\n%s", s.stdout)
	}
	if s := p.moot("show", "6").mustExit(t, 0); !strings.Contains(s.stdout, "| started | unknown") {
		t.Errorf("show 6:\n%s", s.stdout)
	}
	// plan and run name the archive alike
	pl := p.moot("plan", "3", "--mode", "diagnosis").mustExit(t, 0)
	if !strings.Contains(pl.stdout, "debate-20260801T100000Z") {
		t.Errorf("plan:\n%s", pl.stdout)
	}
	p.moot("run", "3", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	if _, err := os.Stat(filepath.Join(p.dir, bul, "debate-20260801T100000Z", "problema.md")); err != nil {
		t.Errorf("archived elsewhere: %v", err)
	}
}

// TestUnreadableBugsAreListedNotVanished: a bug whose front matter is broken vanished from list (only
// stderr and exit 2). It is listed as unreadable, with its error, like the
// browser shows it; the exit code stays 2 (list's help: a bug folder that
// cannot be read).
func TestUnreadableBugsAreListedNotVanished(t *testing.T) {
	t.Parallel()
	tests := []struct{ id, bugmd string }{
		{"BUG-20261101-UNC1", "---\nid: BUG-20261101-UNC1\ntitle: unclosed\n"},
		{"BUG-20261101-TAB1", "---\nid: BUG-20261101-TAB1\ntraceability:\n\tspecs: [a.md]\n---\n"},
		{"BUG-20261101-LST1", "---\n- a\n- b\n---\n"},
		{"BUG-20261101-DUP1", "---\nid: BUG-20261101-DUP1\ntitle: a\ntitle: b\n---\n"},
	}
	p := handRegister(t)
	p.bug("BUG-20261101-OK01", "1", "fine", "")
	for _, tt := range tests {
		p.file("reversa/bugs/ctx/bugs/"+tt.id+"-x/bug.md", tt.bugmd)
	}
	list, r := p.listJSON(2)
	if list["BUG-20261101-OK01"]["status"] != "no-debate" {
		t.Errorf("the readable bug: %v", list["BUG-20261101-OK01"])
	}
	for _, tt := range tests {
		e := list[tt.id]
		if e == nil || e["status"] != "unreadable" || e["warnings"] == nil {
			t.Errorf("%s: %v", tt.id, e)
		}
		if !strings.Contains(r.stderr, tt.id) {
			t.Errorf("stderr does not name %s:\n%s", tt.id, r.stderr)
		}
	}
	if l := p.moot("list").mustExit(t, 2); strings.Count(l.stdout, "unreadable") != len(tests) {
		t.Errorf("list:\n%s", l.stdout)
	}
}

// TestLocatingTheRegister: finding the register. A broken state.json or a bugs_folder
// that names nothing is named in the error; an absolute bugs_folder inside
// the project is that folder; a legacy _reversa_bugs/ passed over is a
// warning; a context without its bugs/ level is listed.
func TestLocatingTheRegister(t *testing.T) {
	t.Parallel()
	t.Run("invalid state.json", func(t *testing.T) {
		p := handRegister(t)
		p.file(".reversa/state.json", `{"bugs_folder":"reversa/bugs",}`)
		r := p.moot("list")
		if r.code != 2 || !strings.Contains(r.stderr, "state.json: is not valid JSON") {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("absolute bugs_folder in the project", func(t *testing.T) {
		p := handRegister(t)
		p.file(".reversa/state.json", `{"doc_language":"en","bugs_folder":"`+filepath.Join(p.dir, "reversa", "bugs")+`"}`)
		p.bug("BUG-20261101-ABS1", "1", "absolute", "")
		if list, _ := p.listJSON(0); list["BUG-20261101-ABS1"] == nil {
			t.Errorf("not listed: %v", list)
		}
	})
	t.Run("legacy register beside the new one", func(t *testing.T) {
		p := handRegister(t)
		p.bug("BUG-20261101-NEW1", "1", "new", "")
		p.file("_reversa_bugs/ctx/bugs/BUG-20261101-OLD1-x/bug.md", "---\nid: BUG-20261101-OLD1\n---\n")
		_, r := p.listJSON(0)
		if !strings.Contains(r.stderr, "_reversa_bugs: is a register too") {
			t.Errorf("no warning:\n%s", r.stderr)
		}
	})
	t.Run("context without bugs/", func(t *testing.T) {
		p := handRegister(t)
		p.file("reversa/bugs/ctx2/BUG-20261101-CTX2-x/bug.md", "---\nid: BUG-20261101-CTX2\ntitle: flat\n---\n")
		if list, _ := p.listJSON(0); list["BUG-20261101-CTX2"] == nil || list["BUG-20261101-CTX2"]["context"] != "ctx2" {
			t.Errorf("not listed: %v", list)
		}
	})
}

// TestShowCountsTheCriticsOnDisk: show counted 0 critics beside a critic-security column.
func TestShowCountsTheCriticsOnDisk(t *testing.T) {
	t.Parallel()
	p := wildProject(t)
	if s := p.moot("show", "8").mustExit(t, 0); !strings.Contains(s.stdout, "· 1 critic(s) ·") {
		t.Errorf("show 8:\n%s", s.stdout)
	}
}
