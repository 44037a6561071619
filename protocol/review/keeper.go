package review

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/safefs"
)

// Keeper shows reviews to the front ends (engine.RecordKeeper): the
// browser's rows, the review view's rounds, the folder's stamp and the
// human decision, read as moot list and moot show read them.
type Keeper struct{}

var _ engine.RecordKeeper = Keeper{}

// Name is the protocol's name.
func (Keeper) Name() string { return Name }

// Holder is the folder a project keeps its reviews in.
func (Keeper) Holder(project string) string { return filepath.Join(project, ReviewsDir) }

// Records lists every review under the project's git root and the
// project, and in every bug's folder of reg (one that cannot be read is
// left out).
func (Keeper) Records(project string, reg *bugfolder.Register) []engine.Record {
	if reg == nil {
		return nil
	}
	states, dirs, _ := List(Parents([]string{gitTop(project), project}, reg))
	out := make([]engine.Record, len(states))
	for i, st := range states {
		evs, _ := ReadEvents(dirs[i]) // an unreadable log: the record's count
		out[i] = clocked(record(dirs[i], st, Calls(st, evs)), evs)
	}
	return out
}

// gitTop is the nearest folder at or above dir holding .git, or "".
func gitTop(dir string) string {
	for d := dir; d != ""; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return ""
}

// rank orders a review's status as a debate's is ordered: a stalled
// review waits for a human, a running one runs, a refuse or a hold
// stopped, a pass is settled.
var rank = map[string]int{StatusStalled: 0, StatusRunning: 2, StatusRefused: 3, StatusHeld: 3, StatusError: 3, StatusCancelled: 3, StatusInterrupted: 3, StatusPassed: 4}

// record is what a row shows of a review.
func record(dir string, st *State, calls int) engine.Record {
	r := engine.Record{Dir: dir, ID: st.ID, BugID: st.BugID, Protocol: Name, Status: st.Status, Decision: st.Decision,
		Intent: st.Contract.Intent, Restricted: st.Restricted, StartedAt: st.StartedAt, Calls: calls,
		Paid: st.Calls > 0, CostUSD: st.CostUSD, CostUnknown: st.CostUnknown, Lenses: len(st.Lenses), Rounds: len(st.Rounds),
		WaitsDecision: WaitsForDecision(st), Running: st.Status == StatusRunning, Rank: rank[st.Status],
		File: filepath.Join(dir, StateFile), Summary: filepath.Join(dir, SummaryFile(st.LangOf()))}
	r.Said = r.Status
	if (st.Status == StatusStalled || st.Status == StatusHeld) && st.Decision != "" {
		r.Said = st.Status + " · decision " + st.Decision
	}
	if g, ok := LastGate(st); ok {
		r.Verdict, r.Passes, r.Holds, r.Refuses = VerdictWord(g), g.Passes, g.Holds, g.Refuses
		if g.Weakened && g.Outcome == OutcomePass && st.Status == StatusPassed {
			r.Said = st.Status + WeakenedMark // the STATUS column never reads a plain pass
		}
	}
	return r
}

// clocked adds to a record how long its run ran, as its event log
// records it over its sessions (the count moot list and a debate's
// header make), and its plan's figures (planned).
func clocked(r engine.Record, evs []engine.Event) engine.Record {
	planned(&r, evs)
	for _, ev := range evs {
		if !ev.Time.IsZero() {
			r.Clocked, r.LastEvent = true, ev.Time
		}
	}
	if r.Clocked {
		r.Elapsed = bugfolder.SessionsTotal(evs)
	}
	return r
}

