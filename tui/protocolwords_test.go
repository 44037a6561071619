package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/tradeoff"
)

// wordCases are the protocols with the words their screens must speak
// and the debate's words they must never borrow.
var wordCases = []struct {
	name  string
	proto engine.Protocol
	never []string
}{
	{"debate", debate.Protocol{}, []string{"synthesizer", "member", "reviewer", "persona"}},
	{"council", council.Protocol{}, []string{"solver", "judge", "critic"}},
	{"tradeoff", tradeoff.Protocol{}, []string{"solver", "judge", "critic"}},
	{"argue", argue.Protocol{}, []string{"solver", "judge", "critic"}},
}

// TestQuorumOtherMenuSpeaksTheProtocol: the quorum's Other… menu (both
// pages, the "all failed" choice), the timeout page and the final step's
// back choices name the protocol's members and final step.
func TestQuorumOtherMenuSpeaksTheProtocol(t *testing.T) {
	t.Parallel()
	m, _ := liveModel(t, newFixture(t), 120, 34)
	cfg := &harness.Config{Engines: map[string]*harness.EngineConfig{}}
	for _, tc := range wordCases {
		t.Run(tc.name, func(t *testing.T) {
			in := engine.Describe(tc.proto)
			q := quorumLoss()
			q.Member, q.Members = in.Member, in.Members
			var all string
			view := func(mn *menu) {
				m.dlg.openMenu(&m.frame, mn)
				all += ansi.Strip(m.dlg.menu.form.View()) + "\n"
			}
			view(otherMenu(&menu{q: q}))
			m = keys(t, m, "down", "enter") // change a timeout: which failed member?
			all += ansi.Strip(m.dlg.menu.form.View()) + "\n"
			view(timeoutMenu(&menu{q: q, solver: engine.AllFailed}))
			j := engine.JudgeFailure{Attempt: 1, Final: in.Final, NoWinner: !in.Winner, Engines: []string{"scripted"}, Engine: "local"}
			view(judgeEngineMenu(&menu{j: j}, cfg, nil))
			want := []string{"Swap a failed " + in.Member + "'s engine", "Which failed " + in.Member + "?",
				"All 2 failed " + in.Members, "every failed " + in.Member, "Back to the " + in.Final + " menu"}
			for _, w := range want {
				if !strings.Contains(all, w) {
					t.Errorf("the menus lack %q:\n%s", w, all)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(strings.ToLower(all), w) {
					t.Errorf("the menus say %q:\n%s", w, all)
				}
			}
		})
	}
}

// TestCostScreenSpeaksTheProtocol: the cost screen names the protocol,
// its members, its final step, its lenses or options, and no critics
// where it has no support role; a debate's line stays as it was.
func TestCostScreenSpeaksTheProtocol(t *testing.T) {
	t.Parallel()
	m, _ := liveModel(t, newFixture(t), 160, 40)
	lenses := []bugfolder.Lens{{Name: "security", Text: "s"}, {Name: "cfo", Text: "c"}, {Name: "sre", Text: "r"}}
	for _, tc := range []struct {
		proto engine.Protocol
		s     engine.Setup
		want  []string
		never []string
	}{
		{debate.Protocol{}, engine.Setup{Mode: bugfolder.Diagnosis, N: 3, R: 3, Judge: "scripted"},
			[]string{"mode diagnosis · N=3 solvers · R=3 rounds after round 0 · 0 critic(s) · judge scripted"}, []string{"synthesizer", "lenses"}},
		{council.Protocol{}, engine.Setup{Mode: bugfolder.Diagnosis, N: 3, R: 3, Judge: "scripted", Lenses: lenses},
			[]string{"mode diagnosis · council · N=3 members, one per lens · R=3 cross-rebuttal round(s) (at most 3) · synthesizer scripted",
				"lenses agente-1 security — s", "       agente-2 cfo — c", "       agente-3 sre — r"}, []string{"solver", "judge", "critic"}},
		{tradeoff.Protocol{}, engine.Setup{Mode: bugfolder.Repair, N: 2, R: 1, Judge: "scripted",
			Lenses: []bugfolder.Lens{{Name: "A", Text: "dedupe"}, {Name: "B", Text: "idempotent"}}, Criteria: []string{"latency", "risk"}},
			[]string{"tradeoff · 2 reviewers · rebuttal cap 1 round(s), stated before launch · synthesizer scripted",
				"option A agente-1: dedupe", "option B agente-2: idempotent", "criteria latency; risk"}, []string{"solver", "judge", "critic"}},
		{argue.Protocol{}, engine.Setup{N: 3, R: 2, Judge: "scripted", Critics: []string{"scripted"}, Lenses: lenses},
			[]string{"argue · N=3 personas", "1 scorer(s)", "synthesizer scripted", "personas agente-1 security"}, []string{"solver", "judge", "critic", "mode", "lenses"}},
	} {
		t.Run(tc.proto.Name(), func(t *testing.T) {
			s := tc.s
			s.Protocol, s.Lang, s.Bug = tc.proto, bugfolder.PT, &bugfolder.Bug{ID: "BUG-1"}
			m.cost = costState{setup: s}
			text := ansi.Strip(m.cost.text(&m.frame))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the cost screen lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(text, w) {
					t.Errorf("the cost screen says %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestWizardRefusesPastTheProtocolsLimits: N past the largest panel and R
// past a protocol's cap are refused as they are typed, naming the limit.
func TestWizardRefusesPastTheProtocolsLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		proto        engine.Protocol
		n, r         string
		wantN, wantR string
	}{
		{debate.Protocol{}, "17", "11", "at most 16", "at most 10"},
		{council.Protocol{}, "17", "4", "at most 16", "council runs at most 3 rounds"},
		{argue.Protocol{}, "17", "11", "argue runs at most 16 personas", "at most 10"},
		{tradeoff.Protocol{}, "3", "11", "at most 2", "tradeoff runs at most 10 rounds"},
	} {
		w := &wizard{proto: tc.proto, protoName: tc.proto.Name(), in: engine.Describe(tc.proto)}
		if err := w.sizeCheck()(tc.n); err == nil || !strings.Contains(err.Error(), tc.wantN) {
			t.Errorf("%s: N=%s gives %v, want %q", tc.proto.Name(), tc.n, err, tc.wantN)
		}
		if err := w.roundsCheck()(tc.r); err == nil || !strings.Contains(err.Error(), tc.wantR) {
			t.Errorf("%s: R=%s gives %v, want %q", tc.proto.Name(), tc.r, err, tc.wantR)
		}
		if err := w.sizeCheck()("2"); err != nil {
			t.Errorf("%s: N=2 refused: %v", tc.proto.Name(), err)
		}
		if err := w.roundsCheck()("1"); err != nil {
			t.Errorf("%s: R=1 refused: %v", tc.proto.Name(), err)
		}
	}
}

// TestScorerFailureMenu: when only argue's scorer failed, the quorum menu
// says so in argue's words — the scorer, the personas' quorum holding —
// and never promises saved calls or speaks of solvers; its Other… pages
// name the scorer.
func TestScorerFailureMenu(t *testing.T) {
	t.Parallel()
	m, _ := liveModel(t, newFixture(t), 120, 34)
	in := engine.Describe(argue.Protocol{})
	q := engine.QuorumLoss{Round: 1, Valid: 2, Needed: 2, Panel: 2, ValidIDs: []string{"agente-1", "agente-2"},
		Failed:     []engine.FailedCall{{SolverID: "critic-1", Engine: "local", Status: bugfolder.StatusInvalidOutput, LastError: "not the scorer's JSON object"}},
		RetryCalls: 1, Member: in.Member, Members: in.Members, Support: true, Supporter: in.Supporter}
	var all string
	for _, mn := range []*menu{quorumMenu(q, nil, func(...string) bool { return false }, 120), otherMenu(&menu{q: q})} {
		m.dlg.openMenu(&m.frame, mn)
		all += ansi.Strip(m.dlg.menu.form.View()) + "\n"
	}
	for _, w := range []string{"The scorer failed in round 1", "2 of 2 personas answered validly", "Continue without the scorer", "no call saved", "Retry the scorer (+1 call", "Swap a failed scorer's engine"} {
		if !strings.Contains(all, w) {
			t.Errorf("the menu lacks %q:\n%s", w, all)
		}
	}
	for _, w := range []string{"solver", "saves", "Quorum lost"} {
		if strings.Contains(all, w) {
			t.Errorf("the menu says %q:\n%s", w, all)
		}
	}
}

// TestFinalPaneSpeaksTheProtocol: the final step's pane is titled by the
// protocol's word for it (synthesizer), never a council's "judge".
func TestFinalPaneSpeaksTheProtocol(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range wordCases {
		t.Run(tc.name, func(t *testing.T) {
			bug := f.bug(t, "7")
			s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 1, Solvers: []string{"scripted", "scripted"}, Judge: "scripted", Protocol: tc.proto}
			opts := f.options()
			opts.Bug, opts.Setup, opts.Known = bug, s, []engine.Protocol{tc.proto}
			m := sized(t, opts, 120, 34)
			m.dv.deb = newLiveView(s)
			title := ansi.Strip(strings.Join(m.dv.renderPane(&m.frame, m.dv.deb.judge, 60, 8, false), "\n"))
			want := engine.Describe(tc.proto).Final
			if !strings.Contains(title, want) {
				t.Errorf("the final pane is not titled %q:\n%s", want, title)
			}
			if want != "judge" && strings.Contains(title, "judge") {
				t.Errorf("the %s's pane says judge:\n%s", want, title)
			}
		})
	}
}

// TestCouncilWizardHearsEachLensOnce: a council has a member per lens,
// each a different one: N past the catalog's size is refused naming it,
// and a lens already picked for an earlier member is refused naming that
// member.
func TestCouncilWizardHearsEachLensOnce(t *testing.T) {
	t.Parallel()
	cat := []bugfolder.Lens{{Name: "security", Text: "s"}, {Name: "cost", Text: "c"}}
	w := &wizard{proto: council.Protocol{}, protoName: "council", in: engine.Describe(council.Protocol{}),
		bug: &bugfolder.Bug{Register: &bugfolder.Register{Lang: bugfolder.PT}}, ch: wizardChoices{catalog: cat}}
	if err := w.sizeCheck()("3"); err == nil || !strings.Contains(err.Error(), "different lens and there are 2") {
		t.Errorf("N=3 with two lenses: %v", err)
	}
	if err := w.sizeCheck()("2"); err != nil {
		t.Errorf("N=2 with two lenses: %v", err)
	}
	w.lensPick = []string{"security", "security"}
	if err := w.distinctLens(1)("security"); err == nil || !strings.Contains(err.Error(), "agente-1 has security already") {
		t.Errorf("the same lens twice: %v", err)
	}
	if err := w.distinctLens(1)("cost"); err != nil {
		t.Errorf("a different lens refused: %v", err)
	}
	if err := w.distinctLens(0)("security"); err != nil {
		t.Errorf("the first member's lens refused: %v", err)
	}
}

// TestTabsFitManyRounds: with many rounds at 80 columns the tabs take
// their short names, so Final and Convergence stay in sight; at 140 the
// full names fit and stay.
func TestTabsFitManyRounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "7")
	for _, tc := range []struct {
		w, h int
		want []string
	}{
		{80, 24, []string{"P ", "R0", "R6", "Conv", "Final"}},
		{140, 45, []string{"Problem", "Round 0", "Round 6", "Convergence", "Final"}},
	} {
		s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 6, Solvers: []string{"scripted", "scripted"}, Judge: "scripted"}
		opts := f.options()
		opts.Bug, opts.Setup = bug, s
		m := sized(t, opts, tc.w, tc.h)
		m.dv.deb, m.screen, m.dv.tab = newLiveView(s), scrDebate, 1
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		var tabLine string
		for _, l := range lines {
			if strings.Contains(l, "Final") {
				tabLine = l
			}
			if w := ansi.StringWidth(l); w > tc.w {
				t.Errorf("%dx%d: a line of %d cells: %q", tc.w, tc.h, w, l)
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(tabLine, w) {
				t.Errorf("%dx%d: the tabs lack %q: %q", tc.w, tc.h, w, tabLine)
			}
		}
	}
}
