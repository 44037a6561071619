package review

import (
	"context"
	"os"
	"testing"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// TestMain keeps the tests' seal key out of the user's config folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "moot-review-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeCalls answers a round's calls with a function of the engine and
// the request, as an engine would, with the call path's events.
type fakeCalls func(ctx context.Context, name string, req harness.Request) harness.Result

func (f fakeCalls) Call(ctx context.Context, c engine.CallSpec, check engine.Check) (engine.CallResult, error) {
	if c.Emit != nil {
		c.Emit(engine.Event{Type: engine.EvCallStarted, Round: c.Round, SolverID: c.ID, Role: c.Role, Engine: c.Engine, Attempt: 1})
	}
	res := f(ctx, c.Engine, harness.Request{Role: string(c.Role), SolverID: c.ID, Round: c.Round, Lens: c.Lens, Prompt: c.Prompt, ReasoningOff: c.ReasoningOff})
	if c.Emit != nil {
		c.Emit(engine.Event{Type: engine.EvCallFinished, Round: c.Round, SolverID: c.ID, Role: c.Role, Engine: c.Engine, Attempt: 1})
	}
	return res, nil
}
