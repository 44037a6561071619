package bugfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/internal/input"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// Bug is one registered bug: its folder and its parsed bug.md.
type Bug struct {
	// Register is the register the bug belongs to.
	Register *Register
	// Dir is the bug folder's absolute path.
	Dir string
	// IsQuestion marks a question's stand-in (QuestionBug): Dir is then
	// the question's folder under .moot/debates/, which is its debate.
	IsQuestion bool
	// Context is the register context the bug lives in ("" for a flat register).
	Context string

	ID            string
	DisplayNumber int
	Title         string
	Status        string
	Phase         string
	Severity      string
	Priority      string
	// Visibility is normal, internal, public or restricted (anything else in the
	// front matter is read as restricted, with a warning).
	Visibility        string
	SecuritySuspected bool
	Labels            []string
	// Specs are the traceability.specs locators ("path#anchor").
	Specs []string
	// SpecsUnread says why traceability could not be read for locators
	// (it is not a mapping), or "".
	SpecsUnread string
	// ChangeRisk is change_risk.classification, when present.
	ChangeRisk string

	// Meta is the whole front matter; unknown fields are kept here.
	Meta *yaml.Node
	// Body is bug.md's Markdown body.
	Body string
	// Done is whether DONE.md was there when the bug was read (Locked
	// checks again, for writes).
	Done bool
	// Express is the schema's express: true (a bug registered by the short
	// path); it changes nothing for a debate.
	Express bool
	// Mitigation is the mitigation block (nil when none): mitigated is not
	// fixed. Delivery lists the delivery block's fields ("branch x").
	Mitigation *Mitigation
	Delivery   []string
	// Blocking are the blocking items, as written.
	Blocking []Blocker
	// Areas and Modules are area and module, a list when written as one.
	Areas, Modules []string
	// Incomplete is set for a bug folder without bug.md yet: it is listed,
	// with a warning, and nothing can be debated there.
	Incomplete bool
	// Warnings name loose or suspicious fields that were read anyway
	// (file, field, what was expected); they never hide the bug.
	Warnings []error
	// Partial is set for a bug read for a listing: only its identity,
	// title and visibility are filled. Full reads the rest.
	Partial bool
}

// Full returns the bug with every field read (itself when it already is).
func (b *Bug) Full() (*Bug, error) {
	if !b.Partial || b.IsQuestion { // a question has no bug.md to read
		return b, nil
	}
	return ParseBug(b.Register, b.Dir, b.Context)
}

// Sections parses the body's level-2 sections (Summary … Agent Notes).
func (b *Bug) Sections() []Section {
	_, secs := ParseSections(b.Body)
	return secs
}

// BugFile is the name of a bug's canonical record.
const BugFile = "bug.md"

// DoneFile is the name of the lock that closes a bug.
const DoneFile = "DONE.md"

// Restricted reports whether the bug's visibility forbids external
// engines. It is the one predicate every front end and the engine ask; it
// fails closed: only normal and internal allow external engines.
func (b *Bug) Restricted() bool { return restrictedVisibility(b.Visibility) }

// Locked reports whether the bug is closed by DONE.md (read-only).
func (b *Bug) Locked() bool { return isFile(filepath.Join(b.Dir, DoneFile)) }

// Path returns the path of bug.md.
func (b *Bug) Path() string { return filepath.Join(b.Dir, BugFile) }

// Section returns the body section with the given heading (any case and
// accents), or "".
func (b *Bug) Section(heading string) string {
	want := normalizeHeading(heading)
	for _, s := range b.Sections() {
		if normalizeHeading(s.Heading) == want {
			return s.Text()
		}
	}
	return ""
}

// AgentNotes returns the "Agent Notes" section (constraints for whoever fixes).
func (b *Bug) AgentNotes() string { return b.Section("Agent Notes") }

