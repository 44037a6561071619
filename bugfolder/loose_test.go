package bugfolder_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// writeBug writes a one-bug register whose bug.md has the given front
// matter, and returns the register and the bug folder.
func writeBug(t *testing.T, front string) (*bugfolder.Register, string) {
	t.Helper()
	proj := t.TempDir()
	dir := filepath.Join(proj, "_reversa_bugs", "app", "bugs", "BUG-20260801-K9P2-sessao-expira")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bug.md"), []byte("---\n"+front+"---\n\n# Sessão expira\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := bugfolder.FindRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	return reg, dir
}

// readBoth reads the bug with the full reader and the listing's reader.
func readBoth(t *testing.T, reg *bugfolder.Register, dir string) (*bugfolder.Bug, *bugfolder.Bug) {
	t.Helper()
	full, err := bugfolder.ParseBug(reg, dir, "app")
	if err != nil {
		t.Fatal(err)
	}
	s, err := bugfolder.IndexBug(reg, bugfolder.BugDir{Dir: dir, Context: "app"})
	if err != nil {
		t.Fatal(err)
	}
	return full, s.Bug
}

func warningsText(b *bugfolder.Bug) string {
	var w []string
	for _, e := range b.Warnings {
		w = append(w, e.Error())
	}
	return strings.Join(w, "\n")
}

func TestRestrictedFailsClosed(t *testing.T) {
	tests := []struct {
		name, front string
		restricted  bool
		warn        string
	}{
		{"visibility_list", "id: BUG-20260801-K9P2\nvisibility: [restricted]\n", true, "a list is not one of"},
		{"visibility_list_of_normal", "id: BUG-20260801-K9P2\nvisibility:\n  - normal\n", true, "a list"},
		{"visibility_mapping", "id: BUG-20260801-K9P2\nvisibility: {level: normal}\n", true, "a mapping"},
		{"merge_key", "id: BUG-20260801-K9P2\n<<: {visibility: restricted}\n", true, "merge key"},
		{"merge_key_from_anchor", "base: &b {visibility: restricted}\nid: BUG-20260801-K9P2\n<<: *b\n", true, "merge key"},
		{"wrong_case_key", "id: BUG-20260801-K9P2\nVisibility: restricted\n", true, "written Visibility:"},
		{"wrong_case_key_beside_normal", "id: BUG-20260801-K9P2\nVISIBILITY: restricted\nvisibility: normal\n", true, "written VISIBILITY:"},
		{"unknown_word_secret", "id: BUG-20260801-K9P2\nvisibility: secret\n", true, `"secret" is not one of`},
		{"unknown_word_private", "id: BUG-20260801-K9P2\nvisibility: private\n", true, `"private"`},
		{"empty_value", "id: BUG-20260801-K9P2\nvisibility:\n", true, "is not one of"},
		{"number", "id: BUG-20260801-K9P2\nvisibility: 0\n", true, `"0"`},
		{"boolean", "id: BUG-20260801-K9P2\nvisibility: false\n", true, `"false"`},
		{"tagged", "id: BUG-20260801-K9P2\nvisibility: !custom normal\n", true, "not one of"},
		{"alias", "x: &n normal\nid: BUG-20260801-K9P2\nvisibility: *n\n", true, "alias"},
		{"block_string", "id: BUG-20260801-K9P2\nvisibility: |\n  normal\n", true, "not one of"},
		{"flow_front_matter", "{id: BUG-20260801-K9P2, visibility: restricted}\n", true, ""},
		{"restricted_upper_case_value", "id: BUG-20260801-K9P2\nvisibility: Restricted\n", true, ""},
		{"normal", "id: BUG-20260801-K9P2\nvisibility: normal\n", false, ""},
		{"internal", "id: BUG-20260801-K9P2\nvisibility: internal\n", false, ""},
		{"public_as_real_registers_write_it", "id: BUG-20260801-K9P2\nvisibility: public\n", false, ""},
		{"absent_is_the_schema_default", "id: BUG-20260801-K9P2\n", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, dir := writeBug(t, tt.front)
			full, listed := readBoth(t, reg, dir)
			for which, b := range map[string]*bugfolder.Bug{"full read": full, "listing": listed} {
				if b.Restricted() != tt.restricted {
					t.Errorf("%s: Restricted() = %v, want %v (visibility %q)", which, b.Restricted(), tt.restricted, b.Visibility)
				}
				if w := warningsText(b); tt.warn != "" && (!strings.Contains(w, tt.warn) || !strings.Contains(w, filepath.Join(dir, "bug.md")) || !strings.Contains(w, "treated as restricted")) {
					t.Errorf("%s: warning %q must name bug.md, say %q and that it is treated as restricted", which, w, tt.warn)
				}
			}
		})
	}
}

