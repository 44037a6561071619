package bugfolder

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/reversa/moot/internal/par"
	"github.com/reversa/moot/internal/safefs"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// BugDir is a bug folder found in a register, or a question's folder
// under the project's .moot/debates/ (Question set), not yet read.
type BugDir struct {
	Dir      string
	Context  string
	Question bool
}

// BugDirs lists the register's bug folders without reading them, in the
// order listings show them (context, then folder name). The contexts'
// folders are listed on a few workers (a register of 50,000 bugs is the
// browser's first wait).
func BugDirs(reg *Register) ([]BugDir, []error) {
	ents, err := os.ReadDir(reg.Root)
	if err != nil {
		return nil, []error{&InputError{Path: reg.Root, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}}
	}
	type group struct {
		bugsDir, context string
		dirs             []BugDir
		err              error
	}
	var groups []*group
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || notBugs[name] {
			continue
		}
		dir := filepath.Join(reg.Root, name)
		if name == "bugs" {
			groups = append(groups, &group{bugsDir: dir})
		} else if isRealDir(filepath.Join(dir, "bugs")) {
			groups = append(groups, &group{bugsDir: filepath.Join(dir, "bugs"), context: name})
		} else if holdsBugFolders(dir) {
			groups = append(groups, &group{bugsDir: dir, context: name}) // a context written without its bugs/ level
		}
	}
	par.Each(len(groups), par.Workers(), func(i int) {
		g := groups[i]
		g.dirs, g.err = scanBugFolders(g.bugsDir, g.context)
	})
	// contexts are unique and each group is in name order: ordering the
	// groups by context is the listing's order
	slices.SortStableFunc(groups, func(a, b *group) int { return strings.Compare(a.context, b.context) })
	total := 0
	for _, g := range groups {
		total += len(g.dirs)
	}
	out := make([]BugDir, 0, total) // 50,000 rows: no copies while growing
	var errs []error
	for _, g := range groups {
		out = append(out, g.dirs...)
		if g.err != nil {
			errs = append(errs, g.err)
		}
	}
	return out, errs
}

