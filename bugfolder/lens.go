package bugfolder

import (
	"go.yaml.in/yaml/v3"
)

// Lens is a named short text that tells a participant what it defends
// (docs/architecture.md): frozen per participant in problema.md.
type Lens struct {
	Name string
	Text string
}

// LensesNode builds problema.md's lenses: mapping, participant id → {name,
// text}, in the order of ids; nil when no participant has a lens.
func LensesNode(ids []string, lenses map[string]Lens) *yaml.Node {
	var names []string
	fields := map[string][]KV{}
	for _, id := range ids {
		if l, ok := lenses[id]; ok && l.Name != "" {
			names = append(names, id)
			fields[id] = []KV{{Key: "name", Value: l.Name}, {Key: "text", Value: l.Text}}
		}
	}
	if len(names) == 0 {
		return nil
	}
	return NestedMap(names, fields)
}

// lensesField reads problema.md's lenses: mapping (a participant's entry
// may also be a bare name, as a hand-written file has it).
func lensesField(m *yaml.Node) map[string]Lens {
	n := Lookup(m, "lenses")
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]Lens{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		id, v := n.Content[i].Value, n.Content[i+1]
		switch v.Kind {
		case yaml.ScalarNode:
			out[id] = Lens{Name: v.Value}
		case yaml.MappingNode:
			out[id] = Lens{Name: scalar(v, "name"), Text: scalar(v, "text")}
		}
	}
	return out
}