func TestDuplicateKeyIsAnError(t *testing.T) {
	for _, front := range []string{
		"id: BUG-20260801-K9P2\nvisibility: restricted\nvisibility: normal\n",
		"id: BUG-20260801-K9P2\ntraceability:\n  specs: [a.md]\n  specs: [b.md]\n",
	} {
		reg, dir := writeBug(t, front)
		_, err := bugfolder.ParseBug(reg, dir, "app")
		if !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), filepath.Join(dir, "bug.md")) || !strings.Contains(err.Error(), "is set twice") {
			t.Errorf("%q: err = %v, want an input error naming bug.md and the key", front, err)
		}
		if _, err := bugfolder.IndexBug(reg, bugfolder.BugDir{Dir: dir, Context: "app"}); err == nil {
			t.Errorf("%q: the listing read a bug with a duplicate key", front)
		}
	}
}

func TestLooseFrontMatter(t *testing.T) {
	tests := []struct {
		name, front string
		check       func(t *testing.T, b *bugfolder.Bug)
		warn        string
	}{
		{"display_number BUG-008", "id: BUG-20260801-K9P2\ndisplay_number: BUG-008\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.DisplayNumber != 8 {
				t.Errorf("display number %d, want 8", b.DisplayNumber)
			}
		}, `display_number: "BUG-008" is read as 8`}, // docs/registers.md: read, with a warning naming the file and field
		{"display_number quoted #8", "id: BUG-20260801-K9P2\ndisplay_number: \"#8\"\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.DisplayNumber != 8 {
				t.Errorf("display number %d, want 8", b.DisplayNumber)
			}
		}, `display_number: "#8" is read as 8`},
		// loose fields are not read silently
		{"display_number 0", "id: BUG-20260801-K9P2\ndisplay_number: 0\n", nil, `display_number: "0" is not a display number`},
		{"numeric id", "id: 12345\n", nil, `id: "12345" is not in the canonical form`},
		{"lower-case id", "id: bug-20260910-lowr\n", nil, `id: "bug-20260910-lowr" is not in the canonical form`},
		{"missing id", "title: x\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.ID != "BUG-20260801-K9P2" {
				t.Errorf("id %q, want the folder's", b.ID)
			}
		}, "id: is missing; moot uses BUG-20260801-K9P2"},
		{"title list", "id: BUG-20260801-K9P2\ntitle: [a, b]\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.Title == "" {
				t.Error("blank title: the first heading titles it")
			}
		}, "title: is a list, not text"},
		{"status mapping", "id: BUG-20260801-K9P2\nstatus: {a: b}\n", nil, "status: is a mapping (expected open, active or resolved)"},
		{"status closed", "id: BUG-20260801-K9P2\nstatus: closed\n", nil, `status: is "closed" (expected open, active or resolved)`},
		{"created_at yesterday", "id: BUG-20260801-K9P2\ncreated_at: yesterday\n", nil, `created_at: "yesterday" is not a date and time`},
		{"traceability prose", "id: BUG-20260801-K9P2\ntraceability: see below\n", nil, `traceability: is "see below" (expected a mapping`},
		// the listing reads a nested traceability: block on its fast path
		// only when it is a mapping; a list is the full reader's to warn about
		{"traceability mapping", "id: BUG-20260801-K9P2\ntraceability:\n  # where\n  specs: []\n", nil, ""},
		{"traceability null", "id: BUG-20260801-K9P2\ntraceability:\ntitle: Sessão\n", nil, ""},
		{"traceability list", "id: BUG-20260801-K9P2\ntraceability:\n  - docs/a.md\n", nil, "traceability: is a list (expected a mapping"},
		{"traceability flow list", "id: BUG-20260801-K9P2\ntraceability: [docs/a.md]\n", nil, "traceability: is a list (expected a mapping"},
		{"display_number word", "id: BUG-20260801-K9P2\ndisplay_number: seven\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.DisplayNumber != 0 {
				t.Errorf("display number %d, want none", b.DisplayNumber)
			}
		}, `display_number: "seven" is not a display number (expected a whole number such as 8`},
		{"display_number list", "id: BUG-20260801-K9P2\ndisplay_number: [8]\n", nil, "display_number: a list is not a display number"},
		{"express true", "id: BUG-20260801-K9P2\nexpress: true\n", func(t *testing.T, b *bugfolder.Bug) {
			if !b.Partial && !b.Express || len(b.Warnings) != 0 {
				t.Errorf("express %v, warnings %v", b.Express, b.Warnings)
			}
		}, ""},
		{"id carrying the slug", "id: BUG-20260801-K9P2-sessao-expira\n", func(t *testing.T, b *bugfolder.Bug) {
			if b.ID != "BUG-20260801-K9P2" {
				t.Errorf("id %q", b.ID)
			}
		}, "id: \"BUG-20260801-K9P2-sessao-expira\" carries the slug; the canonical ID is BUG-20260801-K9P2"},
		{"resolved without DONE.md", "id: BUG-20260801-K9P2\nstatus: resolved\n", nil, "status: is resolved but the bug folder has no DONE.md"},
		// a public register (ecommerce_botons_papelaria) names its one
		// locator traceability.spec_ref, a string, not the specs list
		{"traceability spec_ref", "id: BUG-20260801-K9P2\ntraceability:\n  spec_ref: _reversa_sdd/domain.md#produtos\n  code_ref: src/a.js#L1\n", func(t *testing.T, b *bugfolder.Bug) {
			if len(b.Specs) != 1 || b.Specs[0] != "_reversa_sdd/domain.md#produtos" {
				t.Errorf("specs %q, want the spec_ref", b.Specs)
			}
		}, "traceability.spec_ref: is read as traceability.specs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, dir := writeBug(t, tt.front)
			full, listed := readBoth(t, reg, dir)
			for which, b := range map[string]*bugfolder.Bug{"full read": full, "listing": listed} {
				if tt.check != nil {
					tt.check(t, b)
				}
				w := warningsText(b)
				if tt.warn == "" && w != "" {
					t.Errorf("%s: unexpected warning %q", which, w)
				}
				if tt.warn != "" && (!strings.Contains(w, tt.warn) || !strings.Contains(w, filepath.Join(dir, "bug.md"))) {
					t.Errorf("%s: warning %q must name bug.md and say %q", which, w, tt.warn)
				}
				if strings.Contains(w, "<nil>") {
					t.Errorf("%s: %q", which, w)
				}
			}
		})
	}
}

