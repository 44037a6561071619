package envelope

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// The files Reversa's fix step leaves in a bug folder (docs/reversa-handoff.md).
const (
	FixDir   = "fix"
	PlanFile = "plan.html"
	// maxFixFile bounds one diff or the plan read.
	maxFixFile = MaxBytes
)

// ChangeItem is one approved item of a fix's change set, as the plan's
// table lists it: CHG | kind | artifact | purpose.
type ChangeItem struct {
	ID, Kind, Artifact, Purpose string
}

// Fix is an applied fix of a bug folder: its diffs (fix/CHG-*.diff), the
// files they touch, and the plan's change items (fix/plan.html).
type Fix struct {
	// Diffs are the diff files' names (CHG-001.diff …), sorted.
	Diffs []string
	// Touched are the repository paths the diffs leave in place (their new
	// side), Deleted those they remove; sorted, once each.
	Touched, Deleted []string
	// Outside are what the diffs touch that no juror may read — a path
	// that leaves the repository ("../x", absolute) or lies in a .git
	// folder — one "CHG-NNN.diff: path" each, in the diffs' order: left
	// out of the envelope, and said (LeftOut, Checks).
	Outside []string
	// Items are the plan's CHG rows; Plan says whether plan.html was read.
	Items []ChangeItem
	Plan  bool
}

var chgFile = lazyre.New(`^CHG-[0-9]+\.diff$`)

// ReadFix reads the applied fix of the bug folder dir: nil (no error)
// when it holds no fix/CHG-*.diff. A diff or plan that is a link, not a
// regular file, or too large is an error naming it; a missing plan.html
// leaves Plan false.
func ReadFix(dir string) (*Fix, error) {
	fixDir := filepath.Join(dir, FixDir)
	fi, err := os.Lstat(fixDir)
	if err != nil || !fi.IsDir() {
		if err == nil || !os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: not a real folder (a link or a file): moot reads a fix only from the bug's own fix/ folder", fixDir)
		}
		return nil, nil
	}
	entries, err := os.ReadDir(fixDir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", fixDir, err)
	}
	f := &Fix{}
	for _, e := range entries {
		if !chgFile.MatchString(e.Name()) {
			continue
		}
		b, err := safefs.ReadFile(filepath.Join(fixDir, e.Name()), maxFixFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(fixDir, e.Name()), err)
		}
		touched, deleted, outside := DiffPaths(string(b))
		for _, p := range outside {
			f.Outside = append(f.Outside, e.Name()+": "+p)
		}
		f.Diffs = append(f.Diffs, e.Name())
		f.Touched = append(f.Touched, touched...)
		f.Deleted = append(f.Deleted, deleted...)
	}
	if len(f.Diffs) == 0 {
		return nil, nil
	}
	slices.Sort(f.Diffs)
	f.Touched, f.Deleted = sortedUnique(f.Touched), sortedUnique(f.Deleted)
	f.Touched = slices.DeleteFunc(f.Touched, func(p string) bool { return slices.Contains(f.Deleted, p) })
	b, err := safefs.ReadFile(filepath.Join(fixDir, PlanFile), maxFixFile)
	switch {
	case err == nil:
		f.Items, f.Plan = PlanItems(string(b)), true
	case !os.IsNotExist(err):
		return nil, fmt.Errorf("%s: %w", filepath.Join(fixDir, PlanFile), err)
	}
	return f, nil
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// DiffPaths reads a unified diff (git's or diff -u's) for the files it
// touches: each "+++ " line's path (a "b/" prefix dropped) is touched; a
// "+++ /dev/null" removes the "--- " path before it. Paths are cleaned,
// slash-separated and relative; one that climbs out ("../x"), is
// absolute or lies in a .git folder is left out (repoPath) and returned,
// as the diff names it, in outside.
func DiffPaths(diff string) (touched, deleted, outside []string) {
	var from, fromRaw string
	for _, line := range strings.Split(diff, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "--- "):
			from, fromRaw = diffPath(line[4:], "a/")
		case strings.HasPrefix(line, "+++ "):
			to := strings.TrimSpace(strings.SplitN(line[4:], "\t", 2)[0])
			if to == "/dev/null" {
				if from != "" {
					deleted = append(deleted, from)
				} else if fromRaw != "" {
					outside = append(outside, fromRaw)
				}
			} else if p, raw := diffPath(line[4:], "b/"); p != "" {
				touched = append(touched, p)
			} else if raw != "" {
				outside = append(outside, raw)
			}
			from, fromRaw = "", ""
		}
	}
	return touched, deleted, outside
}

// diffPath is the path of a ---/+++ line's rest: up to a tab (diff -u's
// date), unquoted, its git prefix dropped — p when it is a file of the
// repository (repoPath), else ""; raw is the path as the line names it
// ("" for /dev/null or nothing).
func diffPath(rest, prefix string) (p, raw string) {
	raw = strings.Trim(strings.TrimSpace(strings.SplitN(rest, "\t", 2)[0]), `"`)
	if raw == "/dev/null" || raw == "" {
		return "", ""
	}
	raw = strings.TrimPrefix(raw, prefix)
	return repoPath(raw), raw
}

