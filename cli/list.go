package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reversa/moot/internal/label"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/par"
	"github.com/reversa/moot/internal/sumcache"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/review"
)

// listEntry is one bug in `moot list --json` (docs/cli.md names the fields).
type listEntry struct {
	BugID         string   `json:"bug_id"`
	DisplayNumber *int     `json:"display_number"`
	Context       string   `json:"context"`
	Title         string   `json:"title"`
	Path          string   `json:"path"`
	Status        string   `json:"status"`
	Mode          *string  `json:"mode"`
	N             *int     `json:"n"`
	R             *int     `json:"r"`
	Winner        *string  `json:"winner"`
	WinnerSolver  *string  `json:"winner_solver"`
	CostUSD       *float64 `json:"cost_usd"`
	// CostPartlyUnknown: some call recorded no cost, so cost_usd counts
	// only the priced calls.
	CostPartlyUnknown bool     `json:"cost_partly_unknown,omitempty"`
	Tokens            int      `json:"tokens"`
	Calls             int      `json:"calls"`
	Health            *float64 `json:"health_tokens_per_contribution"`
	StartedAt         *string  `json:"started_at"`
	// ElapsedSeconds is how long the latest debate ran over its sessions;
	// null when nothing records it (a debate run by hand).
	ElapsedSeconds *float64 `json:"elapsed_seconds"`
	Debates        int      `json:"debates"`
	Visibility     string   `json:"visibility"`
	Locked         bool     `json:"locked"`
	// Kind is bug, question or review; Protocol the latest debate's
	// protocol (null without a debate).
	Kind     string  `json:"kind"`
	Protocol *string `json:"protocol"`
	// Decision is the human decision on the latest result: pending while
	// it waits, approve, decline or revise once decided (decisao.md), null
	// when it waits for none; RecommendedVerdict the judge's advice.
	Decision *string `json:"decision"`
	// DecisionClosed: the result waited for a decision, but the bug was
	// closed by DONE.md, so none can be recorded (decision is null).
	DecisionClosed bool `json:"decision_closed,omitempty"`
	// ArchivedDecisionPending is the archived debate (its path in the
	// register) whose result still waits for a human decision that moot
	// decide records there: a newer debate archived it undecided.
	ArchivedDecisionPending *string `json:"archived_decision_pending,omitempty"`
	RecommendedVerdict      *string `json:"recommended_verdict"`
	// Incomplete is a bug folder without bug.md yet; Warnings are the
	// loose fields read anyway (also printed on stderr).
	Incomplete bool     `json:"incomplete,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
	// WinnerSynthesis: the judge named a synthesis of the proposals as
	// its outcome, no single winner (winner is then null).
	WinnerSynthesis bool `json:"winner_synthesis,omitempty"`
	// StartedDay: started_at is a date alone (the files give no time of
	// day), written YYYY-MM-DD.
	StartedDay bool `json:"started_day,omitempty"`
	// StartedNoZone: started_at has a time of day but no offset, written
	// as the files wrote it (YYYY-MM-DDTHH:MM:SS, no zone).
	StartedNoZone bool `json:"started_no_zone,omitempty"`
	// Fix is what the fix step left in the bug folder; null without fix/
	// and DONE.md.
	Fix *listFix `json:"fix"`
	// Verdict, Lenses and Rounds are a review's (absent for a bug or a
	// question, whose winner and health a review has none of): its last
	// round's gate (pass, refuse, hold; null before a round ends), its
	// lenses by outcome in that round, and how many rounds it held.
	Verdict *string `json:"verdict,omitempty"`
	// Weakened marks a review whose last gate is weakened (--builder
	// unknown, --solo, a panel of unknown families): its pass is never a
	// plain pass; the text list says "pass (weakened)".
	Weakened bool          `json:"weakened,omitempty"`
	Lenses   *lensOutcomes `json:"lenses,omitempty"`
	Rounds   *int          `json:"rounds,omitempty"`
}

// lensOutcomes count a review round's lenses by verdict.
type lensOutcomes struct {
	Passed  int `json:"passed"`
	Held    int `json:"held"`
	Refused int `json:"refused"`
}

// listFix is a bug's fix state in `moot list --json`.
type listFix struct {
	Plan    bool `json:"plan"`
	Changes int  `json:"changes"`
	Done    bool `json:"done"`
}

func ptr[T any](v T) *T { return &v }

func newListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "One line per bug of the register, with its latest debate",
		Long: `List every bug under the nearest _reversa_bugs/ (bugs without a debate
included) with its latest debate's status, mode, N×R, winner and cost, then
the project's questions (.moot/debates/<date>-<slug>/; listed also in a
project without a register), then the reviews (moot review: .moot/reviews/
and each bug's review/). --json gives each entry its kind (bug, question or
review; a review's bug_id is its ID, its context the bug it reviews), its protocol and its human decision (pending, approve, decline,
revise, or null when its result waits for none), and archived_decision_pending
when an older result a newer debate archived still waits for one (its folder).

