package bugfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// addendumRE matches an addendum's file name: bug-<ID>-vNNN.md, the ID with
// or without its "BUG-" prefix, in any case (bug-20260715-a7k3-v001.md).
var addendumRE = lazyre.New(`(?i)^bug-(.+)-v(\d+)\.md$`)

// locatedSpec is a spec file and the part of it a locator found.
type locatedSpec struct {
	file string
	loc  Location
}

// addendum is one version of one bug's addendum.
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

// addendaByBug lists every bug's addendum versions under
// <output_folder>/addenda/, newest first, the bugs in file-name order.
func addendaByBug(reg *Register) ([][]addendum, error) {
	dir := filepath.Join(reg.Project, reg.OutputFolder, "addenda")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	byKey := map[string][]addendum{}
	for _, e := range ents {
		m := addendumRE.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		v, _ := strconv.Atoi(m[2])
		a := addendum{name: e.Name(), path: filepath.Join(dir, e.Name()), bugKey: addendumKey(m[1]), version: v}
		byKey[a.bugKey] = append(byKey[a.bugKey], a)
	}
	out := make([][]addendum, 0, len(byKey))
	for _, vs := range byKey {
		sort.Slice(vs, func(i, j int) bool { return vs[i].version > vs[j].version })
		out = append(out, vs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0].name < out[j][0].name })
	return out, nil
}

// restrictedBug is the folder of the register's bug with that addendum
// key when it is restricted ("" when it is not, or is not found).
func restrictedBug(reg *Register, key string) string {
	dirs, _ := BugDirs(reg)
	for _, d := range dirs {
		if addendumKey(idFromFolder(d.Dir)) == key {
			return restrictedHolder(reg.Project, d.Dir)
		}
	}
	return ""
}

// addendaInForce returns the addenda of the effective spec: for this bug
// and for every other bug whose addendum targets a section this bug's
// locators found, the newest version in force (a newer one that is revoked,
// superseded, expired or not yet valid falls back to the one before it).
// Versions passed over that would have applied are notes in P, saying why.
func addendaInForce(b *Bug, located []locatedSpec) ([]Part, error) {
	reg := b.Register
	all, err := addendaByBug(reg)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	var parts []Part
	for _, versions := range all {
		var skipped []string
		for _, a := range versions {
			p, err := readPart(reg, a.path, PartAddendum)
			if err != nil {
				return nil, err
			}
			if p.Binary {
				continue
			}
			target, applies := addendumApplies(reg, b, p.Text, located)
			if a.bugKey == addendumKey(b.ID) {
				applies = true
				if target == "" {
					target = reg.Lang.Pick("o adendo deste bug em vigor", "this bug's addendum in force")
				}
			}
			if why := addendumNotInForce(reg.Lang, p.Text, now); why != "" {
				if applies {
					skipped = append(skipped, fmt.Sprintf("`%s`: %s", p.Path, why))
				}
				continue
			}
			// the newest version in force supersedes the older ones, even
			// when it targets a section this bug did not locate
			if applies && a.bugKey != addendumKey(b.ID) && !b.Restricted() {
				if holder := restrictedBug(reg, a.bugKey); holder != "" {
					// a restricted bug's text never enters another bug's P
					parts = append(parts, note(reg.Lang,
						fmt.Sprintf("Um adendo vigente (`%s`) de um bug restrito (`%s`) trata de uma seção localizada; ficou fora de P: o texto de um bug restrito não entra no P de outro bug.", p.Path, reg.Rel(holder)),
						fmt.Sprintf("An addendum in force (`%s`) of a restricted bug (`%s`) targets a located section; it is left out of P: a restricted bug's text never enters another bug's P.", p.Path, reg.Rel(holder))))
					break
				}
			}
			if applies {
				p.Rule, p.Detail = RuleAddendum, target
				parts = append(parts, p)
			}
			break
		}
		if len(skipped) > 0 {
			parts = append(parts, note(reg.Lang,
				"Adendos não incluídos por não estarem vigentes: "+strings.Join(skipped, "; ")+".",
				"Addenda left out because they are not in force: "+strings.Join(skipped, "; ")+"."))
		}
	}
	return parts, nil
}

