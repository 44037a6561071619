package lens

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/termsafe"
)

// Dir is the project's lens folder, under the project root.
const Dir = ".moot/lenses"

// MaxFileBytes bounds a lens file (its front matter and text).
const MaxFileBytes = 16 << 10

// Entry is a lens given by the engines file (lenses: {name: text}).
type Entry struct {
	Name, Text string
	// Where names it in messages ("moot.yaml:12").
	Where string
}

// Catalog is the lenses a project can use: the library, the engines file's
// and the project's .moot/lenses/*.md, the later overriding the earlier.
type Catalog struct {
	lenses map[string]Lens
	// from says where each lens was read ("library", a file).
	from map[string]string
	// bad are the project's lens files that could not be read, by name:
	// naming one is refused with its error, the other lenses stay usable.
	bad map[string]error
}

// Load builds the catalog of a project (project "" reads no lens folder).
// A bad entry of the engines file is an input error naming it and its
// field; a bad lens file is left out (Problems lists it, and Resolve
// refuses its name with its error), so it blocks only what names it.
func Load(project string, config []Entry) (*Catalog, error) {
	c := &Catalog{lenses: map[string]Lens{}, from: map[string]string{}, bad: map[string]error{}}
	for _, l := range Library {
		c.lenses[l.Name], c.from[l.Name] = Lens{Name: l.Name, Text: l.Text + holdFast}, "library"
	}
	for _, e := range config {
		if !ValidName(e.Name) {
			return nil, &bugfolder.InputError{Path: e.Where, Field: "lenses." + e.Name, Msg: "a lens name is lower-case words joined by hyphens (data-integrity), at most 40 characters"}
		}
		if err := checkText(e.Text); err != nil {
			return nil, &bugfolder.InputError{Path: e.Where, Field: "lenses." + e.Name, Msg: err.Error()}
		}
		c.lenses[e.Name], c.from[e.Name] = Lens{Name: e.Name, Text: strings.TrimSpace(e.Text)}, e.Where
	}
	if project == "" {
		return c, nil
	}
	// Every *.md of the project's lens folder, beneath the project and
	// never through a symlink; a missing folder is no lens.
	files, err := bugfolder.ReadProjectFiles(project, Dir, "lens", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		l, err := ParseFile(f.Path, f.Raw)
		if err != nil {
			name := strings.ToLower(strings.TrimSuffix(filepath.Base(f.Path), ".md"))
			c.bad[name] = err
			delete(c.lenses, name) // a broken project file never falls back to the library's
			continue
		}
		c.lenses[l.Name], c.from[l.Name] = l, f.Path
	}
	return c, nil
}

// Problems are the project's lens files that could not be read, in name
// order: each is left out of the catalog, and naming it is refused with
// its error.
func (c *Catalog) Problems() []error {
	var out []error
	for _, name := range slices.Sorted(maps.Keys(c.bad)) {
		out = append(out, c.bad[name])
	}
	return out
}

// ParseFile reads a lens file: NAME.md, an optional front matter (name:,
// which must be the file's stem, and nothing else: an unknown field is a
// typo or a setting moot does not have, refused rather than ignored) and
// the lens's text as its body.
func ParseFile(path string, raw []byte) (Lens, error) {
	stem := strings.TrimSuffix(filepath.Base(path), ".md")
	if !ValidName(stem) {
		return Lens{}, &bugfolder.InputError{Path: path, Field: "name", Msg: "a lens file is named after its lens: lower-case words joined by hyphens (data-integrity.md), at most 40 characters"}
	}
	doc, err := bugfolder.ParseDocument(raw)
	if err != nil {
		return Lens{}, &bugfolder.InputError{Path: path, Msg: err.Error(), Err: err}
	}
	if doc.Meta != nil {
		for i := 0; i+1 < len(doc.Meta.Content); i += 2 {
			if k := doc.Meta.Content[i]; k.Value != "name" {
				return Lens{}, &bugfolder.InputError{Path: path, Field: termsafe.Line(k.Value),
					Msg: fmt.Sprintf("line %d: a lens file's front matter has only name: (the lens's text is the body); remove this field", doc.MetaLine+k.Line-doc.Meta.Content[0].Line)}
			}
		}
	}
	if n := bugfolder.Lookup(doc.Meta, "name"); n != nil && strings.TrimSpace(n.Value) != stem {
		return Lens{}, &bugfolder.InputError{Path: path, Field: "name", Msg: fmt.Sprintf("is %q but the file is %s.md: a lens is named by its file; rename one of them", n.Value, stem)}
	}
	text := strings.TrimSpace(doc.Body)
	if err := checkText(text); err != nil {
		return Lens{}, &bugfolder.InputError{Path: path, Field: "body", Msg: err.Error()}
	}
	return Lens{Name: stem, Text: text}, nil
}

// Names are the catalog's lens names: the library's in order, then the
// project's own, sorted.
func (c *Catalog) Names() []string {
	out := Names()
	var own []string
	for n := range c.lenses {
		if !slices.Contains(out, n) {
			own = append(own, n)
		}
	}
	sort.Strings(own)
	return append(out, own...)
}

// From says where the named lens was read ("library", a file).
func (c *Catalog) From(name string) string { return c.from[name] }

// quoteMax is how much of a --lens argument an error quotes.
const quoteMax = 60

// Quote quotes a --lens argument for an error: whole when short, else its
// start and its size, so a long inline lens is not echoed back in full.
func Quote(arg string) string {
	if len(arg) <= quoteMax {
		return fmt.Sprintf("%q", arg)
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(arg[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", arg[:cut], len(arg))
}

// Resolve reads one --lens argument: a lens name of the catalog, or
// "name: text" (a lens given inline).
func (c *Catalog) Resolve(arg string) (Lens, error) {
	name, text, inline := strings.Cut(arg, ":")
	name = strings.TrimSpace(name)
	if inline {
		if !ValidName(name) {
			return Lens{}, fmt.Errorf("--lens %s: the name before the colon is lower-case words joined by hyphens (cfo: unit economics…)", Quote(arg))
		}
		text = strings.TrimSpace(text)
		if err := checkText(text); err != nil {
			return Lens{}, fmt.Errorf("--lens %s: the text %v", Quote(arg), err)
		}
		return Lens{Name: name, Text: text}, nil
	}
	if l, ok := c.lenses[strings.ToLower(name)]; ok {
		return l, nil
	}
	if err, ok := c.bad[strings.ToLower(name)]; ok {
		return Lens{}, fmt.Errorf("--lens %s: %w", Quote(arg), err)
	}
	return Lens{}, fmt.Errorf("--lens %s: no such lens (the library: %s; the project's own go in %s/NAME.md or the engines file's lenses:; or give \"name: text\")",
		Quote(arg), strings.Join(Names(), ", "), Dir)
}

// ReplacedBy names the file that replaced the library's text of the named
// lens (".moot/lenses/defect.md", "moot.yaml:12"), or "" when the lens is
// not the library's or keeps the library's text.
func (c *Catalog) ReplacedBy(name string) string {
	if !slices.Contains(Names(), name) || c.from[name] == "library" {
		return ""
	}
	return c.from[name]
}
