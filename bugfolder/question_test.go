package bugfolder

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// A question is stored under the project root (the register's project,
// else the git root, else the folder itself) in .moot/debates/<date>-<slug>,
// in the debate layout: problema.md holds the question and the evidence
// as P; the index lists it beside bugs as a question.
func TestQuestionStorage(t *testing.T) {
	now := time.Date(2026, 11, 30, 17, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ q, slug string }{
		{"Devemos migrar o índice para Postgres?", "devemos-migrar-o-indice-para-postgres"},
		{"???", "question"},
		{strings.Repeat("long words ", 20), "long-words-long-words-long-words-long-words-long"},
	} {
		if got := QuestionSlug(tc.q); got != tc.slug || !IsQuestionID("20261130-"+got) {
			t.Errorf("slug(%q) = %q, want %q", tc.q, got, tc.slug)
		}
	}
	// the project root
	proj := t.TempDir()
	sub := filepath.Join(proj, "a", "b")
	os.MkdirAll(sub, 0o700)
	if got := ProjectRoot(sub); got != sub {
		t.Errorf("no register, no git: root %s, want the folder itself", got)
	}
	os.Mkdir(filepath.Join(proj, ".git"), 0o700)
	if got := ProjectRoot(sub); got != proj {
		t.Errorf("git root: %s, want %s", got, proj)
	}
	os.MkdirAll(filepath.Join(proj, "a", RootName), 0o700)
	if got := ProjectRoot(sub); got != filepath.Join(proj, "a") {
		t.Errorf("register: %s", got)
	}
	// P: the question, then the evidence; outside the project is refused
	os.WriteFile(filepath.Join(proj, "notes.md"), []byte("# Notes\nlatency p99 = 40ms\n"), 0o600)
	os.WriteFile(filepath.Join(proj, "blob.bin"), []byte{0, 1, 2}, 0o600)
	p, err := AssembleQuestionP(proj, "  Should we shard?\n", []string{filepath.Join(proj, "notes.md"), filepath.Join(proj, "blob.bin")}, EN)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Question\n\nShould we shard?\n", "### `notes.md` (evidence)", "latency p99 = 40ms", "### `blob.bin` (evidence)", "binary file"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("P lacks %q:\n%s", want, p.Text)
		}
	}
	outside := filepath.Join(t.TempDir(), "x.md")
	os.WriteFile(outside, []byte("x"), 0o600)
	if _, err := AssembleQuestionP(proj, "q", []string{outside}, EN); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Errorf("evidence outside the project: %v", err)
	}
	if _, err := AssembleQuestionP(proj, " \n", nil, EN); err == nil || !strings.Contains(err.Error(), "question") {
		t.Errorf("an empty question: %v", err)
	}
	// the folder, written through the writer, and read back by the index
	id, dir := NewQuestionDir(proj, "Should we shard?", now)
	if id != "20261130-should-we-shard" || dir != filepath.Join(proj, QuestionsDir, id) {
		t.Fatalf("new question %s %s", id, dir)
	}
	writeQuestion(t, proj, dir, "Should we shard?", p)
	if id2, _ := NewQuestionDir(proj, "Should we shard?", now); id2 != id+"-2" {
		t.Errorf("a taken ID is numbered: %s", id2)
	}
	dirs, err := QuestionDirs(proj)
	if err != nil || len(dirs) != 1 || dirs[0] != dir {
		t.Fatalf("question dirs %v %v", dirs, err)
	}
	s, err := IndexQuestion(proj, dir, EN)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != KindQuestion || s.Bug.ID != id || s.Bug.Title != "Should we shard?" || s.State != StateDone || s.Decision != DecisionPending {
		t.Errorf("index: kind %q id %q title %q state %s decision %q", s.Kind, s.Bug.ID, s.Bug.Title, s.State, s.Decision)
	}
	if FindQuestion(proj, sub, id) != dir || FindQuestion(proj, proj, filepath.Join(QuestionsDir, id)) != dir || FindQuestion(proj, proj, "20261130-nope") != "" {
		t.Error("FindQuestion does not find the question by ID and by folder")
	}
}