var (
	targetLineRE = lazyre.New(`(?i)^\s*(?:[-*+]\s*)?[*_]*(?:se[cç][aã]o[ -]alvo|target[ -]section|target|alvo|section)[*_]*\s*:[*_]*\s*(.+)$`)
	vigenciaRE   = lazyre.New(`(?i)^\s*(?:[-*+]\s*)?[*_]*(?:vig[eê]ncia|status|estado|in force|validity)[*_]*\s*:[*_]*\s*(.+)$`)
	revokedRE    = lazyre.New(`(?i)revogad|revoked|supersed|substitu|inativ|inactive|expirad|expired|withdrawn|retirad`)
	codeSpanRE   = lazyre.New("`([^`]+)`")
)

var (
	validFromRE  = lazyre.New(`(?i)\b(?:from|since|starting|effective|a partir de|desde|vigente em|valid from)\s*:?\s*(\d{4}-\d{2}-\d{2})`)
	validUntilRE = lazyre.New(`(?i)\b(?:until|till|through|to|até)\s*:?\s*(\d{4}-\d{2}-\d{2})`)
)

// addendumNotInForce says why an addendum is not in force ("" when it is):
// its front matter or a "Vigência:"/"Status:"/"Validity:" line says it was
// revoked, superseded or expired, a superseded_by field names its
// successor, or its validity starts after now or ended before it.
func addendumNotInForce(l Lang, text string, now time.Time) string {
	var values []string
	doc, err := ParseDocument([]byte(text))
	if err == nil && doc.Meta != nil {
		for _, k := range []string{"status", "vigencia", "vigência", "validity", "valid_from", "effective", "in_force"} {
			v := scalar(doc.Meta, k)
			if k == "in_force" && strings.EqualFold(strings.TrimSpace(v), "false") {
				return l.Pick("marcado in_force: false", "marked in_force: false")
			}
			if k == "valid_from" || k == "effective" {
				v = "from " + v
			}
			values = append(values, v)
		}
		if by := strings.TrimSpace(scalar(doc.Meta, "superseded_by")); by != "" {
			return l.Pick("substituído por "+by, "superseded by "+by)
		}
		text = doc.Body
	}
	for _, line := range strings.Split(text, "\n") {
		if m := vigenciaRE.FindStringSubmatch(line); m != nil {
			values = append(values, m[1])
		}
	}
	today := now.UTC().Format("2006-01-02")
	for _, v := range values {
		v = strings.TrimSpace(v)
		switch {
		case revokedRE.MatchString(v):
			return strings.Trim(v, "*_ ")
		case validFromRE.MatchString(v) && validFromRE.FindStringSubmatch(v)[1] > today:
			d := validFromRE.FindStringSubmatch(v)[1]
			return l.Pick("vigente só a partir de "+d, "in force only from "+d)
		case validUntilRE.MatchString(v) && validUntilRE.FindStringSubmatch(v)[1] < today:
			d := validUntilRE.FindStringSubmatch(v)[1]
			return l.Pick("vigência terminou em "+d, "in force only until "+d)
		}
	}
	return ""
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
				return reg.Lang.Pick("vigente para ", "in force for ") + reg.Rel(file), true
			}
			raw, err := safefs.ReadFile(file, MaxBugBytes)
			if err != nil {
				continue
			}
			tl, ok := Locate(NormalizeText(raw), t.Anchor)
			if !ok || tl.own() <= ls.loc.End && ls.loc.own() <= tl.End {
				return reg.Lang.Pick("vigente para ", "in force for ") + reg.Rel(file) + "#" + t.Anchor, true
			}
		}
	}
	return "", false
}
