package engine

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestLoggedEventsReadsOnlyWhatWasAppended: the run's reader of its own
// event log sees, after each append, exactly what a fresh read of the
// whole file sees (a line torn by a crash skipped), each event once.
func TestLoggedEventsReadsOnlyWhatWasAppended(t *testing.T) {
	bug := t.TempDir()
	w, err := bugfolder.OpenWriter(bug, filepath.Join(bug, "debate"), bugfolder.PT, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r := &runner{w: w, lang: bugfolder.PT}
	steps := []struct {
		name   string
		append []string
		want   int
	}{
		{"no log yet", nil, 0},
		{"two events", []string{event(t, EvSetup, 0), event(t, EvRoundStarted, 0)}, 2},
		{"a line that is no event, then an event", []string{`{"type":"call_sta`, event(t, EvCallStarted, 1)}, 3},
		{"nothing new", nil, 3},
		{"one more", []string{event(t, EvCallFinished, 1)}, 4},
	}
	for _, s := range steps {
		for _, line := range s.append {
			if err := w.AppendEvent([]byte(line), false); err != nil {
				t.Fatal(err)
			}
		}
		got, whole := r.loggedEvents(), readLog(w.Dir, r.lang)
		if len(got) != s.want || !reflect.DeepEqual(got, whole) && len(whole) > 0 {
			t.Errorf("%s: %d events %v, a whole read gives %d %v", s.name, len(got), got, len(whole), whole)
		}
	}
}

// event is one event's log line.
func event(t *testing.T, typ EventType, round int) string {
	b, err := json.Marshal(Event{Type: typ, Round: round})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
