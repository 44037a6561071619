package bugfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Decidable reports whether the debate's result waits for a human decision
// that can still be recorded (its bug not closed by DONE.md).
func (d *Debate) Decidable() bool { return d.AwaitsDecision() && !d.DecisionClosed() }

// Waiting are the debates of ds (a bug's, as ReadDebates lists them,
// oldest first) whose result waits for a human decision that can be
// recorded, newest first, but the one in except.
func Waiting(ds []*Debate, except string) []*Debate {
	var out []*Debate
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Decidable() && ds[i].Dir != except {
			out = append(out, ds[i])
		}
	}
	return out
}

// DecisionTarget is the folder of the bug's debate a human decision is
// recorded on — the one rule moot decide and the browser's d follow — among
// ds, the bug's debates as ReadDebates lists them (read once by the caller,
// which shows or names them too). named, when set, is the debate folder the
// engineer named (debate/ or an archived one, as NamedDebate finds it): it
// is taken as it is (the decision's own checks then say whether it waits).
// Otherwise the current debate/ when its result waits (what every "moot
// decide BUG" a run prints means; Waiting says which archived ones wait
// too), else the one archived result that waits; when none waits (or the
// bug is a question, its one debate decided in place), the current debate/
// (the decision then says why nothing waits there); when two archived
// results wait and the current one does not, nothing is guessed: an
// *InputError names each and how to pick.
func DecisionTarget(b *Bug, ds []*Debate, named string) (string, error) {
	if named != "" {
		return named, nil
	}
	cur := filepath.Join(b.Dir, DebateDir)
	if b.IsQuestion {
		return cur, nil
	}
	ds = Waiting(ds, "")
	switch {
	case len(ds) == 0:
		return cur, nil
	case len(ds) == 1 || ds[0].Dir == cur:
		return ds[0].Dir, nil
	}
	var each []string
	for _, d := range ds {
		each = append(each, "   "+b.Register.Rel(d.Dir)+"/ ("+DebateWords(d)+")")
	}
	return "", &InputError{Msg: fmt.Sprintf("%s has %d archived results waiting for a human decision, and moot does not guess which one you decide:\n%s\nname the one you decide by its folder: moot decide %s/ approve|decline|revise [--note TEXT]; nothing was written",
		b.ID, len(ds), strings.Join(each, "\n"), b.Register.Rel(ds[0].Dir))}
}

// DebateWords says which of a bug's debates d is, for a person choosing
// among them: "the current debate of 2026-12-01 09:30 UTC" or "the archived
// debate of 2026-11-30" (its start as its files write it).
func DebateWords(d *Debate) string {
	when := "of unknown date"
	if t := d.StartedAt(); !t.IsZero() && d.StartedDay() {
		when = "of " + t.Format("2006-01-02")
	} else if !t.IsZero() { // two debates of one day read apart
		when = "of " + t.UTC().Format("2006-01-02 15:04 UTC")
	}
	if filepath.Base(d.Dir) == DebateDir {
		return "the current debate " + when
	}
	return "the archived debate " + when
}

// NamedDebate is the debate folder arg names when it is the path of one
// (debate/ or an archived debate-…/ of a bug folder, relative to cwd),
// absolute; "" when arg names something else (a bug, its folder, an ID).
func NamedDebate(cwd, arg string) string {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return ""
	}
	base := filepath.Base(filepath.Clean(p))
	if (base != DebateDir && !archivedName.MatchString(base)) || isFile(filepath.Join(p, BugFile)) {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return abs
}

// archivedPending is the newest of a bug's archived debates (names, under
// bugDir) whose result still waits for a decision moot decide can record,
// read as a listing reads a debate; "" when none does. A listing says so:
// the latest debate alone would read done.
func archivedPending(bugDir string, names []string, lang Lang) string {
	names = append([]string(nil), names...)
	sortArchived(names)
	for i := len(names) - 1; i >= 0; i-- {
		d, err := indexDebate(filepath.Join(bugDir, names[i]), lang)
		if err == nil && d != nil && d.Decidable() {
			return d.Dir
		}
	}
	return ""
}
