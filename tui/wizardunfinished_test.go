package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/tradeoff"
)

// TestNewOnAnUnfinishedDebateOffersArgueAndReview: n on a bug whose debate
// is judge-failed opens the wizard with argue (on a question) and a review
// of the bug's change, which leave that debate be — as moot review BUG
// runs in that state — and says on its first page why debate, council and
// tradeoff are left out (r resumes it from the list); the review's
// page follows. Goldens at 60×15, 80×24 and 140×45.
func TestNewOnAnUnfinishedDebateOffersArgueAndReview(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{60, 15}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			var asked, reviewed [][]string
			opts := fiveProtocolOptions(f, t, &asked, &reviewed)
			opts.Protocols = []engine.Protocol{debate.Protocol{}, council.Protocol{}, tradeoff.Protocol{}}
			m := browserWith(t, opts, sz.w, sz.h)
			m = keys(t, m, "j", "j", "j", "j") // M8N2, judge-failed
			if !strings.Contains(lineWith(screenText(m, f.proj), "M8N2"), "judge-failed") && sz.w > 60 {
				t.Fatalf("not on the judge-failed bug:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "n")
			if drawnScreen(m) != "wizard" {
				t.Fatalf("n on an unfinished debate opens no wizard:\n%s", screenText(m, f.proj))
			}
			text := checkFrame(t, m, sz.w, sz.h, f.proj, []string{"argue — on a question", "review — of a change"})
			if strings.Contains(text, "debate —") || strings.Contains(text, "council —") || strings.Contains(text, "tradeoff —") {
				t.Errorf("the wizard offers a protocol that would archive the unfinished debate:\n%s", text)
			}
			if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "debate, council, tradeoff not offered: BUG-20260705-M8N2 has an unfinished debate: r resumes it from the list") {
				t.Errorf("the first page does not say why the bug's protocols are left out:\n%s", text)
			}
			goldenScreenNamed(t, "protocols", m, f.proj)
			r := keys(t, m, "down", "enter")
			checkFrame(t, r, sz.w, sz.h, f.proj, []string{"Change", "Contract"})
			if r.wiz == nil || !r.wiz.reviewing() {
				t.Errorf("review is not the choice below argue:\n%s", screenText(r, f.proj))
			}
		})
	}
}

// TestNewOnAnUnfinishedDebateWithNothingElseRefuses: with no argue and no
// review to offer, n on the judge-failed bug opens nothing and says r
// resumes its debate.
func TestNewOnAnUnfinishedDebateWithNothingElseRefuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	opts.Protocols = []engine.Protocol{debate.Protocol{}, tradeoff.Protocol{}}
	m := browserWith(t, opts, 100, 30)
	m = keys(t, m, "j", "j", "j", "j", "n")
	if s := screenText(m, f.proj); drawnScreen(m) != "browser" || !strings.Contains(s, "BUG-20260705-M8N2 has an unfinished debate: r resumes it") {
		t.Errorf("n with nothing to offer:\n%s", s)
	}
}
