package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/humantime"
)

// Stage is one step of a debate's critical path: calls that run together
// (in parallel up to the limits), the next stage starting when the
// slowest of them ends — a round's critics before its solvers, the final
// step last.
type Stage struct {
	Round int    `json:"round"`
	Role  string `json:"role"`
	Calls int    `json:"calls"`
	// Waves is how many turns the stage takes under the call limits
	// (--parallel, an engine's parallel:): 1 when all its calls fit.
	Waves int `json:"waves"`
	// Longest is the longest hard limit among the stage's calls.
	Longest time.Duration `json:"longest_ns"`
	// Final marks the final step (the judge's call).
	Final bool `json:"final,omitempty"`
}

// DefaultParallel is --parallel's default: the largest stage, so that
// every stage runs all its calls at once.
func DefaultParallel(s Setup) int {
	return max(s.N, len(s.Critics), 1)
}

// criticalPath lists the stages of a setup in the order they run, from
// the protocol's Batches over the rounds its counts imply.
func criticalPath(s Setup, cfg *harness.Config, calls CallCounts) []Stage {
	if s.Protocol == nil || s.N == 0 {
		return nil
	}
	panelRole, supportRole, finalRole := s.Protocol.Roles()
	panel := make([]string, s.N)
	for i := range panel {
		panel[i] = s.Lang.SolverID(i + 1)
	}
	support := make([]string, len(s.Critics))
	engineOf := map[string]string{}
	for i, e := range s.Solvers {
		if i < len(panel) {
			engineOf[panel[i]] = e
		}
	}
	for j, e := range s.Critics {
		support[j] = s.Lang.CriticID(j + 1)
		engineOf[support[j]] = e
	}
	parallel := s.Parallel
	if parallel < 1 {
		parallel = DefaultParallel(s)
	}
	stage := func(k int, role string, engines []string) Stage {
		st := Stage{Round: k, Role: role, Calls: len(engines), Waves: (len(engines) + parallel - 1) / parallel}
		per := map[string]int{}
		for _, e := range engines {
			per[e]++
			limit := s.Timeout
			ec, err := cfg.Engine(e)
			if limit <= 0 && err == nil && ec.Timeout > 0 {
				limit = ec.Timeout
			}
			if limit <= 0 {
				limit = DefaultTimeout
			}
			st.Longest = max(st.Longest, limit)
		}
		for e, n := range per {
			if ec, err := cfg.Engine(e); err == nil && ec.Parallel > 0 {
				st.Waves = max(st.Waves, (n+ec.Parallel-1)/ec.Parallel)
			}
		}
		return st
	}
	var out []Stage
	for k := 0; k < calls.Solvers/s.N; k++ {
		for _, batch := range s.Protocol.Batches(k, panel, support) {
			if len(batch) == 0 {
				continue
			}
			role := string(panelRole)
			if contains(support, batch[0]) {
				role = string(supportRole)
			}
			engines := make([]string, len(batch))
			for i, id := range batch {
				engines[i] = engineOf[id]
			}
			out = append(out, stage(k, role, engines))
		}
	}
	if calls.Judge > 0 && s.Judge != "" {
		st := stage(max(calls.Solvers/s.N-1, 0), string(finalRole), []string{s.Judge})
		st.Final = true
		out = append(out, st)
	}
	return out
}

// PathText describes the plan's critical path for the plan: its stages
// in turn, each as long as its slowest call, which stages they are, and
// the most that can take by the calls' hard limits.
func (p *Plan) PathText() string {
	head, detail, most := p.path()
	if head == "" {
		return ""
	}
	return fmt.Sprintf("%s, each as long as its slowest call (%s); at most %s by the calls' time limits", head, detail, humantime.Duration(most))
}

// PathSummary is PathText in one short line, for the cost screen.
func (p *Plan) PathSummary() string {
	head, _, most := p.path()
	if head == "" {
		return ""
	}
	return fmt.Sprintf("%s, each its slowest call; at most %s", head, humantime.Duration(most))
}

// path is the critical path's count of stages (and turns), the stages in
// words, and the most it can take by the calls' hard limits.
func (p *Plan) path() (head, detail string, most time.Duration) {
	if len(p.Stages) == 0 {
		return "", "", 0
	}
	var parts []string
	waves := 0
	rounds := p.Stages
	if last := rounds[len(rounds)-1]; last.Final {
		rounds = rounds[:len(rounds)-1]
	}
	for i := 0; i < len(rounds); {
		// rounds with the same stages are told once: "rounds 1–3: 2 critics, then 4 solvers"
		j, sig := i, roundSig(rounds, i)
		for j < len(rounds) && rounds[j].Round == rounds[i].Round {
			j++
		}
		first, last := rounds[i].Round, rounds[i].Round
		for j < len(rounds) && rounds[j].Round == last+1 && roundSig(rounds, j) == sig {
			last++
			for j < len(rounds) && rounds[j].Round == last {
				j++
			}
		}
		where := fmt.Sprintf("round %d", first)
		if last > first {
			where = fmt.Sprintf("rounds %d–%d", first, last)
		}
		parts = append(parts, where+": "+sig)
		i = j
	}
	if len(rounds) < len(p.Stages) {
		parts = append(parts, "then the "+p.Stages[len(p.Stages)-1].Role)
	}
	for _, st := range p.Stages {
		waves += st.Waves
		most += time.Duration(st.Waves) * st.Longest
	}
	head = fmt.Sprintf("%d stages in turn", len(p.Stages))
	if waves > len(p.Stages) {
		head = fmt.Sprintf("%d stages in %d turns (call limits)", len(p.Stages), waves)
	}
	return head, strings.Join(parts, "; "), most
}

// roundSig describes the stages of the round of p.Stages[i], in order
// ("2 critics, then 4 solvers"); the final step stands alone.
func roundSig(stages []Stage, i int) string {
	var words []string
	for j := i; j < len(stages) && stages[j].Round == stages[i].Round; j++ {
		words = append(words, fmt.Sprintf("%d %s", stages[j].Calls, plural(stages[j].Role, stages[j].Calls)))
	}
	return strings.Join(words, ", then ")
}

func plural(role string, n int) string {
	if n == 1 {
		return role
	}
	return role + "s"
}
