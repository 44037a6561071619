package persona

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/lens"
)

// Dir is the project's persona folder, under the project root.
const Dir = ".moot/personas"

// fields are the front matter's fields a persona file may hold.
var fields = []string{"name", "domain", "precision", "resilience", "fragility"}

// MaxFileBytes bounds a persona file.
const MaxFileBytes = 16 << 10

// ParseFile reads a persona file: NAME.md with a front matter naming
// name (the file's stem), domain, precision, resilience and fragility
// (each 0.0–1.0), and the lens text as its body. A bad field is an input
// error naming the file and the field.
func ParseFile(path string, raw []byte) (Persona, error) {
	stem := strings.TrimSuffix(filepath.Base(path), ".md")
	bad := func(field, msg string) (Persona, error) {
		return Persona{}, &bugfolder.InputError{Path: path, Field: field, Msg: msg}
	}
	if !lens.ValidName(stem) {
		return bad("name", "a persona file is named after its persona: lower-case words joined by hyphens (cfo.md), at most 40 characters")
	}
	doc, err := bugfolder.ParseDocument(raw)
	if err != nil {
		return Persona{}, &bugfolder.InputError{Path: path, Msg: err.Error(), Err: err}
	}
	p := Persona{Name: stem}
	if key, line, dup := bugfolder.DuplicateKey(doc.Meta); dup {
		return bad(key, fmt.Sprintf("is set twice (again on line %d); keep one %s: line", line+doc.MetaLine-1, key))
	}
	for _, k := range bugfolder.Keys(doc.Meta) {
		if !slices.Contains(fields, k) {
			return bad(k, fmt.Sprintf("is not a persona field: a persona's front matter holds only %s (remove it, or fix its spelling)", strings.Join(fields, ", ")))
		}
	}
	if n := bugfolder.Lookup(doc.Meta, "name"); n != nil && strings.TrimSpace(n.Value) != stem {
		return bad("name", fmt.Sprintf("is %q but the file is %s.md: a persona is named by its file; rename one of them", n.Value, stem))
	}
	if d := bugfolder.Lookup(doc.Meta, "domain"); d != nil {
		p.Domain = oneLine(d.Value)
	}
	if p.Domain == "" || len(p.Domain) > 200 {
		return bad("domain", "give the persona's domain in one line of at most 200 bytes (domain: aerospace engineering)")
	}
	for _, w := range []struct {
		field string
		dst   *float64
	}{{"precision", &p.Precision}, {"resilience", &p.Resilience}, {"fragility", &p.Fragility}} {
		n := bugfolder.Lookup(doc.Meta, w.field)
		if n == nil {
			return bad(w.field, "is missing: give a weight from 0.0 to 1.0")
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return bad(w.field, fmt.Sprintf("is %q: give a weight from 0.0 to 1.0", n.Value))
		}
		*w.dst = v
	}
	p.Text = strings.TrimSpace(doc.Body)
	switch {
	case p.Text == "":
		return bad("body", "is empty: the body is the persona's lens, what it defends")
	case len(p.Text) > lens.MaxBytes:
		return bad("body", fmt.Sprintf("is %d bytes; a persona's text is at most %d", len(p.Text), lens.MaxBytes))
	case !utf8.ValidString(p.Text) || strings.ContainsRune(p.Text, 0):
		return bad("body", "is not UTF-8 text")
	}
	return p, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Catalog is the personas a project can use: the library and the
// project's .moot/personas/*.md (a project file overrides a library
// persona of the same name).
type Catalog struct {
	byName map[string]Persona
	// bad are the project's persona files that could not be read, by
	// name: using one is refused with its error, the others stay usable.
	bad map[string]error
}

// Load builds a project's catalog (project "" reads no folder).
func Load(project string) (*Catalog, error) {
	c := &Catalog{byName: map[string]Persona{}, bad: map[string]error{}}
	for _, p := range Library {
		c.byName[p.Name] = p
	}
	if project == "" {
		return c, nil
	}
	files, err := bugfolder.ReadProjectFiles(project, Dir, "persona", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		p, err := ParseFile(f.Path, f.Raw)
		if err != nil {
			name := strings.TrimSuffix(filepath.Base(f.Path), ".md")
			c.bad[name] = err
			delete(c.byName, name) // a broken project file never falls back to the library's
			continue
		}
		c.byName[p.Name] = p
	}
	return c, nil
}

// Problems are the project's persona files that could not be read, in
// name order: each is left out of the catalog (and of the automatic
// choice), and asking for it by name is refused with its error.
func (c *Catalog) Problems() []error {
	var out []error
	for _, name := range slices.Sorted(maps.Keys(c.bad)) {
		out = append(out, c.bad[name])
	}
	return out
}

// Project lists the project's own personas (.moot/personas/), by name.
func (c *Catalog) Project() []Persona {
	var out []Persona
	for _, p := range c.byName {
		if p.keywords == nil {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Persona) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Get returns the persona of that name, or an input error listing the
// names there are.
func (c *Catalog) Get(name string) (Persona, error) {
	name = strings.TrimSpace(name)
	if p, ok := c.byName[name]; ok {
		return p, nil
	}
	if err, ok := c.bad[name]; ok {
		return Persona{}, err
	}
	return Persona{}, &bugfolder.InputError{Field: "--persona", Msg: fmt.Sprintf("%q is no persona: give one of the library (%s) or a project file %s/%s.md", name, strings.Join(Names(), ", "), Dir, name)}
}
