package tui

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// firstRead is a record keeper that says when a round was first read.
type firstRead struct {
	engine.RecordKeeper
	once *sync.Once
	read chan struct{}
}

func (k firstRead) ReadRound(dir string, round int) (*engine.RecordRound, error) {
	rr, err := k.RecordKeeper.ReadRound(dir, round)
	k.once.Do(func() { close(k.read) })
	return rr, err
}

// TestAJustStartedReviewIsReadOnceItsRecordIsWritten: a review started
// from the wizard has its folder before its runner writes its record; the
// view reads it once the record is there, instead of opening the browser
// on "cannot read the review".
func TestAJustStartedReviewIsReadOnceItsRecordIsWritten(t *testing.T) {
	t.Parallel()
	rf := newReviewFixture(t, t.TempDir(), fixedNow, review.State{Status: review.StatusRunning, Lenses: lenses("defect")})
	record := filepath.Join(rf.f.Dir, review.StateFile)
	aside := record + ".aside"
	if err := os.Rename(record, aside); err != nil {
		t.Fatal(err)
	}
	k := firstRead{RecordKeeper: review.Keeper{}, once: new(sync.Once), read: make(chan struct{})}
	got := make(chan reviewLoadedMsg, 1)
	go func() { got <- loadStartedReviewCmd(k, rf.f.Dir)().(reviewLoadedMsg) }()
	select {
	case <-k.read: // it looked once, before the record was written
	case <-time.After(cmdDeadline):
		t.Fatal("the started review was never read")
	}
	if err := os.Rename(aside, record); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-got:
		// justified: the command's answer is the behaviour under test (the read waits for the record); no frame yet
		if msg.err != nil || msg.data == nil || msg.data.dir != rf.f.Dir {
			t.Errorf("the started review: err %v, data %+v", msg.err, msg.data)
		}
	case <-time.After(cmdDeadline):
		t.Fatal("the started review's read never returned")
	}
}
