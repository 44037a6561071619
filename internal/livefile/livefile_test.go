package livefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reversa/moot/engine"
)

// waitFor polls cond until it holds or a deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPublisher: the sidecar says what each call in flight has streamed,
// keeps the last change even when it came inside the write interval,
// forgets a finished call, is owner-only, and goes when the run ends.
func TestPublisher(t *testing.T) {
	dir := t.TempDir()
	p := New()
	var seen []engine.EventType
	sink := p.Wrap(func(ev engine.Event) { seen = append(seen, ev.Type) })
	sink(engine.Event{Type: engine.EvSetup, Path: dir})
	sink(engine.Event{Type: engine.EvCallStarted, Round: 0, SolverID: "agente-1"})
	sink(engine.Event{Type: engine.EvCallStarted, Round: 0, SolverID: "agente-2"})
	for i := 0; i < 100; i++ { // a burst: written at most twice a second, the last state kept
		sink(engine.Event{Type: engine.EvOutput, Round: 0, SolverID: "agente-1", Text: "abcd"})
	}
	if len(seen) != 103 {
		t.Errorf("the wrapped sink saw %d events, want every one", len(seen))
	}
	waitFor(t, "400 bytes streamed", func() bool {
		st, err := Read(dir)
		return err == nil && st.Streamed[Key(0, "agente-1")] == 400
	})
	st, _ := Read(dir)
	if st.PID != os.Getpid() || st.Streamed[Key(0, "agente-2")] != 0 || st.UpdatedAt.IsZero() {
		t.Errorf("state %+v", st)
	}
	if fi, err := os.Stat(filepath.Join(dir, Name)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the sidecar is owner-only: %v %v", fi.Mode(), err)
	}
	sink(engine.Event{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-1"})
	waitFor(t, "the finished call to go", func() bool {
		st, err := Read(dir)
		_, still := st.Streamed[Key(0, "agente-1")]
		return err == nil && !still
	})
	p.Close()
	if _, err := os.Stat(filepath.Join(dir, Name)); !os.IsNotExist(err) {
		t.Errorf("the sidecar outlived the run: %v", err)
	}
	sink(engine.Event{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Text: "x"})
	if p.pending != nil {
		t.Error("a write was scheduled after Close")
	}
}

// TestEventsNeverWaitForAWrite: while a write of the sidecar is held up
// (a slow disk), the run's events still pass through the sink at once,
// and the last state is written once the disk is free.
func TestEventsNeverWaitForAWrite(t *testing.T) {
	dir := t.TempDir()
	p := New()
	sink := p.Wrap(nil)
	sink(engine.Event{Type: engine.EvSetup, Path: dir})
	p.wmu.Lock() // the disk is stuck
	done := make(chan struct{})
	go func() {
		defer close(done)
		sink(engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: "agente-1"})
		for range 50 {
			sink(engine.Event{Type: engine.EvOutput, Round: 1, SolverID: "agente-1", Text: "ab"})
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the events waited for the sidecar's write")
	}
	p.wmu.Unlock()
	waitFor(t, "100 bytes streamed", func() bool {
		st, err := Read(dir)
		return err == nil && st.Streamed[Key(1, "agente-1")] == 100
	})
	p.Close()
	if _, err := os.Stat(filepath.Join(dir, Name)); !os.IsNotExist(err) {
		t.Errorf("the sidecar outlived the run: %v", err)
	}
}

// TestReadRefusesWhatIsNotAFile: no sidecar is an empty state; a symlink
// or garbage is an error naming the file, never followed or trusted.
func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if st, err := Read(dir); err != nil || len(st.Streamed) != 0 {
		t.Errorf("no sidecar: %+v %v", st, err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte(`{"pid":1}`), 0o600)
	os.Symlink(secret, filepath.Join(dir, Name))
	if _, err := Read(dir); err == nil {
		t.Error("a symlinked sidecar was followed")
	}
	os.Remove(filepath.Join(dir, Name))
	os.WriteFile(filepath.Join(dir, Name), []byte("{not json"), 0o600)
	if _, err := Read(dir); err == nil || !filepath.IsAbs(filepath.Join(dir, Name)) {
		t.Error("garbage was read as a state")
	}
}

// FuzzParseKey: any key read back from a sidecar is safe to use.
func FuzzParseKey(f *testing.F) {
	f.Add("0/agente-1")
	f.Add("-1/x")
	f.Add("/")
	f.Fuzz(func(t *testing.T, k string) {
		if r, id, ok := ParseKey(k); ok && (r < 0 || id == "") {
			t.Errorf("ParseKey(%q) = %d %q", k, r, id)
		}
	})
}