Status is one of: no-debate, running (also a debate interrupted by a crash),
waiting (for a human decision), cancelled, judge-failed, done; interrupted
(a debate run by hand that nothing runs now); unreadable (the bug folder
cannot be read). A status is followed by its decision: "· decision pending"
while the latest result waits for one, "· decision pending (archived)" while
an archived result still does (moot decide records it there; on a terminal
too narrow for those words, "done · pending (archived)", then "pending
(archived)"). A review's status is its own: running, pass, refuse, hold or
stalled (a hold or a stall has its decision pending until moot decide),
error (a file of its round could not be saved) or interrupted (running, but
no process holds it: killed).

A bug folder that cannot be read (a broken front matter) is listed with
status unreadable, its error is reported on stderr (and in --json's warnings),
and the exit code is 2; the others are listed as usual. A bug folder without bug.md yet is listed as
incomplete, and loose fields (an unknown visibility, read as restricted; a
display number written BUG-008…) are warnings on stderr: neither changes the
exit code.

Rows are kept in $XDG_CACHE_HOME/moot/list/ (owner-only), keyed by the size
and modification time of every file of the bug folder: a changed folder is
read again, and deleting the cache only makes the next list slower.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := registerOrQuestions(e)
			if err != nil {
				if rs, rerrs := reviewEntries(e, nil); len(rs) == 0 && len(rerrs) == 0 {
					return err
				}
				reg = projectRegister(e, bugfolder.ProjectRoot(e.cwd)) // a project with only reviews
			}
			var dirs []bugfolder.BugDir
			var errs []error
			if reg.Root != "" {
				dirs, errs = bugfolder.BugDirs(reg)
			}
			warns := slices.Clone(reg.Warnings)
			rows := listBugs(e, reg, dirs)
			entries := make([]listEntry, 0, len(rows))
			for _, r := range rows {
				entries = append(entries, r.entry)
				errs = append(errs, r.errs...)
				warns = append(warns, r.warns...)
			}
			qs, qerrs := questionEntries(reg)
			entries, errs = append(entries, qs...), append(errs, qerrs...)
			rs, rerrs := reviewEntries(e, reg)
			entries, errs = append(entries, rs...), append(errs, rerrs...)
			if asJSON {
				if err := writeJSONArray(e.stdout, entries); err != nil {
					return err
				}
			} else {
				printList(e, entries)
			}
			printWarnings(e, warns)
			for _, err := range errs {
				fmt.Fprintf(e.stderr, "moot: %s\n", termsafe.Text(err.Error()))
			}
			if len(errs) > 0 {
				return &exitError{code: ExitUsage, quiet: true}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one object per bug")
	return cmd
}

// listRow is one bug folder's line of a listing and what reading it said.
type listRow struct {
	entry listEntry
	errs  []error
	warns []error
	// live: the debate holds a lock, whose holder may be alive or not by
	// the next listing (never cached).
	live bool
}

// listBugs reads the bug folders' rows on a few workers, in the folders'
// order. A folder read cleanly (no error, no warning, no lock whose
// holder may be alive) is stored in the list cache with the fingerprint
// of its files; a folder whose fingerprint is unchanged is served from it.
func listBugs(e *env, reg *bugfolder.Register, dirs []bugfolder.BugDir) []listRow {
	cache := sumcache.Open(listCacheDir(e), listScope(reg))
	now := time.Now()
	rows := make([]listRow, len(dirs))
	par.Each(len(dirs), par.Workers(), func(i int) {
		bd := dirs[i]
		fp := sumcache.Fingerprint(bd.Dir, now)
		if raw, ok := cache.Get(bd.Dir, fp); ok {
			var en listEntry
			if json.Unmarshal(raw, &en) == nil {
				rows[i] = listRow{entry: en}
				return
			}
		}
		rows[i] = listOne(reg, bd)
		if r := rows[i]; len(r.errs) == 0 && len(r.warns) == 0 && !r.live {
			cache.Put(bd.Dir, fp, r.entry)
		}
	})
	_ = cache.Save() // a cache that cannot be written is only a slower next listing
	return rows
}

// listOne reads one bug folder's row.
func listOne(reg *bugfolder.Register, bd bugfolder.BugDir) listRow {
	s, err := bugfolder.IndexBug(reg, bd)
	if err != nil {
		// listed all the same, with the error
		en := toEntry(reg, bugfolder.UnreadableSummary(reg, bd, err))
		en.Warnings = append(en.Warnings, err.Error())
		return listRow{entry: en, errs: []error{err}}
	}
	r := listRow{entry: toEntry(reg, s), errs: s.Problems}
	r.warns = append(append(r.warns, s.Bug.Warnings...), s.Warnings...)
	r.live = s.Latest != nil && s.Latest.Holder != nil
	return r
}

// listCacheDir is where listings keep their cache: the user's cache
// folder ($XDG_CACHE_HOME/moot/list), "" (no cache) without one.
func listCacheDir(e *env) string {
	if d := e.getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "moot", "list")
	}
	if h := e.getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".cache", "moot", "list")
	}
	return ""
}