// scanBugFolders lists one bugs folder's bug folders (sub-folders not
// hidden), in name order.
func scanBugFolders(bugsDir, context string) ([]BugDir, error) {
	f, err := os.Open(bugsDir)
	if err != nil {
		return nil, &InputError{Path: bugsDir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, &InputError{Path: bugsDir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	out := make([]BugDir, len(names))
	for i, n := range names {
		out[i] = BugDir{Dir: bugsDir + string(filepath.Separator) + n, Context: context}
	}
	return out, nil
}

// holdsBugFolders reports whether a folder's sub-folders are bug folders
// (one holds bug.md, or is named by a bug ID).
func holdsBugFolders(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() && (idInName.MatchString(e.Name()) || isFile(filepath.Join(dir, e.Name(), BugFile))) {
			return true
		}
	}
	return false
}

// readFrontMatter reads a file only as far as its front matter's closing
// line (P can be large; the index needs only the settings): the first
// line alone when it opens none, the whole file when none closes it — at
// most MaxBugBytes: a committed file of 1 GB with no line end is refused,
// naming it, not read.
func readFrontMatter(path string) ([]byte, error) {
	f, err := safefs.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bp := headBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 { // a long front matter's buffer is not kept
			headBufs.Put(bp)
		}
	}()
	buf := (*bp)[:0]
	scanned, first := 0, true
	for {
		for {
			i := bytes.IndexByte(buf[scanned:], '\n')
			if i < 0 {
				break
			}
			line := buf[scanned : scanned+i+1]
			scanned += i + 1
			if frontMatterEnd(line, first) {
				return bytes.Clone(buf[:scanned]), nil
			}
			first = false
		}
		if len(buf) > MaxBugBytes {
			return nil, fmt.Errorf("%s: %w (its front matter passes %d bytes)", path, safefs.ErrTooLarge, MaxBugBytes)
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
			*bp = buf
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return bytes.Clone(buf), nil // an unclosed last line ends it all the same
		}
		if err != nil {
			return nil, err
		}
	}
}

// headBufs are readFrontMatter's read buffers (what it returns is a copy
// of the front matter only).
var headBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// frontMatterEnd reports whether line (with its newline) ends what
// readFrontMatter reads: a first line other than ---, or a later ---
// or ... line.
func frontMatterEnd(line []byte, first bool) bool {
	t := bytes.TrimRight(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")), " \t\r\n")
	if first {
		return !bytes.Equal(t, []byte("---"))
	}
	return bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("..."))
}

// IndexBug reads what a listing shows of one bug: its bug.md and a summary
// of its latest debate, reading as little as it can (front matter only
// where that is enough). Debate files that cannot be read are in Problems.
func IndexBug(reg *Register, bd BugDir) (*Summary, error) {
	b, err := quickBug(reg, bd)
	if err != nil {
		return nil, err
	}
	s := &Summary{Bug: b, State: StateNoDebate}
	ents, err := os.ReadDir(b.Dir)
	if err != nil {
		return nil, &InputError{Path: b.Dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	hasCurrent := false
	archived := 0
	var lastArchived string
	var archivedNames []string
	for _, e := range ents {
		switch {
		case e.IsDir() && e.Name() == DebateDir:
			hasCurrent = true
		case e.IsDir() && archivedName.MatchString(e.Name()):
			archived++
			archivedNames = append(archivedNames, e.Name())
			if lastArchived == "" || newerArchive(e.Name(), lastArchived) {
				lastArchived = e.Name()
			}
		}
	}
	dir := ""
	count := archived
	if hasCurrent {
		dir = filepath.Join(b.Dir, DebateDir)
	}
	d, err := indexDebate(dir, reg.Lang)
	if err != nil {
		return nil, err
	}
	defer func() {
		if d != nil {
			d.memo = nil // the listings served this index only
		}
	}()
	if d != nil && d.State != StateNoDebate {
		count++
	} else if lastArchived != "" {
		d, err = indexDebate(filepath.Join(b.Dir, lastArchived), reg.Lang)
		if err != nil {
			return nil, err
		}
	}
	s.Count = count
	if d != nil && d.State == StateNoDebate && len(d.Problems) > 0 {
		// problema.md or resposta-final.md is there but cannot be read (a
		// FIFO, a device, too large): the bug is listed as unreadable
		s.State, s.Problems = StateUnreadable, d.Problems
		return s, nil
	}
	if d == nil || d.State == StateNoDebate {
		return s, nil
	}
	s.Debates = []*Debate{d}
	s.Problems = d.Problems
	s.fromLatest(d)
	if !s.DecisionClosed { // also beside a latest that waits: the browser shows both
		s.ArchivedPending = archivedPending(b.Dir, archivedNames, reg.Lang)
	}
	if f := d.Final; f != nil && f.TotalCostRecorded && f.TotalCostUSD > 0 {
		s.Tokens, s.CostUSD = f.TotalTokens, f.TotalCostUSD
		// the total counts only the priced calls: a call of an engine
		// without a price makes it "$X + unknown", never the priced part
		// alone as if it were the whole
		s.CostUnpriced = callsUnpriced(d)
		return s, nil
	}
	// no totals, or a total of 0 that older versions wrote for engines
	// without a price: the files say whether any cost was recorded
	// no totals recorded (an unfinished or hand-made debate): sum the files
	full, err := ReadDebate(d.Dir, reg.Lang)
	if err != nil {
		return nil, err
	}
	s.fromFiles(full)
	if d.Problem == nil || d.Problem.CreatedAt.IsZero() {
		s.StartedAt, s.StartedForm = full.StartedAt(), full.StartedForm() // from the calls' timestamps
	}
	return s, nil
}

// UnreadableSummary is the listing's row for a bug folder that could not be
// read: its ID from the folder's name and the error, so the bug never
// vanishes from a list.
func UnreadableSummary(reg *Register, bd BugDir, err error) *Summary {
	b := &Bug{Register: reg, Dir: bd.Dir, Context: bd.Context, ID: idFromFolder(bd.Dir), Partial: true}
	return &Summary{Bug: b, State: StateUnreadable, Problems: []error{err}}
}

// quickBug reads what a listing needs of bug.md — id, display number,
// title, visibility — with the flat fast path when the front matter is
// plain, and in full (ParseBug, the one reader that decides visibility and
// warns about loose fields) whenever anything could need a second look.
func quickBug(reg *Register, bd BugDir) (*Bug, error) {
	path := filepath.Join(bd.Dir, BugFile)
	raw, err := safefs.ReadFile(path, MaxBugBytes)
	if err != nil {
		return ParseBug(reg, bd.Dir, bd.Context)
	}
	fm := frontMatterBlock(raw)
	vals, ok := quickFields(fm, "id", "display_number", "title", "visibility", "status", "created_at")
	if fm == nil || !ok || !plainFrontMatter(fm) || !mappingOrAbsent(fm, "traceability") {
		return ParseBug(reg, bd.Dir, bd.Context)
	}
	b := &Bug{Register: reg, Dir: bd.Dir, Context: bd.Context, Partial: true,
		ID: vals["id"], Title: vals["title"], Status: vals["status"], Visibility: vals["visibility"]}
	if b.ID == "" {
		b.ID = idFromFolder(bd.Dir)
	}
	if v := vals["display_number"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return ParseBug(reg, bd.Dir, bd.Context)
		}
		b.DisplayNumber = n
	}
	if b.Visibility == "" {
		b.Visibility = VisibilityNormal
	}
	switch b.Visibility {
	case VisibilityNormal, VisibilityInternal, VisibilityRestricted, VisibilityPublic:
	default:
		return ParseBug(reg, bd.Dir, bd.Context)
	}
	// anything the full reader warns about goes to it
	if vals["id"] == "" || !canonicalID.MatchString(b.ID) || b.DisplayNumber < 0 || vals["display_number"] == "0" ||
		vals["created_at"] != "" && parseTime(vals["created_at"]).IsZero() || !knownStatus(b.Status, &yaml.Node{Kind: yaml.ScalarNode}) {
		return ParseBug(reg, bd.Dir, bd.Context)
	}
	if mm := idInName.FindStringSubmatch(b.ID); !safeID.MatchString(b.ID) || mm != nil && mm[1] != b.ID || strings.EqualFold(b.Status, "resolved") {
		return ParseBug(reg, bd.Dir, bd.Context)
	}
	if b.Title == "" {
		for _, h := range Headings(NormalizeText(raw[len(fm):])) {
			if h.Level == 1 {
				b.Title = h.Text
				break
			}
		}
	}
	b.Done = b.Locked()
	return b, nil
}

// plainFrontMatter reports whether a front matter block is plain enough for
// the fast path to decide as the full reader would: no merge key, no flow
// mapping, no tab indentation, no key set twice in one block mapping, and
// the word visibility (any case) only where it is the visibility: key.
func plainFrontMatter(fm []byte) bool {
	type level struct {
		indent int
		keys   map[string]bool
	}
	var stack []level
	mentions := 0
	for _, line := range bytes.Split(fm, []byte("\n")) {
		l := string(bytes.TrimRight(line, "\r"))
		if strings.Contains(strings.ToLower(l), "visibility") {
			mentions++
			if !strings.HasPrefix(l, "visibility:") {
				return false
			}
		}
		if key, _, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(l, "visibility:") && looksLikeVisibility(key) {
			return false // a look-alike key: the full reader names it
		}
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(t, "{") || strings.Contains(l, "<<") {
			return false
		}
		if t == "" || t[0] == '#' {
			continue
		}
		if strings.HasPrefix(t, "spec_ref:") || strings.HasPrefix(t, "spec_refs:") {
			return false // a locator under another name: the full reader reads it and warns
		}
		indent := len(l) - len(t)
		if indent == 0 && (t[0] == '-' || !strings.Contains(t, ":")) {
			return false // not a key: value line at the top: let the full reader judge it
		}
		if rest, ok := strings.CutPrefix(t, "- "); ok { // a sequence item opens a new mapping
			indent += 2
			t = strings.TrimLeft(rest, " ")
			for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
				stack = stack[:len(stack)-1]
			}
		}
		for len(stack) > 0 && stack[len(stack)-1].indent > indent {
			stack = stack[:len(stack)-1]
		}
		k, _, ok := strings.Cut(t, ":")
		if !ok || strings.HasPrefix(t, "-") {
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1].indent < indent {
			stack = append(stack, level{indent, map[string]bool{}})
		}
		top := stack[len(stack)-1]
		if top.keys[k] {
			return false
		}
		top.keys[k] = true
	}
	return mentions <= 1
}

// quickProblem reads problema.md's settings with the fast path; nil when the
// front matter needs the full parser.
func quickProblem(path string, head []byte) *ProblemFile {
	vals, ok := quickFields(frontMatterBlock(head), "mode", "n", "r", "created_at", "judge", "p_sha256", "lenses", "protocol")
	if !ok || vals["lenses"] != "" || vals["protocol"] != "" || bytes.Contains(head, []byte("\nlenses:")) || vals["mode"] == "" || vals["p_sha256"] == "" || isCount(vals["judge"]) {
		return nil
	}
	m, err := ParseMode(vals["mode"])
	if err != nil {
		return nil
	}
	n, err1 := strconv.Atoi(vals["n"])
	r, err2 := strconv.Atoi(vals["r"])
	if err1 != nil || err2 != nil {
		return nil
	}
	p := &ProblemFile{Path: path, Mode: m, N: n, R: r, Judge: vals["judge"], PSHA256: vals["p_sha256"]}
	p.CreatedAt, p.CreatedForm = parseForm(vals["created_at"])
	return p
}

// quickFinal reads a final answer's recorded figures with the fast path;
// nil when the file needs the full parser (a hand-made one, say).
func quickFinal(path string, raw []byte) *Final {
	vals, ok := quickFields(frontMatterBlock(raw), "winner", "winner_solver", "decided_by", "participants",
		"accepted_contributions", "total_tokens", "total_cost_usd", "health_tokens_per_contribution", "status", "recommended_verdict", "decision", "cost_usd")
	if !ok || vals["winner"] == "" || vals["winner_solver"] == "" {
		return nil // the solver comes from the labels: parse in full
	}
	f := &Final{DebaterFile: DebaterFile{Path: path, Status: readStatus(vals["status"]), Role: RoleJudge}, Winner: vals["winner"],
		WinnerSolver: vals["winner_solver"], DecidedBy: vals["decided_by"],
		RecommendedVerdict: vals["recommended_verdict"], Decision: flag(vals["decision"])}
	if ls := FindLabels(f.Winner); len(ls) == 1 {
		f.Winner = ls[0]
	}
	if mm := twoNumbers.FindStringSubmatch(vals["participants"]); mm != nil {
		f.Participants, _ = strconv.Atoi(mm[1])
		f.Of, _ = strconv.Atoi(mm[2])
	}
	f.AcceptedContributions, _ = strconv.Atoi(vals["accepted_contributions"])
	f.TotalTokens, _ = strconv.Atoi(vals["total_tokens"])
	f.TotalCostUSD, _ = strconv.ParseFloat(vals["total_cost_usd"], 64)
	f.TotalCostRecorded = vals["total_cost_usd"] != ""
	f.CostRecorded = vals["cost_usd"] != ""
	f.HealthTokensPerContribution, _ = strconv.ParseFloat(vals["health_tokens_per_contribution"], 64)
	return f
}

// ReadDebateState reads just enough of a debate folder to say its state
// and when it started, as moot list does (indexDebate): problema.md's
// front matter, the final answer, the event log, the lock and the names of
// the rounds and of the judge's attempts — not every call's file, which
// ReadDebate parses. The calls are not read: its Calls() are the judge's
// attempts, by name only.
func ReadDebateState(dir string, fallback Lang) (*Debate, error) {
	return indexDebate(dir, fallback)
}

// indexDebate reads just enough of a debate folder to derive its state and
// settings: problema.md's front matter, the final answer, the judge's
// attempts (names), the round folders (names) and the event log.
func indexDebate(dir string, fallback Lang) (*Debate, error) {
	if dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &Debate{Dir: dir, Name: filepath.Base(dir), State: StateNoDebate}, nil
	}
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	d := &Debate{Dir: dir, Name: filepath.Base(dir), Lang: fallback, memo: dirMemo{dir: {ents: ents}}}
	present := map[string]bool{}
	for _, e := range ents {
		present[e.Name()] = true
	}
	head, headRead, headErr := d.indexLang(present, fallback)
	final := present[names[PT].Final] || present[translated.Final]
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case !e.IsDir() && (name == names[PT].Problem || name == translated.Problem):
			raw, err := head, headErr
			if !headRead || name != names[PT].Problem {
				raw, err = readFrontMatter(p)
			}
			if err != nil {
				d.Problems = append(d.Problems, &InputError{Path: p, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err})
				continue
			}
			if q := quickProblem(p, raw); q != nil {
				d.Problem = q
				continue
			}
			pf, err := ParseProblemFile(p, raw)
			if err != nil {
				// a hand-written settings list lives in the body: read it all
				if full, rerr := safefs.ReadFile(p, 0); rerr == nil {
					pf, err = ParseProblemFile(p, full)
				}
			}
			if err != nil {
				d.Problems = append(d.Problems, err)
				continue
			}
			if pf.Mode == "" {
				if full, rerr := safefs.ReadFile(p, 0); rerr == nil {
					if pf2, err := ParseProblemFile(p, full); err == nil {
						pf = pf2
					}
				}
			}
			d.Problem = pf
		case !e.IsDir() && (name == names[PT].Final || name == translated.Final):
			if raw, err := d.read(p); err == nil {
				if q := quickFinal(p, raw); q != nil {
					d.Final = q
				} else if f, err := ParseFinal(p, raw); err != nil {
					d.Problems = append(d.Problems, err)
				} else {
					d.Final = f
				}
			}
		case !e.IsDir() && (name == "eventos.jsonl" || name == "events.jsonl"):
			if !final { // a final answer decides the state
				d.readEvents(p)
			}
		case !e.IsDir() && name == DecisionFile:
			d.readDecision(p)
		case !e.IsDir() && name == LockFile:
			d.Holder = readLockInfo(p)
		case e.IsDir() && roundDirRE.MatchString(name):
			k, _ := strconv.Atoi(roundDirRE.FindStringSubmatch(name)[1])
			d.Rounds = append(d.Rounds, &Round{K: k, Dir: p, Solvers: countSolvers(d.memo, p)})
		case e.IsDir() && (name == names[PT].JudgeID || name == translated.JudgeID):
			if js, err := d.memo.readDir(p); err == nil {
				for _, j := range js {
					if attemptRE.MatchString(j.Name()) {
						d.JudgeAttempts = append(d.JudgeAttempts, &DebaterFile{Path: filepath.Join(p, j.Name())})
					}
				}
			}
		}
	}
	deriveShape(d)
	if d.Holder != nil {
		d.HolderAlive = d.Holder.Alive()
	}
	d.State = deriveState(d)
	return d, nil
}

