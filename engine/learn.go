package engine

import (
	"math"
	"sort"

	"github.com/reversa/moot/bugfolder"
)

// LearnWindow is how many past debates per engine the estimator learns
// from (the most recent ones that recorded that engine).
const LearnWindow = 10

// Learned is an engine's correction of the plan's token estimates:
// the median ratio of actual to estimated tokens (input, answers) over
// the last N debates that recorded it.
type Learned struct {
	In, Out float64
	N       int
}

// LearnFactors learns each engine's correction from past debates'
// cost_accuracy (oldest first): over the last k records of an engine,
// the median of actual/estimated input and answer tokens, compared with
// the uncorrected estimate (base) so a correction never compounds.
// Records without a base or without actuals are skipped. Pure.
func LearnFactors(records []bugfolder.CostRecord, k int) map[string]Learned {
	ins, outs := map[string][]float64{}, map[string][]float64{}
	for i := len(records) - 1; i >= 0; i-- {
		if records[i].Partial {
			continue // a cut or short debate's actuals are not the plan's
		}
		for _, c := range records[i].Engines {
			if len(outs[c.Engine]) >= k || c.BaseIn <= 0 || c.BaseOut <= 0 || c.ActTokensIn <= 0 || c.ActTokensOut <= 0 {
				continue
			}
			ins[c.Engine] = append(ins[c.Engine], float64(c.ActTokensIn)/float64(c.BaseIn))
			outs[c.Engine] = append(outs[c.Engine], float64(c.ActTokensOut)/float64(c.BaseOut))
		}
	}
	out := map[string]Learned{}
	for name, o := range outs {
		out[name] = Learned{In: median(ins[name]), Out: median(o), N: len(o)}
	}
	return out
}

// median is the middle value (the mean of the two middle ones).
func median(v []float64) float64 {
	if len(v) == 0 {
		return 1
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// scale multiplies a token count by a learned ratio, rounded.
func scale(n int, f float64) int {
	if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return n
	}
	return int(math.Round(float64(n) * f))
}

// EstimateError is how far the actual figure ran from the estimate,
// relative to the estimate ((act-est)/est: 2 is an actual three times
// the estimate; 0 when nothing was estimated).
func EstimateError(est, act int) float64 {
	if est == 0 {
		return 0
	}
	return float64(act-est) / float64(est)
}

// costAccuracy pairs the plan's estimates (the plan event) with what
// each engine's calls recorded (every call_finished in the log, and the
// final step's call being written).
func costAccuracy(plan []bugfolder.CostAccuracy, evs []Event, extra *Event) []bugfolder.CostAccuracy {
	act := map[string]*bugfolder.CostAccuracy{}
	get := func(name string) *bugfolder.CostAccuracy {
		if act[name] == nil {
			act[name] = &bugfolder.CostAccuracy{Engine: name}
		}
		return act[name]
	}
	for _, p := range plan {
		c := get(p.Engine)
		c.EstTokensIn, c.EstTokensOut, c.EstUSD, c.BaseIn, c.BaseOut, c.EstCalls = p.EstTokensIn, p.EstTokensOut, p.EstUSD, p.BaseIn, p.BaseOut, p.EstCalls
		c.EstCachedIn, c.EstUSDUncached = p.EstCachedIn, p.EstUSDUncached
	}
	add := func(ev Event) {
		if ev.Type != EvCallFinished || ev.Engine == "" || ev.Engine == "human" {
			return
		}
		c := get(ev.Engine)
		if !ev.Retrying {
			c.ActCalls++ // a transport failure retried at once is one call
		}
		c.ActTokensIn += ev.TokensIn
		c.ActTokensOut += ev.TokensOut
		c.ActUSD += ev.CostUSD
		c.ActCachedIn += ev.CacheRead
		if ev.CacheRead > 0 || ev.CacheWrite > 0 {
			c.ActUSDUncached += ev.CostUncachedUSD
		} else {
			c.ActUSDUncached += ev.CostUSD
		}
	}
	for _, ev := range evs {
		add(ev)
	}
	if extra != nil {
		add(*extra)
	}
	out := make([]bugfolder.CostAccuracy, 0, len(act))
	for _, c := range act {
		c.EstTokens, c.ActTokens = c.EstTokensIn+c.EstTokensOut, c.ActTokensIn+c.ActTokensOut
		c.ActUSD = math.Round(c.ActUSD*1e6) / 1e6
		c.EstUSD = math.Round(c.EstUSD*1e6) / 1e6
		c.ActUSDUncached = math.Round(c.ActUSDUncached*1e6) / 1e6
		if c.ActCachedIn == 0 && c.ActUSDUncached == c.ActUSD {
			c.ActUSDUncached = 0 // nothing was cached: the uncached figure says nothing new
		}
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Engine < out[j].Engine })
	return out
}

// planEstimates reads the plan's per-engine estimates from the log.
func planEstimates(evs []Event) []bugfolder.CostAccuracy {
	for _, ev := range evs {
		if ev.Type == EvPlan && len(ev.Estimates) > 0 {
			return ev.Estimates
		}
	}
	return nil
}

// learnedOf rebuilds each engine's answer correction from the plan's
// estimates (estimate over base), for the budget's per-call estimate.
func learnedOf(est []bugfolder.CostAccuracy) map[string]Learned {
	out := map[string]Learned{}
	for _, c := range est {
		if c.BaseOut > 0 && c.BaseIn > 0 {
			out[c.Engine] = Learned{In: float64(c.EstTokensIn) / float64(c.BaseIn), Out: float64(c.EstTokensOut) / float64(c.BaseOut)}
		}
	}
	return out
}
