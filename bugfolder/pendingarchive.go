package bugfolder

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
		if ds[i].AwaitsDecision() && !ds[i].DecisionClosed() {
			return ds[i].Dir
		}
	}
	return ""
}