func TestBugFolderWithoutBugMdIsListedIncomplete(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	dir := filepath.Join(proj, "_reversa_bugs", "checkout", "bugs", "BUG-20260901-NEW1-ainda-sem-registro")
	os.MkdirAll(filepath.Join(dir, "evidence"), 0o755)
	reg, _ := bugfolder.FindRoot(proj)
	bugs, errs := bugfolder.Discover(reg)
	if len(errs) != 0 || len(bugs) != 7 {
		t.Fatalf("%d bugs, errors %v", len(bugs), errs)
	}
	var b *bugfolder.Bug
	for _, x := range bugs {
		if x.Dir == dir {
			b = x
		}
	}
	if b == nil || !b.Incomplete || b.ID != "BUG-20260901-NEW1" || !strings.Contains(warningsText(b), "incomplete") {
		t.Fatalf("incomplete bug: %+v", b)
	}
	if !b.Restricted() {
		t.Error("an incomplete bug has no visibility yet: restricted")
	}
	if _, err := bugfolder.AssembleP(b); !bugfolder.IsInputError(err) || !strings.Contains(err.Error(), "bug.md") {
		t.Errorf("P of an incomplete bug: %v", err)
	}
}

func TestHandWrittenWinnerForms(t *testing.T) {
	tests := []struct{ body, letter, solver string }{
		{"## Síntese\n\nDepois das rodadas, **D1 vence** por explicar toda a evidência.\n", "", "agente-1"},
		{"## Verdict\n\nAdopt Proposal C as the winning proposal, grafting B's test.\n", "C", ""},
		{"# Judge\n\nCandidate A wins. It explains the log.\n", "A", ""},
		{"## Vencedora (D2 — cache por sessão)\n\nExplica o log.\n", "", "agente-2"},
		{"- **Winner:** Proposal B\n", "B", ""},
		{"## Vencedora\n\nProposta B\n", "B", ""},
		{"## Síntese\n\nNenhuma proposta foi escolhida.\n", "", ""},
	}
	for _, tt := range tests {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != tt.letter || f.WinnerSolver != tt.solver {
			t.Errorf("%q: winner %q solver %q, want %q %q", tt.body, f.Winner, f.WinnerSolver, tt.letter, tt.solver)
		}
	}
}

