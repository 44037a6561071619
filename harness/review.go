package harness

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// ReviewConfig is the engines file's review: mapping: the ladder of
// engines each review lens seats its juror from (docs/protocols/review.md).
//
//	review:
//	  ladders:
//	    security: [claude-big, gpt-big, local]
//	    default: [gpt-big, claude-big, local]
//
// A lens without its own ladder uses default:; without default: every
// usable engine, strongest first (the review protocol's order).
type ReviewConfig struct {
	// Ladders maps a lens name (or "default") to its engine names, in
	// the order they are tried.
	Ladders map[string][]string
}

// Ladder returns the ladder configured for a lens (its own, else
// default:), or nil when the file sets neither.
func (r ReviewConfig) Ladder(lens string) []string {
	if l, ok := r.Ladders[lens]; ok {
		return l
	}
	return r.Ladders["default"]
}

// parseReview reads review: {ladders: {LENS: [ENGINE, …]}}; every engine
// named must be defined under engines:.
func parseReview(path string, n *yaml.Node, c *Config) (ReviewConfig, error) {
	var r ReviewConfig
	if n == nil {
		return r, nil
	}
	if n.Kind != yaml.MappingNode {
		return r, cfgErr(path, n, "review", "must be a mapping (review: {ladders: {security: [ENGINE, …], default: [ENGINE, …]}})")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "ladders" {
			return r, cfgErr(path, k, "review."+k.Value, "unknown key; review has ladders:")
		}
		if v.Kind != yaml.MappingNode {
			return r, cfgErr(path, v, "review.ladders", "must map a lens name (or default) to a list of engine names")
		}
		r.Ladders = map[string][]string{}
		for j := 0; j+1 < len(v.Content); j += 2 {
			lk, lv := v.Content[j], v.Content[j+1]
			field := "review.ladders." + lk.Value
			if lv.Kind != yaml.SequenceNode || len(lv.Content) == 0 {
				return r, cfgErr(path, lv, field, "must be a non-empty list of engine names ([gpt-big, local])")
			}
			var names []string
			for _, en := range lv.Content {
				if en.Kind != yaml.ScalarNode {
					return r, cfgErr(path, en, field, "must list engine names")
				}
				if _, ok := c.Engines[en.Value]; !ok {
					return r, cfgErr(path, en, field, "names %q, which is not defined under engines: (known: %s)", en.Value, strings.Join(c.Order, ", "))
				}
				names = append(names, en.Value)
			}
			r.Ladders[lk.Value] = names
		}
	}
	return r, nil
}