// Stamp sums up what changes while a review runs: its record, its event
// log, its summary and each round's verdict files.
func (Keeper) Stamp(dir string) string {
	var sb strings.Builder
	files := []string{StateFile, EventsFile, "summary.md", "resumo.md", DecisionFile}
	rounds, _ := filepath.Glob(filepath.Join(dir, "round-*"))
	for _, r := range rounds {
		rel, _ := filepath.Rel(dir, r)
		files = append(files, filepath.Join(rel, RoutesFile))
		vs, _ := filepath.Glob(filepath.Join(r, VerdictsDir, "*.json"))
		for _, v := range vs {
			rel, _ := filepath.Rel(dir, v)
			files = append(files, rel)
		}
	}
	for _, f := range files {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			fmt.Fprintf(&sb, "%s:%d:%d;", f, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return sb.String()
}

// ReadRound reads a review's record, its events of a round (0: the
// latest begun), the round's verdict files, routes and the summary.
func (k Keeper) ReadRound(dir string, round int) (*engine.RecordRound, error) {
	stamp := k.Stamp(dir)
	st, err := ReadState(dir)
	if err != nil {
		return nil, err
	}
	st.Status = ListedStatus(st, dir) // as its row and moot list say it
	evs, err := ReadEvents(dir)
	if err != nil {
		return nil, err
	}
	d := &engine.RecordRound{Record: clocked(record(dir, st, Calls(st, evs)), evs), Rounds: len(st.Rounds), Stamp: stamp,
		Severities: []string{SevBlocker, SevMajor, SevMinor, SevInfo}}
	for _, e := range evs {
		d.Rounds = max(d.Rounds, e.Round)
	}
	d.Round = round
	if d.Round <= 0 || d.Round > d.Rounds {
		d.Round = d.Rounds
	}
	d.Seats = seats(dir, st, evs, d.Round)
	rd := filepath.Join(dir, RoundDir(d.Round))
	d.Routes = readDoc(filepath.Join(rd, RoutesFile))
	d.Sum = readDoc(filepath.Join(dir, SummaryFile(st.LangOf())))
	return d, nil
}

// readDoc reads a document, "" when it is not written yet.
func readDoc(p string) string {
	b, err := safefs.ReadFile(p, 4<<20)
	if err != nil {
		return ""
	}
	return string(b)
}

// seats builds a round's seats: the record's lenses in order, each from
// its events (rung, call_started, verdict) and, once written, its verdict
// file.
func seats(dir string, st *State, evs []engine.Event, round int) []engine.RecordSeat {
	var out []*engine.RecordSeat
	get := func(lens string) *engine.RecordSeat {
		for _, p := range out {
			if p.Lens == lens {
				return p
			}
		}
		p := &engine.RecordSeat{Lens: lens, Status: "waiting"}
		out = append(out, p)
		return p
	}
	for _, l := range st.Lenses {
		get(l.Name)
	}
	resumed := slices.IndexFunc(evs, func(e engine.Event) bool { return e.Type == engine.EvResumed }) >= 0
	// since is each lens's status from the last session's events (a
	// resume's): a seat cut by a cancel shows it, not the old cut
	since := map[string]string{}
	for _, e := range evs {
		if e.Type == engine.EvResumed {
			clear(since)
		}
		if e.Round != round || e.SolverID == "" {
			continue
		}
		p := get(e.SolverID)
		switch e.Type {
		case engine.EvCallStarted:
			since[e.SolverID] = "called"
		case engine.EvVerdict:
			since[e.SolverID] = string(e.Choice)
		}
		switch e.Type {
		case engine.EvRung:
			if !sat(Status(e.Choice)) {
				p.Rejected = append(p.Rejected, rungWhy(e.Engine, string(e.Choice), e.Reason))
			}
		case engine.EvCallStarted:
			p.Engine, p.Status = e.Engine, "called"
		case engine.EvVerdict:
			p.Engine, p.Status, p.Reason = e.Engine, string(e.Choice), e.Reason
		}
	}
	res := make([]engine.RecordSeat, len(out))
	for i, p := range out {
		cut := seatFile(filepath.Join(dir, RoundDir(round), VerdictsDir, p.Lens+".json"), p)
		if cut && resumed && (since[p.Lens] == "" || since[p.Lens] == "called") { // resumed: the lens is called again
			*p = engine.RecordSeat{Lens: p.Lens, Status: cmp.Or(since[p.Lens], "waiting")}
		}
		res[i] = *p
	}
	return res
}

// sat reports whether a rung's status is one that sat (or was not
// reached): no rejection to show.
func sat(s Status) bool { return s == StatusSat || s == StatusVerifier || s == StatusNotReached }

// rungWhy is one rejected rung's line: "engine: status — reason".
func rungWhy(eng, status, reason string) string {
	s := eng + ": " + status
	if reason != "" {
		s += " — " + reason
	}
	return s
}

// seatFile fills a seat from its lens's verdict file, once written, and
// reports whether the file is a cut seat's (no verdict on the change).
func seatFile(p string, seat *engine.RecordSeat) (cut bool) {
	b, err := safefs.ReadFile(p, 4<<20)
	if err != nil {
		return false
	}
	var s Seat
	if json.Unmarshal(b, &s) != nil {
		return false
	}
	seat.Engine, seat.Family, seat.Status, seat.Reason = s.Engine, s.Family, string(s.Outcome), s.Reason
	if s.Unverified {
		seat.Status = "UNVERIFIED"
	}
	seat.Findings, seat.Dry, seat.Checked = nil, s.Dry, s.Checked
	for _, f := range s.Findings {
		seat.Findings = append(seat.Findings, engine.RecordFinding{Severity: f.Severity, Claim: f.Claim, Evidence: f.Evidence, File: f.File, Impact: f.Impact, FollowUp: f.FollowUp})
	}
	seat.Rejected = nil
	for _, a := range s.Attempts {
		if !sat(a.Status) {
			seat.Rejected = append(seat.Rejected, rungWhy(a.Engine, string(a.Status), a.Reason))
		}
	}
	return s.Cut
}

// DecideRecord records the human decision on a stalled review, through
// the same function as moot decide (decisao.md).
func (Keeper) DecideRecord(dir string, choice bugfolder.Choice, note, by string, now func() time.Time) error {
	_, err := DecideHuman(Decision{Dir: dir, Choice: choice, Note: note, By: by, Now: now})
	return err
}
