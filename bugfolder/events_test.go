package bugfolder

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleLog is an event log moot wrote before the schema was typed: a
// transport retry, a timeout, an invalid answer, quorum menus with a
// timeout change, a swap and a continue, a judge failure, a cancel, a
// resume and a human choice.
var sampleLog = filepath.Join("..", "testdata", "eventlog", "eventos.jsonl")

// TestEventLogReadsBackByteForByte: every line of a log already on disk
// reads into the typed Event and writes back to the very same bytes, so a
// debate logged before keeps one format with what moot logs now.
func TestEventLogReadsBackByteForByte(t *testing.T) {
	raw, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(raw), []byte("\n"))
	if len(lines) < 30 {
		t.Fatalf("the sample log has %d lines", len(lines))
	}
	for i, line := range lines {
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		again, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !bytes.Equal(again, line) {
			t.Errorf("line %d changed:\n was %s\n now %s", i+1, line, again)
		}
	}
}

// TestEventLogTypedFields: what a reader needs is in typed fields, not in
// strings to parse: a retried attempt, a run's outcome, a null cost, a
// decision's timeout and point.
func TestEventLogTypedFields(t *testing.T) {
	d := &Debate{}
	raw, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var ev Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	d.Events = evs
	var retried, outcomes, timeouts, nullCosts int
	for _, ev := range evs {
		switch {
		case ev.Type == EvCallFinished && ev.Retrying:
			retried++
			if ev.Error != "connection refused" || ev.Status != StatusError {
				t.Errorf("a retried attempt: error %q status %q", ev.Error, ev.Status)
			}
		case ev.Type == EvDebateFinished:
			outcomes++
			if ev.Outcome != OutcomeCancelled && ev.Outcome != OutcomeDone || ev.Status != "" {
				t.Errorf("debate_finished: outcome %q status %q", ev.Outcome, ev.Status)
			}
		case ev.Type == EvDecision && ev.Timeout > 0:
			timeouts++
			if ev.Point != PointQuorum || ev.Timeout.String() != "3m0s" {
				t.Errorf("timeout decision: %+v", ev)
			}
		case ev.Type == EvCallFinished && ev.CostUnknown:
			nullCosts++
		}
	}
	if retried != 1 || outcomes != 2 || timeouts != 1 || nullCosts == 0 {
		t.Errorf("retried %d, outcomes %d, timeouts %d, null costs %d", retried, outcomes, timeouts, nullCosts)
	}
	if d.PendingDecision() != "" {
		t.Errorf("pending %q after the human choice", d.PendingDecision())
	}
}

// FuzzEvent: any line of an event log (a debate folder is outside input)
// either fails to parse or reads into an Event that writes and reads back
// to itself.
func FuzzEvent(f *testing.F) {
	if raw, err := os.ReadFile(sampleLog); err == nil {
		for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"call_finished","time":"2026-01-01T00:00:00Z","error":" (retrying once)","cost_usd":null}`))
	f.Add([]byte(`{"type":"decision","timeout":"x","point":"judge"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var ev Event
		if json.Unmarshal(line, &ev) != nil {
			return
		}
		once, err := json.Marshal(ev)
		if err != nil {
			return // a time outside what RFC 3339 can write
		}
		var back Event
		if err := json.Unmarshal(once, &back); err != nil {
			t.Fatalf("%s does not read back: %v", once, err)
		}
		twice, err := json.Marshal(back)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("not stable:\n%s\n%s (%v)", once, twice, err)
		}
	})
}

// TestJudgeFailedCarriesTheWinners: an unstable order-swap check's
// judge_failed keeps the winner of each order in typed fields that read
// back from the log (a resumed menu names them without parsing the
// reason); any other judge failure has neither.
func TestJudgeFailedCarriesTheWinners(t *testing.T) {
	tests := []struct {
		name              string
		ev                Event
		inOrder, reversed string
		keys              bool
	}{
		{"unstable", Event{Type: EvJudgeFailed, Reason: "unstable verdict: …", Attempt: 2, Winner: "A", ReversedWinner: "C"}, "A", "C", true},
		{"invalid answer", Event{Type: EvJudgeFailed, Reason: "invalid answer: no winner", Attempt: 1}, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.ev)
			if err != nil {
				t.Fatal(err)
			}
			if has := bytes.Contains(raw, []byte(`"reversed_winner"`)) && bytes.Contains(raw, []byte(`"winner"`)); has != tc.keys {
				t.Errorf("winner keys written %v, want %v: %s", has, tc.keys, raw)
			}
			var back Event
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if back.Winner != tc.inOrder || back.ReversedWinner != tc.reversed {
				t.Errorf("read back winners %q, %q; want %q, %q (%s)", back.Winner, back.ReversedWinner, tc.inOrder, tc.reversed, raw)
			}
		})
	}
}

// TestEnginesFileIsTheLastSessions: the engines file a session was given
// with --config reads back from the log (setup, then a resumed session
// that was given another, then one that found its own), and a log an older
// moot wrote names none: moot show then keeps its words without a file.
func TestEnginesFileIsTheLastSessions(t *testing.T) {
	var d Debate
	for _, ev := range []Event{
		{Type: EvSetup, Path: "debate", EnginesFile: "/home/dev/slow.yaml"},
		{Type: EvRoundStarted},
	} {
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var back Event
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		d.Events = append(d.Events, back)
	}
	if got := d.EnginesFile(); got != "/home/dev/slow.yaml" {
		t.Errorf("started with --config /home/dev/slow.yaml: the debate names %q", got)
	}
	d.Events = append(d.Events, Event{Type: EvResumed, EnginesFile: "/home/dev/other.yaml"})
	if got := d.EnginesFile(); got != "/home/dev/other.yaml" {
		t.Errorf("resumed with --config /home/dev/other.yaml: the debate names %q", got)
	}
	d.Events = append(d.Events, Event{Type: EvResumed})
	if got := d.EnginesFile(); got != "" {
		t.Errorf("resumed on the project's engines file: the debate still names %q", got)
	}
	raw, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	var old Debate
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		old.Events = append(old.Events, ev)
	}
	if got := old.EnginesFile(); got != "" {
		t.Errorf("an older moot's log names the engines file %q", got)
	}
}
