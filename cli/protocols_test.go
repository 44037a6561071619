package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/testutil"
)

// TestProtocolFlag: --protocol debate plans the debate protocol (docs/protocols/debate.md); a protocol
// moot does not run is a usage error (exit 2) naming the ones it runs,
// with nothing written; --help says which protocols there are.
func TestProtocolFlag(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plan", "7", "--protocol", "debate", "--mode", "repair"}, 0, "3×(2+1) + 0×2 + 1 = 10 calls"},
		{[]string{"plan", "7", "--protocol", "argue", "--mode", "repair"}, 2, `argue debates a question: use moot ask "QUESTION"`},
		{[]string{"run", "7", "--protocol", "review", "--mode", "repair", "--yes", "--headless"}, 2, `--protocol "review": moot runs `},
		{[]string{"help", "run"}, 0, "--protocol string"},
	}
	for _, c := range cases {
		code, out, errOut := moot(t, proj, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused protocol wrote something")
	}
}

// TestResumeRefusesAProtocolItDoesNotRun: a debate whose problema.md names
// a protocol this moot does not run is refused with exit 2 naming the
// file and the field, and nothing is written.
func TestResumeRefusesAProtocolItDoesNotRun(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	if code, _, errOut := moot(t, proj, "run", "7", "--mode", "diagnosis", "--yes", "--headless", "-r", "0", "--on-judge-failure", "cancel"); code != 0 && code != 3 {
		t.Fatalf("run: exit %d %s", code, errOut)
	}
	// an unfinished debate of another protocol: problema.md names it
	dir := filepath.Join(proj, a7k3, "debate")
	os.Remove(filepath.Join(dir, "resposta-final.md"))
	p := filepath.Join(dir, "problema.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "---\n", "---\nprotocol: review\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := testutil.Fingerprint(t, proj)
	code, _, errOut := moot(t, proj, "resume", "7", "--yes", "--headless")
	if code != 2 || !strings.Contains(errOut, "problema.md: protocol") || !strings.Contains(errOut, `"review" is not a protocol this moot runs (`) {
		t.Errorf("resume: exit %d %s", code, errOut)
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused resume wrote something")
	}
}

// TestTheUIKnowsEveryProtocol: the UI is handed every protocol moot runs
// (Known), argue included, though its wizard offers only a bug's: a
// question opened from the browser is described in, and resumed with,
// its own protocol.
func TestTheUIKnowsEveryProtocol(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	e := &env{cwd: proj, getenv: func(string) string { return "" }}
	reg, err := bugfolder.FindRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	opts := tuiOptions(e, reg, harness.BuiltinConfig())
	var names []string
	for _, p := range opts.Known {
		names = append(names, p.Name())
	}
	slices.Sort(names)
	if got := strings.Join(names, ", "); got != protocolNames() {
		t.Errorf("the UI knows %s, want %s", got, protocolNames())
	}
}

// TestAskHelpSpeaksArgue: ask's help says -r is argue's cap (its stop
// rules may end it earlier), not "no early stopping", and that
// --synthesizer applies to argue too.
func TestAskHelpSpeaksArgue(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	_, out, _ := moot(t, proj, "help", "ask")
	for _, want := range []string{"argue's cap (default 2; its stop rules may end it earlier from round 2)", "tradeoff/council/argue: the synthesizer's engine"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("ask --help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "no early stopping") {
		t.Errorf("ask --help says -r has no early stopping:\n%s", out)
	}
}

// TestNoSuchQuestionWithoutARegister: show, transcript and resume of a
// name that is no question, in a project without _reversa_bugs/, say there
// is no such question (exit 2), not that the register is missing.
func TestNoSuchQuestionWithoutARegister(t *testing.T) {
	proj := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"show", "transcript", "resume"} {
		code, _, errOut := moot(t, proj, cmd, "nosuch")
		if code != ExitUsage || !strings.Contains(errOut, `"nosuch": no such question`) || strings.Contains(errOut, "no _reversa_bugs/ folder found") {
			t.Errorf("moot %s nosuch: exit %d\n%s", cmd, code, errOut)
		}
	}
}

// TestAskLanguageDefault: a question is written in --lang, else the
// project's doc_language, else English — a register without a
// doc_language does not make it Portuguese.
func TestAskLanguageDefault(t *testing.T) {
	for _, tc := range []struct {
		flag string
		reg  bugfolder.Register
		want bugfolder.Lang
	}{
		{"", bugfolder.Register{Lang: bugfolder.PT}, bugfolder.EN},
		{"", bugfolder.Register{DocLanguage: "pt-BR", Lang: bugfolder.PT}, bugfolder.PT},
		{"", bugfolder.Register{DocLanguage: "English", Lang: bugfolder.EN}, bugfolder.EN},
		{"pt", bugfolder.Register{Lang: bugfolder.EN}, bugfolder.PT},
		{"en", bugfolder.Register{DocLanguage: "pt-BR", Lang: bugfolder.PT}, bugfolder.EN},
	} {
		if got, err := askLang(tc.flag, &tc.reg); err != nil || got != tc.want {
			t.Errorf("askLang(%q, doc_language %q) = %v, %v; want %v", tc.flag, tc.reg.DocLanguage, got, err, tc.want)
		}
	}
}

// TestLonePersonaOpponentWording: one --persona gets an opponent chosen;
// only a devil's advocate's opponent holds "the position it argues
// against".
func TestLonePersonaOpponentWording(t *testing.T) {
	a := &argueFlags{personas: []string{"skeptic"}}
	if names := a.names("Should we cache coupon lookups?", nil); len(names) != 2 || !strings.Contains(a.chosen, "chosen as its opponent") {
		t.Errorf("adversarial: %v, %q", names, a.chosen)
	}
	a = &argueFlags{advocate: "skeptic"}
	if a.names("Should we cache coupon lookups?", nil); !strings.Contains(a.chosen, "argues against") {
		t.Errorf("devil's advocate: %q", a.chosen)
	}
}
