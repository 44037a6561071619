package engine

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// limitedProto is a protocol with time limits of its own (as council's
// seed sets them); only what newRunner reads is implemented.
type limitedProto struct {
	Protocol
	lim *TimeLimits
}

func (limitedProto) Roles() (panel, support, final bugfolder.Role) {
	return "member", "", "synthesizer"
}
func (limitedProto) Rubric(bugfolder.Lang, bugfolder.Mode) []string { return nil }
func (p limitedProto) TimeLimits() TimeLimits                       { return *p.lim }

// unlimitedProto has no time limits of its own.
type unlimitedProto struct{ Protocol }

func (unlimitedProto) Roles() (panel, support, final bugfolder.Role)  { return "solver", "", "judge" }
func (unlimitedProto) Rubric(bugfolder.Lang, bugfolder.Mode) []string { return nil }

// A protocol's own time limits (council: 120 s a round, 300 s in all) are
// a run's defaults; a limit given (--round-timeout, --debate-timeout)
// overrides them, and a protocol without limits of its own keeps none.
func TestProtocolTimeLimitsAreTheRunsDefaults(t *testing.T) {
	seed := &TimeLimits{Call: 30 * time.Second, Round: 120 * time.Second, Debate: 300 * time.Second}
	for _, tc := range []struct {
		name          string
		proto         Protocol
		given         Options
		round, debate time.Duration
	}{
		{"the protocol's limits", limitedProto{lim: seed}, Options{}, 120 * time.Second, 300 * time.Second},
		{"flags override them", limitedProto{lim: seed}, Options{RoundTimeout: time.Minute, DebateTimeout: time.Hour}, time.Minute, time.Hour},
		{"a protocol without limits has none", unlimitedProto{}, Options{}, 0, 0},
	} {
		r := newRunner(tc.proto, tc.given, &bugfolder.Bug{}, bugfolder.PT, bugfolder.Diagnosis, 3, 1, "P", 0, 0)
		if r.opts.RoundTimeout != tc.round || r.opts.DebateTimeout != tc.debate {
			t.Errorf("%s: round %v, run %v; want %v, %v", tc.name, r.opts.RoundTimeout, r.opts.DebateTimeout, tc.round, tc.debate)
		}
	}
}

// FuzzParseStakes reads a typed value at risk: never a panic, never a
// negative or non-finite value accepted.
func FuzzParseStakes(f *testing.F) {
	for _, s := range []string{"", "250000", "1_000_000", "-1", "NaN", "Inf", "1e999", "muito", " 7 ", "250.000", "0x1p20", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStakes(s, false)
		if err == nil && st.Valued && (st.ValueAtRisk < 0 || st.ValueAtRisk != st.ValueAtRisk || math.IsInf(st.ValueAtRisk, 0)) {
			t.Errorf("%q accepted as %v", s, st.ValueAtRisk)
		}
		if err == nil && strings.ContainsAny(s, "xX+-,") && !strings.ContainsAny(s, "eE") {
			t.Errorf("%q accepted as %v: only plain decimal digits are a value at risk", s, st.ValueAtRisk)
		}
	})
}
