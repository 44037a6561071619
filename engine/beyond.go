package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
)

// This file holds three of docs/beyond.md's guarantees beyond every peer: the
// judge family rule, the per-reader shuffled reading order, and the state
// of the judge's order-swap check (its step is in verify.go).

// beyond is a runner's part of docs/beyond.md: what problema.md freezes of it
// and what the run learns.
type beyond struct {
	// seed derives every reader's order: the debate's id and its
	// created_at as problema.md records it, so a resume re-derives the same
	// orders.
	seed string
	// started is problema.md's created_at (a new debate's, set once).
	started bugfolder.Stamp
	// verify and sameFamily are --verify-judge and --allow-same-family as
	// problema.md froze them.
	verify, sameFamily bool
	// check is the order-swap check's last verdict ("stable",
	// "unstable"; "" when not run).
	check string
	// swapping is set while the check's second judge call is admitted
	// and runs: it keeps no room after it.
	swapping bool
}

// orderSeed is the seed of a debate's reading orders.
func orderSeed(id string, created bugfolder.Stamp) string {
	return id + "|" + string(created)
}

// JudgingSupport is an optional part of a Protocol whose support role
// judges the panel (argue's scorer): the judge family rule holds it too.
type JudgingSupport interface {
	SupportJudges() bool
}

// FamilyRefusals is the judge family rule (docs/beyond.md): the final step's
// engine (a judge, a synthesizer) — and a support role that judges the
// panel (argue's scorer) — must be of another vendor family than every
// panel member's engine, unless allowed. An engine of unknown family never
// clashes. Each refusal names the family and both engines.
func FamilyRefusals(s Setup, cfg *harness.Config) []string {
	if s.AllowSameFamily || s.Protocol == nil || cfg == nil {
		return nil
	}
	panelRole, supportRole, finalRole := s.Protocol.Roles()
	judges := []struct {
		role   bugfolder.Role
		engine string
	}{{finalRole, s.Judge}}
	if js, ok := s.Protocol.(JudgingSupport); ok && js.SupportJudges() {
		for _, e := range s.Critics {
			judges = append(judges, struct {
				role   bugfolder.Role
				engine string
			}{supportRole, e})
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, j := range judges {
		jf := familyOf(cfg, j.engine)
		if jf == "" {
			continue
		}
		for _, m := range s.Solvers {
			key := j.engine + "|" + m
			if seen[key] || !harness.SameFamily(jf, familyOf(cfg, m)) {
				continue
			}
			seen[key] = true
			out = append(out, fmt.Sprintf("the %s's engine %s and the %s engine %s are both of the %s family: a judge of the same vendor family as a %s may favour its own; choose engines of different families, or pass --allow-same-family (recorded in the final answer)",
				j.role, j.engine, panelRole, m, jf, panelRole))
		}
	}
	return out
}

// SameEngineJudge warns ("" when there is nothing to say) when the final
// step runs on the very engine every panel member runs on and the family
// rule did not refuse it (the engine's family is unknown, or the rule was
// lifted): a judge reading answers its own model wrote may favour them.
func SameEngineJudge(s Setup, cfg *harness.Config) string {
	if s.Protocol == nil || s.Judge == "" || len(s.Solvers) == 0 {
		return ""
	}
	for _, e := range s.Solvers {
		if e != s.Judge {
			return ""
		}
	}
	if cfg != nil && familyOf(cfg, s.Judge) != "" && !s.AllowSameFamily {
		return "" // the family rule refuses it, naming the family
	}
	why := "its family is unknown, so the family rule cannot tell"
	if s.AllowSameFamily {
		why = "--allow-same-family lifted the family rule"
	}
	panel, _, final := s.Protocol.Roles()
	return fmt.Sprintf("the %s runs on engine %s, the very engine every %s runs on: it judges answers its own model wrote and may favour them (%s); choose another engine for the %s (--judge, or --synthesizer)",
		final, s.Judge, panel, why, final)
}

// familyOf is an engine's vendor family, lowercased ("" when unknown or
// not configured).
func familyOf(cfg *harness.Config, name string) string {
	ec, err := cfg.Engine(name)
	if err != nil {
		return ""
	}
	return strings.ToLower(ec.Family())
}

// readerIndex is a reader's place among the readers of a round: the panel
// in order, then the support role.
func (r *runner) readerIndex(id string) int {
	if i := slices.Index(r.solvers, id); i >= 0 {
		return i
	}
	if j := slices.Index(r.critics, id); j >= 0 {
		return len(r.solvers) + j
	}
	return 0
}

// readingOrder is the order reader id reads round k's snapshot in: one
// seeded shuffle of the snapshot per round, rotated by the reader's place
// (plus a seeded offset). The readers of a round thus read it in a
// Latin square: with at least as many readers as proposals, every
// proposal is read first by one of them and sits at every position
// equally often; the shuffle changes from round to round.
func (r *runner) readingOrder(k int, id string, entries []SnapshotEntry) []SnapshotEntry {
	m := len(entries)
	if m < 2 {
		return entries
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|round %d", r.beyond.seed, k)))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	base := rng.Perm(m)
	off := (r.readerIndex(id) + int(binary.BigEndian.Uint64(sum[16:24])%uint64(m))) % m
	out := make([]SnapshotEntry, m)
	for i := range m {
		out[i] = entries[base[(i+off)%m]]
	}
	return out
}

// logOrder records the order a reader was shown the proposals in.
func (r *runner) logOrder(k int, id string, role bugfolder.Role, entries []SnapshotEntry) {
	if len(entries) == 0 {
		return
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	r.emit(Event{Type: EvReadingOrder, Round: k, SolverID: id, Role: role, Order: ids})
}

// judgeClash refuses, under the judge family rule, a judge retried on an
// engine of a panel member's family (the judge menu's other engine), as
// the plan refused it at setup.
func (r *runner) judgeClash(engine string) error {
	return r.familyClash("", "", engine)
}

// panelClash refuses, under the same rule, a failed panel member swapped
// to an engine of the judge's family (the quorum menu's swap).
func (r *runner) panelClash(id, engine string) error {
	return r.familyClash(id, engine, r.judgeEngine)
}

// familyClash is the judge family rule (FamilyRefusals, the one
// predicate) over the debate's engines as they stand, with panel member
// id on engine (or, id "", engine added as a panel member to be) and the
// judge on judge; nil when the rule holds or --allow-same-family lifted it.
func (r *runner) familyClash(id, engine, judge string) error {
	if r.beyond.sameFamily {
		return nil
	}
	s := Setup{Protocol: r.proto, Judge: judge}
	for _, m := range r.solvers {
		e := r.engineOf[m]
		if m == id {
			e = engine
		}
		s.Solvers = append(s.Solvers, e)
	}
	if id == "" && engine != "" { // a solver to be: the quorum menu's list
		s.Solvers = append(s.Solvers, engine)
	}
	for _, c := range r.critics {
		s.Critics = append(s.Critics, r.engineOf[c])
	}
	if why := FamilyRefusals(s, r.opts.Config); len(why) > 0 {
		return fmt.Errorf("%s", why[0])
	}
	return nil
}