var (
	idInName = lazyre.New(`^(BUG-\d{8}-[A-Za-z0-9]{4})(?:-|$)`)
	safeID   = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// MaxBugBytes is the largest bug.md moot reads (a bug record is a few
// KiB; logs belong under evidence/).
const MaxBugBytes = 4 << 20

// notBugs are context sub-folders that never hold bugs.
var notBugs = map[string]bool{"inspections": true, "generated": true, "intake": true}

// ParseBug reads the bug folder dir of register reg. A folder without
// bug.md yet is an incomplete bug (listed, with a warning; nothing can be
// debated there). Loose front matter is read as it is, with a warning
// naming the file, the field and what was expected; only what moot
// cannot read safely is an error.
func ParseBug(reg *Register, dir, context string) (*Bug, error) {
	path := filepath.Join(dir, BugFile)
	raw, err := safefs.ReadFile(path, MaxBugBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return incompleteBug(reg, dir, context, path, err), nil
		}
		if errors.Is(err, safefs.ErrTooLarge) {
			return nil, &InputError{Path: path, Msg: fmt.Sprintf("is larger than %d MiB; a bug record that large is not a bug record: keep logs under evidence/", MaxBugBytes>>20), Err: err}
		}
		if oe := outsideError(path, err); oe != err {
			return nil, oe
		}
		return nil, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read (%v); check its permissions", errors.Unwrap(err)), Err: err}
	}
	doc, err := ParseDocument(raw)
	if err != nil {
		return nil, &InputError{Path: path, Msg: err.Error() + "; fix the front matter between the --- lines", Err: err}
	}
	if key, line, dup := input.DuplicateKey(doc.Meta); dup {
		return nil, &InputError{Path: path, Field: key, Msg: fmt.Sprintf("is set twice (again on line %d); keep one %s: line in the front matter", line+doc.MetaLine-1, key)}
	}
	b := &Bug{Register: reg, Dir: dir, Context: context, Meta: doc.Meta, Body: doc.Body}
	m := doc.Meta
	warn := func(field, format string, args ...any) {
		b.Warnings = append(b.Warnings, inputErr(path, field, format, args...))
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		warn("", "is empty: no front matter and no text; the debate would have nothing but the folder's name to go on (register the bug with /reversa-debugger)")
	}
	b.ID = strings.TrimSpace(scalar(m, "id"))
	if idn := Lookup(m, "id"); b.ID == "" {
		b.ID = idFromFolder(dir)
		warn("id", "is %s; moot uses %s, from the folder's name (expected BUG-<YYYYMMDD>-<4 chars>)", describeNodeOrMissing(idn), b.ID)
	} else if !canonicalID.MatchString(b.ID) && idInName.FindStringSubmatch(b.ID) == nil {
		warn("id", "%q is not in the canonical form BUG-<YYYYMMDD>-<4 chars>; moot uses it as written", b.ID)
	} else if mm := idInName.FindStringSubmatch(b.ID); mm != nil && mm[1] != b.ID {
		warn("id", "%q carries the slug; the canonical ID is %s (BUG-<YYYYMMDD>-<4 chars>): moot uses that", b.ID, mm[1])
		b.ID = mm[1]
	}
	if !safeID.MatchString(b.ID) {
		return nil, inputErr(path, "id", "%q is not a bug ID (expected BUG-<YYYYMMDD>-<4 chars>, letters, digits, '.', '_' and '-' only)", b.ID)
	}
	if dn := Lookup(m, "display_number"); dn != nil && dn.Tag != "!!null" {
		if n, ok := displayNumber(dn.Value); ok && dn.Kind == yaml.ScalarNode && n > 0 {
			b.DisplayNumber = n
			if _, err := strconv.Atoi(strings.TrimSpace(dn.Value)); err != nil {
				warn("display_number", "%q is read as %d (expected a whole number such as %d)", dn.Value, n, n)
			}
		} else {
			warn("display_number", "%s is not a display number (expected a whole number such as 8, \"#8\" or BUG-008); the bug is listed without one", describeNode(dn))
		}
	}
	b.Title = scalar(m, "title")
	if tn := Lookup(m, "title"); tn != nil && tn.Kind != yaml.ScalarNode {
		warn("title", "is %s, not text; the bug is titled by its first heading instead", describeNode(tn))
	}
	b.Status = scalar(m, "status")
	if sn := Lookup(m, "status"); sn != nil && sn.Tag != "!!null" && !knownStatus(b.Status, sn) {
		warn("status", "is %s (expected open, active or resolved); moot treats the bug as open", describeNode(sn))
	}
	if cn := Lookup(m, "created_at"); cn != nil && cn.Tag != "!!null" && (cn.Kind != yaml.ScalarNode || parseTime(cn.Value).IsZero()) {
		warn("created_at", "%s is not a date and time (expected e.g. 2026-08-01T10:00:00Z); it is ignored", describeNode(cn))
	}
	b.Phase = scalar(m, "phase")
	b.Severity = scalar(m, "severity")
	b.Priority = scalar(m, "priority")
	var why string
	b.Visibility, why = visibilityOf(m)
	if why != "" {
		warn("visibility", "%s; the bug is treated as restricted (no external engine) until the field reads normal, internal, public or restricted", why)
	}
	b.SecuritySuspected = boolField(m, "security_suspected")
	b.Express = boolField(m, "express")
	b.Labels = stringList(m, "labels")
	if tr := Lookup(m, "traceability"); tr != nil && tr.Kind == yaml.MappingNode {
		b.Specs = specLocators(tr)
		if Lookup(tr, "specs") == nil {
			for _, k := range []string{"spec_ref", "spec_refs"} {
				if refs := stringList(tr, k); len(refs) > 0 {
					b.Specs = refs
					warn("traceability."+k, "is read as traceability.specs, the list schema 1 names (write specs: [%s])", strings.Join(refs, ", "))
					break
				}
			}
		}
	} else if tr != nil && tr.Tag != "!!null" {
		b.SpecsUnread = fmt.Sprintf("traceability is %s, not a mapping with specs:", describeNode(tr))
		warn("traceability", "is %s (expected a mapping such as specs: [path#anchor]); no spec locator was read", describeNode(tr))
	}
	if cr := Lookup(m, "change_risk"); cr != nil {
		if cr.Kind == yaml.ScalarNode {
			b.ChangeRisk = cr.Value
		} else {
			b.ChangeRisk = scalar(cr, "classification")
		}
	}
	b.readBeyondSchema(m)
	if b.Title == "" {
		for _, h := range Headings(doc.Body) {
			if h.Level == 1 {
				b.Title = h.Text
				break
			}
		}
	}
	b.Done = b.Locked()
	if !b.Restricted() {
		if file, holder := linkedRestricted(b); holder != "" {
			warn("visibility", "is %s, but %s brings in a file of %s, which is restricted; the bug is treated as restricted (no external engine) until that file is no longer part of its P", b.Visibility, reg.Rel(file), reg.Rel(holder))
			b.Visibility = VisibilityRestricted
		}
	}
	if strings.EqualFold(strings.TrimSpace(b.Status), "resolved") && !b.Done {
		warn("status", "is resolved but the bug folder has no %s; the fix step closes a bug by writing %s (until then moot treats the bug as open)", DoneFile, DoneFile)
	}
	return b, nil
}

