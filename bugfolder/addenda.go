package bugfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// addendumRE matches an addendum's file name: bug-<ID>-vNNN.md, the ID with
// or without its "BUG-" prefix, in any case (bug-20260715-a7k3-v001.md).
var addendumRE = regexp.MustCompile(`(?i)^bug-(.+)-v(\d+)\.md$`)

// locatedSpec is a spec file and the part of it a locator found.
type locatedSpec struct {
	file string
	loc  Location
}

// addendum is the latest version of one bug's addendum.
type addendum struct {
	name, path string
	bugKey     string
	version    int
}

// addendumKey folds a bug ID or an addendum's ID part to one form:
// upper case, without a leading "BUG-".
func addendumKey(id string) string {
	id = strings.ToUpper(strings.TrimSpace(id))
	return strings.TrimPrefix(id, "BUG-")
}

// latestAddenda lists, per bug, the highest version of its addendum under
// <output_folder>/addenda/ (a new version supersedes the earlier ones), in
// file-name order.
func latestAddenda(reg *Register) ([]addendum, error) {
	dir := filepath.Join(reg.Project, reg.OutputFolder, "addenda")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	best := map[string]addendum{}
	for _, e := range ents {
		m := addendumRE.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		v, _ := strconv.Atoi(m[2])
		a := addendum{name: e.Name(), path: filepath.Join(dir, e.Name()), bugKey: addendumKey(m[1]), version: v}
		if cur, ok := best[a.bugKey]; !ok || v > cur.version {
			best[a.bugKey] = a
		}
	}
	out := make([]addendum, 0, len(best))
	for _, a := range best {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// addendaInForce returns the addenda of the effective spec: the bug's own
// latest addendum, and every other bug's latest addendum whose target
// section lies in a part this bug's locators found (the same file, and an
// overlapping section when the target names one) — each only while in force.
func addendaInForce(b *Bug, located []locatedSpec) ([]Part, error) {
	reg := b.Register
	all, err := latestAddenda(reg)
	if err != nil {
		return nil, err
	}
	var parts []Part
	for _, a := range all {
		p, err := readPart(reg, a.path, PartAddendum)
		if err != nil {
			return nil, err
		}
		if p.Binary || !addendumInForce(p.Text) {
			continue
		}
		own := a.bugKey == addendumKey(b.ID)
		detail, ok := addendumApplies(reg, b, p.Text, located)
		switch {
		case own:
			p.Rule, p.Detail = RuleAddendum, "this bug's latest addendum"
		case ok:
			p.Rule, p.Detail = RuleAddendum, detail
		default:
			continue
		}
		parts = append(parts, p)
	}
	return parts, nil
}

var (
	targetLineRE = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s*)?[*_]*(?:se[cç][aã]o[ -]alvo|target[ -]section|target|alvo|section)[*_]*\s*:[*_]*\s*(.+)$`)
	vigenciaRE   = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s*)?[*_]*(?:vig[eê]ncia|status|estado|in force|validity)[*_]*\s*:[*_]*\s*(.+)$`)
	revokedRE    = regexp.MustCompile(`(?i)revogad|revoked|supersed|substitu|inativ|inactive|expirad|expired|withdrawn|retirad`)
	codeSpanRE   = regexp.MustCompile("`([^`]+)`")
)

// addendumInForce reads an addendum's status: it is in force unless its
// front matter or a "Vigência:"/"Status:" line says it was revoked,
// superseded or expired, or a superseded_by field names its successor.
func addendumInForce(text string) bool {
	doc, err := ParseDocument([]byte(text))
	if err == nil && doc.Meta != nil {
		for _, k := range []string{"status", "vigencia", "vigência", "in_force"} {
			if v := scalar(doc.Meta, k); revokedRE.MatchString(v) || (k == "in_force" && strings.EqualFold(strings.TrimSpace(v), "false")) {
				return false
			}
		}
		if strings.TrimSpace(scalar(doc.Meta, "superseded_by")) != "" {
			return false
		}
		text = doc.Body
	}
	for _, line := range strings.Split(text, "\n") {
		if m := vigenciaRE.FindStringSubmatch(line); m != nil && revokedRE.MatchString(m[1]) {
			return false
		}
	}
	return true
}

// addendumTargets reads the locators an addendum names as its target
// section: front matter target/secao_alvo/section/spec(s), or a body line
// "Seção alvo: `sdd/checkout.md#regra`".
func addendumTargets(text string) []Locator {
	var raws []string
	doc, err := ParseDocument([]byte(text))
	if err == nil && doc.Meta != nil {
		for _, k := range []string{"target", "target_section", "secao_alvo", "seção_alvo", "section", "spec", "specs"} {
			raws = append(raws, stringList(doc.Meta, k)...)
		}
		text = doc.Body
	}
	for _, line := range strings.Split(text, "\n") {
		m := targetLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if spans := codeSpanRE.FindAllStringSubmatch(m[1], -1); spans != nil {
			for _, s := range spans {
				raws = append(raws, s[1])
			}
		} else {
			raws = append(raws, strings.Trim(m[1], "*_ "))
		}
	}
	var out []Locator
	for _, r := range raws {
		if l := ParseLocator(r); l.Path != "" {
			out = append(out, l)
		}
	}
	return out
}

// addendumApplies reports whether an addendum targets a part that this
// bug's locators found, and says which.
func addendumApplies(reg *Register, b *Bug, text string, located []locatedSpec) (string, bool) {
	for _, t := range addendumTargets(text) {
		file, err := findSpecFile(reg, b, t.Path)
		if err != nil || file == "" {
			continue
		}
		for _, ls := range located {
			if ls.file != file {
				continue
			}
			if t.Anchor == "" || ls.loc.Rule == RuleWholeFile {
				return "in force for " + reg.Rel(file), true
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			tl, ok := Locate(NormalizeText(raw), t.Anchor)
			if !ok || tl.Start <= ls.loc.End && ls.loc.Start <= tl.End {
				return "in force for " + reg.Rel(file) + "#" + t.Anchor, true
			}
		}
	}
	return "", false
}
