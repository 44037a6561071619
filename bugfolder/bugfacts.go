package bugfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Mitigation is bug.md's mitigation block: harm stopped while the defect
// stays (the fix skill's rule: mitigated is not fixed).
type Mitigation struct {
	Kind, AppliedAt, What string
	// Temporary is the block's temporary: true.
	Temporary bool
}

// Blocker is one blocking item: a condition that holds the bug.
type Blocker struct {
	Kind, Target, Reason, Since string
}

// FixState is what the fix step has left in the bug folder: its plan,
// its change-set diffs, and the DONE.md lock.
type FixState struct {
	// Folder is set when the bug folder has fix/.
	Folder bool
	// Plan is set when fix/plan.html is there (written before any change).
	Plan bool
	// Changes counts the fix/CHG-NNN.diff files (applied change-set items;
	// proposed-*.diff and *.proposed.diff are not counted).
	Changes int
	// Done is the DONE.md lock: the bug is closed.
	Done bool
}

// Applied reports whether the fix step applied a change set.
func (f FixState) Applied() bool { return f.Changes > 0 }

// String says the fix state in a few words: "plan, 3 changes, closed".
func (f FixState) String() string {
	var out []string
	if f.Plan {
		out = append(out, "plan")
	}
	switch {
	case f.Changes == 1:
		out = append(out, "1 change applied")
	case f.Changes > 1:
		out = append(out, fmt.Sprintf("%d changes applied", f.Changes))
	}
	if f.Done {
		out = append(out, "closed (DONE.md)")
	}
	if len(out) == 0 && f.Folder {
		return "fix/ started, no plan or change yet"
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// ReadFixState looks at the bug folder's fix/ and DONE.md.
func (b *Bug) ReadFixState() FixState {
	s := FixState{Done: b.Locked()}
	ents, err := os.ReadDir(filepath.Join(b.Dir, "fix"))
	if err != nil {
		return s
	}
	s.Folder = true
	for _, e := range ents {
		n := strings.ToLower(e.Name())
		switch {
		case e.IsDir():
		case n == "plan.html":
			s.Plan = true
		case strings.HasPrefix(n, "chg-") && strings.HasSuffix(n, ".diff") && !strings.Contains(n, "proposed"):
			s.Changes++
		}
	}
	return s
}

// readBeyondSchema reads the fields real registers write beyond schema
// 1 (express is read with the rest): mitigation, delivery, blocking
// items, list-valued area and module. Values are kept as written.
func (b *Bug) readBeyondSchema(m *yaml.Node) {
	if mn := Lookup(m, "mitigation"); mn != nil && mn.Kind == yaml.MappingNode {
		mt := &Mitigation{Kind: scalar(mn, "kind"), AppliedAt: scalar(mn, "applied_at"), Temporary: boolField(mn, "temporary")}
		for _, k := range []string{"what", "reason", "description", "descricao"} {
			if v := scalar(mn, k); v != "" && mt.What == "" {
				mt.What = v
			}
		}
		b.Mitigation = mt
	} else if mn != nil && mn.Kind == yaml.ScalarNode && mn.Tag != "!!null" && strings.TrimSpace(mn.Value) != "" && !strings.EqualFold(mn.Value, "false") {
		b.Mitigation = &Mitigation{What: mn.Value}
	}
	if dn := Lookup(m, "delivery"); dn != nil && dn.Kind == yaml.MappingNode {
		for _, k := range []string{"branch", "commit", "pr", "ci", "merge", "version"} {
			if v := scalar(dn, k); v != "" {
				b.Delivery = append(b.Delivery, k+" "+v)
			}
		}
	}
	if bn := Lookup(m, "blocking"); bn != nil && bn.Kind == yaml.SequenceNode {
		for _, c := range bn.Content {
			switch c.Kind {
			case yaml.MappingNode:
				b.Blocking = append(b.Blocking, Blocker{Kind: scalar(c, "kind"), Target: scalar(c, "target"), Reason: scalar(c, "reason"), Since: scalar(c, "since")})
			case yaml.ScalarNode:
				if strings.TrimSpace(c.Value) != "" {
					b.Blocking = append(b.Blocking, Blocker{Reason: c.Value})
				}
			}
		}
	}
	b.Areas, b.Modules = stringList(m, "area"), stringList(m, "module")
	if cr := Lookup(m, "change_risk"); cr != nil && cr.Kind == yaml.MappingNode && b.ChangeRisk == "" {
		for _, k := range []string{"classificacao", "classificação", "nivel", "nível", "level"} {
			if v := scalar(cr, k); v != "" && b.ChangeRisk == "" {
				b.ChangeRisk = v
			}
		}
	}
}

// schemaPhases are the phases of bug.md schema 1; the others real
// registers write (fix-applied, fixed) are shown as written.
var schemaPhases = []string{"triaging", "mitigating", "reproducing", "diagnosing", "planning", "testing", "patching", "delivering", "observing", "awaiting-human"}

// Facts says what an engineer needs to know of the bug's record, in
// order, one short phrase each: its status and phase as written, express,
// mitigated (not fixed), blocked, delivery, change risk, area and module,
// a visibility other than normal, and the fix step's state. A value moot
// does not know is shown as written with "(not a schema 1 value)", never
// dropped.
func (b *Bug) Facts() []string { return b.facts(true) }

// NotableFacts are the facts that change what an engineer does with the
// bug, for a one-line preview: Facts without a schema status or phase,
// the change risk, the areas and modules, and the visibility (the
// browser marks a restricted bug already).
func (b *Bug) NotableFacts() []string { return b.facts(false) }

func (b *Bug) facts(all bool) []string {
	var out []string
	if s := strings.TrimSpace(b.Status); s != "" {
		known := slices.Contains([]string{"open", "active", "resolved"}, strings.ToLower(s))
		if !known {
			s += " (not a schema 1 status: moot treats the bug as open)"
		}
		if all || !known {
			out = append(out, "status "+s)
		}
	}
	if p := strings.TrimSpace(b.Phase); p != "" && p != "null" {
		known := slices.Contains(schemaPhases, strings.ToLower(p))
		if !known {
			p += " (not a schema 1 phase)"
		}
		if all || !known {
			out = append(out, "phase "+p)
		}
	}
	if b.Express {
		out = append(out, "express (registered by the short route, handed straight to the fix step)")
	}
	if mt := b.Mitigation; mt != nil {
		var d []string
		for _, s := range []string{mt.Kind, mt.What} {
			if s != "" {
				d = append(d, s)
			}
		}
		if mt.Temporary {
			d = append(d, "temporary")
		}
		if mt.AppliedAt != "" {
			d = append(d, "since "+mt.AppliedAt)
		}
		s := "mitigated, not fixed"
		if len(d) > 0 {
			s += " (" + strings.Join(d, ", ") + ")"
		}
		out = append(out, s)
	}
	for _, bl := range b.Blocking {
		var d []string
		for _, s := range []string{bl.Kind, bl.Target, bl.Reason} {
			if s != "" {
				d = append(d, s)
			}
		}
		s := "blocked: " + strings.Join(d, " — ")
		if bl.Since != "" {
			s += " (since " + bl.Since + ")"
		}
		out = append(out, s)
	}
	if len(b.Delivery) > 0 {
		out = append(out, "delivery: "+strings.Join(b.Delivery, ", "))
	}
	if !all { // a closed bug without fix/ is marked closed in every listing already
		if fs := b.ReadFixState(); !b.IsQuestion && fs.Folder {
			out = append(out, "fix: "+fs.String())
		}
		return out
	}
	if b.ChangeRisk != "" {
		out = append(out, "change risk "+b.ChangeRisk)
	}
	if len(b.Areas) > 1 {
		out = append(out, "areas "+strings.Join(b.Areas, ", "))
	}
	if len(b.Modules) > 1 {
		out = append(out, "modules "+strings.Join(b.Modules, ", "))
	}
	if b.Visibility != VisibilityNormal && b.Visibility != "" {
		v := b.Visibility
		if b.Restricted() {
			v += " (no external engine)"
		}
		out = append(out, "visibility "+v)
	}
	if !b.IsQuestion {
		if fs := b.ReadFixState(); fs.Folder || fs.Done {
			out = append(out, "fix: "+fs.String())
		}
	}
	return out
}
