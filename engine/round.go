package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// roundFiles returns the debater files of round k that exist, by id. They
// are read from disk once and kept until a file of that round is written
// again, so the map always says what the disk says. Callers must not
// change it.
func (r *runner) roundFiles(k int) map[string]*bugfolder.DebaterFile {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	if c, ok := r.cache[k]; ok {
		return c
	}
	out := map[string]*bugfolder.DebaterFile{}
	dir := filepath.Join(r.w.Dir, r.lang.RoundDir(k))
	for _, id := range append(append([]string{}, r.solvers...), r.critics...) {
		p := filepath.Join(dir, id+".md")
		raw, err := safefs.ReadFile(p, 0)
		if err != nil {
			continue
		}
		f, err := bugfolder.ParseDebaterFile(p, raw)
		if err != nil {
			continue
		}
		if f.SolverID == "" {
			f.SolverID = id
		}
		out[id] = f
	}
	if r.cache == nil {
		r.cache = map[int]map[string]*bugfolder.DebaterFile{}
	}
	r.cache[k] = out
	return out
}

// keep records a file of round k just written (its bytes are what the disk
// holds), or forgets the round's files when the write failed.
func (r *runner) keep(k int, id, path string, data []byte, werr error) {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	c, ok := r.cache[k]
	if !ok {
		return // not read yet: the next read sees the file on disk
	}
	f, err := bugfolder.ParseDebaterFile(path, data)
	if werr != nil || err != nil {
		delete(r.cache, k)
		return
	}
	next := make(map[string]*bugfolder.DebaterFile, len(c)+1)
	for key, v := range c {
		next[key] = v
	}
	next[id] = f
	r.cache[k] = next
}

// runRound runs the calls of round k that have no file yet, batch after
// batch as the protocol orders them, checks the quorum (asking the
// Supervisor when it is lost) and writes the convergence file.
func (r *runner) runRound(ctx context.Context, k int) error {
	have := r.roundFiles(k)
	var batches [][]string
	// the support role is offered every round; the protocol's Batches
	// decides where it runs (a debate's critics: from round 1)
	for _, batch := range r.proto.Batches(k, r.panelIDs(), r.critics) {
		var todo []string
		for _, id := range batch {
			if have[id] == nil || cutOff(r.interrupted, k, id, have[id]) {
				todo = append(todo, id)
			}
		}
		if len(todo) > 0 {
			batches = append(batches, todo)
		}
	}
	if len(batches) > 0 {
		r.emit(Event{Type: EvRoundStarted, Round: k})
	}
	r.roundDeadline = time.Time{}
	if d := r.opts.RoundTimeout; d > 0 {
		r.roundDeadline = time.Now().Add(d)
	}
	for _, batch := range batches {
		if r.readsThePanel(k)[batch[0]] && len(r.validAnswers(k)) == 0 {
			continue // nothing to score: the quorum menu asks first, the support runs once there is
		}
		if err := r.runCalls(ctx, k, batch); err != nil {
			return err
		}
	}
	// the answers' folders are synced while the convergence is measured
	early := r.w.StartBarrier()
	if err := r.closeRound(ctx, k); err != nil {
		return err
	}
	// the round is durable before the next one reads it: after a power
	// loss a resume never re-runs a call whose answer a later round saw
	return errors.Join(early(), r.w.Barrier())
}

// closeRound writes round k's convergence row (it exists even when the
// quorum is lost) and asks the quorum's question when it is lost.
func (r *runner) closeRound(ctx context.Context, k int) error {
	if err := r.writeConvergence(k); err != nil {
		return err
	}
	asked, err := r.quorum(ctx, k)
	if err != nil {
		return err
	}
	if asked {
		return r.writeConvergence(k)
	}
	return nil
}

// snapshot builds what the debaters of round k read: the frozen files of
// round k-1 — every panel solver's valid proposal (or a note that it has
// none) — by protocol id, engine names scrubbed. peers are the solvers
// with a proposal.
func (r *runner) snapshot(k int) (entries []SnapshotEntry, peers []string) {
	if k == 0 {
		return nil, nil
	}
	prev := r.roundFiles(k - 1)
	scrub := r.scrubber(KeepIDs)
	for _, id := range r.panelIDs() {
		f := prev[id]
		if f == nil || f.Status != bugfolder.StatusOK {
			st := bugfolder.Status("no file")
			if f != nil {
				st = f.Status
			}
			entries = append(entries, SnapshotEntry{ID: id, Missing: true, Status: st, Lens: r.lensOf[id]})
			continue
		}
		entries = append(entries, SnapshotEntry{ID: id, Body: scrub.Apply(f.Body), Lens: r.lensOf[id]})
		peers = append(peers, id)
	}
	return entries, peers
}

