package tui

import (
	"fmt"

	"github.com/reversa/moot/bugfolder"
)

// The calls figure is one number wherever a debate is shown (the TUI that
// runs it, a TUI watching it from the browser): the calls finished over the
// planned total, the calls in flight said apart ("calls 3/10 (3 running)").

// runningCalls counts the calls in flight: the panes running now, the
// final step's included.
func (d *debateView) runningCalls() int {
	n := 0
	for _, r := range d.rounds {
		for _, p := range r.panes {
			if p.status == "running" {
				n++
			}
		}
	}
	if d.judge != nil && d.judge.status == "running" {
		n++
	}
	return n
}

// callsText is the header's calls figure in its long, short and tight
// forms and bare, the tightest: one figure in one wording, the narrower
// forms only dropping words ("calls 3/10 (3 running)", "3/10 (3 running)"
// or "3/10 calls" with none running, "3/10"); the running count is never
// folded into a sign a reader could take for more planned.
func (d *debateView) callsText() (long, short, tight, bare string) {
	return callsForms(d.callsDone, d.planned(), d.runningCalls())
}

// callsForms is the calls figure of every protocol's header (a debate's,
// a review's): done over planned, the running apart, in the forms
// callsText says.
func callsForms(done, planned, running int) (long, short, tight, bare string) {
	bare = fmt.Sprintf("%d/%d", done, planned)
	if running > 0 {
		tight = bare + fmt.Sprintf(" (%d running)", running)
		return "calls " + tight, tight, tight, bare
	}
	return "calls " + bare, bare + " calls", bare, bare
}

// followInFlight marks, in a debate another process runs, the calls its
// current session started and has not finished as running, and counts
// them out of the calls done (which, read from the folder, counts every
// started attempt): the watcher then shows the running TUI's figure.
func (d *debateView) followInFlight(evs []bugfolder.Event) {
	judge := false
	for _, ev := range evs {
		switch ev.Type {
		case bugfolder.EvSetup, bugfolder.EvResumed, bugfolder.EvJudgeFinished, bugfolder.EvJudgeFailed:
			judge = false
		case bugfolder.EvJudgeStarted:
			judge = true
		}
	}
	open := bugfolder.OpenCalls(evs)
	for _, ev := range open { // the judge's too: planned counts its call as still to make
		if p := d.paneOf(ev); p != nil && p.status != "running" {
			p.status, p.started = "running", ev.Time
		}
	}
	if judge && d.judge != nil && d.final == nil {
		d.judge.status = "running"
	}
	n := len(open)
	d.callsDone = max(0, d.callsDone-n)
}
