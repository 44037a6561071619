package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestDegradedLineSpeaksTheProtocol: the debate protocol (docs/protocols/debate.md) keeps its degraded
// line byte for byte (a contract); a named protocol says it with its own
// members, in Portuguese and in English.
func TestDegradedLineSpeaksTheProtocol(t *testing.T) {
	council := Inputs{Named: true, Members: "members", MembersPT: "membros"}
	for _, tc := range []struct {
		in   Inputs
		lang bugfolder.Lang
		want string
	}{
		{Describe(nil), bugfolder.PT, "> Debate degradado: 1 de 2 debatedores participaram.\n\n"},
		{Describe(nil), bugfolder.EN, "> Degraded debate: 1 of 2 debaters took part.\n\n"},
		{council, bugfolder.PT, "> Degradado: 1 de 2 membros participaram.\n\n"},
		{council, bugfolder.EN, "> Degraded: 1 of 2 members took part.\n\n"},
	} {
		if got := degradedLine(tc.lang, tc.in, 1, 2); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.in.Members, tc.lang, got, tc.want)
		}
	}
}

// TestSetupLinesDescribeLenses: moot plan and the cost screen show each
// lens on a line of its own with its one-line description (the first
// line of its text, its first sentence when the line holds several).
func TestSetupLinesDescribeLenses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Security: you defend confidentiality. Look for trust boundaries.", "Security: you defend confidentiality."},
		{"\n\n  CFO:   unit economics\nconservative on risk\n", "CFO: unit economics"},
		{"watch every rounding step", "watch every rounding step"},
		{"v1.2 of the spec is law", "v1.2 of the spec is law"},
		{"", ""},
		{"Persona skeptic — domain: failure analysis.\nPart: questioner: probe the defender's claims\nYou doubt.", "part: questioner: probe the defender's claims"},
	} {
		if got := LensSummary(c.text); got != c.want {
			t.Errorf("LensSummary(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	s := Setup{Lang: bugfolder.EN, N: 2, Judge: "j",
		Lenses: []bugfolder.Lens{{Name: "security", Text: "Security: attacker first. More."}, {Name: "cfo", Text: "unit economics"}}}
	var got []SetupLine
	for _, l := range SetupLines(s) {
		if l.Note != "" || l.Key == "lenses" || l.Key == "" {
			got = append(got, l)
		}
	}
	want := []SetupLine{{Key: "lenses", Text: "agente-1 security", Note: "Security: attacker first."}, {Key: "", Text: "agente-2 cfo", Note: "unit economics"}}
	if !slices.Equal(got, want) {
		t.Errorf("lens lines %+v, want %+v", got, want)
	}
	// the criteria given are on a line of their own
	s.Criteria = []string{"latency", "cost of a miss"}
	if !slices.Contains(SetupLines(s), SetupLine{Key: "criteria", Text: "latency; cost of a miss"}) {
		t.Errorf("no criteria line: %+v", SetupLines(s))
	}
	s.Criteria = nil
	// a protocol whose lenses are its personas says so
	s.Protocol = describedProtocol{in: Inputs{Lenses: true, LensEach: true, LensesWord: "personas", Member: "persona", Members: "personas", Final: "synthesizer", Rounds: "R=%d"}}
	if lines := SetupLines(s); !slices.ContainsFunc(lines, func(l SetupLine) bool { return l.Key == "personas" }) ||
		slices.ContainsFunc(lines, func(l SetupLine) bool { return l.Key == "lenses" }) {
		t.Errorf("argue's personas are called lenses: %+v", lines)
	}
}

// describedProtocol is a protocol that only describes itself.
type describedProtocol struct {
	Protocol
	in Inputs
}

func (d describedProtocol) Inputs() Inputs { return d.in }

// TestCheckSizeSpeaksTheProtocol: a panel over the limit is named in the
// protocol's member words ("17 members"), a debate's as solvers.
func TestCheckSizeSpeaksTheProtocol(t *testing.T) {
	for _, tc := range []struct {
		p    Protocol
		want string
	}{
		{nil, "17 solvers: moot runs at most 16"},
		{describedProtocol{in: Inputs{Members: "members"}}, "17 members: moot runs at most 16"},
	} {
		err := CheckSize(tc.p, 17, 1, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckSize: %v, want %q", err, tc.want)
		}
	}
}

// TestFinalAdviceRunsAsPrinted: after a synthesizer failure the advice's
// resume keeps the flags that find the engines again (--config), and its
// moot decide names the debate alone (decide takes no --config).
func TestFinalAdviceRunsAsPrinted(t *testing.T) {
	p := describedProtocol{in: Inputs{Final: "synthesizer", Member: "member", Members: "members"}}
	got := FinalAdvice(p, "BUG-1 --config /tmp/e.yaml", nil)
	if !strings.Contains(got, "`moot resume BUG-1 --config /tmp/e.yaml --yes --on-judge-failure retry`") || !strings.Contains(got, "`moot decide BUG-1 approve|decline|revise`") {
		t.Errorf("advice: %s", got)
	}
}
