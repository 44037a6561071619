package engine_test

import (
	"math"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
)

// partial marks a record as a debate that did not run as planned.
func partial(r bugfolder.CostRecord) bugfolder.CostRecord {
	r.Partial = true
	return r
}

// TestLearnFactors: the correction is the median actual/base ratio over
// the last k debates of each engine; one outlier does not move it;
// records without a base or actuals, or of a partial debate, teach
// nothing; engines are apart.
func TestLearnFactors(t *testing.T) {
	rec := func(engine string, baseIn, baseOut, actIn, actOut int) bugfolder.CostRecord {
		return bugfolder.CostRecord{Engines: []bugfolder.CostAccuracy{{Engine: engine, BaseIn: baseIn, BaseOut: baseOut, ActTokensIn: actIn, ActTokensOut: actOut}}}
	}
	tests := []struct {
		name    string
		records []bugfolder.CostRecord
		k       int
		want    map[string]Learned
	}{
		{"none", nil, 10, map[string]Learned{}},
		{"three times", []bugfolder.CostRecord{rec("a", 1000, 100, 2000, 300), rec("a", 1000, 100, 2000, 300)}, 10, map[string]Learned{"a": {In: 2, Out: 3, N: 2}}},
		{"an outlier", []bugfolder.CostRecord{rec("a", 100, 100, 100, 300), rec("a", 100, 100, 100, 9000), rec("a", 100, 100, 100, 300)}, 10, map[string]Learned{"a": {In: 1, Out: 3, N: 3}}},
		{"the last k", []bugfolder.CostRecord{rec("a", 100, 100, 100, 900), rec("a", 100, 100, 100, 200), rec("a", 100, 100, 100, 200)}, 2, map[string]Learned{"a": {In: 1, Out: 2, N: 2}}},
		{"no base", []bugfolder.CostRecord{rec("a", 0, 0, 100, 300), rec("b", 100, 100, 50, 50)}, 10, map[string]Learned{"b": {In: 0.5, Out: 0.5, N: 1}}},
		// a cut debate spent part of the plan
		{"a partial debate teaches nothing", []bugfolder.CostRecord{rec("a", 100, 100, 200, 300), partial(rec("a", 100, 100, 20, 10))}, 10, map[string]Learned{"a": {In: 2, Out: 3, N: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := LearnFactors(tc.records, tc.k)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for name, w := range tc.want {
				g := got[name]
				if math.Abs(g.In-w.In) > 1e-9 || math.Abs(g.Out-w.Out) > 1e-9 || g.N != w.N {
					t.Errorf("%s: got %+v, want %+v", name, g, w)
				}
			}
		})
	}
}
