package tui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestReviewHeaderShowsElapsedAsADebatesDoes: the review view's header
// says how long the review ran, over its sessions as its event log
// records them (the count moot list makes), and while it runs up to now;
// with no timed event it says "—", as a debate's header does.
func TestReviewHeaderShowsElapsedAsADebatesDoes(t *testing.T) {
	t.Parallel()
	at := func(s int) time.Time { return fixedNow.Add(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name    string
		status  string
		times   []time.Time
		now     time.Time
		want    string
		running bool
	}{
		{"finished", review.StatusRefused, []time.Time{at(0), at(7)}, at(600), " · 7s · ", false},
		{"resumed", review.StatusRefused, []time.Time{at(0), at(5), at(100), at(112)}, at(600), " · 17s · ", false},
		{"running", review.StatusRunning, []time.Time{at(0), at(20)}, at(45), " · 45s · ", true},
		{"no clock", review.StatusRefused, []time.Time{{}, {}}, at(600), " · — · ", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
				Contract: envelope.Contract{Intent: "clock"}, Lenses: lenses("defect"), Status: tc.status,
			})
			if tc.running {
				lockHeldBy(t, rf.f.Dir, os.Getpid())
			}
			for i, when := range tc.times {
				typ := engine.EvRoundStarted
				if i == 2 {
					typ = engine.EvResumed // a second session: the pause between is not counted
				}
				rf.event(t, engine.Event{Type: typ, Round: 1, Time: when})
			}
			rf.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeRefuse, Engine: "juror-a", Family: "anthropic",
				Findings: []review.Finding{{Severity: review.SevMinor, Claim: "a claim", Evidence: "calc.go"}}})
			m := NewReview(rf.f.Dir, Options{Now: func() time.Time { return tc.now }, Records: []engine.RecordKeeper{review.Keeper{}}})
			m = pump(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			head := headerLine(m)
			if !strings.HasPrefix(head, "review "+rf.f.ID) || !strings.Contains(head, tc.want) {
				t.Errorf("the header does not say %q:\n%s", strings.Trim(tc.want, " ·"), head)
			}
		})
	}
}

// TestARunningReviewsElapsedTicks: the header's elapsed time of a review
// that runs counts on with the clock between two reads of its folder, as
// a running debate's does (it froze at its first read).
func TestARunningReviewsElapsedTicks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
		Contract: envelope.Contract{Intent: "clock"}, Lenses: lenses("defect"), Status: review.StatusRunning,
	})
	lockHeldBy(t, rf.f.Dir, os.Getpid())
	rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1, Time: fixedNow})
	var mu sync.Mutex
	now := fixedNow.Add(6 * time.Second)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	m := NewReview(rf.f.Dir, Options{Now: clock, Records: []engine.RecordKeeper{review.Keeper{}}})
	m = pump(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
	for _, msg := range run(m.Init()) {
		m = pump(t, m, msg)
	}
	if head := headerLine(m); !strings.Contains(head, " · 6s · ") {
		t.Fatalf("the header does not say 6s:\n%s", head)
	}
	mu.Lock()
	now = now.Add(3 * time.Second)
	mu.Unlock()
	m = pump(t, m, watchTickMsg{})
	if head := headerLine(m); !strings.Contains(head, " · 9s · ") {
		t.Errorf("the elapsed time did not tick to 9s:\n%s", head)
	}
}