// listScope is what every row depends on besides its folder: the
// register's place and settings, and the program itself (its size and
// modification time, so a new moot never serves an older one's rows).
func listScope(reg *bugfolder.Register) string {
	exe := ""
	if p, err := os.Executable(); err == nil {
		if fi, err := os.Stat(p); err == nil {
			exe = fmt.Sprintf("%s|%d|%d", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return strings.Join([]string{reg.Root, reg.Project, reg.OutputFolder, reg.DocLanguage, fmt.Sprint(reg.Lang), exe}, "\x00")
}

func toEntry(reg *bugfolder.Register, s *bugfolder.Summary) listEntry {
	b := s.Bug
	en := listEntry{
		BugID: b.ID, Context: b.Context, Title: b.Title, Path: reg.Rel(b.Dir),
		Status: string(s.State), Tokens: s.Tokens, Calls: s.Calls, Debates: s.Count,
		Visibility: b.Visibility, Locked: b.Done, Incomplete: b.Incomplete, Kind: bugfolder.KindBug,
	}
	if s.Kind != "" {
		en.Kind = s.Kind
	}
	if s.Latest != nil {
		en.Protocol = ptr(protocolName(s.Latest))
	}
	for _, w := range append(slices.Clone(b.Warnings), s.Warnings...) {
		en.Warnings = append(en.Warnings, w.Error())
	}
	if b.DisplayNumber != 0 {
		en.DisplayNumber = ptr(b.DisplayNumber)
	}
	if s.Latest == nil || !s.CostUnknown {
		en.CostUSD = ptr(s.CostUSD) // null: no cost was recorded (unknown, not zero)
		en.CostPartlyUnknown = s.Latest != nil && s.CostUnpriced
	}
	if s.Mode != "" {
		en.Mode = ptr(string(s.Mode))
	}
	if s.Latest != nil {
		en.N, en.R = ptr(s.N), ptr(s.R)
	}
	if s.Winner != "" {
		en.Winner = ptr(s.Winner)
	}
	if s.WinnerSolver != "" {
		en.WinnerSolver = ptr(s.WinnerSolver)
	}
	if s.Health > 0 {
		en.Health = ptr(s.Health)
	}
	switch {
	case s.StartedAt.IsZero():
	case s.StartedForm == bugfolder.TimeDay:
		en.StartedAt, en.StartedDay = ptr(s.StartedAt.UTC().Format(time.DateOnly)), true
	case s.StartedForm == bugfolder.TimeNoZone:
		en.StartedAt, en.StartedNoZone = ptr(s.StartedAt.UTC().Format("2006-01-02T15:04:05")), true
	default:
		en.StartedAt = ptr(s.StartedAt.UTC().Format(time.RFC3339))
	}
	if s.Latest != nil && s.Latest.Final != nil {
		en.WinnerSynthesis = s.Latest.Final.Synthesis && s.Winner == ""
	}
	if fs := b.ReadFixState(); (s.Kind == "" || s.Kind == bugfolder.KindBug) && !b.IsQuestion && (fs.Folder || fs.Done) {
		en.Fix = &listFix{Plan: fs.Plan, Changes: fs.Changes, Done: fs.Done}
	}
	if s.Latest != nil {
		if e, known := s.Latest.LogElapsed(); known {
			en.ElapsedSeconds = ptr(e.Seconds())
		}
	}
	if s.Decision != "" {
		en.Decision = ptr(s.Decision)
	}
	en.DecisionClosed = s.DecisionClosed
	if s.ArchivedPending != "" {
		en.ArchivedDecisionPending = ptr(reg.Rel(s.ArchivedPending))
	}
	if s.RecommendedVerdict != "" {
		en.RecommendedVerdict = ptr(s.RecommendedVerdict)
	}
	return en
}

// shorterStatus are shorter forms of a status that says an archived
// result still waits for a decision (bugfolder.DecisionWord's "(archived)"
// words), longest first, for a terminal too narrow for it: the first
// drops only the word "decision" (taken before any column goes), the
// others the state, then the latest result's decision; cut instead,
// "done · decision pending (and a…" no longer says that an archived
// result waits, which is what tells the row from a plain "decision
// pending".
func shorterStatus(en listEntry, decision string) []string {
	if en.ArchivedDecisionPending == nil {
		return nil
	}
	if en.DecisionClosed {
		decision = bugfolder.DecisionNotTaken
	}
	state := bugfolder.StatusWord(bugfolder.State(en.Status), en.Incomplete, en.Locked, "")
	short := bugfolder.DecisionWord(decision, false, true) // "pending (and archived)", "approve, pending (archived)"
	forms := []string{state + " · " + short, short}
	switch {
	case decision == bugfolder.DecisionPending: // the latest result and an archived one
		forms = append(forms, "2 decisions pending")
	case short != bugfolder.ArchivedPendingWord:
		forms = append(forms, bugfolder.ArchivedPendingWord)
	}
	return forms
}

func printList(e *env, entries []listEntry) {
	if len(entries) == 0 {
		fmt.Fprintln(e.stdout, "no bugs in this register")
		return
	}
	t := table{header: []string{"BUG", "#", "CONTEXT", "STATUS", "PROTOCOL", "MODE", "N×R", "WINNER", "COST", "STARTED", "ELAPSED", "TITLE"},
		flex: 11, flexMin: 12, drop: []int{9, 10, 2, 8, 7, 6, 5, 11, 1}, squeeze: 3, idCut: true}
	// headings that fit every kind shown, as the browser's: a question's or
	// a review's ID is no bug's, and a review's outcome is its verdict and
	// lenses passed/held/refused, not a winner
	if slices.ContainsFunc(entries, func(en listEntry) bool { return en.Kind != bugfolder.KindBug }) {
		t.header[0] = "ID"
	}
	if slices.ContainsFunc(entries, func(en listEntry) bool { return en.Kind == "review" }) {
		t.header[7] = "OUTCOME"
	}
	for _, en := range entries {
		num, proto, mode, nr, winner, started, cost := "", "—", "—", "—", "—", "—", "—"
		if en.Protocol != nil {
			proto = *en.Protocol
		}
		if en.DisplayNumber != nil {
			num = fmt.Sprint(*en.DisplayNumber)
		}
		if en.Mode != nil && en.Kind != bugfolder.KindQuestion { // a question has no mode
			mode = *en.Mode
		}
		if en.N != nil {
			nr = fmt.Sprintf("%d×%d", *en.N, *en.R)
		}
		if en.Winner != nil {
			var solver string
			if en.WinnerSolver != nil {
				solver = *en.WinnerSolver
			}
			winner = label.Winner(*en.Winner, solver)
		} else if en.WinnerSynthesis {
			winner = "synthesis"
		}
		if en.Verdict != nil && en.Lenses != nil { // a review: its last round's verdict, lenses passed/held/refused
			winner = fmt.Sprintf("%s P%d H%d R%d", *en.Verdict, en.Lenses.Passed, en.Lenses.Held, en.Lenses.Refused)
		}
		if en.StartedAt != nil {
			started = (*en.StartedAt)[:10]
		}
		if en.Debates > 0 && en.CostUSD != nil {
			cost = money.Total(*en.CostUSD, en.CostPartlyUnknown)
		} else if en.Debates > 0 {
			cost = money.Total(0, true)
		}
		decision := ""
		if en.Decision != nil {
			decision = *en.Decision
		}
		// the same words as the browser's STATUS column
		status := bugfolder.StatusWord(bugfolder.State(en.Status), en.Incomplete, en.Locked,
			bugfolder.DecisionWord(decision, en.DecisionClosed, en.ArchivedDecisionPending != nil))
		if en.Weakened && en.Status == review.StatusPassed {
			status += review.WeakenedMark
		}
		t.shorter = append(t.shorter, shorterStatus(en, decision))
		title := termsafe.Line(en.Title) // whole: piped, every cell is; on a terminal the table fits it
		elapsed := "—"
		if en.ElapsedSeconds != nil {
			elapsed = elapsedText(time.Duration(*en.ElapsedSeconds*float64(time.Second)), true)
		}
		t.rows = append(t.rows, []string{termsafe.Line(en.BugID), num, termsafe.Line(en.Context), status, termsafe.Line(proto), termsafe.Line(mode), nr, termsafe.Line(winner), cost, started, elapsed, title})
	}
	if isTerminal(e.stdout) { // one record per line, fitted to the terminal
		fmt.Fprint(e.stdout, t.render(termWidth(e.stdout)))
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0) // piped: every cell whole
	for _, r := range append([][]string{t.header}, t.rows...) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

// writeJSONArray prints entries as json.Encoder with a two-space indent
// prints the whole array, byte for byte, one entry at a time: 10,000
// entries are 7 MB of JSON, and encoding the array at once held it twice.
func writeJSONArray[T any](w io.Writer, entries []T) error {
	if len(entries) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[\n")
	for i, en := range entries {
		b, err := json.MarshalIndent(en, "  ", "  ")
		if err != nil {
			return fmt.Errorf("encode the list as JSON: %w", err)
		}
		bw.WriteString("  ")
		bw.Write(b)
		if i < len(entries)-1 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}
