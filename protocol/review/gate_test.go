package review

import (
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
)

func lensOf(n string) bugfolder.Lens { return bugfolder.Lens{Name: n, Text: n + " text"} }

func TestDecide(t *testing.T) {
	pass := Seat{Outcome: OutcomePass, Checked: []string{"x"}}
	dry := Seat{Outcome: OutcomePass, Dry: true}
	refuse := Seat{Lens: "tests", Outcome: OutcomeRefuse, Findings: []Finding{{Severity: SevMajor, Claim: "c"}}}
	bare := Seat{Lens: "spec", Outcome: OutcomeRefuse}
	hold := Seat{Lens: "security", Outcome: OutcomeHold}
	cases := []struct {
		name   string
		seats  []Seat
		want   Outcome
		reason string
	}{
		{"unanimous pass", []Seat{pass, pass, dry}, OutcomePass, "unanimous"},
		{"one refuse closes", []Seat{pass, refuse}, OutcomeRefuse, "refused by tests"},
		{"dry passes never outweigh a detailed refuse", []Seat{dry, dry, refuse}, OutcomeRefuse, "a detailed refuse stands: 2 dry"},
		{"a dry pass beside a full one never outweighs a detailed refuse", []Seat{pass, dry, refuse}, OutcomeRefuse, "a detailed refuse stands: 1 dry"},
		{"a bare refuse among dry passes is still a refuse", []Seat{dry, bare}, OutcomeRefuse, "refused by spec"},
		{"a hold keeps it shut", []Seat{pass, hold}, OutcomeHold, "held: security"},
		{"only dry passes hold", []Seat{dry, dry}, OutcomeHold, "every pass is dry"},
		{"nobody sat", nil, OutcomeHold, "no juror"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := Decide(c.seats)
			if g.Outcome != c.want || !strings.Contains(g.Reason, c.reason) {
				t.Errorf("gate %+v, want %s with %q", g, c.want, c.reason)
			}
		})
	}
}

func TestStalled(t *testing.T) {
	cases := []struct {
		news []int
		want bool
	}{
		{[]int{3}, false},
		{[]int{3, 1}, false},
		{[]int{1, 1}, true},
		{[]int{1, 2}, true},
		{[]int{0, 0}, false},
		{[]int{4, 2, 2}, true},
		{[]int{4, 2, 1}, false},
	}
	for _, c := range cases {
		if got := Stalled(c.news); got != c.want {
			t.Errorf("Stalled(%v) = %v, want %v", c.news, got, c.want)
		}
	}
}

// A finding's identity folds case, punctuation and spacing, and takes its
// file from the finding or from the envelope path its evidence names.
func TestIdentityAndNewFindings(t *testing.T) {
	files := []string{"calc.go", "calc_test.go"}
	a := Identity(Finding{Claim: "Total  ignores the CAP!", File: "calc.go"}, files)
	b := Identity(Finding{Claim: "total ignores the cap", Evidence: "see calc.go line 3"}, files)
	if a != b {
		t.Errorf("%q != %q", a, b)
	}
	if c := Identity(Finding{Claim: "total ignores the cap", File: "other.go"}, files); c == a {
		t.Error("another file is another finding")
	}
	for _, same := range []string{"./calc.go", " calc.go ", "././calc.go", "x/../calc.go"} {
		if c := Identity(Finding{Claim: "total ignores the cap", File: same}, files); c != a {
			t.Errorf("file %q: %q, want %q (the same file)", same, c, a)
		}
	}
	seen := map[string]bool{a: true}
	seats := []Seat{{Findings: []Finding{{Claim: "Total ignores the cap.", File: "calc.go"}, {Claim: "new one", File: "calc.go"}, {Claim: "NEW one", File: "calc.go"}}}}
	if got := NewFindings(seats, files, seen); len(got) != 1 || !strings.HasPrefix(got[0], "new one|") {
		t.Errorf("new findings %v", got)
	}
}

// A failed test check is a refuse in moot's own name, naming the file or
// "false green"; passing checks add no seat.
func TestMootSeat(t *testing.T) {
	if MootSeat(1, []envelope.TestCheck{{Name: "new-tests-pass", OK: true}}) != nil {
		t.Error("passing checks made a seat")
	}
	s := MootSeat(1, []envelope.TestCheck{
		{Name: "false-green", Detail: "tests pass on the red commit"},
		{Name: "tests-untouched-since-red", Detail: "changed", File: "calc_test.go"},
	})
	if s == nil || s.Lens != MootLens || s.Outcome != OutcomeRefuse || len(s.Findings) != 2 {
		t.Fatalf("seat %+v", s)
	}
	if !strings.Contains(s.Findings[0].Claim, "false green") || !strings.Contains(s.Findings[1].Claim, "calc_test.go") {
		t.Errorf("findings %+v", s.Findings)
	}
}

var fixedTime = time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
