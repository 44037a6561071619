package bugfolder

import (
	"time"
)

// Summary is what a listing shows of one bug: its latest debate's state
// and figures, and how many debates it has had.
type Summary struct {
	Bug *Bug
	// Kind is the subject: KindBug ("" reads as a bug) or KindQuestion.
	Kind string
	// Debates are the bug's debates, oldest first (filled by Summarize;
	// IndexBug reads only the latest). Count is how many there are.
	Debates []*Debate
	Count   int
	Latest  *Debate
	State   State
	Mode    Mode
	N, R    int
	// Winner is the winning label ("Proposta B"); WinnerSolver who wrote it.
	Winner       string
	WinnerSolver string
	CostUSD      float64
	// CostUnknown is set when no cost was recorded (a hand-run debate).
	CostUnknown bool
	// CostUnpriced is set when some call recorded no cost: CostUSD counts
	// only the priced ones (money.Total).
	CostUnpriced bool
	Tokens       int
	// Calls is how many model calls the latest debate made (retries
	// included, human choices not).
	Calls     int
	StartedAt time.Time
	// StartedForm says how much of StartedAt its file wrote (a date
	// alone, a time without an offset, or a full time).
	StartedForm TimeForm
	// Health is tokens spent per accepted contribution (0 when unknown).
	Health float64
	// RecommendedVerdict is a spec debate's recommendation; Decision the
	// human decision on the result (Debate.DecisionState: "pending",
	// approve, decline, revise; "" when it waits for none).
	RecommendedVerdict, Decision string
	// DecisionClosed is set when the result waited for a decision that
	// can no longer be taken: the bug was closed by DONE.md (Decision is
	// then "": nothing waits).
	DecisionClosed bool
	// ArchivedPending is the newest archived debate whose result still
	// waits for a human decision moot decide can record (a new debate
	// archived it undecided), whether or not the latest waits too; ""
	// otherwise.
	ArchivedPending string
	// Problems are files of the debates that could not be read.
	Problems []error
	// Warnings are misreadings avoided (a judge's file naming two
	// winners): the listing shows them without failing.
	Warnings []error
}

// fromLatest takes what the latest debate's problem and final answer
// record: state, mode, N, R, start, winner and health.
func (s *Summary) fromLatest(d *Debate) {
	s.Latest = d
	s.State = d.State
	s.Calls = CountModelCalls(d)
	if d.Problem != nil {
		s.Mode, s.N, s.R = d.Problem.Mode, d.Problem.N, d.Problem.R
	}
	s.StartedAt, s.StartedForm = d.StartedAt(), d.StartedForm()
	s.Decision = d.DecisionState()
	if d.DecisionClosed() { // it can never be taken: not pending, not first
		s.Decision, s.DecisionClosed = "", true
	}
	if f := d.Final; f != nil {
		s.WinnerSolver = f.WinnerSolver
		if f.Winner != "" {
			s.Winner = d.Lang.LabelName(f.Winner)
		} else if f.WinnerSolver != "" {
			s.Winner, s.WinnerSolver = f.WinnerSolver, "" // a hand-run judge named the solver, not a label
		}
		s.Health = f.HealthTokensPerContribution
		s.RecommendedVerdict = f.RecommendedVerdict
		if w := f.AmbiguousWinner(d.Lang); w != nil {
			s.Warnings = append(s.Warnings, w)
		}
	}
}

// fromFiles derives from the latest debate's files (read in full) what its
// problem and final answer did not record: the totals, N from round 0's
// solvers, R from the last round (a debate without problema.md) and the
// health from the totals.
func (s *Summary) fromFiles(full *Debate) {
	s.Tokens, s.CostUSD = full.Totals()
	s.CostUnknown = !full.CostKnown()
	s.CostUnpriced = full.CostUnpriced()
	if s.N == 0 && len(full.Rounds) > 0 {
		for _, f := range full.Rounds[0].Files {
			if f.Role == RoleSolver {
				s.N++
			}
		}
	}
	if s.R == 0 && len(full.Rounds) > 0 && full.Problem == nil {
		s.R = full.Rounds[len(full.Rounds)-1].K
	}
	if f := s.Latest.Final; s.Health == 0 && f != nil && f.AcceptedContributions > 0 && s.Tokens > 0 {
		s.Health = float64(s.Tokens) / float64(f.AcceptedContributions)
	}
}

// StatusWord is a subject's status in words, the same in moot list and
// the browser's STATUS column: the state, "(incomplete)" for a bug folder
// without bug.md, "(closed)" for a bug closed by DONE.md, and the human
// decision on its result ("· decision pending", "· decision approve").
func StatusWord(state State, incomplete, closed bool, decision string) string {
	w := string(state)
	if incomplete {
		w += " (incomplete)"
	}
	if closed {
		w += " (closed)"
	}
	if decision != "" {
		w += " · decision " + decision
	}
	return w
}

// StatusWord is the summary's status in words (StatusWord).
func (s *Summary) StatusWord() string {
	return StatusWord(s.State, s.Bug.Incomplete, s.Bug.Done, DecisionWord(s.Decision, s.DecisionClosed, s.ArchivedPending != ""))
}

// ArchivedPendingWord is the decision's word when the result that waits
// for it was archived by a newer debate (Summary.ArchivedPending).
const ArchivedPendingWord = "pending (archived)"

// DecisionWord is the decision a listing shows: the latest result's, "not
// taken" once the bug closed over a pending one, and a decision pending on
// an archived result said beside it.
func DecisionWord(decision string, closed, archivedPending bool) string {
	if closed {
		decision = DecisionNotTaken
	}
	switch {
	case !archivedPending:
		return decision
	case decision == DecisionPending:
		return DecisionPending + " (and archived)"
	case decision == "":
		return ArchivedPendingWord
	}
	return decision + ", " + ArchivedPendingWord
}

// DecisionNotTaken is the decision's word when the result waited for a
// human decision but the bug was closed first (DecisionClosed).
const DecisionNotTaken = "not taken"
