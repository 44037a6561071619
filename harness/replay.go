package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/input"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// Cassette is a recorded debate: for each call, the answer, its status and
// how long it took. The replay engine plays it back with its timings.
type Cassette struct {
	Version int            `yaml:"version"`
	Note    string         `yaml:"note,omitempty"`
	Calls   []CassetteCall `yaml:"calls"`
}

// CassetteCall is one recorded call.
type CassetteCall struct {
	Role string `yaml:"role"`
	// SolverID may be left out: the entry then answers every participant
	// of its role in its round (how a final step's single call is recorded).
	SolverID string `yaml:"solver_id"`
	Round    int    `yaml:"round"`
	// Attempt selects one attempt; 0 matches any attempt without its own entry.
	Attempt int `yaml:"attempt,omitempty"`
	// Duration is how long the call takes (the answer streams over it).
	Duration time.Duration `yaml:"duration"`
	// Status is ok, timeout, error, start-failure or transport-failure.
	Status    string   `yaml:"status"`
	Error     string   `yaml:"error,omitempty"`
	TokensIn  int      `yaml:"tokens_in,omitempty"`
	TokensOut int      `yaml:"tokens_out,omitempty"`
	CostUSD   *float64 `yaml:"cost_usd,omitempty"`
	Body      string   `yaml:"body,omitempty"`
}

var cassetteStatuses = map[string]bool{"ok": true, "timeout": true, "error": true, "start-failure": true, "transport-failure": true}

// ParseCassette reads and checks a cassette; name is used in messages.
func ParseCassette(name string, raw []byte) (*Cassette, error) {
	var c Cassette
	dec := yaml.NewDecoder(strings.NewReader(input.NormalizeText(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, &input.Error{Path: name, Msg: "not a valid cassette (" + yamlWhere(err) + "); a cassette is version: 1 and a calls: list (see testdata/demo/cassette.yaml)"}
	}
	if c.Version != 1 {
		return nil, &input.Error{Path: name, Field: "version", Msg: fmt.Sprintf("%d is not a cassette version moot reads (1)", c.Version)}
	}
	for i, call := range c.Calls {
		field := fmt.Sprintf("calls[%d]", i)
		if strings.TrimSpace(call.Role) == "" {
			return nil, &input.Error{Path: name, Field: field + ".role", Msg: "missing: give the role the call was made in (solver, critic, judge…)"}
		}
		if !cassetteStatuses[call.Status] {
			return nil, &input.Error{Path: name, Field: field + ".status", Msg: fmt.Sprintf("%q is not ok, timeout, error, start-failure or transport-failure", call.Status)}
		}
		if call.Duration < 0 || call.Round < 0 || call.Attempt < 0 {
			return nil, &input.Error{Path: name, Field: field, Msg: "duration, round and attempt cannot be negative"}
		}
	}
	return &c, nil
}

// find returns the recorded call for a request: an entry for this very
// attempt first, then one for any attempt.
func (c *Cassette) find(req Request) (*CassetteCall, bool) {
	var any *CassetteCall
	for i := range c.Calls {
		x := &c.Calls[i]
		if x.Role != req.Role || x.Round != req.Round {
			continue
		}
		if x.SolverID != "" && x.SolverID != req.SolverID {
			continue
		}
		if x.Attempt == req.Attempt {
			return x, true
		}
		if x.Attempt == 0 && any == nil {
			any = x
		}
	}
	return any, any != nil
}

// replay plays a cassette back.
type replay struct {
	name     string
	cassette *Cassette
	// speed divides every duration (MOOT_REPLAY_SPEED, for tests and demos).
	speed float64
}

func newReplay(e *EngineConfig, o Options) (*replay, error) {
	raw, err := readCassette(e, o)
	if err != nil {
		return nil, err
	}
	c, err := ParseCassette(e.Cassette, raw)
	if err != nil {
		return nil, err
	}
	speed := 1.0
	if s := os.Getenv("MOOT_REPLAY_SPEED"); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
			speed = f
		}
	}
	return &replay{name: e.Name, cassette: c, speed: speed}, nil
}