// indexLang sets the debate's language by detectLang, from the folder's
// names (present) and problema.md's front matter, which it returns when it
// read it (the index parses it next).
func (d *Debate) indexLang(present map[string]bool, fallback Lang) (head []byte, read bool, err error) {
	p := filepath.Join(d.Dir, names[PT].Problem)
	d.Lang, head, err = detectLang(func(name string) bool { return present[name] },
		func() ([]byte, error) { read = true; return readFrontMatter(p) }, fallback)
	return head, read, err
}

// callsUnpriced reports whether a call file of the debate (a round's, a
// judge attempt's or the final answer) records no cost, reading front
// matter only; a front matter the fast path cannot read is parsed in full.
func callsUnpriced(d *Debate) bool {
	var paths []string
	for _, r := range d.Rounds {
		ents, _ := d.memo.readDir(r.Dir)
		for _, e := range ents {
			if !e.IsDir() && debaterRE.MatchString(e.Name()) {
				paths = append(paths, filepath.Join(r.Dir, e.Name()))
			}
		}
	}
	for _, j := range d.JudgeAttempts {
		paths = append(paths, j.Path)
	}
	if f := d.Final; f != nil && !f.CostRecorded {
		return true // both constructors (quickFinal, ParseFinal) set it
	}
	for _, p := range paths {
		raw, err := readFrontMatter(p)
		if err != nil {
			continue // unreadable: the full read reports it
		}
		if vals, ok := quickFields(frontMatterBlock(raw), "cost_usd"); ok {
			if vals["cost_usd"] == "" {
				return true
			}
			continue
		}
		if f, err := ParseDebaterFile(p, raw); err == nil && !f.CostRecorded {
			return true
		}
	}
	return false
}