// repoPath is p cleaned and slash-separated when it names a file of the
// repository a juror may read, else "": one that climbs out ("../x"), is
// absolute, or lies inside a .git folder (its config may hold a remote's
// credentials, its hooks are code nobody reviewed).
func repoPath(p string) string {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if p == "." || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") ||
		slices.ContainsFunc(strings.Split(p, "/"), func(c string) bool { return strings.EqualFold(c, ".git") }) {
		return ""
	}
	return p
}

var chgID = lazyre.New(`^CHG-[0-9]+$`)

// PlanItems reads the change set table of a fix's plan.html: every table
// row whose first cell is a CHG id ("CHG-001"), its next cells the kind,
// the artifact and the purpose (missing cells left empty), once per id,
// in the page's order. Markup inside a cell is read as its text.
func PlanItems(page string) []ChangeItem {
	var items []ChangeItem
	var row []string
	var cell *strings.Builder
	inRow := false
	endRow := func() {
		if len(row) > 0 && chgID.MatchString(row[0]) && !slices.ContainsFunc(items, func(c ChangeItem) bool { return c.ID == row[0] }) {
			c := ChangeItem{ID: row[0]}
			for i, f := range []*string{&c.Kind, &c.Artifact, &c.Purpose} {
				if i+1 < len(row) {
					*f = row[i+1]
				}
			}
			items = append(items, c)
		}
		row, cell, inRow = nil, nil, false
	}
	endCell := func() {
		if cell != nil {
			row = append(row, strings.Join(strings.Fields(cell.String()), " "))
			cell = nil
		}
	}
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			endCell()
			endRow()
			return items
		case html.StartTagToken:
			switch name, _ := z.TagName(); string(name) {
			case "tr":
				endCell()
				endRow()
				inRow = true
			case "td", "th":
				endCell()
				if inRow {
					cell = &strings.Builder{}
				}
			}
		case html.EndTagToken:
			switch name, _ := z.TagName(); string(name) {
			case "td", "th":
				endCell()
			case "tr", "table":
				endCell()
				endRow()
			}
		case html.TextToken:
			if cell != nil {
				cell.Write(z.Text())
			}
		}
	}
}

// LeftOut says, one line each, what of the diffs the jurors never read:
// the paths that leave the repository or lie in a .git folder (Outside).
func (f *Fix) LeftOut() []string {
	var out []string
	for _, o := range f.Outside {
		diff, p, _ := strings.Cut(o, ": ")
		out = append(out, p+" (named by "+FixDir+"/"+diff+"): outside the repository or in its .git folder — never read, so the change set the jurors read is not the whole fix")
	}
	return out
}

// Checks are moot's own checks of the fix against its plan: every CHG
// item the plan approves has its diff (CHG-NNN.diff), every diff is an
// item of the plan, and every path the diffs touch is a file of the
// repository the jurors read (none Outside). None without a plan
// (nothing to hold it to).
func (f *Fix) Checks() []TestCheck {
	if !f.Plan {
		return nil
	}
	var missing, extra []string
	for _, it := range f.Items {
		if !slices.Contains(f.Diffs, it.ID+".diff") {
			missing = append(missing, it.ID)
		}
	}
	for _, d := range f.Diffs {
		id := strings.TrimSuffix(d, ".diff")
		if !slices.ContainsFunc(f.Items, func(c ChangeItem) bool { return c.ID == id }) {
			extra = append(extra, d)
		}
	}
	c := TestCheck{Name: "change-set-matches-plan", OK: len(missing) == 0 && len(extra) == 0 && len(f.Items) > 0 && len(f.Outside) == 0}
	var why []string
	if len(f.Items) == 0 {
		why = append(why, "fix/plan.html lists no CHG item")
	}
	if len(missing) > 0 {
		why = append(why, "approved CHG item(s) with no diff in fix/: "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		why = append(why, "diff(s) no CHG item of fix/plan.html approves: "+strings.Join(extra, ", "))
	}
	if len(f.Outside) > 0 {
		why = append(why, "diff path(s) outside the repository, which no juror read: "+strings.Join(f.Outside, ", "))
	}
	c.Detail = strings.Join(why, "; ")
	if !c.OK {
		c.File = FixDir + "/" + PlanFile
	}
	return []TestCheck{c}
}

// TestPaths reads a bug's traceability test entries ("tests/calc_test.go",
// "tests/calc_test.go::TestTotal", "tests/test_calc.py#test_total",
// "go test ./calc -run TestTotal" is no path) for the files they name:
// the part before "::", "#" or a space, kept when it looks like a
// relative path with an extension; cleaned, once each, in order.
func TestPaths(entries []string) []string {
	var out []string
	for _, e := range entries {
		p := strings.TrimSpace(e)
		if i := strings.IndexAny(p, " \t#"); i >= 0 {
			p = p[:i]
		}
		if i := strings.Index(p, "::"); i >= 0 {
			p = p[:i]
		}
		p = strings.Trim(p, "`\"'")
		if p == "" {
			continue
		}
		p = repoPath(p)
		if p == "" || path.Ext(p) == "" || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}
