package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// TestFlagOfAnotherProtocolIsRefused: a flag the chosen protocol does
// not take is exit 2 naming the flag and the protocols that take it, on
// run, plan and ask alike, and nothing is written; so are two identical
// tradeoff options.
func TestFlagOfAnotherProtocolIsRefused(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	run := []string{"run", "7", "--mode", "repair", "--yes", "--headless"}
	plan := []string{"plan", "7", "--mode", "repair"}
	with := func(base []string, extra ...string) []string { return append(append([]string{}, base...), extra...) }
	council := []string{"--protocol", "council", "--lens", "security", "--lens", "performance"}
	tradeoff := []string{"--protocol", "tradeoff", "--option-a", "strip discounts first", "--option-b", "apply the discount once"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"options on debate (run)", with(run, "--option-a", "x", "--option-b", "y"), "--option-a and --option-b apply to --protocol tradeoff, not debate (the default; give --protocol tradeoff to use it)"},
		{"option on debate (plan)", with(plan, "--protocol", "debate", "--option-b", "y"), "--option-b applies to --protocol tradeoff, not debate; nothing was written"},
		{"options on council", with(with(plan, council...), "--option-a", "x"), "--option-a applies to --protocol tradeoff, not council"},
		{"criteria on debate", with(run, "--criteria", "risk"), "--criteria applies to --protocol council and tradeoff, not debate"},
		{"synthesizer on debate", with(plan, "--synthesizer", "scripted"), "--synthesizer applies to --protocol council, tradeoff and argue, not debate"},
		{"lens on tradeoff", with(with(run, tradeoff...), "--lens", "security"), "--lens applies to --protocol debate and council, not tradeoff"},
		{"critic on council", with(with(run, council...), "--critic", "scripted"), "--critic applies to --protocol debate, not council"},
		{"critic on tradeoff", with(with(plan, tradeoff...), "--critic", "scripted"), "--critic applies to --protocol debate, not tradeoff"},
		{"same options", with(plan, "--protocol", "tradeoff", "--option-a", "Cache it", "--option-b", " cache  it "), "--option-a and --option-b are the same statement"},
		{"lens on argue (ask)", []string{"ask", "Cache?", "--yes", "--lens", "security"}, "--lens applies to --protocol debate and council, not argue (the default; give --protocol council to use it)"},
		{"criteria on argue (ask)", []string{"ask", "Cache?", "--yes", "--criteria", "risk"}, "--criteria applies to --protocol council and tradeoff, not argue"},
		{"persona on council (ask)", []string{"ask", "Cache?", "--yes", "--protocol", "council", "--lens", "security", "--lens", "cost", "--persona", "skeptic", "--style", "panel"}, "--persona and --style apply to --protocol argue, not council"},
		{"scorer on tradeoff (ask)", with([]string{"ask", "Cache?", "--yes"}, append(tradeoff, "--scorer", "scripted")...), "--scorer applies to --protocol argue, not tradeoff"},
		{"advocate on tradeoff (ask)", with([]string{"ask", "Cache?", "--yes"}, append(tradeoff, "--advocate", "skeptic")...), "--advocate applies to --protocol argue, not tradeoff"},
		{"questioner and defender on council (ask)", []string{"ask", "Cache?", "--yes", "--protocol", "council", "--lens", "a: x", "--lens", "b: y", "--questioner", "skeptic", "--defender", "pragmatist"}, "--questioner and --defender apply to --protocol argue, not council"},
		{"persona on run is no flag of run", with(run, "--persona", "skeptic"), "unknown flag: --persona"},
		// argue's role flags name the style they need (no silent drop)
		{"advocate under panel (ask)", []string{"ask", "Cache?", "--yes", "--style", "panel", "--persona", "skeptic", "--persona", "economist", "--advocate", "formalist"}, "--advocate applies to --style devils-advocate, not panel"},
		{"advocate under adversarial (ask)", []string{"ask", "Cache?", "--yes", "--style", "adversarial", "--persona", "skeptic", "--advocate", "economist"}, "--advocate applies to --style devils-advocate, not adversarial"},
		{"advocate under socratic (ask)", []string{"ask", "Cache?", "--yes", "--questioner", "skeptic", "--defender", "economist", "--advocate", "skeptic"}, "--advocate applies to --style devils-advocate, not socratic"},
		{"questioner under devils-advocate (ask)", []string{"ask", "Cache?", "--yes", "--style", "devils-advocate", "--advocate", "skeptic", "--questioner", "economist"}, "--questioner applies to --style socratic, not devils-advocate"},
		{"questioner and defender under panel (ask)", []string{"ask", "Cache?", "--yes", "--style", "panel", "--persona", "formalist", "--questioner", "skeptic", "--defender", "economist"}, "--questioner and --defender apply to --style socratic, not panel"},
		{"defender under adversarial (ask)", []string{"ask", "Cache?", "--yes", "--style", "adversarial", "--persona", "skeptic", "--defender", "economist"}, "--defender applies to --style socratic, not adversarial"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := moot(t, proj, c.args...)
			if code != ExitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want 2 and %q:\n%s", code, c.want, errOut)
			}
		})
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused setup wrote something")
	}
}

