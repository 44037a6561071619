package e2e

import (
	"fmt"
	"regexp"
	"testing"
)

// TestTUIBrowserTellsTwoQuestionsApart: at 80×24 and 140×45, two questions
// whose IDs share a long start are listed by the browser with IDs that
// still differ (cut in the middle, never to the same string), each row
// naming its protocol.
func TestTUIBrowserTellsTwoQuestionsApart(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			for _, q := range []string{"Should checkout retry failed payment webhooks forever?", "Should checkout retry failed payment webhooks once?"} {
				p.moot("ask", q, "--protocol", "argue", "-r", "0", "--yes", "--headless", "--lang", "en").mustExit(t, 0)
			}
			m := startTmux(t, p, sz.w, sz.h)
			m.wait("the browser", "A7K3")
			m.send("/")
			m.send("-l", "should")
			m.send("Enter")
			s := m.wait("the two questions", "2 of 8 match")
			ids := map[string]bool{}
			for _, row := range regexp.MustCompile(`(?m)^.*?(\d{8}\S*).*\bargue\b.*$`).FindAllStringSubmatch(s, -1) {
				ids[row[1]] = true
			}
			if len(ids) != 2 {
				t.Errorf("the two questions' rows do not read apart, each with its protocol (IDs %v):\n%s", ids, s)
			}
		})
	}
}
