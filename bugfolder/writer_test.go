package bugfolder_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

func newWriter(t *testing.T, lang bugfolder.Lang) *bugfolder.Writer {
	t.Helper()
	bug := t.TempDir()
	w, err := bugfolder.OpenWriter(bug, filepath.Join(bug, bugfolder.DebateDir), lang, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func fixedMeta(round int, id string) bugfolder.DebaterMeta {
	cost := 0.0123
	exit := 0
	return bugfolder.DebaterMeta{
		ProtocolVersion: 1, DebateID: fmt.Sprintf("BUG-20260715-A7K3-r%d", round), BugID: "BUG-20260715-A7K3",
		Role: bugfolder.RoleSolver, SolverID: id, Engine: "local", Round: round, Status: bugfolder.StatusOK,
		StartedAt: "2026-07-15T10:00:00Z", FinishedAt: "2026-07-15T10:02:31Z", DurationMS: 151000, Attempt: 1,
		TokensIn: 3100, TokensOut: 820, CostUSD: &cost, ExitCode: &exit,
	}
}

const answer = "## Hipóteses\r\n\r\nH1 (CRLF kept as received)\n\n## Confiança\n\nalta: ok\n"

func TestDebaterFileFormatAndRoundTrip(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	path, _, err := w.WriteDebater(fixedMeta(1, "agente-2"), answer)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(w.Dir, "rodada-1", "agente-2.md") {
		t.Errorf("path %s", path)
	}
	raw, _ := os.ReadFile(path)
	golden.RequireEqual(t, raw)
	if !strings.HasSuffix(string(raw), "---\n"+answer) {
		t.Error("the body must be written exactly as received")
	}
	f, err := bugfolder.ParseDebaterFile(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	if f.ProtocolVersion != 1 || f.DebateID != "BUG-20260715-A7K3-r1" || f.Role != bugfolder.RoleSolver || f.SolverID != "agente-2" ||
		f.Engine != "local" || f.Round != 1 || f.Status != bugfolder.StatusOK || f.TokensIn != 3100 || f.TokensOut != 820 ||
		f.CostUSD != 0.0123 || f.Attempt != 1 || f.Duration() != 151*time.Second {
		t.Errorf("round trip: %+v", f)
	}
}

func TestProblemFileFormat(t *testing.T) {
	for _, lang := range []bugfolder.Lang{bugfolder.PT, bugfolder.EN} {
		t.Run(lang.String(), func(t *testing.T) {
			meta := bugfolder.ProblemMeta{
				ProtocolVersion: 1, BugID: "BUG-20260715-A7K3", Mode: bugfolder.Diagnosis, N: 3, R: 2,
				Solvers:  bugfolder.OrderedMap([]bugfolder.KV{{lang.SolverID(1), "local"}, {lang.SolverID(2), "codex"}, {lang.SolverID(3), "local"}}),
				Critics:  bugfolder.OrderedMap(nil),
				Judge:    "local",
				Timeout:  bugfolder.ScalarNode("10m0s"),
				Parallel: 3, Language: lang.String(), PBytes: 12, PTokensEstimated: 3, PSHA256: "abc",
				CreatedAt: "2026-07-15T10:00:00Z",
			}
			p := "### BUG — t\n\n## Summary (a heading inside P)\n\ntext\n"
			data, err := bugfolder.RenderProblem(lang, meta, bugfolder.Rubric(bugfolder.Diagnosis, lang), p)
			if err != nil {
				t.Fatal(err)
			}
			var rendered bytes.Buffer
			if _, err := data.WriteTo(&rendered); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, rendered.Bytes())
			w := newWriter(t, lang)
			sum, err := w.WriteProblem(data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(w.Dir, lang.Names().Problem)
			fi, _ := os.Stat(path)
			if fi.Mode().Perm() != 0o400 {
				t.Errorf("problema.md mode %v, want read-only 0400", fi.Mode().Perm())
			}
			if _, err := w.WriteProblem(data); err == nil {
				t.Error("problema.md must never be written twice")
			}
			onDisk, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(onDisk) != rendered.String() {
				t.Errorf("problema.md on disk is not the rendered document:\n%s", onDisk)
			}
			pf, err := bugfolder.ParseProblemFile(path, onDisk)
			if err != nil {
				t.Fatal(err)
			}
			if pf.SHA256 != sum || pf.Mode != bugfolder.Diagnosis || pf.N != 3 || pf.R != 2 || pf.Solvers[1].Value != "codex" || pf.Judge != "local" || len(pf.Rubric) != 4 || pf.Timeout != "10m0s" {
				t.Errorf("parsed: %+v", pf)
			}
			if pf.P != p {
				t.Errorf("P round trip:\n%q\nwant\n%q", pf.P, p)
			}
		})
	}
}

func TestFinalFileFormat(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	usd := 0.5
	m := bugfolder.FinalMeta{DebaterMeta: fixedMeta(2, "juiz"), Winner: "B", WinnerSolver: "agente-1",
		Labels:                bugfolder.OrderedMap([]bugfolder.KV{{"A", "agente-3"}, {"B", "agente-1"}}),
		AcceptedContributions: 2, DecidedBy: "judge", Participants: bugfolder.Participants(bugfolder.PT, 2, 3), Degraded: true,
		TotalTokens: 1000, TotalCostUSD: &usd, HealthTokensPerContribution: 500}
	m.Role, m.DebateID = bugfolder.RoleJudge, "BUG-20260715-A7K3-final"
	path, err := w.WriteFinal(m, "> Debate degradado: 2 de 3 debatedores participaram.\n\n## Vencedora\n\nProposta B\n")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	golden.RequireEqual(t, raw)
	f, err := bugfolder.ParseFinal(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	if f.Winner != "B" || f.WinnerSolver != "agente-1" || f.Participants != 2 || f.Of != 3 || f.HealthTokensPerContribution != 500 || len(f.Labels) != 2 {
		t.Errorf("parsed: %+v", f)
	}
}

// TestEnglishNames: an English debate writes the canonical Portuguese file
// and folder names (the framework's fix skill reads only those).
func TestEnglishNames(t *testing.T) {
	w := newWriter(t, bugfolder.EN)
	id := bugfolder.EN.SolverID(1)
	if id != "agente-1" || bugfolder.EN.CriticID(2) != "critic-2" || bugfolder.EN.RoundDir(3) != "rodada-3" {
		t.Errorf("ids %s %s %s", id, bugfolder.EN.CriticID(2), bugfolder.EN.RoundDir(3))
	}
	p, _, err := w.WriteDebater(fixedMeta(0, id), answer)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(p, filepath.Join("rodada-0", "agente-1.md")) {
		t.Errorf("path %s", p)
	}
	if p, _ := w.WriteJudgeAttempt(2, fixedMeta(0, "juiz"), "x"); !strings.HasSuffix(p, filepath.Join("juiz", "tentativa-2.md")) {
		t.Errorf("judge attempt %s", p)
	}
	if p, _ := w.WriteConvergence("x"); filepath.Base(p) != "convergencia.md" {
		t.Errorf("convergence %s", p)
	}
	if p, _ := w.WriteFinal(bugfolder.FinalMeta{}, "## Winner\n\nProposal A\n"); filepath.Base(p) != "resposta-final.md" {
		t.Errorf("final %s", p)
	}
	if got := w.RawPath(1, "agente-2", 3, "stdout"); got != filepath.Join("rodada-1", "raw", "agente-2.attempt-3.stdout") {
		t.Errorf("raw %s", got)
	}
	if bugfolder.EN.LabelName("A") != "Proposal A" || bugfolder.SecWinner.Heading(bugfolder.EN) != "## Winner" {
		t.Error("English labels and headings")
	}
	if d, err := bugfolder.ReadDebate(w.Dir, bugfolder.PT); err != nil || d.Lang != bugfolder.PT {
		t.Errorf("without problema.md the folder's language is the fallback: %v %v", d.Lang, err)
	}
}

func TestEverythingIsOwnerOnly(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	w := newWriter(t, bugfolder.PT)
	w.WriteDebater(fixedMeta(0, "agente-1"), answer)
	w.WriteJudgeAttempt(1, fixedMeta(0, "juiz"), "x")
	w.WriteConvergence("| 0 |")
	w.AppendEvent([]byte(`{"type":"setup"}`), true)
	raw, _ := w.CreateRaw(w.RawPath(0, "agente-1", 1, "stdout"))
	raw.Write([]byte("raw"))
	raw.Commit()
	filepath.WalkDir(w.Dir, func(p string, d fs.DirEntry, err error) error {
		fi, _ := os.Lstat(p)
		want := bugfolder.FilePerm
		if d.IsDir() {
			want = bugfolder.DirPerm
		}
		if fi.Mode().Perm()&^want != 0 {
			t.Errorf("%s has mode %v, more open than %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
}

func TestAtomicWriteLeavesNoTempFiles(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	for i := 0; i < 3; i++ {
		if _, _, err := w.WriteDebater(fixedMeta(0, "agente-1"), fmt.Sprintf("v%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(w.Dir, "rodada-0"))
	if len(ents) != 1 {
		t.Errorf("files: %v", ents)
	}
	raw, _ := os.ReadFile(filepath.Join(w.Dir, "rodada-0", "agente-1.md"))
	if !strings.HasSuffix(string(raw), "v2") {
		t.Error("last write lost")
	}
	// a discarded raw file never appears
	a, _ := w.CreateRaw(w.RawPath(0, "agente-1", 9, "stdout"))
	a.Write([]byte("partial"))
	a.Discard()
	if ents, _ := os.ReadDir(filepath.Join(w.Dir, "rodada-0", "raw")); len(ents) != 0 {
		t.Errorf("discarded raw left %v", ents)
	}
}

func TestDoneLockRefusesEveryWrite(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	_, b, err := bugfolder.Resolve(proj, "3")
	if err != nil {
		t.Fatal(err)
	}
	before := testutil.Fingerprint(t, b.Dir)
	_, err = bugfolder.OpenWriter(b.Dir, filepath.Join(b.Dir, "debate"), bugfolder.PT, "test")
	if !errors.Is(err, bugfolder.ErrLocked) || !strings.Contains(err.Error(), "DONE.md") {
		t.Fatalf("err = %v", err)
	}
	if _, err := bugfolder.ArchiveDebate(b.Dir, time.Now()); !errors.Is(err, bugfolder.ErrLocked) {
		t.Errorf("archive: %v", err)
	}
	if testutil.Fingerprint(t, b.Dir) != before {
		t.Error("something was written into a closed bug")
	}
	// DONE.md appearing while a debate runs stops the next write
	bug := t.TempDir()
	w, err := bugfolder.OpenWriter(bug, filepath.Join(bug, "debate"), bugfolder.PT, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.WriteFile(filepath.Join(bug, "DONE.md"), []byte("closed"), 0o644)
	if _, _, err := w.WriteDebater(fixedMeta(0, "agente-1"), "x"); !errors.Is(err, bugfolder.ErrLocked) {
		t.Errorf("write after DONE.md: %v", err)
	}
}

func TestSecondWriterIsRefused(t *testing.T) {
	bug := t.TempDir()
	dir := filepath.Join(bug, "debate")
	w, err := bugfolder.OpenWriter(bug, dir, bugfolder.PT, "first")
	if err != nil {
		t.Fatal(err)
	}
	_, err = bugfolder.OpenWriter(bug, dir, bugfolder.PT, "second")
	if !errors.Is(err, bugfolder.ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second writer: %v", err)
	}
	w.Close()
	w2, err := bugfolder.OpenWriter(bug, dir, bugfolder.PT, "third")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	if w2.TookOver() != nil {
		t.Error("a cleanly released lock is not stale")
	}
	w2.Close()
}

// TestStaleLockOfAKilledProcess starts a real process that takes the lock,
// kills it with SIGKILL, and checks the lock is taken over and reported.
func TestStaleLockOfAKilledProcess(t *testing.T) {
	if dir := os.Getenv("MOOT_TEST_HOLD_LOCK"); dir != "" {
		w, err := bugfolder.OpenWriter(filepath.Dir(dir), dir, bugfolder.PT, "holder")
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(1)
		}
		_ = w
		fmt.Println("LOCKED")
		time.Sleep(time.Hour)
	}
	bug := t.TempDir()
	dir := filepath.Join(bug, "debate")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStaleLockOfAKilledProcess$")
	cmd.Env = append(os.Environ(), "MOOT_TEST_HOLD_LOCK="+dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf) // blocks until the child says it holds the lock
	if !strings.Contains(string(buf[:n]), "LOCKED") {
		t.Fatalf("child: %q", buf[:n])
	}
	_, err := bugfolder.OpenWriter(bug, dir, bugfolder.PT, "me")
	if !errors.Is(err, bugfolder.ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Fatalf("while held: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	w, err := bugfolder.OpenWriter(bug, dir, bugfolder.PT, "me")
	if err != nil {
		t.Fatalf("after SIGKILL: %v", err)
	}
	defer w.Close()
	if w.TookOver() == nil || w.TookOver().PID != cmd.Process.Pid || w.TookOver().Alive() {
		t.Errorf("took over: %+v", w.TookOver())
	}
}

func TestArchiveDebate(t *testing.T) {
	bug := t.TempDir()
	when := time.Date(2026, 7, 15, 10, 0, 0, 0, time.UTC)
	for i, want := range []string{"debate-20260715T100000Z", "debate-20260715T100000Z-2"} {
		os.MkdirAll(filepath.Join(bug, "debate", "rodada-0"), 0o700)
		os.WriteFile(filepath.Join(bug, "debate", "problema.md"), []byte(fmt.Sprint(i)), 0o600)
		got, err := bugfolder.ArchiveDebate(bug, when)
		if err != nil || filepath.Base(got) != want {
			t.Fatalf("archive %d: %s %v", i, got, err)
		}
		if b, _ := os.ReadFile(filepath.Join(got, "problema.md")); string(b) != fmt.Sprint(i) {
			t.Error("archived content changed")
		}
	}
	if _, err := os.Stat(filepath.Join(bug, "debate")); !os.IsNotExist(err) {
		t.Error("debate/ still there")
	}
}

func TestAppendEvent(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	for _, l := range []string{`{"type":"setup"}`, `{"type":"round_started","round":0}` + "\n"} {
		if err := w.AppendEvent([]byte(l), true); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(w.Dir, "eventos.jsonl"))
	if string(b) != "{\"type\":\"setup\"}\n{\"type\":\"round_started\",\"round\":0}\n" {
		t.Errorf("log = %q", b)
	}
}

// TestTornEventLineStaysAlone: after a line torn by a power loss, the next
// event starts on a line of its own, so only the torn line is unreadable.
func TestTornEventLineStaysAlone(t *testing.T) {
	bug := t.TempDir()
	dir := filepath.Join(bug, bugfolder.DebateDir)
	os.MkdirAll(dir, 0o700)
	log := filepath.Join(dir, "eventos.jsonl")
	os.WriteFile(log, []byte("{\"type\":\"setup\"}\n{\"type\":\"call_fin"), 0o600)
	w, err := bugfolder.OpenWriter(bug, dir, bugfolder.PT, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.AppendEvent([]byte(`{"type":"resumed"}`), true); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	if string(b) != "{\"type\":\"setup\"}\n{\"type\":\"call_fin\n{\"type\":\"resumed\"}\n" {
		t.Errorf("log:\n%s", b)
	}
}

// TestWriterRefusesSymlinkedFolders: a round folder planted as a symlink
// out of the bug folder is never written through.
func TestWriterRefusesSymlinkedFolders(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(w.Dir, "rodada-0")); err != nil {
		t.Fatal(err)
	}
	_, _, err := w.WriteDebater(fixedMeta(0, "agente-1"), "## Hipóteses\n")
	if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "outside the bug folder") {
		t.Errorf("%v", err)
	}
	if _, err := w.CreateRaw(w.RawPath(0, "agente-1", 1, "stdout")); err == nil {
		t.Error("a raw file was created through the symlink")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("wrote outside: %v", ents)
	}
}

// TestWriteFileAtomicKeepsItsContract: the path-based helper writes
// owner-only, replaces whole, and refuses a symlinked folder.
func TestWriteFileAtomicKeepsItsContract(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	p := filepath.Join(dir, "f.md")
	for _, content := range []string{"one", "two"} {
		if err := bugfolder.WriteFileAtomic(p, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != content {
			t.Errorf("content %q, want %q", b, content)
		}
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	outside := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(outside, link)
	if err := bugfolder.WriteFileAtomic(filepath.Join(link, "x"), []byte("x")); err == nil {
		t.Error("wrote through a symlinked folder")
	}
}

// TestBarrierNamesAFolderItCouldNotSync: the round's barrier syncs every
// folder written since the last one (at once) and reports a folder it
// could not sync by its path, while the others are still synced; the
// next barrier starts from nothing pending.
func TestBarrierNamesAFolderItCouldNotSync(t *testing.T) {
	w := newWriter(t, bugfolder.PT)
	for _, round := range []int{1, 2} {
		if _, _, err := w.WriteDebater(fixedMeta(round, "agente-1"), answer); err != nil {
			t.Fatal(err)
		}
	}
	gone := filepath.Join(w.Dir, "rodada-2")
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	err := w.Barrier()
	if err == nil || !strings.Contains(err.Error(), gone) {
		t.Fatalf("barrier: %v; want an error naming %s", err, gone)
	}
	if strings.Contains(err.Error(), filepath.Join(w.Dir, "rodada-1")+":") {
		t.Errorf("barrier: %v; rodada-1 was there and must sync", err)
	}
	if err := w.Barrier(); err != nil {
		t.Errorf("a second barrier with nothing written: %v", err)
	}
}
