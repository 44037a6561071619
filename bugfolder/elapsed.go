package bugfolder

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// SessionsTotal is how long a debate ran over its sessions, from its event
// log: each session runs from its setup or resumed event to its last
// event (a waiting menu logs one every 10 s, so its time counts). A human
// decision on the result comes after the debate and is not its time.
func SessionsTotal(evs []Event) time.Duration {
	var total time.Duration
	var start, last time.Time
	for _, ev := range evs {
		if ev.Time.IsZero() || ev.Type == EvDecision && ev.Point == pointResult {
			continue
		}
		if ev.Type == EvSetup || ev.Type == EvResumed {
			if !start.IsZero() {
				total += last.Sub(start)
			}
			start = ev.Time
		}
		if start.IsZero() {
			start = ev.Time
		}
		last = ev.Time
	}
	if !start.IsZero() {
		total += last.Sub(start)
	}
	return total
}

// pointResult is the decision point of a human decision on a result
// (engine.PointResult).
const pointResult DecisionPoint = "result"

// Elapsed is how long the debate ran, over its sessions, as its event log
// records them; a debate written by hand has no log, and its time is
// then what its files record (FilesElapsed). known is false when nothing
// records it: a problem's date or a bug's creation says nothing of how
// long the debate ran. The browser, list and show all read it.
func (d *Debate) Elapsed() (elapsed time.Duration, known bool) {
	for _, ev := range d.Events {
		if !ev.Time.IsZero() {
			return SessionsTotal(d.Events), true
		}
	}
	return d.FilesElapsed()
}

// ElapsedFromFiles reports whether Elapsed comes from the call files'
// recorded durations (a debate without an event log), not from a log.
func (d *Debate) ElapsedFromFiles() bool {
	for _, ev := range d.Events {
		if !ev.Time.IsZero() {
			return false
		}
	}
	_, known := d.FilesElapsed()
	return known
}

// FilesElapsed is how long a debate without an event log ran as its call
// files record it: the sum over its rounds of each round's longest
// recorded call duration (a round's calls run side by side), the judge's
// included. Only a call's own duration counts: the span between two
// files' timestamps is not (hours may pass between two rounds written by
// hand). known is false when no file records a duration.
func (d *Debate) FilesElapsed() (elapsed time.Duration, known bool) {
	for _, r := range d.Rounds {
		var longest time.Duration
		for _, f := range r.Files {
			if f.DurationMS > 0 {
				longest = max(longest, time.Duration(f.DurationMS)*time.Millisecond)
			}
		}
		if longest > 0 {
			elapsed, known = elapsed+longest, true
		}
	}
	if d.Final != nil && d.Final.DurationMS > 0 {
		elapsed, known = elapsed+time.Duration(d.Final.DurationMS)*time.Millisecond, true
	}
	return elapsed, known
}

// ElapsedText writes an elapsed time with format, or "—" when unknown.
func ElapsedText(elapsed time.Duration, known bool, format func(time.Duration) string) string {
	if !known {
		return "—"
	}
	return format(elapsed)
}

// HandRunGap says what an unfinished debate written by hand lacks: the
// first round missing files, which of its participants have none, and
// what was never written after it ("" when nothing is missing).
func (d *Debate) HandRunGap() string {
	if d.Problem == nil {
		return "its problem file is missing"
	}
	have := map[int]*Round{}
	for _, rd := range d.Rounds {
		have[rd.K] = rd
	}
	final := "the final answer"
	for k := 0; k <= d.Problem.R; k++ {
		var ids, missing []string
		for _, kv := range d.Problem.Solvers {
			ids = append(ids, kv.Key)
		}
		if k >= 1 { // a debate's critics answer from round 1
			for _, kv := range d.Problem.Critics {
				ids = append(ids, kv.Key)
			}
		}
		rd := have[k]
		for _, id := range ids {
			if rd == nil || rd.File(id) == nil {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			continue
		}
		var s string
		if rd == nil || len(missing) == len(ids) {
			s = fmt.Sprintf("round %d was never written", k)
		} else {
			s = fmt.Sprintf("round %d lacks %s", k, strings.Join(missing, ", "))
		}
		switch {
		case k+1 < d.Problem.R:
			s += fmt.Sprintf("; rounds %d–%d and %s were never written", k+1, d.Problem.R, final)
		case k+1 == d.Problem.R:
			s += fmt.Sprintf("; round %d and %s were never written", k+1, final)
		default:
			s += fmt.Sprintf("; %s was never written", final)
		}
		return s
	}
	if d.Final == nil {
		return "the final answer was never written"
	}
	return ""
}

// LogElapsed is Elapsed for a debate read for a listing, whose event log
// was skipped when its final answer decided the state: the log is read
// then, for the time alone (moot list; the browser shows no elapsed column
// and never pays for it).
func (d *Debate) LogElapsed() (time.Duration, bool) {
	if d.Events != nil || d.Dir == "" {
		return d.Elapsed()
	}
	for _, name := range []string{"eventos.jsonl", "events.jsonl"} {
		p := filepath.Join(d.Dir, name)
		if !exists(p) {
			continue
		}
		tmp := &Debate{Dir: d.Dir}
		tmp.readEvents(p)
		if e, ok := tmp.Elapsed(); ok {
			return e, ok
		}
	}
	return d.FilesElapsed()
}