// TestNonPositiveTimeLimitNamesItsFlag: a zero or negative time limit is
// exit 2 naming that flag (and no other), its value printed for people;
// a council given one --lens for several members says a council takes
// one lens per member.
func TestNonPositiveTimeLimitNamesItsFlag(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"run", "7", "--mode", "repair", "--yes", "--headless", "--round-timeout", "-1s"}, "--round-timeout -1s: give a positive duration", "--debate-timeout"},
		{[]string{"run", "7", "--mode", "repair", "--yes", "--headless", "--round-timeout", "0s"}, "--round-timeout 0s: give a positive duration", "--debate-timeout"},
		{[]string{"run", "7", "--mode", "repair", "--yes", "--headless", "--debate-timeout", "-90s"}, "--debate-timeout -1m30s: give a positive duration", "--round-timeout"},
		{[]string{"run", "7", "--mode", "repair", "--yes", "--headless", "--timeout", "0s"}, "--timeout 0s: give a positive duration", "--round-timeout"},
		{[]string{"plan", "7", "--mode", "repair", "--timeout", "-2m"}, "--timeout -2m: give a positive duration", "--round-timeout"},
		{[]string{"resume", "9", "--yes", "--headless", "--debate-timeout", "0s"}, "--debate-timeout 0s: give a positive duration", "--round-timeout"},
		{[]string{"ask", "Cache?", "--yes", "--round-timeout", "-5s"}, "--round-timeout -5s: give a positive duration", "--debate-timeout"},
		{[]string{"run", "7", "--protocol", "council", "--mode", "repair", "--yes", "--headless", "-n", "3", "--lens", "security"}, `--lens "security" given once for -n 3 members: a council has one member per --lens`, ""},
		{[]string{"plan", "7", "--protocol", "council", "--mode", "repair", "--lens", "security"}, `--lens "security" given once for at least 2 members`, ""},
	} {
		code, _, errOut := moot(t, proj, c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || (c.not != "" && strings.Contains(errOut, c.not)) {
			t.Errorf("%v: exit %d, want 2 and %q (and no %q):\n%s", c.args, code, c.want, c.not, errOut)
		}
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused time limit wrote something")
	}
}

// k4m1 is the sample's bug closed by DONE.md, with a finished debate.
const k4m1 = "_reversa_bugs/checkout/bugs/BUG-20260610-K4M1-cupom-expirado-aceito"

// TestClosedBugsPendingDecisionCannotBeDecided: a result that still waits for
// a human decision on a bug closed since by DONE.md can never be decided
// (the folder is read-only for every tool): decide refuses it with exit 2
// saying why and how to reopen, writing nothing; list and show do not
// call it pending (list --json: decision null, decision_closed true).
func TestClosedBugsPendingDecisionCannotBeDecided(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	p := filepath.Join(proj, k4m1, "debate", "resposta-final.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "---\n", "---\ndecision: pending\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := testutil.Fingerprint(t, proj)
	code, _, errOut := moot(t, proj, "decide", "3", "approve")
	if code != ExitUsage || !strings.Contains(errOut, "DONE.md: the bug is closed and read-only: the decision its result waited for can no longer be recorded here") || !strings.Contains(errOut, "remove DONE.md") {
		t.Errorf("decide on a closed bug: exit %d\n%s", code, errOut)
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("decide on a closed bug wrote something")
	}
	_, out, _ := moot(t, proj, "list", "--json")
	var entries []map[string]any
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e["bug_id"] == "BUG-20260610-K4M1" && (e["decision"] != nil || e["decision_closed"] != true) {
			t.Errorf("list --json: decision %v, decision_closed %v", e["decision"], e["decision_closed"])
		}
	}
	if _, out, _ := moot(t, proj, "list"); !strings.Contains(out, "done (closed) · decision not taken") || strings.Contains(out, "decision pending") {
		t.Errorf("list:\n%s", out)
	}
	if _, out, _ := moot(t, proj, "show", "3"); !strings.Contains(out, "pending, but the bug is closed (DONE.md): it can no longer be recorded") {
		t.Errorf("show:\n%s", out)
	}
}

// TestPanelOverTheLimitNamesTheFlagAndTheLimit: a huge -n, -r or
// --critic count is exit 2 naming the flag as typed, the limit and what
// to pass instead, writing nothing.
func TestPanelOverTheLimitNamesTheFlagAndTheLimit(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	critics := []string{"plan", "7", "--mode", "repair"}
	for range 9 {
		critics = append(critics, "--critic", "scripted")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "7", "--mode", "repair", "-n", "500"}, "-n 500: moot runs at most 16 solvers; pass -n 16 or less"},
		{[]string{"run", "7", "--protocol", "tradeoff", "--mode", "repair", "--yes", "--headless", "-r", "500", "--option-a", "a", "--option-b", "b"}, "-r 500: moot runs at most 10 rounds after round 0"},
		{[]string{"plan", "7", "--mode", "repair", "-r", "99"}, "-r 99: moot runs at most 10 rounds after round 0; pass -r 10 or less"},
		{critics, "--critic given 9 times: moot runs at most 8 critics; give --critic at most 8 times"},
	} {
		code, _, errOut := moot(t, proj, c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, errOut)
		}
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused panel wrote something")
	}
}
