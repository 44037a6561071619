package review

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Calls is a review's call count, those running included: its record's
// (State.Calls, counted as calls end) or, when more, its event log's
// (bugfolder.LoggedCalls, the debate header's rule). The review view's
// header, its browser row and moot list --json all say this one count.
func Calls(st *State, evs []engine.Event) int {
	return max(st.Calls, bugfolder.LoggedCalls(evs))
}

// ReadEvents reads the event log of the review in dir (none when it is
// not written yet); a torn last line (a write under way) is skipped.
func ReadEvents(dir string) ([]engine.Event, error) {
	p := filepath.Join(dir, EventsFile)
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	var out []engine.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var e engine.Event
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}