func (r *replay) Call(ctx context.Context, req Request) Result {
	call, ok := r.cassette.find(req)
	if !ok {
		return errorf(FailEngine, "the cassette of engine %s has no %s call for %s in round %d", r.name, req.Role, req.SolverID, req.Round)
	}
	if req.Stdout != nil {
		fmt.Fprint(req.Stdout, call.Body)
	}
	if req.Stderr != nil && call.Error != "" {
		fmt.Fprintln(req.Stderr, call.Error)
	}
	recorded := time.Duration(float64(call.Duration) / r.speed)
	// a recorded timeout, or a recording slower than this call's limit,
	// plays until the limit and ends in a timeout
	timesOut := call.Status == "timeout" || (req.Timeout > 0 && recorded > req.Timeout)
	dur := recorded
	if req.Timeout > 0 && dur > req.Timeout {
		dur = req.Timeout
	}
	var body string
	if call.Status == "ok" || call.Status == "error" {
		body = call.Body
	}
	if timesOut {
		body = "" // nothing arrives from a call that never answers
	}
	// stream the body over the call's duration, in pieces
	pieces := splitPieces(body, 24)
	start := time.Now()
	for i, piece := range pieces {
		at := time.Duration(float64(dur) * float64(i+1) / float64(len(pieces)+1))
		if !sleepUntil(ctx, start.Add(at)) {
			return errorf(FailEngine, "interrupted: %v", context.Cause(ctx))
		}
		if req.OnOutput != nil {
			req.OnOutput(piece)
		}
	}
	if !sleepUntil(ctx, start.Add(dur)) {
		return errorf(FailEngine, "interrupted: %v", context.Cause(ctx))
	}
	if timesOut {
		reason := call.Error
		if reason == "" {
			limit := req.Timeout
			if limit <= 0 {
				limit = dur
			}
			reason = fmt.Sprintf("no answer within %s", humantime.Duration(limit))
		}
		return Result{Failure: FailTimeout, Err: reason}
	}
	res := Result{Body: body, TokensIn: call.TokensIn, TokensOut: call.TokensOut, CostUSD: call.CostUSD, Err: call.Error}
	switch call.Status {
	case "ok":
	case "start-failure":
		res.Failure = FailStart
	case "transport-failure":
		res.Failure = FailTransport
	default:
		res.Failure = FailEngine
	}
	return res
}

// splitPieces cuts text into about n pieces at line or word boundaries.
func splitPieces(text string, n int) []string {
	if text == "" {
		return nil
	}
	size := len(text)/n + 1
	var out []string
	for len(text) > 0 {
		if len(text) <= size {
			out = append(out, text)
			break
		}
		cut := strings.LastIndexAny(text[:size], " \n")
		if cut <= 0 {
			cut = size
			for cut < len(text) && (text[cut]&0xC0) == 0x80 {
				cut++ // do not split a UTF-8 sequence
			}
		} else {
			cut++
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return out
}

// sleepUntil waits until t or until ctx is done; false means interrupted.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// MaxCassetteBytes is the largest cassette moot reads.
const MaxCassetteBytes = 16 << 20

// readCassette reads a replay engine's cassette: an embedded one, or a
// regular file of at most MaxCassetteBytes, opened beneath the project
// when it lies there (a symlink cannot lead out, a FIFO never blocks). A
// cassette outside the project is only named by a trusted engines file
// (TrustReasons).
func readCassette(e *EngineConfig, o Options) ([]byte, error) {
	if b, ok := o.Cassettes[e.Cassette]; ok {
		return b, nil
	}
	p := o.resolvePath(e.Cassette)
	var raw []byte
	var err error
	if rel, ok := beneath(o.ProjectDir, p); ok {
		var root *safefs.Root
		if root, err = safefs.OpenRoot(o.ProjectDir, safefs.Beneath); err == nil {
			raw, err = root.ReadFile(rel, MaxCassetteBytes)
			root.Close()
		}
	} else {
		raw, err = safefs.ReadFile(p, MaxCassetteBytes)
	}
	if err != nil {
		return nil, &input.Error{Path: p, Field: "engines." + e.Name + ".cassette", Msg: fmt.Sprintf("cannot be read (%v); a cassette is a regular file of at most %d MiB", err, MaxCassetteBytes>>20), Err: err}
	}
	return raw, nil
}

// beneath reports whether path lies inside dir, and its path relative to
// dir.
func beneath(dir, path string) (string, bool) {
	if dir == "" || path == "" {
		return "", false
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

var yamlLine = lazyre.New(`line (\d+)`)

// yamlWhere says where a YAML error is without quoting the file: a
// cassette may name any file, and its lines must not reach the screen.
func yamlWhere(err error) string {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return "YAML error at line " + m[1]
	}
	return "not YAML"
}
