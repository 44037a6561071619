package bugfolder

import "path/filepath"

// Decidable reports whether the debate's result waits for a human decision
// that can still be recorded (its bug not closed by DONE.md).
func (d *Debate) Decidable() bool { return d.AwaitsDecision() && !d.DecisionClosed() }

// PendingDebate is the folder of the bug's newest debate whose result still
// waits for a human decision that can be recorded: the current debate/
// first, else an archived one (a new debate archived it before anyone
// decided; the decision stays recordable there). "" when none waits.
func PendingDebate(b *Bug) string {
	if b == nil || b.IsQuestion {
		return ""
	}
	ds, err := ReadDebates(b)
	if err != nil {
		return ""
	}
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Decidable() {
			return ds[i].Dir
		}
	}
	return ""
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
