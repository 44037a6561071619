package bugfolder

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"time"

	"go.yaml.in/yaml/v3"
)

// CostAccuracy is one engine's estimated and actual figures in a final
// answer's cost_accuracy: front matter (a debate's plan against what its
// calls recorded). Base* are the estimate before any learned correction,
// what a later estimator compares the actuals with.
type CostAccuracy struct {
	Engine       string  `yaml:"-" json:"-"`
	EstTokens    int     `yaml:"est_tokens" json:"est_tokens,omitempty"`
	ActTokens    int     `yaml:"act_tokens" json:"act_tokens,omitempty"`
	EstTokensIn  int     `yaml:"est_tokens_in" json:"est_tokens_in,omitempty"`
	EstTokensOut int     `yaml:"est_tokens_out" json:"est_tokens_out,omitempty"`
	ActTokensIn  int     `yaml:"act_tokens_in" json:"act_tokens_in,omitempty"`
	ActTokensOut int     `yaml:"act_tokens_out" json:"act_tokens_out,omitempty"`
	BaseIn       int     `yaml:"base_tokens_in" json:"base_tokens_in,omitempty"`
	BaseOut      int     `yaml:"base_tokens_out" json:"base_tokens_out,omitempty"`
	EstUSD       float64 `yaml:"est_usd" json:"est_usd,omitempty"`
	ActUSD       float64 `yaml:"act_usd" json:"act_usd,omitempty"`
	// EstCalls and ActCalls are the calls the plan counted on the engine
	// and the calls it made (0: not recorded, an older answer).
	EstCalls int `yaml:"est_calls,omitempty" json:"est_calls,omitempty"`
	ActCalls int `yaml:"act_calls,omitempty" json:"act_calls,omitempty"`
	// EstCachedIn and ActCachedIn are the input tokens the plan expected
	// the providers' prompt caches to serve and those they reported
	// serving; EstUSDUncached and ActUSDUncached the same costs with
	// every input token at the full input price (docs/engines.md#prompt-caching).
	EstCachedIn    int     `yaml:"est_tokens_cached_in,omitempty" json:"est_tokens_cached_in,omitempty"`
	ActCachedIn    int     `yaml:"act_tokens_cached_in,omitempty" json:"act_tokens_cached_in,omitempty"`
	EstUSDUncached float64 `yaml:"est_usd_uncached,omitempty" json:"est_usd_uncached,omitempty"`
	ActUSDUncached float64 `yaml:"act_usd_uncached,omitempty" json:"act_usd_uncached,omitempty"`
}

// PartialRun reports whether a debate's figures are not those of the
// debate planned: cut by the budget, degraded, or an engine that made
// other calls than the plan counted (stopped early, a judge retried). Its
// actuals against the whole plan's estimate are no estimate error.
func PartialRun(budgetCut, degraded bool, rows []CostAccuracy) bool {
	if budgetCut || degraded {
		return true
	}
	for _, c := range rows {
		if c.EstCalls > 0 && c.ActCalls != c.EstCalls {
			return true
		}
	}
	return false
}

// CostAccuracyNode renders cost_accuracy: one mapping per engine, in
// name order (nil when there is none).
func CostAccuracyNode(rows []CostAccuracy) *yaml.Node {
	if len(rows) == 0 {
		return nil
	}
	sorted := append([]CostAccuracy(nil), rows...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Engine < sorted[j].Engine })
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, r := range sorted {
		v := &yaml.Node{}
		if err := v.Encode(r); err != nil {
			continue
		}
		v.Style = yaml.FlowStyle
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: r.Engine}, v)
	}
	return n
}

// parseCostAccuracy reads cost_accuracy: from a final answer's front
// matter; a malformed entry is skipped, never fatal.
func parseCostAccuracy(m *yaml.Node) []CostAccuracy {
	n := Lookup(m, "cost_accuracy")
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []CostAccuracy
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" || v.Kind != yaml.MappingNode {
			continue
		}
		var c CostAccuracy
		if err := v.Decode(&c); err != nil {
			continue
		}
		c.Engine = k.Value
		out = append(out, c)
	}
	return out
}

// CostRecord is one finished debate's cost_accuracy, for an estimator
// learning from past debates.
type CostRecord struct {
	Finished time.Time
	Engines  []CostAccuracy
	// Partial marks a debate that did not run as planned (PartialRun):
	// an estimator does not learn from it.
	Partial bool
}

// PastCostRecords reads the cost_accuracy of every final answer in the
// register (each bug's current and archived debates), oldest first.
// Unreadable files are skipped: history only refines an estimate.
func PastCostRecords(reg *Register) []CostRecord {
	if reg == nil {
		return nil
	}
	dirs, _ := BugDirs(reg)
	var out []CostRecord
	for _, bd := range dirs {
		ents, err := os.ReadDir(bd.Dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() || (e.Name() != DebateDir && !archivedName.MatchString(e.Name())) {
				continue
			}
			if rec, ok := readCostRecord(filepath.Join(bd.Dir, e.Name())); ok {
				out = append(out, rec)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Finished.Before(out[j].Finished) })
	return out
}

// readCostRecord reads one debate folder's final answer's cost_accuracy
// from its front matter alone (a final answer without one costs a short
// read and no YAML).
func readCostRecord(dir string) (CostRecord, bool) {
	for _, l := range []Lang{PT, EN} {
		fm, err := readFrontMatter(filepath.Join(dir, l.Names().Final))
		if err != nil {
			continue
		}
		if !bytes.Contains(fm, []byte("cost_accuracy:")) {
			return CostRecord{}, false
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(bytes.Trim(bytes.TrimSpace(fm), "-.\n"), &doc); err != nil || len(doc.Content) == 0 {
			return CostRecord{}, false
		}
		m := doc.Content[0]
		rows := parseCostAccuracy(m)
		if len(rows) == 0 {
			return CostRecord{}, false
		}
		partial := PartialRun(scalar(m, "budget_cut") == "true", scalar(m, "degraded") == "true", rows)
		return CostRecord{Finished: timeField(m, "finished_at"), Engines: rows, Partial: partial}, true
	}
	return CostRecord{}, false
}