// writeQuestion writes a finished question debate whose result waits for
// a human decision, as a protocol would: problema.md and the final answer.
func writeQuestion(t *testing.T, proj, dir, question string, p *Problem) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := OpenWriter(filepath.Dir(dir), dir, EN, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	raw, err := RenderProblem(EN, ProblemMeta{ProtocolVersion: 1, QuestionID: filepath.Base(dir), Question: question, N: 2, R: 1,
		Solvers: OrderedMap([]KV{{Key: "agente-1", Value: "x"}, {Key: "agente-2", Value: "x"}}), Critics: OrderedMap(nil), Timeout: ScalarNode("1m"),
		Language: "en", PSHA256: p.SHA256, CreatedAt: "2026-11-30T17:00:00Z"}, nil, p.Text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteProblem(raw); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteFinal(FinalMeta{DebaterMeta: DebaterMeta{ProtocolVersion: 1, Role: RoleJudge, SolverID: "juiz", Status: StatusOK}, Winner: "A", WinnerSolver: "agente-1", Decision: DecisionPending}, "## Synthesis\n\nshard later\n"); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseProblemFile: problema.md comes from the register (a teammate's
// commit, a hand-run debate): any bytes parse or give an error, never a
// panic; its frozen lenses and question read back as written.
func FuzzParseProblemFile(f *testing.F) {
	raw, _ := RenderProblem(EN, ProblemMeta{ProtocolVersion: 1, QuestionID: "20261130-q", Question: "q?", N: 2, R: 1,
		Solvers: OrderedMap([]KV{{Key: "agente-1", Value: "x"}}), Critics: OrderedMap(nil), Timeout: ScalarNode("1m"),
		Lenses: LensesNode([]string{"agente-1"}, map[string]Lens{"agente-1": {Name: "cfo", Text: "unit economics"}})}, []string{"c"}, "P")
	f.Add(docBytes(raw))
	f.Add([]byte("---\nlenses: [a]\n---\n"))
	f.Add([]byte("---\nlenses:\n  agente-1: security\n  agente-2: {name: [x]}\n---\n- modo: spec\n"))
	f.Add([]byte("# Debate\n\n```yaml\nmode: spec  # x\nN: 3\nR: 2\n```\n\n## Problema P\n\nP\n\n## Rubrica congelada (modo spec)\n\n1. a\n"))
	f.Add([]byte("# Problema\n- Modo: repair\n- Rubrica do Juiz:\n  1. a\n  2. b\n- created_at: 2026-10-01\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseProblemFile("problema.md", b)
		if err != nil || p == nil {
			return
		}
		// what was read is written back the same way
		var ids []string
		named := map[string]Lens{}
		for id, l := range p.Lenses {
			if l.Name != "" {
				ids = append(ids, id)
				named[id] = l
			}
		}
		sort.Strings(ids)
		out, err := RenderProblem(EN, ProblemMeta{Critics: OrderedMap(nil), Solvers: OrderedMap(nil), Lenses: LensesNode(ids, named)}, nil, "P")
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseProblemFile("problema.md", docBytes(out))
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, docBytes(out))
		}
		for id, l := range named {
			if back.Lenses[id] != l {
				t.Fatalf("lens of %q: wrote %+v, read %+v", id, l, back.Lenses[id])
			}
		}
	})
}

// The lenses and the question written into problema.md read back.
func TestProblemLensesRoundTrip(t *testing.T) {
	lenses := map[string]Lens{"agente-1": {Name: "cfo", Text: "unit economics: it's \"all\" cost"}, "agente-3": {Name: "security", Text: "attacker"}}
	raw, err := RenderProblem(PT, ProblemMeta{ProtocolVersion: 1, QuestionID: "20261130-q", Question: "Devemos?\nSim.", N: 3, R: 0,
		Solvers: OrderedMap([]KV{{Key: "agente-1", Value: "x"}, {Key: "agente-2", Value: "x"}, {Key: "agente-3", Value: "x"}}), Critics: OrderedMap(nil), Timeout: ScalarNode("1m"),
		Lenses: LensesNode([]string{"agente-1", "agente-2", "agente-3"}, lenses)}, nil, "P")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProblemFile("problema.md", docBytes(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Lenses) != 2 || p.Lenses["agente-1"] != lenses["agente-1"] || p.Lenses["agente-3"] != lenses["agente-3"] || p.QuestionID != "20261130-q" || p.Question != "Devemos?\nSim." || p.BugID != "" {
		t.Errorf("read back %+v %q %q", p.Lenses, p.QuestionID, p.Question)
	}
	if !SetupIntact(docBytes(raw)) {
		t.Error("the seal does not cover the lenses as written")
	}
	if LensesNode([]string{"agente-1"}, nil) != nil {
		t.Error("no lens writes no lenses: field")
	}
}

// docBytes is the whole rendered file.
func docBytes(d *ProblemDoc) []byte {
	var b bytes.Buffer
	d.WriteTo(&b)
	return b.Bytes()
}