// outOfDebate lists the panel members out of the debate by round k, each
// with the status of its last file before round k and its lens.
func (r *runner) outOfDebate(k int) []SnapshotEntry {
	var out []SnapshotEntry
	for _, id := range r.solvers {
		if r.panel[id] {
			continue
		}
		st := bugfolder.Status("no file")
		for j := k - 1; j >= 0; j-- {
			if f := r.roundFiles(j)[id]; f != nil {
				st = f.Status
				break
			}
		}
		out = append(out, SnapshotEntry{ID: id, Missing: true, Status: st, Lens: r.lensOf[id]})
	}
	return out
}

// earlier lists the valid files of round k's earlier batches (ids), which
// a later batch reads beside the snapshot of k-1: a debate's solvers read
// the critiques, argue's scorer the personas' answers.
func (r *runner) earlier(k int, ids []string) []SnapshotEntry {
	files := r.roundFiles(k)
	scrub := r.scrubber(KeepIDs)
	var out []SnapshotEntry
	for _, id := range ids {
		if f := files[id]; f != nil && f.Status == bugfolder.StatusOK {
			out = append(out, SnapshotEntry{ID: id, Critic: r.roleOf(id) == r.supportRole, Body: scrub.Apply(f.Body)})
		}
	}
	return out
}

// history lists the valid panel answers of rounds 0 to k-1, oldest
// first — a persona dropped since included: what it argued was raised —
// scrubbed like the snapshot.
func (r *runner) history(k int) [][]SnapshotEntry {
	scrub := r.scrubber(KeepIDs)
	out := make([][]SnapshotEntry, 0, k)
	for j := range k {
		files := r.roundFiles(j)
		var round []SnapshotEntry
		for _, id := range r.solvers {
			if f := files[id]; f != nil && f.Status == bugfolder.StatusOK {
				round = append(round, SnapshotEntry{ID: id, Body: scrub.Apply(f.Body), Lens: r.lensOf[id]})
			}
		}
		out = append(out, round)
	}
	return out
}

// ownView marks the reader's own previous proposal in a snapshot.
func ownView(entries []SnapshotEntry, reader string) []SnapshotEntry {
	out := make([]SnapshotEntry, len(entries))
	copy(out, entries)
	for i := range out {
		out[i].Own = !out[i].Critic && out[i].ID == reader
	}
	return out
}

// engineNames lists every engine and model name the debate uses, for
// anonymizing.
func (r *runner) engineNames() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, name := range append(mapValues(r.engineOf), r.judgeEngine) {
		add(name)
		if ec, err := r.opts.Config.Engine(name); err == nil {
			add(ec.Model)
		}
	}
	return out
}

// scrubber is the anonymizer of this debate's engine and model names.
func (r *runner) scrubber(mode AnonymizeMode) *Anonymizer {
	return NewAnonymizer(r.lang, r.engineNames(), mode)
}

