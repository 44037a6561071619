package tui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/livefile"
)

// TestWatchedDebateIsLive: a debate another moot process runs (its lock
// held by a live process) shows its holder in a line that fits 80
// columns; its elapsed time ticks from the log's session start (earlier
// sessions added); what its calls in flight streamed, published in the
// sidecar, moves the tokens; a finished call's file is not counted twice.
func TestWatchedDebateIsLive(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "6") // M8N2: judge-failed, so resumable by another process
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	host, _ := os.Hostname()
	lock, _ := json.Marshal(bugfolder.LockInfo{PID: os.Getpid(), Host: host, StartedAt: fixedNow.Add(-20 * time.Second), Command: "moot resume 6"})
	os.WriteFile(filepath.Join(dir, bugfolder.LockFile), lock, 0o600)
	at := func(d time.Duration) string { return fixedNow.Add(d).Format(time.RFC3339Nano) }
	log := `{"type":"setup","time":"` + at(-3*time.Minute) + `"}` + "\n" +
		`{"type":"debate_finished","status":"judge-failed","time":"` + at(-2*time.Minute) + `"}` + "\n" + // a first session of 60 s
		`{"type":"resumed","time":"` + at(-20*time.Second) + `"}` + "\n" +
		`{"type":"call_started","round":2,"solver_id":"juiz","role":"judge","attempt":2,"time":"` + at(-10*time.Second) + `"}` + "\n"
	os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(log), 0o600)

	now := fixedNow
	opts := f.options()
	opts.Now = func() time.Time { return now }
	m := sized(t, opts, 80, 24)
	// justified: a wait, not an assertion: the count line that says "reading" is cut at narrow widths
	for m.browser.loading {
		m = pump(t, m, nil)
	}
	m = keys(t, m, "j", "j", "j", "j", "enter")
	if !strings.Contains(screenText(m, f.proj), "another moot process runs this debate") {
		t.Fatalf("the debate is not seen as held:\n%s", screenText(m, f.proj))
	}
	for _, line := range strings.Split(screenText(m, f.proj), "\n") {
		if strings.Contains(line, "another moot process") && (len([]rune(line)) > 80 || !strings.Contains(line, "moot pid")) {
			t.Errorf("the holder line does not fit 80 columns: %q", line)
		}
	}
	if got := headerFigure(m, "elapsed"); got != "1m20s" {
		t.Errorf("elapsed %q, want 1m20s (60 s before, 20 s of this session)", got)
	}
	now = now.Add(5 * time.Second)
	m = pump(t, m, watchTickMsg{})
	if !strings.Contains(screenText(m, f.proj), "1m25s") && !strings.Contains(screenText(m, f.proj), "85") {
		t.Errorf("elapsed does not tick while watched:\n%s", screenText(m, f.proj))
	}
	before := headerFigure(m, "tokens")
	m = pump(t, m, liveMsg{dir: dir, st: livefile.State{Streamed: map[string]int{"2/juiz": 4000, "0/agente-1": 999}, Attempt: map[string]int{"2/juiz": 2, "0/agente-1": 1}}})
	// 4,000 characters streamed are about 1,000 tokens over the 10k read; agente-1's 999 would make it 12k
	if got := headerFigure(m, "tokens"); before != "10k" || got != "11k" {
		t.Errorf("tokens %s → %s: want +1000 from the judge's stream, nothing from a call whose file is written", before, got)
	}
	// the judge's call (2/juiz) is the only one in flight: the calls figure counts it running
	if calls := headerFigure(m, "calls"); !strings.Contains(calls, "(1 running)") {
		t.Errorf("the judge in flight is not counted running: %q", calls)
	}
}

// A lock whose moot is gone (kill -9) changes the debate's stamp, so an
// open browser reads the row again and shows it interrupted, though
// nothing on disk moved.
func TestStampSeesADeadHolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(pid int) {
		host, _ := os.Hostname()
		raw, _ := json.Marshal(bugfolder.LockInfo{PID: pid, Host: host})
		if err := os.WriteFile(filepath.Join(dir, bugfolder.LockFile), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(os.Getpid())
	if s := debateStamp(dir); strings.Contains(s, "gone") {
		t.Errorf("a live holder reads as gone: %s", s)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	write(dead.Process.Pid)
	if s := debateStamp(dir); !strings.Contains(s, "gone") {
		t.Errorf("a dead holder does not change the stamp: %s", s)
	}
}
