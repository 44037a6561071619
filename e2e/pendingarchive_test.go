package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestANewDebateKeepsAPendingDecisionRecordable: a spec debate's result
// waits for a human; the plan of a new debate on the bug says so (not only
// "will be archived"); once the new debate archived it, `moot decide`
// still records the decision, in the archived folder, and a second decide
// finds nothing left to decide.
func TestANewDebateKeepsAPendingDecisionRecordable(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.specDebate("7")
	plan := p.moot("plan", "7", "--mode", "repair", "-n", "2", "-r", "0")
	if !strings.Contains(plan.stdout+plan.stderr, "waits for a human decision") || !strings.Contains(plan.stdout+plan.stderr, "moot decide BUG-20260715-A7K3") {
		t.Errorf("the plan does not name the pending decision it archives:\n%s%s", plan.stdout, plan.stderr)
	}
	p.moot("run", "7", "--mode", "repair", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	r := p.moot("decide", "7", "approve").mustExit(t, 0)
	archived, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate-*", "decisao.md"))
	if len(archived) != 1 {
		t.Fatalf("decisao.md in the archived debate: %v\n%s", archived, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); err == nil {
		t.Errorf("the decision went to the new debate, which waits for none")
	}
	p.moot("decide", "7", "approve").mustExit(t, 2)
}

// TestAHeadlessRunSaysItArchivedAPendingDecision: a headless run that
// archives a result still waiting for a human decision says so on stderr,
// in one line naming the archived folder and the moot decide that records
// it; moot list (text and --json) shows the bug's decision pending on that
// archived result, not a plain done, until moot decide records it.
func TestAHeadlessRunSaysItArchivedAPendingDecision(t *testing.T) {
	t.Parallel()
	const id = "BUG-20260715-A7K3"
	p := newProject(t)
	p.specDebate("7")
	run := p.moot("run", "7", "--mode", "repair", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	archived, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate-*"))
	if len(archived) != 1 {
		t.Fatalf("archived debates: %v", archived)
	}
	var said []string
	for _, l := range strings.Split(run.stderr, "\n") {
		if strings.Contains(l, filepath.Base(archived[0])) && strings.Contains(l, "moot decide _reversa_bugs/") && strings.Contains(l, filepath.Base(archived[0])+"/ approve|decline|revise") {
			said = append(said, l)
		}
	}
	if len(said) != 1 {
		t.Errorf("want one stderr line naming %s and the moot decide that records it, got %d:\n%s", filepath.Base(archived[0]), len(said), run.stderr)
	}
	pendingOn := func() (string, string) {
		t.Helper()
		var es []map[string]any
		if err := json.Unmarshal([]byte(p.moot("list", "--json").mustExit(t, 0).stdout), &es); err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e["bug_id"] == id {
				on, _ := e["archived_decision_pending"].(string)
				return on, fmt.Sprint(e["status"])
			}
		}
		t.Fatalf("%s is not listed", id)
		return "", ""
	}
	listRow := func() string {
		for _, l := range strings.Split(p.moot("list").mustExit(t, 0).stdout, "\n") {
			if strings.HasPrefix(l, id) {
				return l
			}
		}
		return ""
	}
	on, status := pendingOn()
	if status != "done" || !strings.HasSuffix(on, filepath.Base(archived[0])) {
		t.Errorf("list --json: status %q (kept), archived_decision_pending %q, want the archived folder %s", status, on, filepath.Base(archived[0]))
	}
	if row := listRow(); !strings.Contains(row, "decision pending (archived)") {
		t.Errorf("moot list does not say a decision waits on the archived result:\n%s", row)
	}
	p.moot("decide", "7", "approve").mustExit(t, 0)
	if on, _ := pendingOn(); on != "" {
		t.Errorf("list --json still says a decision waits on %q once recorded", on)
	}
	if row := listRow(); strings.Contains(row, "pending") {
		t.Errorf("moot list still says pending once recorded:\n%s", row)
	}
}

// TestDecideSaysWhichResultItRecordsOn: with one result waiting, and that
// one archived, moot decide says it recorded on the archived debate (its
// date and folder); with the current debate's and an archived one
// waiting, it decides the current one (what every printed "moot decide
// BUG" means) and names the archived one still waiting, with its
// command; with two archived waiting it guesses neither: exit 2 naming
// each folder and how to name one, nothing written; naming a folder
// decides that one.
func TestDecideSaysWhichResultItRecordsOn(t *testing.T) {
	t.Parallel()
	decisions := func(p *project) []string {
		t.Helper()
		got, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate*", "decisao.md"))
		return got
	}
	archivedOf := func(p *project) []string {
		t.Helper()
		got, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate-*"))
		return got
	}
	repair := []string{"run", "7", "--mode", "repair", "-n", "2", "-r", "0", "--yes", "--headless"}
	t.Run("one archived result waits", func(t *testing.T) {
		t.Parallel()
		p := newProject(t)
		p.specDebate("7")
		p.moot(repair...).mustExit(t, 0)
		out := p.moot("decide", "7", "approve").mustExit(t, 0).stdout
		arch := archivedOf(p)
		if len(arch) != 1 || !strings.Contains(out, "recorded on the archived debate of 20") || !strings.Contains(out, filepath.Base(arch[0])) {
			t.Errorf("decide does not say it recorded on the archived debate %v:\n%s", arch, out)
		}
	})
	t.Run("the current and an archived result wait", func(t *testing.T) {
		t.Parallel()
		p := newProject(t)
		p.specDebate("7")
		p.specDebate("7")
		arch := archivedOf(p)
		if len(arch) != 1 {
			t.Fatalf("archived debates: %v", arch)
		}
		// the current one is what every printed "moot decide BUG" means; the
		// archived one is named, with the command that decides it
		cur := p.moot("decide", "7", "approve").mustExit(t, 0)
		if got := decisions(p); len(got) != 1 || filepath.Base(filepath.Dir(got[0])) != "debate" {
			t.Errorf("decide BUG decides the current debate's result: %v\n%s", got, cur.stdout)
		}
		for _, want := range []string{"still waiting: the archived debate of", "moot decide _reversa_bugs/", filepath.Base(arch[0]) + "/ approve|decline|revise"} {
			if !strings.Contains(cur.stdout, want) {
				t.Errorf("decide does not name the archived result still waiting (%q):\n%s", want, cur.stdout)
			}
		}
		named := p.moot("decide", arch[0], "decline", "--note", "the older one").mustExit(t, 0)
		if got := decisions(p); len(got) != 2 || !strings.Contains(named.stdout, "recorded on the archived debate") || strings.Contains(named.stdout, "still waiting") {
			t.Errorf("naming the archived folder decides it, and nothing waits after: %v\n%s", got, named.stdout)
		}
	})
	t.Run("two archived results wait", func(t *testing.T) {
		t.Parallel()
		p := newProject(t)
		p.specDebate("7")
		p.specDebate("7")
		p.moot(repair...).mustExit(t, 0)
		r := p.moot("decide", "7", "approve").mustExit(t, 2)
		arch := archivedOf(p)
		for _, a := range arch {
			if !strings.Contains(r.stderr, filepath.Base(a)+"/") {
				t.Errorf("the refusal does not name %s:\n%s", filepath.Base(a), r.stderr)
			}
		}
		if len(arch) != 2 || len(decisions(p)) != 0 {
			t.Errorf("archived %v, decisions %v", arch, decisions(p))
		}
	})
}

// TestTUIDecidesAnArchivedResultFromTheList: at 80×24, a bug whose pending
// result a new debate archived is listed first, marked ◈; d on its row
// opens that archived result with the decision form, enter enter approves
// it, decisao.md is written in the archived folder as moot decide writes
// it, and back on the list the row has lost its mark (no restart).
func TestTUIDecidesAnArchivedResultFromTheList(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.specDebate("7")
	p.moot("run", "7", "--mode", "repair", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	archived, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate-*"))
	if len(archived) != 1 {
		t.Fatalf("archived debates: %v", archived)
	}
	m := startTmux(t, p, 80, 24)
	s := m.wait("the browser, the ◈ row first", "▸ ◈   BUG-20260715-A7K3")
	if !strings.Contains(lineOf(s, "A7K3"), "◈ decide") {
		t.Errorf("the ◈ row's status does not say a decision waits:\n%s", s)
	}
	m.send("d")
	m.wait("the decision form on the archived result", "Record the human decision", filepath.Base(archived[0])[len("debate-"):])
	m.send("Enter")
	m.send("Enter")
	m.wait("the decision recorded", "decision recorded: approve")
	raw, err := os.ReadFile(filepath.Join(archived[0], "decisao.md"))
	if err != nil || !strings.Contains(string(raw), "choice: approve") {
		t.Fatalf("decisao.md in the archived folder: %v\n%s", err, raw)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); err == nil {
		t.Errorf("the decision went to the current debate, which waits for none")
	}
	m.send("q")
	s = m.wait("back on the list", "BUG-20260715-A7K3", "? keys")
	if row := lineOf(s, "A7K3"); strings.Contains(row, "◈") {
		t.Errorf("the decided row keeps its mark:\n%s", s)
	}
}

// lineOf is the first line of s that holds sub ("" when none does).
func lineOf(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
