package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// addQuestion stores a finished debate over a question under the project's
// .moot/debates/, as `moot ask` will (the storage functions it will use),
// its final answer waiting for a human decision; it returns the ID.
func (p *project) addQuestion(question, protocol string, evidence ...string) string {
	p.t.Helper()
	pr, err := bugfolder.AssembleQuestionP(p.dir, question, evidence, bugfolder.PT)
	if err != nil {
		p.t.Fatal(err)
	}
	id, dir := bugfolder.NewQuestionDir(p.dir, question, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		p.t.Fatal(err)
	}
	w, err := bugfolder.OpenWriter(filepath.Dir(dir), dir, bugfolder.PT, "test")
	if err != nil {
		p.t.Fatal(err)
	}
	defer w.Close()
	raw, err := bugfolder.RenderProblem(bugfolder.PT, bugfolder.ProblemMeta{ProtocolVersion: 1, QuestionID: id, Question: question, N: 2, R: 0,
		Solvers: bugfolder.OrderedMap([]bugfolder.KV{{Key: "agente-1", Value: "zeta-engine"}, {Key: "agente-2", Value: "zeta-engine"}}),
		Critics: bugfolder.OrderedMap(nil), Timeout: bugfolder.ScalarNode("1m"), Language: "pt", PSHA256: pr.SHA256, CreatedAt: "2026-11-30T09:00:00Z"}, nil, pr.Text)
	if err != nil {
		p.t.Fatal(err)
	}
	var rendered strings.Builder
	if _, err := raw.WriteTo(&rendered); err != nil {
		p.t.Fatal(err)
	}
	edited := strings.Replace(rendered.String(), "---\n", "---\nprotocol: "+protocol+"\n", 1)
	if err := os.WriteFile(filepath.Join(dir, bugfolder.PT.Names().Problem), []byte(edited), 0o400); err != nil {
		p.t.Fatal(err)
	}
	if _, err := w.WriteFinal(bugfolder.FinalMeta{DebaterMeta: bugfolder.DebaterMeta{ProtocolVersion: 1, Role: bugfolder.RoleJudge, SolverID: "juiz", Status: bugfolder.StatusOK},
		Decision: bugfolder.DecisionPending}, "## Recomendação\n\nmigrar em etapas\n"); err != nil {
		p.t.Fatal(err)
	}
	return id
}

// Questions under .moot/debates/ are listed beside bugs (kind question,
// their protocol, their decision), shown by ID or folder, and decided like
// a bug's result; a project with questions and no register lists them too.
func TestQuestionsListedShownDecided(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.WriteFile(filepath.Join(p.dir, "bench.md"), []byte("p99 = 40ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := p.addQuestion("Devemos migrar o índice para Postgres?", "tradeoff", filepath.Join(p.dir, "bench.md"))
	if id != "20261130-devemos-migrar-o-indice-para-postgres" {
		t.Fatalf("question ID %s", id)
	}
	all := p.list()
	q, ok := all[id]
	if !ok || q.Kind != "question" || q.Protocol == nil || *q.Protocol != "tradeoff" || q.Decision == nil || *q.Decision != "pending" ||
		q.Title != "Devemos migrar o índice para Postgres?" || q.Path != ".moot/debates/"+id {
		t.Fatalf("list --json: %+v (found %v)", q, ok)
	}
	if b := all["BUG-20260715-A7K3"]; b.Kind != "bug" {
		t.Errorf("bugs stay listed as bugs: %+v", b)
	}
	if r := p.moot("list").mustExit(t, 0); !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "decision pending") {
		t.Errorf("list:\n%s", r.stdout)
	}
	for _, arg := range []string{id, filepath.Join(".moot", "debates", id)} {
		r := p.moot("show", arg).mustExit(t, 0)
		if !strings.Contains(r.stdout, "Devemos migrar o índice para Postgres?") || !strings.Contains(r.stdout, "moot decide "+id) {
			t.Errorf("show %s:\n%s", arg, r.stdout)
		}
	}
	if r := p.moot("show", id, "--problem").mustExit(t, 0); !strings.Contains(r.stdout, "p99 = 40ms") || !strings.Contains(r.stdout, "### Pergunta") {
		t.Errorf("show --problem: P holds the question and the evidence:\n%s", r.stdout)
	}
	p.moot("decide", id, "revise", "--note", "compare with sharding").mustExit(t, 0)
	raw, err := os.ReadFile(filepath.Join(p.dir, ".moot", "debates", id, "decisao.md"))
	if err != nil || !strings.Contains(string(raw), "question_id: "+id) || !strings.Contains(string(raw), "choice: revise") {
		t.Fatalf("decisao.md of a question: %v\n%s", err, raw)
	}
	if q := p.list()[id]; q.Decision == nil || *q.Decision != "revise" {
		t.Errorf("after deciding: %+v", q)
	}
	tr := p.moot("transcript", id).mustExit(t, 0)
	for _, want := range []string{"# " + id + " — Devemos migrar", "### Pergunta", "p99 = 40ms", "# resposta-final.md", "migrar em etapas", "# decisao.md\n\nrevise, by", "compare with sharding"} {
		if !strings.Contains(tr.stdout, want) {
			t.Errorf("transcript of a question lacks %q:\n%s", want, tr.stdout)
		}
	}
	// a bug's transcript: every round's files, the final answer, the decision
	p.specDebate("7")
	p.moot("decide", "7", "approve").mustExit(t, 0)
	tr = p.moot("transcript", "7").mustExit(t, 0)
	for _, want := range []string{"# problema.md", "# rodada-0", "## agente-1 — ok", "## agente-2 — ok", "# resposta-final.md", "# decisao.md\n\napprove, by"} {
		if !strings.Contains(tr.stdout, want) {
			t.Errorf("transcript of a bug lacks %q:\n%s", want, tr.stdout)
		}
	}
	p.moot("transcript", "5").mustExit(t, 0)
	if r := p.moot("transcript", "7", "extra").mustExit(t, 2); r.stderr == "" {
		t.Error("transcript with two arguments says nothing")
	}
	// a project with no register: its questions are listed all the same
	if err := os.RemoveAll(filepath.Join(p.dir, "_reversa_bugs")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(p.dir, ".git"), 0o700)
	if q := p.list()[id]; q.Kind != "question" {
		t.Errorf("without a register: %+v", q)
	}
}
