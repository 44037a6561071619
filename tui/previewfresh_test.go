package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrowserPreviewFollowsANewDebateAtTheSamePath: the latest debate's
// final answer is replaced by a new debate's at the same path (the old one
// archived, as `n` does); back in the browser, the preview renders the new
// answer, never the old one under the new row.
func TestBrowserPreviewFollowsANewDebateAtTheSamePath(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := sized(t, f.options(), 140, 45)
	m = keys(t, m, "/", "Q2R8", "enter")
	m = pump(t, m, nil)
	for _, c := range m.browser.wantPreview(&m.frame) {
		for _, msg := range run(c) {
			m = pump(t, m, msg)
		}
	}
	if s := screenText(m, f.proj); !strings.Contains(s, "Hip") {
		t.Fatalf("the preview does not show the first debate's synthesis:\n%s", s)
	}
	m = pump(t, m, watchTickMsg{}) // the rows' first look
	bug := f.bug(t, "BUG-20260702-Q2R8")
	dir := bug.DebateFolder()
	archive := filepath.Join(bug.Dir, "debate-20261201T000000Z")
	if err := os.Rename(dir, archive); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(archive)); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(dir, "resposta-final.md")
	b, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "## Síntese")
	head = strings.Replace(head, "finished_at: 2026-07-03T16:12:30Z", "finished_at: 2026-12-01T10:00:00Z", 1)
	if err := os.WriteFile(final, []byte(head+"## Síntese\n\nA nova síntese do conselho: arredondar uma vez, no fim.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// the new debate's log, as moot writes one (the row's change shows there)
	if err := os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(`{"type":"warning","time":"2026-12-01T10:00:00Z","text":"new"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m = pump(t, m, watchTickMsg{})
	for range 3 {
		for _, c := range m.browser.wantPreview(&m.frame) {
			for _, msg := range run(c) {
				m = pump(t, m, msg)
			}
		}
	}
	s := screenText(m, f.proj)
	if !strings.Contains(s, "A nova síntese do conselho") {
		t.Errorf("the preview does not show the new debate's answer:\n%s", s)
	}
}
