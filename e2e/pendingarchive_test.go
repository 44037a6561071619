package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestANewDebateKeepsAPendingDecisionRecordable: a spec debate's result
// waits for a human; the plan of a new debate on the bug says so (not only
// "will be archived"); once the new debate archived it, `moot decide`
// still records the decision, in the archived folder, and a second decide
// finds nothing left to decide.
func TestANewDebateKeepsAPendingDecisionRecordable(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.specDebate("7")
	plan := p.moot("plan", "7", "--mode", "repair", "-n", "2", "-r", "0")
	if !strings.Contains(plan.stdout+plan.stderr, "waits for a human decision") || !strings.Contains(plan.stdout+plan.stderr, "moot decide BUG-20260715-A7K3") {
		t.Errorf("the plan does not name the pending decision it archives:\n%s%s", plan.stdout, plan.stderr)
	}
	p.moot("run", "7", "--mode", "repair", "-n", "2", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	r := p.moot("decide", "7", "approve").mustExit(t, 0)
	archived, _ := filepath.Glob(filepath.Join(p.bugDir(), "debate-*", "decisao.md"))
	if len(archived) != 1 {
		t.Fatalf("decisao.md in the archived debate: %v\n%s", archived, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); err == nil {
		t.Errorf("the decision went to the new debate, which waits for none")
	}
	p.moot("decide", "7", "approve").mustExit(t, 2)
}
