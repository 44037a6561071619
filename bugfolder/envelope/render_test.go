package envelope

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// sample is an envelope with each kind of file and check.
func sample() *Envelope {
	return &Envelope{
		Contract: Contract{"Add returns the sum", "Add(2,3) == 5; no other behaviour changes"},
		Context:  []Part{{"Problem", "Add subtracts.\n"}, {"Final answer", "Fix the operator."}},
		Files: []File{
			{Path: "assets/logo.png", Omitted: "binary"},
			{Path: "calc/calc.go", Body: "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"},
			{Path: "calc/calc_test.go", Test: true, Body: "package calc\n"},
			{Path: "calc/old.go", Deleted: true},
			{Path: "docs/how.md", Body: "Run:\n\n````sh\ngo test ./...\n````\nno trailing newline"},
			{Path: "empty.txt"},
		},
		Tests: []TestCheck{
			{Name: "new-tests-pass", OK: true, Detail: "the candidate's suite passes"},
			{Name: "suite-not-worse", Detail: "worse than the baseline:\n--- FAIL: TestAdd (0.00s)\n```odd```"},
			{Name: "tests-untouched-since-red", Detail: "test file changed since the red commit abc: calc/calc_test.go", File: "calc/calc_test.go"},
			{Name: "false-green", OK: true, Detail: "the candidate's tests failed (exit 1) on the red commit's code, as they must", File: "calc/calc_test.go"},
		},
	}
}

// TestRenderGolden: what the jurors read, byte for byte
// (testdata/TestRenderGolden.golden; -update rewrites it).
func TestRenderGolden(t *testing.T) {
	out := sample().Render()
	if out != sample().Render() {
		t.Fatal("two renders of one envelope differ")
	}
	golden.RequireEqual(t, []byte(out))
}

// TestRenderFences: a body's backtick runs never close its fence early.
func TestRenderFences(t *testing.T) {
	for _, body := range []string{"a", "```", "x ````` y", "`"} {
		e := &Envelope{Files: []File{{Path: "f.md", Body: body}}}
		fence := fenceFor(body)
		if strings.Contains(body, fence) || len(fence) < 3 {
			t.Errorf("fence %q for %q", fence, body)
		}
		if out := e.Render(); strings.Count(out, fence) != 2 {
			t.Errorf("%q: fence %q not opened and closed once:\n%s", body, fence, out)
		}
	}
}

// TestRedactReplacesEveryTextAndSaysWhere: a secret in the contract, a
// context part, a file and a test check is replaced in each, and each
// place is named once.
func TestRedactReplacesEveryTextAndSaysWhere(t *testing.T) {
	const secret = "sk-test-0123456789"
	e := &Envelope{Contract: Contract{Intent: "use " + secret, Criteria: "ok"},
		Context: []Part{{Title: "spec", Body: "key " + secret}},
		Files:   []File{{Path: "a.go", Body: secret + "\n" + secret}, {Path: "b.go", Body: "clean"}},
		Tests:   []TestCheck{{Name: "new-tests-pass", Detail: "got " + secret}}}
	where := e.Redact(func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") })
	if want := []string{"(contract)", "(context: spec)", "a.go", "(test checks)"}; !slices.Equal(where, want) {
		t.Errorf("where %q, want %q", where, want)
	}
	if strings.Contains(e.Render(), secret) {
		t.Errorf("the secret is still in the envelope:\n%s", e.Render())
	}
}
