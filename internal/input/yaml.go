package input

import "go.yaml.in/yaml/v3"

// DuplicateKey finds a key set twice in one mapping of a YAML tree (at
// any depth), with the line of its second occurrence: the YAML library
// keeps the last, so a file that says a thing twice would mean only half
// of what it says (a front matter, an engines file's external: true then
// external: false).
func DuplicateKey(n *yaml.Node) (key string, line int, dup bool) {
	if n == nil {
		return "", 0, false
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && seen[k.Value] {
				return k.Value, k.Line, true
			}
			seen[k.Value] = true
		}
	}
	for _, c := range n.Content {
		if k, l, ok := DuplicateKey(c); ok {
			return k, l, ok
		}
	}
	return "", 0, false
}
