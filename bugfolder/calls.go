package bugfolder

import (
	"fmt"
	"github.com/reversa/moot/internal/lazyre"
	"path/filepath"
	"strings"
)

// rawStdoutRE names the raw stdout of one attempt ("agente-2.attempt-1.stdout").
var rawStdoutRE = lazyre.New(`^(.+)\.attempt-\d+\.stdout$`)

// CountModelCalls counts the model calls a debate made — the one rule of
// the header, list, show and the engine's totals: every attempt started,
// a retried one included, and a call cut in flight too, whichever way it
// was stopped (q's "leave it" keeps its raw output, kill -9 does not, the
// log records its start either way). It is the larger of the event log's
// count (LoggedCalls: each call_started once per session — an attempt cut by a kill is
// numbered again when resumed) and the folder's: every attempt whose raw
// output was kept, in each round and in the judge's folder, and a debater
// file with no raw output (written by hand, or by another tool) once. A
// human choice is not a call.
func CountModelCalls(d *Debate) int {
	return max(countFolderCalls(d), LoggedCalls(d.Events))
}

// LoggedCalls counts the calls the event log records: each (round, id,
// attempt) started once per session, or, when more, every call_finished
// (a log that records the ends of its calls only).
func LoggedCalls(evs []Event) int {
	seen := map[string]bool{}
	session, finished := 0, 0
	for _, ev := range evs {
		switch ev.Type {
		case EvSetup, EvResumed:
			session++
		case EvCallStarted:
			seen[fmt.Sprintf("%d/%d/%s/%d", session, ev.Round, ev.SolverID, ev.Attempt)] = true
		case EvCallFinished:
			finished++
		}
	}
	return max(len(seen), finished)
}

// countFolderCalls counts the calls the folder records (CountModelCalls).
func countFolderCalls(d *Debate) int {
	n := 0
	ents, _ := d.memo.readDir(d.Dir)
	for _, e := range ents {
		if !e.IsDir() || !roundDirRE.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(d.Dir, e.Name())
		raw := rawAttempts(d.memo, filepath.Join(dir, "raw"))
		for _, c := range raw {
			n += c
		}
		files, _ := d.memo.readDir(dir)
		for _, f := range files {
			if !f.IsDir() && debaterRE.MatchString(f.Name()) && raw[strings.TrimSuffix(f.Name(), ".md")] == 0 {
				n++
			}
		}
	}
	judged := 0
	// the canonical judge folder, and the translated one of older folders
	// (names[EN] shares the canonical one: counting it too doubled the count)
	for _, jd := range []string{names[PT].JudgeID, translated.JudgeID} {
		for _, c := range rawAttempts(d.memo, filepath.Join(d.Dir, jd, "raw")) {
			judged += c
		}
	}
	if judged == 0 {
		judged = len(d.JudgeAttempts)
		if f := d.Final; f != nil && f.DecidedBy != "human" {
			judged++
		}
	}
	return n + judged
}

// ModelCalls counts the model calls the debate made (CountModelCalls).
func (d *Debate) ModelCalls() int { return CountModelCalls(d) }

// rawAttempts counts the raw stdout files of a raw folder, by debater id.
func rawAttempts(m dirMemo, dir string) map[string]int {
	out := map[string]int{}
	ents, _ := m.readDir(dir)
	for _, e := range ents {
		if m := rawStdoutRE.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			out[m[1]]++
		}
	}
	return out
}

// OpenCalls are the calls the event log's latest session started and has
// not finished (the judge's included): while the debate runs, those in
// flight, which the live header counts apart ("4/5 (1 running)") and moot
// show names among the calls made.
func OpenCalls(evs []Event) []Event {
	from := 0
	for i := len(evs) - 1; i >= 0; i-- {
		if t := evs[i].Type; t == EvSetup || t == EvResumed {
			from = i
			break
		}
	}
	key := func(ev Event) string { return fmt.Sprintf("%d/%s/%d", ev.Round, ev.SolverID, ev.Attempt) }
	open := map[string]Event{} // by call, its latest start
	var order []string         // the calls in the order they first started
	for _, ev := range evs[from:] {
		switch k := key(ev); ev.Type {
		case EvCallStarted:
			if _, ok := open[k]; !ok {
				order = append(order, k)
			}
			open[k] = ev
		case EvCallFinished:
			delete(open, k)
		}
	}
	var out []Event
	for _, k := range order {
		if ev, ok := open[k]; ok {
			out = append(out, ev)
			delete(open, k) // a call started again after it ended is listed once
		}
	}
	return out
}

// PlannedCalls is the plan's count of calls as the event log records it:
// the calls made before its latest plan's session plus what that plan
// counts (0: no plan logged), and whether that plan priced not every
// engine — the denominator of the calls figure ("3/10") the live header,
// a review's header and moot show write.
func PlannedCalls(evs []Event) (planned int, unpriced bool) {
	for i, ev := range evs {
		if ev.Type == EvPlan {
			planned, unpriced = LoggedCalls(evs[:i])+ev.Calls, ev.CostUnknown
		}
	}
	return planned, unpriced
}