// incompleteBug is a bug folder without bug.md yet: listed, with a warning.
func incompleteBug(reg *Register, dir, context, path string, err error) *Bug {
	b := &Bug{Register: reg, Dir: dir, Context: context, ID: idFromFolder(dir), Visibility: VisibilityRestricted, Incomplete: true}
	b.Warnings = []error{&InputError{Path: path, Msg: "missing: the bug folder is incomplete (register the bug with /reversa-debugger, which writes bug.md); it is listed, but nothing can be debated there yet", Err: err}}
	b.Done = b.Locked()
	return b
}

// idFromFolder is a bug's ID taken from its folder's name.
func idFromFolder(dir string) string {
	if mm := idInName.FindStringSubmatch(filepath.Base(dir)); mm != nil {
		return mm[1]
	}
	return filepath.Base(dir)
}

// describeNode names a YAML value for a message: the scalar quoted, or
// what kind of value it is — never "<nil>".
func describeNode(n *yaml.Node) string {
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.AliasNode:
		return "an alias (*" + n.Value + ")"
	}
	return "a value that is not text"
}

// DuplicateKey finds a key set twice in a front matter (at any depth),
// with the line of its second occurrence within the front matter, for the
// other files moot reads with one (lenses, personas).
func DuplicateKey(meta *yaml.Node) (key string, line int, dup bool) { return input.DuplicateKey(meta) }

// Discover lists every bug folder of the register, sorted by context and
// folder name. Folders that cannot be read are returned as errors beside the
// bugs that could, so one broken bug never hides the others.
func Discover(reg *Register) ([]*Bug, []error) {
	dirs, errs := BugDirs(reg)
	bugs := make([]*Bug, 0, len(dirs))
	for _, d := range dirs {
		b, err := ParseBug(reg, d.Dir, d.Context)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bugs = append(bugs, b)
	}
	return bugs, errs
}

// contextOf names the context of a bug folder from its place in the register.
func contextOf(reg *Register, dir string) string {
	rel, err := filepath.Rel(reg.Root, dir)
	if err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) == 3 && parts[1] == "bugs" {
		return parts[0]
	}
	return ""
}

