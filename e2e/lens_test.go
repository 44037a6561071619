package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLens writes the project's .moot/lenses/NAME.md.
func (p *project) writeLens(name, content string) {
	p.t.Helper()
	dir := filepath.Join(p.dir, ".moot", "lenses")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		p.t.Fatal(err)
	}
}

// lensConfig is newProject's engines file plus a lenses: mapping.
func lensConfig() string {
	return `engines:
  zeta-engine:
    kind: command
    command: ["` + fakeBin + `", "--role", "{role}"]
    env_passthrough: ["FAKE_*"]
    external: false
    timeout: 20s
defaults:
  solver: zeta-engine
  judge: zeta-engine
lenses:
  ops: "Operations: pager load and on-call toil."
`
}

// Lenses from the library, the project's .moot/lenses/, the engines file
// and the command line are frozen per solver in problema.md, shown by
// plan, and given to each solver in its prompt; a resume uses the frozen
// text even when the project's file changed since.
func TestLensesFrozenAndPrompted(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.writeConfig(lensConfig())
	p.writeLens("cfo.md", "---\nname: cfo\n---\nCFO: unit economics, conservative on risk.\n")
	args := []string{"--mode", "diagnosis", "-n", "4", "-r", "1", "--lens", "security", "--lens", "cfo", "--lens", "ops", "--lens", "rounding: watch every rounding step"}
	plan := p.moot(append([]string{"plan", "7"}, args...)...).mustExit(t, 0)
	// each lens on a line of its own, with its one-line description
	for _, want := range []string{
		"lenses    agente-1 security — Security: you defend confidentiality, integrity and availability against an attacker.\n",
		"          agente-2 cfo — CFO: unit economics, conservative on risk.\n",
		"          agente-3 ops — Operations: pager load and on-call toil.\n",
		"          agente-4 rounding — watch every rounding step\n",
	} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan does not show the lens line %q:\n%s", want, plan.stdout)
		}
	}
	var pj struct {
		Lenses map[string]string `json:"lenses"`
	}
	pr := p.moot(append([]string{"plan", "7", "--json"}, args...)...).mustExit(t, 0)
	if err := json.Unmarshal([]byte(pr.stdout), &pj); err != nil || pj.Lenses["agente-2"] != "cfo" || pj.Lenses["agente-4"] != "rounding" || len(pj.Lenses) != 4 {
		t.Errorf("plan --json lenses: %v %v", pj.Lenses, err)
	}
	// round 0: agente-1 and agente-2 fail, the quorum (3 of 4) is lost, and
	// headless moot stops to ask (exit 4)
	p.Plan = "agente-1@0#1=fail,agente-2@0#1=fail"
	p.moot(append(append([]string{"run", "7"}, args...), "--yes", "--headless")...).mustExit(t, 4)
	d := p.readDebate()
	want := map[string][2]string{
		"agente-1": {"security", "you defend confidentiality"},
		"agente-2": {"cfo", "CFO: unit economics, conservative on risk."},
		"agente-3": {"ops", "Operations: pager load and on-call toil."},
		"agente-4": {"rounding", "watch every rounding step"},
	}
	for id, w := range want {
		l := d.Problem.Lenses[id]
		if l.Name != w[0] || !strings.Contains(l.Text, w[1]) {
			t.Errorf("problema.md freezes %s's lens as %+v, want %v", id, l, w)
		}
		if pr := p.prompt(0, id, 1); !strings.Contains(pr, "Sua lente: "+w[0]+". ") || !strings.Contains(pr, w[1]) || !strings.Contains(pr, "não se homogeneíze") {
			t.Errorf("%s's prompt lacks its lens paragraph:\n%s", id, pr[:min(len(pr), 900)])
		}
	}
	if jp, err := os.ReadFile(filepath.Join(p.dir, "prompts", "0-agente-3-1.txt")); err != nil || strings.Contains(string(jp), "CFO") {
		t.Errorf("a solver sees another's lens: %v", err)
	}
	// the project's file changes; the resume keeps the frozen text
	p.writeLens("cfo.md", "CFO: growth at any cost.\n")
	p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "retry").mustExit(t, 0)
	for _, k := range []struct {
		round   int
		attempt int
	}{{0, 2}, {1, 1}} {
		pr := p.prompt(k.round, "agente-2", k.attempt)
		if !strings.Contains(pr, "CFO: unit economics, conservative on risk.") || strings.Contains(pr, "growth at any cost") {
			t.Errorf("round %d attempt %d of a resumed debate does not use the frozen lens:\n%s", k.round, k.attempt, pr[:min(len(pr), 900)])
		}
	}
	if jp := p.prompt(1, "juiz", 1); strings.Contains(jp, "Sua lente") {
		t.Error("the judge's prompt carries a solver's lens paragraph")
	}
}

// A bad project lens file blocks only a debate that names it: one that
// names other lenses runs, with a warning naming the bad file.
func TestBadLensFileBlocksOnlyWhatNamesIt(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.writeLens("cfo.md", "---\nname: cto\n---\ntext\n")
	r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--lens", "security").mustExit(t, 0)
	if !strings.Contains(r.stderr, "cfo.md: name") || !strings.Contains(r.stderr, "warning") {
		t.Errorf("the run does not warn about the bad lens file:\n%s", r.stderr)
	}
}

// Bad lenses are exit 2 naming the file (or flag) and the field, with
// nothing written.
func TestLensRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, content string
		lenses              []string
		want                []string
	}{
		{"name mismatch", "cfo.md", "---\nname: cto\n---\ntext\n", []string{"cfo"}, []string{".moot/lenses/cfo.md: name", "rename"}},
		{"empty body", "cfo.md", "---\nname: cfo\n---\n\n", []string{"cfo"}, []string{".moot/lenses/cfo.md: body", "is empty"}},
		{"unknown field", "cfo.md", "---\nname: cfo\nextra: 1\n---\ntext\n", []string{"cfo"}, []string{".moot/lenses/cfo.md: extra: line 3", "only name:"}},
		{"bad file name", "Big_Lens.md", "text\n", []string{"big_lens"}, []string{"Big_Lens.md: name", "lower-case"}},
		{"too large", "cfo.md", strings.Repeat("x", 20<<10), []string{"cfo"}, []string{"cfo.md", "at most"}},
		{"unknown lens", "", "", []string{"nosuch"}, []string{"--lens \"nosuch\": no such lens", "data-integrity"}},
		{"count", "", "", []string{"security", "tests"}, []string{"--lens given 2 times for 3 solvers"}},
		{"inline without text", "", "", []string{"cfo:  "}, []string{"is empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			if tc.file != "" {
				p.writeLens(tc.file, tc.content)
			}
			args := []string{"run", "7", "--mode", "diagnosis", "--yes", "--headless"}
			for _, l := range tc.lenses {
				args = append(args, "--lens", l)
			}
			r := p.moot(args...).mustExit(t, 2)
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if _, err := os.Stat(p.debate()); err == nil {
				t.Error("a refused lens wrote the debate folder")
			}
		})
	}
}
