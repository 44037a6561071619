package engine

import (
	"context"
	"sync"

	"github.com/reversa/moot/harness"
)

// callSlots are the parallel limits every protocol's calls share: the
// places at once (--parallel) and each engine's own (its parallel: in the
// engines file). The runner's rounds and a review's Dispatcher take their
// places here.
type callSlots struct {
	all    chan struct{}
	mu     sync.Mutex
	engine map[string]chan struct{}
}

// newCallSlots readies n places at once (at least 1).
func newCallSlots(n int) *callSlots {
	return &callSlots{all: make(chan struct{}, max(n, 1)), engine: map[string]chan struct{}{}}
}

// bound gives engine name its own limit (its parallel:), once.
func (s *callSlots) bound(ec *harness.EngineConfig, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ec.Parallel > 0 && s.engine[name] == nil {
		s.engine[name] = make(chan struct{}, ec.Parallel)
	}
}

// acquire takes a place in the global and the engine's limits (ctx's
// error when it ends first); the function returned gives them back.
func (s *callSlots) acquire(ctx context.Context, name string) (func(), error) {
	select {
	case s.all <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	es := s.engine[name]
	s.mu.Unlock()
	if es != nil {
		select {
		case es <- struct{}{}:
		case <-ctx.Done():
			<-s.all
			return nil, ctx.Err()
		}
	}
	return func() {
		if es != nil {
			<-es
		}
		<-s.all
	}, nil
}