// Resolve finds the bug named by arg: a path to a bug folder (or its bug.md,
// or its debate folder), a bug ID (or a bug folder's name), or a display
// number ("7", "#7", "BUG-007"). cwd is where relative paths start and
// where the register is looked for when arg is not a path.
func Resolve(cwd, arg string) (*Register, *Bug, error) {
	if arg == "" {
		return nil, nil, &InputError{Msg: "no bug given: pass a bug folder, an ID or a display number (moot list shows them)"}
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	if fi, err := os.Stat(p); err == nil && (looksLikePath(arg) || fi.IsDir()) {
		dir := p
		if !fi.IsDir() {
			dir = filepath.Dir(p)
		}
		if base := filepath.Base(dir); (base == "debate" || strings.HasPrefix(base, "debate-")) && !isFile(filepath.Join(dir, BugFile)) {
			dir = filepath.Dir(dir)
		}
		dir, _ = filepath.Abs(dir)
		reg, err := FindRoot(dir)
		if err != nil {
			return nil, nil, &InputError{Path: dir, Msg: "is not inside a " + RootName + "/ register", Err: err}
		}
		if !Within(reg.Root, dir) || dir == reg.Root {
			return nil, nil, &InputError{Path: arg, Msg: "is not a bug folder inside " + reg.Root}
		}
		b, err := ParseBug(reg, dir, contextOf(reg, dir))
		return reg, b, err
	}
	reg, err := FindRoot(cwd)
	if err != nil {
		return nil, nil, &InputError{Msg: err.Error(), Err: err}
	}
	bugs, errs := Discover(reg)
	var hits []*Bug
	for _, b := range bugs {
		name := filepath.Base(b.Dir)
		if strings.EqualFold(b.ID, arg) || strings.EqualFold(name, arg) || strings.HasPrefix(strings.ToUpper(name), strings.ToUpper(arg)+"-") {
			hits = append(hits, b)
		}
	}
	if len(hits) == 0 {
		if n, ok := displayNumber(arg); ok {
			for _, b := range bugs {
				if b.DisplayNumber == n {
					hits = append(hits, b)
				}
			}
		}
	}
	switch len(hits) {
	case 1:
		return reg, hits[0], nil
	case 0:
		msg := fmt.Sprintf("no bug %q under %s (moot list shows the bugs)", arg, reg.Root)
		if len(errs) > 0 {
			msg += fmt.Sprintf("; %d bug folder(s) could not be read, the first: %v", len(errs), errs[0])
		}
		return reg, nil, &InputError{Msg: msg}
	}
	var where []string
	for _, b := range hits {
		where = append(where, reg.Rel(b.Dir))
	}
	return reg, nil, &InputError{Msg: fmt.Sprintf("%q matches %d bugs (%s); pass the bug ID or its folder", arg, len(hits), strings.Join(where, ", "))}
}

func looksLikePath(s string) bool {
	return strings.ContainsRune(s, filepath.Separator) || strings.ContainsRune(s, '/') || s == "." || s == ".."
}

var displayRE = lazyre.New(`^(?i:#|bug-)?0*(\d+)$`)

func displayNumber(s string) (int, bool) {
	m := displayRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// specLocators reads traceability.specs: scalars as written, and mapping
// entries ({path: …, section: …}) as "path#section", so no locator is
// dropped unread.
func specLocators(tr *yaml.Node) []string {
	n := Lookup(tr, "specs")
	if n == nil || n.Kind != yaml.SequenceNode {
		return stringList(tr, "specs")
	}
	var out []string
	for _, c := range n.Content {
		switch c.Kind {
		case yaml.ScalarNode:
			if strings.TrimSpace(c.Value) != "" {
				out = append(out, c.Value)
			}
		case yaml.MappingNode:
			path := scalar(c, "path")
			if path == "" {
				path = scalar(c, "file")
			}
			anchor := ""
			for _, k := range []string{"section", "anchor", "heading", "id", "secao", "seção"} {
				if v := strings.TrimSpace(scalar(c, k)); v != "" && anchor == "" {
					anchor = v
				}
			}
			if path != "" && anchor != "" && !strings.Contains(path, "#") {
				path += "#" + anchor
			}
			if path != "" {
				out = append(out, path)
			}
		}
	}
	return out
}

var canonicalID = lazyre.New(`^BUG-\d{8}-[A-Za-z0-9]{4}$`)

// knownStatus reports whether a status is one of the schema's (any case).
func knownStatus(s string, n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "open", "active", "resolved", "":
		return true
	}
	return false
}

// describeNodeOrMissing is describeNode, or "missing" for no node.
func describeNodeOrMissing(n *yaml.Node) string {
	if n == nil {
		return "missing"
	}
	return describeNode(n)
}