// The first "X wins" was once taken even when the
// judge named another proposal the overall winner, or denied it.
func TestWinnerMisreadFromTheJudgesOwnWords(t *testing.T) {
	tests := []struct {
		body, letter, solver string
		ambiguous            bool
	}{
		{"# Judge\n\nProposal A wins on cost but loses on risk; overall **Proposal C wins**.\n", "C", "", false},
		{"# Judge\n\nAdopt Proposal C as the winning proposal. Proposal A wins nothing here.\n", "C", "", false},
		{"# Judge\n\nI would not adopt Proposal A as the winning proposal; adopt Proposal B instead.\n", "B", "", false},
		{"# Judge\n\nProposal A wins on cost. Proposal B wins on risk.\n", "", "", true},
		{"## Winner: Proposal B\n\nProposal A wins on cost.\n", "B", "", false},
		{"# Juiz\n\nA Proposta A vence em custo; no geral a **Proposta C vence**.\n", "C", "", false},
		{"# Judge\n\n**Proposal A wins** and **Proposal B wins**.\n", "", "", true},
		{"# Judge\n\nD2 does not win; **D1 vence**.\n", "", "agente-1", false},
	}
	for _, tt := range tests {
		f, err := bugfolder.ParseFinal("resposta-final.md", []byte(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		if f.Winner != tt.letter || f.WinnerSolver != tt.solver {
			t.Errorf("%q: winner %q solver %q, want %q %q", tt.body, f.Winner, f.WinnerSolver, tt.letter, tt.solver)
		}
		if w := f.AmbiguousWinner(bugfolder.EN); (w != nil) != tt.ambiguous {
			t.Errorf("%q: ambiguity warning %v, want %v", tt.body, w, tt.ambiguous)
		} else if w != nil && !strings.Contains(w.Error(), "resposta-final.md") {
			t.Errorf("the warning names no file: %v", w)
		}
	}
}

// FuzzParseFinal: a hand-written judge's file never makes the reader
// panic, and a winner is never both named and ambiguous.
func FuzzParseFinal(f *testing.F) {
	f.Add("# Judge\n\nProposal A wins on cost; overall **Proposal C wins**.\n")
	f.Add("I would not adopt Proposal A as the winning proposal; adopt Proposal B instead.\n")
	f.Add("## Vencedora (D1 — x)\n\n**D2 vence**\n")
	f.Add("---\nrole: judge\nfinished_at: 2026-10-04\n---\n## Vencedora\n\nP-A\n\n## RECOMENDAÇÃO de veredito\n\n`spec-correta`. não é `spec-gap`.\n")
	f.Add("# Recomendação do Juiz\n**Vencedora (Síntese da Convergência)**:\n1. x\n")
	f.Add("## Vencedora\n\nP-A ou P-B\n## Recommended verdict\n")
	f.Fuzz(func(t *testing.T, body string) {
		fin, err := bugfolder.ParseFinal("resposta-final.md", []byte(body))
		if err != nil {
			return
		}
		if len(fin.WinnerAmbiguous) > 0 && (fin.Winner != "" || fin.WinnerSolver != "") {
			t.Fatalf("winner %q/%q and ambiguous %v", fin.Winner, fin.WinnerSolver, fin.WinnerAmbiguous)
		}
		if fin.Synthesis && (fin.Winner != "" || fin.WinnerSolver != "") {
			t.Fatalf("a synthesis and a winner %q/%q", fin.Winner, fin.WinnerSolver)
		}
		if v := fin.RecommendedVerdict; v != "" && !slices.Contains([]string{"spec-correta", "spec-desatualizada", "spec-gap", "spec-correct", "spec-outdated"}, v) {
			t.Fatalf("verdict %q is no spec verdict", v)
		}
	})
}

func TestCreatedAtWithAnOffsetIsShownInUTC(t *testing.T) {
	for _, v := range []string{"2026-08-01T07:30:00-03:00", "2026-08-01 07:30:00 -03:00", "2026-08-01T07:30:00-0300", "2026-08-01 07:30:00 -0300", "2026-08-01T12:30:00+02:00", "2026-08-01T10:30:00Z"} {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, "problema.md"), []byte("---\nmode: diagnosis\nn: 2\nr: 0\ncreated_at: "+v+"\n---\n"), 0o600)
		deb, err := bugfolder.ReadDebate(d, bugfolder.PT)
		if err != nil {
			t.Fatal(err)
		}
		if got := deb.StartedAt().Format("2006-01-02T15:04:05Z07:00"); got != "2026-08-01T10:30:00Z" {
			t.Errorf("created_at %s read as %s, want 2026-08-01T10:30:00Z", v, got)
		}
	}
}

