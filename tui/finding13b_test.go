package tui

import (
	"strings"
	"testing"
)

// TestFinding13b_7HandRunHeaderIsUnknown: a hand-run debate records no
// cost; its header reads "unknown", never "$0.00".
func TestFinding13b_7HandRunHeaderIsUnknown(t *testing.T) {
	f := newFixture(t)
	m := loadBrowser(t, f, 140, 45)
	for i := 0; i < 12; i++ {
		o := keys(t, m, "enter")
		if o.screen == scrDebate && o.deb != nil && o.deb.bugID == "BUG-20260705-M8N2" {
			o = pump(t, o, nil)
			head := strings.SplitN(screenText(o, f.proj), "\n", 2)[0]
			if strings.Contains(head, "$0.00") || !strings.Contains(head, "unknown") {
				t.Errorf("header %q", head)
			}
			return
		}
		m = keys(t, m, "j")
	}
	t.Fatal("bug 6 (BUG-20260705-M8N2) not found in the browser")
}