// runCalls runs the calls of round k for ids, in parallel within the
// limits, each reading the same frozen snapshot (and the valid answers of
// the round's earlier batches).
func (r *runner) runCalls(ctx context.Context, k int, ids []string) error {
	type job struct {
		id   string
		role bugfolder.Role
		call Call
	}
	jobs := make([]job, 0, len(ids))
	snap, snapPeers := r.snapshot(k)
	var opening []SnapshotEntry
	if k >= 2 {
		opening, _ = r.snapshot(1)
	}
	out := r.outOfDebate(k)
	afterPanel := r.readsThePanel(k)
	for _, id := range ids {
		earlier := r.earlier(k, r.batchBefore(k, id))
		role := r.roleOf(id)
		c := Call{Lang: r.lang, Mode: r.mode, Role: role, ID: id, N: r.n, R: r.r, Round: k,
			Rubric: r.rubric, P: r.p, Snapshot: r.readingOrder(k, id, ownView(snap, id)), Earlier: earlier, Peers: snapPeers, Nonce: Nonce(), Lens: r.lensOf[id], Opening: r.readingOrder(k, id, ownView(opening, id)), Out: out}
		if afterPanel[id] {
			c.History = r.history(k)
		}
		r.logOrder(k, id, role, c.Snapshot)
		jobs = append(jobs, job{id, role, c})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.callDebater(ctx, k, j.id, j.role, j.call)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// outcome is one call's result, after the automatic retry.
type outcome struct {
	res       harness.Result
	engine    string
	attempt   int
	started   time.Time
	finished  time.Time
	tokensIn  int
	tokensOut int
	estimated bool
	cost      *float64
	// cache is the call's use of the provider's prompt cache, for its
	// call_finished (zero when none).
	cache cacheUse
	// called is false when the call was refused before it ran.
	called bool
	// raw reports the commit of the final attempt's raw files, which runs
	// alongside the debater file's write (their fsyncs then share a
	// journal commit instead of queueing).
	raw chan error
}

// status maps the harness's failure to the protocol's status: ok when the
// engine answered (its answer may still prove invalid), timeout, else error.
func (o *outcome) status() bugfolder.Status {
	switch o.res.Failure {
	case harness.FailNone:
		return bugfolder.StatusOK
	case harness.FailTimeout:
		return bugfolder.StatusTimeout
	}
	return bugfolder.StatusError
}

// rawErr waits for the raw files of the final attempt.
func (o *outcome) rawErr() error {
	if o.raw == nil {
		return nil
	}
	err := <-o.raw
	o.raw = nil
	return err
}

// roleOf is a participant's role: the support role's ids are the critics.
func (r *runner) roleOf(id string) bugfolder.Role {
	if contains(r.critics, id) {
		return r.supportRole
	}
	return r.panelRole
}

// expectedOut is a role's expected answer size on an engine.
func (r *runner) expectedOut(role bugfolder.Role, lim harness.Limits) int {
	e := r.proto.ExpectedTokens(role)
	if lim.MaxOutputTokens > 0 && lim.MaxOutputTokens < e {
		e = lim.MaxOutputTokens
	}
	return e
}

var attemptFile = lazyre.New(`^(.+)\.attempt-(\d+)\.`)

// nextAttempt numbers a new attempt of id in round k. The numbers already
// used are read once per raw folder (so a resume never overwrites earlier
// raw output), then counted in memory.
func (r *runner) nextAttempt(k int, id string) int {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	used := r.usedAttempts(k, id)
	used[id]++
	return used[id]
}

// peekAttempt is the number the next attempt of id in round k will get.
func (r *runner) peekAttempt(k int, id string) int {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	return r.usedAttempts(k, id)[id] + 1
}

// usedAttempts is the last attempt number per id of round k's raw folder;
// the caller holds cacheMu.
func (r *runner) usedAttempts(k int, id string) map[string]int {
	dir := filepath.Join(r.w.Dir, filepath.Dir(r.w.RawPath(k, id, 1, "stdout")))
	if r.attempts == nil {
		r.attempts = map[string]map[string]int{}
	}
	used, ok := r.attempts[dir]
	if !ok {
		used = map[string]int{}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if m := attemptFile.FindStringSubmatch(e.Name()); m != nil {
				if n, _ := strconv.Atoi(m[2]); n > used[m[1]] {
					used[m[1]] = n
				}
			}
		}
		r.attempts[dir] = used
	}
	return used
}

// lazyRaw is a raw-output file created when its first byte arrives, so
// starting a call creates no file (and an empty stderr never becomes one).
type lazyRaw struct {
	w   *bugfolder.Writer
	rel string
	f   *bugfolder.AtomicFile
	err error
}

func (l *lazyRaw) Write(p []byte) (int, error) {
	if l.f == nil && l.err == nil {
		l.f, l.err = l.w.CreateRaw(l.rel)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.f.Write(p)
}

// commit makes the file appear; with always set, even when nothing was
// written (the raw stdout of every attempt is kept).
func (l *lazyRaw) commit(always bool) error {
	if l.f == nil && l.err == nil && always {
		l.f, l.err = l.w.CreateRaw(l.rel)
	}
	if l.err != nil {
		return l.err
	}
	if l.f == nil {
		return nil
	}
	return l.f.Commit()
}

// invoke calls an engine for id in round k: the context-window check, the
// call with its raw output kept, and the one automatic retry for a start or
// transport failure. It returns ctx's error when interrupted. The prompt
// is rendered (in pieces, P shared) once the call has its place in the
// limits, so a waiting call holds none.
func (r *runner) invoke(ctx context.Context, k int, id string, role bugfolder.Role, render func() []string) (*outcome, error) {
	return r.invokeStarted(ctx, k, id, role, render, nil)
}

// invokeStarted is invoke, calling started (when set) once the first
// attempt passed the budget's check, before its call_started: what a step
// logs as begun (the judge's judge_started) is never logged for a call the
// budget held back.
func (r *runner) invokeStarted(ctx context.Context, k int, id string, role bugfolder.Role, render func() []string, started func()) (*outcome, error) {
	engine := r.engineOf[id]
	if role == r.finalRole {
		engine = r.judgeEngine
	}
	adapter := r.adapters[engine]
	lim := r.limits[engine]
	o := &outcome{engine: engine}
	release, err := r.slots.acquire(ctx, engine)
	if err != nil {
		return nil, err
	}
	defer release()
	var resv *reservation
	prompt := render()
	for try := 0; try < 2; try++ {
		resv.done(0, 0) // a failed attempt recorded nothing
		if resv, err = r.admitCall(ctx, k, id, role, engine, prompt); err != nil {
			return nil, err
		}
		if try == 0 && started != nil {
			started()
		}
		o.attempt = r.nextAttempt(k, id)
		o.started = r.now()
		r.emit(Event{Type: EvCallStarted, Round: k, SolverID: id, Role: role, Engine: engine, Attempt: o.attempt})
		if ctxTok := lim.ContextTokens; ctxTok > 0 {
			in, out := bugfolder.EstimateTokens(promptLen(prompt)), r.expectedOut(role, lim)
			if in+out > ctxTok {
				o.res = harness.Result{Failure: harness.FailEngine,
					Err: fmt.Sprintf("refused before the call: the prompt (≈%s tokens) and the answer (≈%s) do not fit engine %s's %s-token context window", digits.Grouped(in), digits.Grouped(out), engine, digits.Grouped(ctxTok))}
				o.finished = o.started
				break
			}
		}
		if role == r.finalRole {
			// every judge attempt keeps its prompt, before the call, so an
			// interrupted one has it too
			if err := r.keepPrompt(prompt, o.attempt); err != nil {
				return nil, err
			}
		}
		stdout := &lazyRaw{w: r.w, rel: r.w.RawPath(k, id, o.attempt, "stdout")}
		stderr := &lazyRaw{w: r.w, rel: r.w.RawPath(k, id, o.attempt, "stderr")}
		o.called = true
		open := func() {}
		if r.warms(engine, prompt) {
			var wait <-chan struct{}
			if wait, open = r.warm.enter(engine); wait != nil {
				select {
				case <-wait:
				case <-ctx.Done():
				}
			}
		}
		o.res = adapter.Call(ctx, harness.Request{
			Protocol: r.proto.Name(), Role: string(role), SolverID: id, Round: k, BugID: r.bug.ID, Mode: string(r.mode), Attempt: o.attempt, Lens: r.lensOf[id].Name,
			PromptParts: prompt, CachePrefix: SharedPrefix(prompt), P: r.p, PFile: r.pFile.file(r.p), Timeout: r.callTimeout(id, engine, role), Stdout: stdout, Stderr: stderr, Group: r.w.Dir,
			OnOutput: func(delta string) {
				open()
				r.emit(Event{Type: EvOutput, Round: k, SolverID: id, Role: role, Text: delta})
			},
		})
		open()
		o.finished = r.now()
		commit := func() error {
			errC := stdout.commit(true)
			if e := stderr.commit(false); errC == nil {
				errC = e // nothing on stderr: no file
			}
			return errC
		}
		if try == 0 && o.res.Failure.Retryable() && ctx.Err() == nil {
			if err := commit(); err != nil {
				return nil, err
			}
			if role == r.finalRole {
				if err := r.keepRetriedJudge(k, id, o); err != nil {
					return nil, err
				}
			}
			r.emit(Event{Type: EvCallFinished, Round: k, SolverID: id, Role: role, Engine: engine, Attempt: o.attempt,
				Status: o.status(), DurationMS: o.finished.Sub(o.started).Milliseconds(), Error: o.res.Err, Retrying: true})
			continue
		}
		o.raw = make(chan error, 1)
		go func() { o.raw <- commit() }()
		if ctx.Err() != nil {
			_ = o.rawErr()
			resv.done(0, 0)
			return nil, ctx.Err()
		}
		break
	}
	defer func() { resv.done(o.tokensIn+o.tokensOut, deref(o.cost)) }()
	o.tokensIn, o.tokensOut, o.cost = o.res.TokensIn, o.res.TokensOut, o.res.CostUSD
	if o.called {
		var warn string
		o.tokensIn, o.tokensOut, o.cost, o.estimated, warn = recorded(&o.res, promptLen(prompt), lim, r.bud != nil, r.worstOut(engine, role), id, engine)
		if warn != "" {
			r.emit(Event{Type: EvWarning, Round: k, SolverID: id, Text: warn})
		}
		o.cache = cacheUse{read: o.res.CacheRead, write: o.res.CacheWrite, uncached: uncachedCost(o.res, o.tokensIn, o.tokensOut, o.cost, lim)}
	}
	return o, nil
}

// callTimeout is a call's hard limit: its own, cut to what is left of its
// round's limit (Options.RoundTimeout) for the panel and support roles,
// so a call still open when the round's limit passes ends as timeout.
func (r *runner) callTimeout(id, engine string, role bugfolder.Role) time.Duration {
	d := r.timeoutFor(id, engine)
	if role == r.finalRole {
		return d
	}
	return withinRound(d, r.roundDeadline)
}

// withinRound is a call's hard limit d cut to what is left of its round's
// limit (none when deadline is zero), every protocol's rule: a call still
// open when the round's limit passes ends as timeout.
func withinRound(d time.Duration, deadline time.Time) time.Duration {
	if deadline.IsZero() {
		return d
	}
	return min(d, max(time.Until(deadline), time.Millisecond))
}

// meta builds the front matter of a debater file from a call's outcome.
func (r *runner) meta(k int, id string, role bugfolder.Role, o *outcome, status bugfolder.Status) bugfolder.DebaterMeta {
	m := bugfolder.DebaterMeta{
		ProtocolVersion: bugfolder.ProtocolVersion, DebateID: fmt.Sprintf("%s-r%d", r.bug.ID, k), BugID: r.bug.ID,
		Role: role, SolverID: id, Engine: o.engine, Model: r.modelOf(o.engine), Round: k, Status: status,
		StartedAt: bugfolder.Timestamp(o.started), FinishedAt: bugfolder.Timestamp(o.finished),
		DurationMS: o.finished.Sub(o.started).Milliseconds(), Attempt: o.attempt,
		TokensIn: o.tokensIn, TokensOut: o.tokensOut, CostUSD: o.cost, TokensEstimated: o.estimated,
		ExitCode: o.res.ExitCode, Error: o.res.Err, Amendment: r.amendment[id],
	}
	return m
}

// modelOf is the model an engine is configured with ("" when it names none).
func (r *runner) modelOf(engine string) string {
	if ec, err := r.opts.Config.Engine(engine); err == nil {
		return ec.Model
	}
	return ""
}

// callDebater runs one participant's call and writes its file: the body
// as received (headings as the protocol writes them), the status (ok,
// timeout, error or invalid-output) in the front matter. A file is written
// for every finished call, never dropped.
func (r *runner) callDebater(ctx context.Context, k int, id string, role bugfolder.Role, c Call) error {
	o, err := r.invoke(ctx, k, id, role, func() []string { return r.renderPrompt(c) })
	if err != nil {
		return err
	}
	status := o.status()
	var invalid []string
	if status == bugfolder.StatusOK {
		o.res.Body, invalid = r.proto.Validate(c, o.res.Body)
		if len(invalid) > 0 {
			status = bugfolder.StatusInvalidOutput
		}
	}
	m := r.meta(k, id, role, o, status)
	m.Invalid = invalid
	path, data, err := r.w.WriteDebater(m, o.res.Body)
	r.keep(k, id, path, data, err)
	if e := o.rawErr(); err == nil {
		err = e
	}
	if err != nil {
		return err
	}
	if status == bugfolder.StatusOK {
		if err := r.liveArtifacts(); err != nil {
			return err
		}
	}
	errLine := o.res.Err
	if len(invalid) > 0 {
		errLine = "invalid: " + strings.Join(invalid, "; ")
	}
	r.emit(Event{Type: EvCallFinished, Round: k, SolverID: id, Role: role, Engine: o.engine, Attempt: o.attempt,
		Status: status, DurationMS: m.DurationMS, TokensIn: o.tokensIn, TokensOut: o.tokensOut,
		CostUSD: deref(o.cost), CostUnknown: o.cost == nil, Estimated: o.estimated, CacheRead: o.cache.read, CacheWrite: o.cache.write, CostUncachedUSD: o.cache.uncached, Error: errLine})
	return nil
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// tally counts round k's valid panel solvers and describes the failed.
func (r *runner) tally(k int) (valid []string, failed []FailedCall) {
	files := r.roundFiles(k)
	for _, id := range r.panelIDs() {
		f := files[id]
		switch {
		case f == nil:
			failed = append(failed, FailedCall{SolverID: id, Engine: r.engineOf[id], Status: "", LastError: "no file: the call did not finish"})
		case f.Status == bugfolder.StatusOK:
			valid = append(valid, id)
		default:
			last := f.Error
			if len(f.Invalid) > 0 {
				last = strings.Join(f.Invalid, "; ")
			}
			failed = append(failed, FailedCall{SolverID: id, Engine: f.Engine, Status: f.Status, LastError: last})
		}
	}
	return valid, append(failed, r.failedSupport(k)...)
}

// failedSupport describes round k's failed support calls when the
// protocol requires its support role (argue's scorer), unless a decision
// went on without them in that round.
func (r *runner) failedSupport(k int) []FailedCall {
	sr, ok := r.proto.(SupportRequired)
	if !ok || !sr.SupportRequired() || r.waived[k] {
		return nil
	}
	files := r.roundFiles(k)
	answered := len(r.validAnswers(k)) > 0
	afterPanel := r.readsThePanel(k)
	var out []FailedCall
	for _, batch := range r.proto.Batches(k, r.panelIDs(), r.critics) {
		for _, id := range batch {
			if r.roleOf(id) != r.supportRole {
				continue
			}
			switch f := files[id]; {
			case f == nil && !answered && afterPanel[id]:
				// never called: there was nothing to score
			case f == nil:
				out = append(out, FailedCall{SolverID: id, Engine: r.engineOf[id], LastError: "no file: the call did not finish"})
			case f.Status != bugfolder.StatusOK:
				last := f.Error
				if len(f.Invalid) > 0 {
					last = strings.Join(f.Invalid, "; ")
				}
				out = append(out, FailedCall{SolverID: id, Engine: f.Engine, Status: f.Status, LastError: last})
			}
		}
	}
	return out
}

// batchBefore lists the ids of round k's batches before the one holding
// id: what its call reads as Earlier.
func (r *runner) batchBefore(k int, id string) []string {
	var before []string
	for _, batch := range r.proto.Batches(k, r.panelIDs(), r.critics) {
		if slices.Contains(batch, id) {
			return before
		}
		before = append(before, batch...)
	}
	return before
}

// estimateCall prices one more call of a role on an engine.
func (r *runner) estimateCall(engine string, role bugfolder.Role) float64 {
	lim := r.limits[engine]
	if lim.Price == nil {
		return 0
	}
	s := Setup{Lang: r.lang, Mode: r.mode, N: r.n, R: r.r}
	in := r.proto.PromptOverhead(s, role) + bugfolder.EstimateTokens(len(r.p))
	if role != r.finalRole {
		in += r.n * r.proto.ExpectedTokens(r.panelRole)
	} else {
		in += len(r.panel) * r.proto.ExpectedTokens(r.panelRole)
	}
	out := r.expectedOut(role, lim)
	if f, ok := r.learned[engine]; ok { // priced as the plan prices it: learned
		in, out = scale(in, f.In), scale(out, f.Out)
	}
	return lim.Price.Cost(in, out)
}

// swapEngines lists the engines a failed solver may be swapped to: every
// configured engine, local ones only on a restricted bug, none that the
// judge family rule refuses (clash, as panelClash or judgeClash decides).
func (r *runner) swapEngines(clash func(engine string) error) []string {
	var out []string
	for _, name := range r.opts.Config.Order {
		ec := r.opts.Config.Engines[name]
		if r.bug.Restricted() && ec.External || clash(name) != nil {
			continue
		}
		out = append(out, name)
	}
	return out
}

// readsThePanel is the set of round k's support calls that run after a
// batch of panel members and so read their answers (argue's scorer), as
// opposed to support calls that run first (debate's critics read the last
// round, not this one's).
func (r *runner) readsThePanel(k int) map[string]bool {
	out := map[string]bool{}
	panelRan := false
	for _, batch := range r.proto.Batches(k, r.panelIDs(), r.critics) {
		for _, id := range batch {
			switch {
			case r.roleOf(id) != r.supportRole:
				panelRan = true
			case panelRan:
				out[id] = true
			}
		}
	}
	return out
}

// pendingSupport runs round k's support calls that never ran because no
// panel member had answered validly, once one has (after a retry or a
// swap at the quorum menu).
func (r *runner) pendingSupport(ctx context.Context, k int) error {
	if len(r.validAnswers(k)) == 0 {
		return nil
	}
	files := r.roundFiles(k)
	var todo []string
	for _, batch := range r.proto.Batches(k, r.panelIDs(), r.critics) {
		for _, id := range batch {
			if r.readsThePanel(k)[id] && files[id] == nil {
				todo = append(todo, id)
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}
	return r.runCalls(ctx, k, todo)
}

// quorum checks round k's quorum and, while it is lost, asks the
// Supervisor and applies the answer.
func (r *runner) quorum(ctx context.Context, k int) (asked bool, err error) {
	for {
		if err := r.pendingSupport(ctx, k); err != nil {
			return asked, err
		}
		valid, failed := r.tally(k)
		need := r.needed()
		if len(valid) >= need && len(r.failedSupport(k)) == 0 {
			return asked, nil
		}
		if k >= 1 && r.stopRequested() {
			return asked, r.stopBeforeRound(k)
		}
		asked = true
		var failedIDs []string
		retryUSD := 0.0
		for _, f := range failed {
			failedIDs = append(failedIDs, f.SolverID)
			retryUSD += r.estimateCall(r.engineOf[f.SolverID], r.roleOf(f.SolverID))
		}
		// only the support role failed: the panel's quorum holds, and going
		// on without it saves no call (it runs again next round)
		support := len(valid) >= need
		lost := Event{Type: EvQuorumLost, Round: k, Valid: len(valid), Needed: need, Failed: failedIDs}
		saves := len(failed) * (r.r - k)
		if support {
			lost.Role, saves = r.supportRole, 0
		}
		r.emit(lost)
		words := Describe(r.proto)
		q := QuorumLoss{Round: k, Valid: len(valid), Needed: need, Panel: len(r.panel), ValidIDs: valid, Failed: failed,
			RetryCalls: len(failed), RetryUSD: retryUSD, ContinueSaves: saves, Engines: r.swapEngines(func(e string) error { return r.panelClash("", e) }),
			Member: words.Member, Members: words.Members, Support: support, Supporter: words.Supporter}
		d, qerr := r.opts.Supervisor.QuorumLost(ctx, q)
		err = qerr
		if errors.Is(err, ErrNeedHuman) {
			if support {
				return asked, &errStop{OutcomeWaiting, fmt.Sprintf("the %s failed in round %d (the quorum of %s holds) and no human to ask; `moot resume %s` asks again", words.Supporter, k, words.Members, r.resumeTarget())}
			}
			return asked, &errStop{OutcomeWaiting, fmt.Sprintf("quorum lost in round %d (%d of %d valid, %d needed) and no human to ask; `moot resume %s` asks again", k, len(valid), len(r.panel), need, r.resumeTarget())}
		}
		if err != nil {
			return asked, err
		}
		by := d.By
		if by == "" {
			by = "human"
		}
		dec := Event{Type: EvDecision, Point: bugfolder.PointQuorum, Choice: string(d.Choice), By: by, Round: k}
		switch d.Choice {
		case QuorumContinue:
			if len(valid) == 0 {
				r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("round %d: no %s answered validly, so the debate cannot continue with the valid ones; retry, swap an engine, or cancel", k, words.Member)})
				continue
			}
			if !support { // a support call is not out: it runs again next round
				dec.Dropped = failedIDs
			}
			r.emit(dec)
			r.decisions = append(r.decisions, Event{Type: EvDecision, Round: k, Choice: string(d.Choice), By: by, Dropped: dec.Dropped})
			for _, id := range dec.Dropped {
				delete(r.panel, id)
			}
			r.narrowed = r.narrowed || len(dec.Dropped) > 0
			r.waive(k)
			return asked, nil
		case QuorumRetry:
			dec.ExtraCalls, dec.ExtraUSD = len(failed), retryUSD
			r.emit(dec)
			r.decisions = append(r.decisions, Event{Type: EvDecision, Round: k, Choice: string(d.Choice), By: by})
			if err := r.runCalls(ctx, k, failedIDs); err != nil {
				return asked, err
			}
		case QuorumSwap, QuorumSetTimeout:
			if d.Choice == QuorumSetTimeout && d.SolverID == AllFailed && d.Timeout > 0 {
				if err := r.timeoutAll(ctx, k, dec, by, failedIDs, d.Timeout); err != nil {
					return asked, err
				}
				break
			}
			if !contains(failedIDs, d.SolverID) {
				r.emit(Event{Type: EvWarning, Text: fmt.Sprintf("%q is not a failed %s of round %d; nothing changed", d.SolverID, words.Member, k)})
				continue
			}
			if d.Choice == QuorumSwap {
				err := r.panelClash(d.SolverID, d.Engine)
				if err == nil {
					err = r.useEngine(d.Engine)
				}
				if err != nil {
					r.emit(Event{Type: EvWarning, Text: err.Error()})
					continue
				}
				dec.Engine = d.Engine
				// the swap locks what the new engine is, like problema.md
				if ec, err := r.opts.Config.Engine(d.Engine); err == nil {
					dec.Identities = map[string]map[string]string{d.Engine: harness.IdentityOf(ec, r.opts.Config.Path).Map()}
				}
			} else if d.Timeout <= 0 {
				r.emit(Event{Type: EvWarning, Text: "a new timeout must be a positive duration; nothing changed"})
				continue
			} else {
				dec.Timeout = d.Timeout
			}
			dec.SolverID, dec.ExtraCalls = d.SolverID, 1
			dec.ExtraUSD = r.estimateCall(r.engineOf[d.SolverID], r.panelRole)
			r.emit(dec)
			r.decisions = append(r.decisions, Event{Type: EvDecision, Round: k, Choice: string(d.Choice), By: by, SolverID: d.SolverID})
			r.amend(d.SolverID, d.Engine, d.Timeout, k, by)
			if err := r.runCalls(ctx, k, []string{d.SolverID}); err != nil {
				return asked, err
			}
		case QuorumCancel:
			r.emit(dec)
			return asked, &errStop{OutcomeCancelled, fmt.Sprintf("cancelled at the quorum menu of round %d; everything is kept: `moot resume %s` asks again", k, r.resumeTarget())}
		case QuorumPause:
			r.emit(dec)
			return asked, &errStop{OutcomeWaiting, fmt.Sprintf("paused at the quorum menu of round %d; `moot resume %s` asks again", k, r.resumeTarget())}
		default:
			return asked, fmt.Errorf("unknown quorum decision %q", d.Choice)
		}
	}
}

// timeoutAll gives every failed solver of round k a new timeout (an
// amendment each, recorded) and calls them again.
func (r *runner) timeoutAll(ctx context.Context, k int, dec Event, by string, failedIDs []string, t time.Duration) error {
	for _, id := range failedIDs {
		one := dec
		one.Timeout, one.SolverID, one.ExtraCalls = t, id, 1
		one.ExtraUSD = r.estimateCall(r.engineOf[id], r.panelRole)
		r.emit(one)
		r.decisions = append(r.decisions, Event{Type: EvDecision, Round: k, Choice: string(QuorumSetTimeout), By: by, SolverID: id})
		r.amend(id, "", t, k, by)
	}
	return r.runCalls(ctx, k, failedIDs)
}

// useEngine checks a swap target and builds its adapter.
func (r *runner) useEngine(name string) error {
	ec, err := r.opts.Config.Engine(name)
	if err != nil {
		return err
	}
	if r.bug.Restricted() && ec.External {
		return fmt.Errorf("engine %s is external and the bug is restricted; swap refused", name)
	}
	if _, ok := r.adapters[name]; ok {
		return nil
	}
	adapters, limits, err := buildAdapters(r.opts, []string{name})
	if err != nil {
		return err
	}
	r.adapters[name], r.limits[name] = adapters[name], limits[name]
	r.slots.bound(ec, name)
	return nil
}

// writeConvergence rewrites convergencia.md with a row per round up to k,
// derived from the files. Rows of earlier rounds are kept from when they
// were measured (their files no longer change); round k is measured anew.
func (r *runner) writeConvergence(k int) error {
	var notes []string
	for j := 0; j <= k; j++ {
		if _, ok := r.rows[j]; !ok || j == k {
			row := r.measure(j)
			if r.rows == nil {
				r.rows = map[int]ConvergenceRow{}
			}
			r.rows[j] = row
		}
		files := r.roundFiles(j)
		var failedNotes []string
		for _, id := range r.solvers {
			if f := files[id]; f != nil && f.Status != bugfolder.StatusOK {
				failedNotes = append(failedNotes, fmt.Sprintf("%s %s", id, f.Status))
			}
		}
		if len(failedNotes) > 0 {
			notes = append(notes, fmt.Sprintf(r.t("rodada %d: sem proposta válida de %s", "round %d: no valid proposal from %s"), j, strings.Join(failedNotes, ", ")))
		}
		for _, d := range r.decisions {
			if d.Round == j && d.Type == EvDecision && d.Point != PointStop {
				if d.Point == PointOpening {
					notes = append(notes, fmt.Sprintf(r.t("rodada %d: sem posição válida, fora das rodadas seguintes (%s): %s", "round %d: no valid position, left out of the rounds after it (%s): %s"), j, d.By, strings.Join(d.Dropped, ", ")))
					continue
				}
				n := fmt.Sprintf(r.t("rodada %d: quórum perdido; decisão %s (%s)", "round %d: quorum lost; decision %s (%s)"), j, d.Choice, d.By)
				if len(d.Dropped) > 0 {
					n += fmt.Sprintf(r.t(", fora do debate: %s", ", out of the debate: %s"), strings.Join(d.Dropped, ", "))
				}
				if d.SolverID != "" {
					n += ": " + d.SolverID
				}
				notes = append(notes, n)
			}
		}
	}
	rows := make([]ConvergenceRow, 0, k+1)
	for j := 0; j <= k; j++ {
		rows = append(rows, r.rows[j])
	}
	if _, err := r.w.WriteConvergence(r.proto.RenderConvergence(r.lang, r.mode, rows, notes)); err != nil {
		return err
	}
	r.emit(Event{Type: EvConvergence, Round: k, Valid: r.validCount(k)})
	return nil
}

// validCount is how many solvers of round k answered validly.
func (r *runner) validCount(k int) int {
	n := 0
	files := r.roundFiles(k)
	for _, id := range r.solvers {
		if f := files[id]; f != nil && f.Status == bugfolder.StatusOK {
			n++
		}
	}
	return n
}

// measure computes round j's convergence row from its files and round
// j-1's, as the protocol measures it.
func (r *runner) measure(j int) ConvergenceRow {
	valid := func(k int) (map[string]string, int) {
		out := map[string]string{}
		called := 0
		if k < 0 {
			return out, 0
		}
		files := r.roundFiles(k)
		for _, id := range r.solvers {
			if f := files[id]; f != nil {
				called++
				if f.Status == bugfolder.StatusOK {
					out[id] = f.Body
				}
			}
		}
		return out, called
	}
	cur, called := valid(j)
	prev, _ := valid(j - 1)
	return r.proto.Measure(r.mode, j, called, cur, prev)
}

// t picks the Portuguese or English text.
func (r *runner) t(pt, en string) string { return r.lang.Pick(pt, en) }