func TestLeadingSlashLocatorStaysInTheProject(t *testing.T) {
	reg, dir := writeBug(t, "id: BUG-20260801-K9P2\ntraceability:\n  specs: [\"/etc/passwd#L1\", \"/docs/req.md#RF-06\"]\n")
	os.MkdirAll(filepath.Join(reg.Project, "docs"), 0o755)
	os.WriteFile(filepath.Join(reg.Project, "docs", "req.md"), []byte("| ID | R |\n|---|---|\n| RF-06 | every row |\n"), 0o644)
	b, _ := bugfolder.ParseBug(reg, dir, "app")
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, "root:") || !strings.Contains(p.Text, "`/etc/passwd`") {
		t.Error("/etc/passwd is read as the project's etc/passwd, which does not exist")
	}
	if !strings.Contains(p.Text, "| RF-06 | every row |") {
		t.Error("a leading / is the project's root")
	}
}

// FuzzBugVisibility: whatever bug.md's front matter holds, the listing's
// fast path never lets through a bug the full reader calls restricted.
func FuzzBugVisibility(f *testing.F) {
	f.Add("id: BUG-20260801-K9P2\nvisibility: normal\n")
	f.Add("id: BUG-20260801-K9P2\nvisibility: [restricted]\n")
	f.Add("id: BUG-20260801-K9P2\nVisibility: restricted\nvisibility: normal\n")
	f.Add("base: &b {visibility: restricted}\nid: BUG-20260801-K9P2\n<<: *b\nvisibility: normal\n")
	f.Add("id: BUG-20260801-K9P2\ntraceability:\n  specs: []\nvisibility: internal\n")
	f.Add("id: BUG-20260801-K9P2\nvisibility: public\nexpress: true\nmitigation: {kind: flag, temporary: true}\nblocking: [{kind: external, reason: x}, y]\nmodule: [a, b]\nstatus: fixed\n")
	f.Add("id: BUG-20260801-K9P2\nmitigation: yes\ndelivery: {pr: [1]}\nchange_risk: {classificacao: alta}\n")
	dir := filepath.Join(f.TempDir(), "_reversa_bugs", "app", "bugs", "BUG-20260801-K9P2-x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	reg, err := bugfolder.FindRoot(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, front string) {
		if err := os.WriteFile(filepath.Join(dir, "bug.md"), []byte("---\n"+front+"\n---\n# t\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		full, ferr := bugfolder.ParseBug(reg, dir, "app")
		s, lerr := bugfolder.IndexBug(reg, bugfolder.BugDir{Dir: dir, Context: "app"})
		if ferr != nil || lerr != nil {
			// what the full reader refuses never reaches an engine (every
			// debate reads the bug in full); the listing may show it
			return
		}
		for _, fact := range full.Facts() { // the facts never panic, and a mitigation is never a fix
			if strings.HasPrefix(fact, "mitigated") && !strings.HasPrefix(fact, "mitigated, not fixed") {
				t.Fatalf("mitigation shown as %q", fact)
			}
		}
		if full.Restricted() && !s.Bug.Restricted() {
			t.Fatalf("the listing reads %q as %s where the full read says restricted", front, s.Bug.Visibility)
		}
		if !full.Restricted() && full.Visibility != bugfolder.VisibilityNormal && full.Visibility != bugfolder.VisibilityInternal && full.Visibility != bugfolder.VisibilityPublic {
			t.Fatalf("visibility %q is not restricted", full.Visibility)
		}
	})
}

func TestWhichUnfinishedDebatesANewRunArchives(t *testing.T) {
	tests := []struct {
		name             string
		files            map[string]string
		handRun, archive bool
	}{
		{"moot's own, canonical names", map[string]string{"problema.md": "---\nmode: diagnosis\nn: 2\nr: 1\np_sha256: ab\n---\n", "rodada-0/agente-1.md": "x", "eventos.jsonl": `{"type":"round_started","round":0}` + "\n"}, false, false},
		{"run by hand", map[string]string{"problema.md": "- mode: diagnosis\n", "rodada-0/agente-1.md": "x"}, true, true},
		{"translated names by an older moot", map[string]string{"problem.md": "---\nmode: diagnosis\nn: 2\nr: 1\np_sha256: ab\n---\n", "round-0/agent-1.md": "x", "eventos.jsonl": `{"type":"round_started","round":0}` + "\n"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := t.TempDir()
			for name, body := range tt.files {
				os.MkdirAll(filepath.Dir(filepath.Join(d, name)), 0o700)
				os.WriteFile(filepath.Join(d, name), []byte(body), 0o600)
			}
			deb, err := bugfolder.ReadDebate(d, bugfolder.PT)
			if err != nil {
				t.Fatal(err)
			}
			want := bugfolder.StateRunning
			if tt.handRun {
				want = bugfolder.StateInterrupted // nothing runs a hand-run debate
			}
			if deb.State != want || deb.HandRun() != tt.handRun || deb.Archivable() != tt.archive {
				t.Errorf("state %s, hand-run %v, archivable %v", deb.State, deb.HandRun(), deb.Archivable())
			}
		})
	}
}

func TestHandWrittenProblemSettings(t *testing.T) {
	tests := []struct {
		name, text string
		n, r       int
		judge      string
	}{
		{"front matter counts", "---\nsolvers: 3\nrounds: 2\njudge: 1\n---\n", 3, 2, ""},
		{"epochs", "---\nepochs: 4\njudge: claude\n---\n", 0, 4, "claude"},
		{"bullets", "# Debate\n\n- mode: diagnosis\n- solvers: 3 (three agents)\n- rounds: 3\n- judge: 1\n\n## P\n\nx\n", 3, 3, ""},
		{"moot's own keys win", "---\nn: 2\nr: 1\nsolvers: {agente-1: a, agente-2: b}\njudge: local\n---\n", 2, 1, "local"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := bugfolder.ParseProblemFile("problema.md", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if p.N != tt.n || p.R != tt.r || p.Judge != tt.judge {
				t.Errorf("N=%d R=%d judge %q, want N=%d R=%d judge %q", p.N, p.R, p.Judge, tt.n, tt.r, tt.judge)
			}
		})
	}
	// the rounds on disk decide a hand-run debate's N and R: rounds: 3
	// counted round 0 too, and four solver files mean N=4
	d := t.TempDir()
	os.WriteFile(filepath.Join(d, "problema.md"), []byte("- mode: diagnosis\n- solvers: 3\n- rounds: 3\n- judge: 1\n"), 0o600)
	for _, f := range []string{"rodada-0/agente-1.md", "rodada-0/agente-2.md", "rodada-0/agente-3.md", "rodada-0/agente-4.md", "rodada-2/agente-1.md", "rodada-1/critic-perf.md", "resposta-final.md"} {
		os.MkdirAll(filepath.Dir(filepath.Join(d, f)), 0o700)
		os.WriteFile(filepath.Join(d, f), []byte("## Hypotheses\n\nx\n"), 0o600)
	}
	deb, err := bugfolder.ReadDebate(d, bugfolder.EN)
	if err != nil {
		t.Fatal(err)
	}
	if deb.Problem.N != 4 || deb.Problem.R != 2 || deb.Problem.Judge != "" {
		t.Errorf("derived N=%d R=%d judge %q, want 4, 2 and no engine", deb.Problem.N, deb.Problem.R, deb.Problem.Judge)
	}
	var critic *bugfolder.DebaterFile
	for _, r := range deb.Rounds {
		if f := r.File("critic-perf"); f != nil {
			critic = f
		}
	}
	if critic == nil || critic.Role != bugfolder.RoleCritic {
		t.Errorf("critic-perf.md not read as a critic: %+v", critic)
	}
	if deb.CostKnown() {
		t.Error("a hand-run debate's cost is unknown, not $0.00")
	}
}
