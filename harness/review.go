package harness

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ReviewConfig is the engines file's review: mapping: the ladder of
// engines each review lens seats its juror from (docs/protocols/review.md).
//
//	review:
//	  builder: openai        # who builds this project's changes by default
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
	// Builder is the project's default builder (builder:): an engine of
	// the file, a model's name or a family; a review without --builder
	// and whose commits name none excludes it. "" when not set.
	Builder string
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
func parseReview(path string, n *yaml.Node, c *Config) (r ReviewConfig, err error) {
	if n == nil {
		return r, nil
	}
	if n.Kind != yaml.MappingNode {
		return r, cfgErr(path, n, "review", "must be a mapping (review: {ladders: {security: [ENGINE, …], default: [ENGINE, …]}})")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "builder" {
			if r.Builder, err = parseBuilder(path, v, c); err != nil {
				return r, err
			}
			continue
		}
		if k.Value != "ladders" {
			return r, cfgErr(path, k, "review."+k.Value, "unknown key; review has builder: and ladders:")
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

// parseBuilder reads review.builder: one engine of the file, a model's
// name of a known family, or a family (a known one, or one an engine of
// the file declares). "unknown" is refused: only the user, on the command
// line, may weaken the gate (--builder unknown).
func parseBuilder(path string, v *yaml.Node, c *Config) (string, error) {
	name := strings.TrimSpace(v.Value)
	known := KnownFamilies()
	for _, e := range c.Engines {
		if f := strings.ToLower(e.Family()); f != "" && !slices.Contains(known, f) {
			known = append(known, f)
		}
	}
	slices.Sort(known)
	switch {
	case v.Kind != yaml.ScalarNode || name == "":
		return "", cfgErr(path, v, "review.builder", "must be one engine name, model name or family (builder: openai)")
	case strings.EqualFold(name, FamilyUnknown):
		return "", cfgErr(path, v, "review.builder", "cannot be unknown: a project default never weakens the gate; leave builder: out, and say --builder unknown on the command line when no one knows who built a change")
	case c.Engines[name] != nil, ModelFamily(name) != "", slices.Contains(known, strings.ToLower(name)):
		return name, nil
	}
	return "", cfgErr(path, v, "review.builder", "%q is no engine of this file, no model name of a known family and no known family (engines: %s; families: %s): check the spelling", name, strings.Join(c.Order, ", "), strings.Join(known, ", "))
}
