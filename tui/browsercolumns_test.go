package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestBrowserTellsProtocolsAndIDsApart: the list has a PROTOCOL column
// (debate, tradeoff, argue…) at 80 and 140 columns, and two questions
// whose long IDs share a prefix (and differ in the middle) never read the
// same, however narrow the ID column.
func TestBrowserTellsProtocolsAndIDsApart(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 140} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			ids := map[string]string{
				"20261202-should-checkout-cache-coupon-lookups":   "tradeoff",
				"20261202-should-checkout-cache-coupon-lookups-2": "argue",
				"20261202-should-we-cache-coupon-lookups":         "council",
			}
			for id, proto := range ids {
				addQuestion(t, f.proj, id, proto, "Should checkout cache coupon lookups?")
			}
			m := loadBrowser(t, f, w, 30)
			s := screenText(m, f.proj)
			if !strings.Contains(s, "PROTOCOL") {
				t.Fatalf("no PROTOCOL column:\n%s", s)
			}
			var cells []string
			for _, l := range strings.Split(s, "\n") {
				if !strings.Contains(l, "20261202-") {
					continue
				}
				proto := ""
				for _, p := range []string{"tradeoff", "argue", "council"} {
					if strings.Contains(l, " "+p+" ") {
						proto = p
					}
				}
				if proto == "" {
					t.Errorf("a question's row names no protocol: %q", l)
				}
				fields := strings.Fields(strings.TrimLeft(l, "▸ ◆?⚑●"))
				cells = append(cells, fields[0])
			}
			if len(cells) != 3 {
				t.Fatalf("%d question rows:\n%s", len(cells), s)
			}
			if cells[0] == cells[1] || cells[1] == cells[2] || cells[0] == cells[2] {
				t.Errorf("two question IDs read the same: %q\n%s", cells, s)
			}
			if !strings.Contains(s, " debate ") {
				t.Errorf("a bug's debate shows no protocol:\n%s", s)
			}
		})
	}
}

// TestBrowserKeepsItsColumnsBesideALongQuestionID: a question of a long
// slug in the register changes no column of the list at 60, 80 and 140
// columns (its ID is cut in its middle to a bug ID's width): the heading
// reads as it does without questions, but for ID in place of BUG.
func TestBrowserKeepsItsColumnsBesideALongQuestionID(t *testing.T) {
	t.Parallel()
	const long = "20261202-should-checkout-cache-coupon-lookups"
	for _, size := range [][2]int{{60, 15}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			heading := func(s string) string {
				for _, l := range strings.Split(s, "\n") {
					if strings.Contains(l, "STATUS") {
						return strings.Replace(strings.TrimSpace(l), "BUG", "ID ", 1)
					}
				}
				t.Fatalf("no heading:\n%s", s)
				return ""
			}
			plain := newFixture(t)
			without := heading(screenText(loadBrowser(t, plain, size[0], size[1]), plain.proj))
			f := newFixture(t)
			addQuestion(t, f.proj, long, "tradeoff", "Should checkout cache coupon lookups?")
			m := loadBrowser(t, f, size[0], size[1])
			s := screenText(m, f.proj)
			if with := heading(s); with != without {
				t.Errorf("a question changed the columns:\nwithout %q\nwith    %q\n%s", without, with, s)
			}
			if !strings.Contains(s, "20261202…") || !strings.Contains(s, "tradeoff") {
				t.Errorf("the question's row lacks its cut ID or its protocol:\n%s", s)
			}
			checkFrame(t, m, size[0], size[1], f.proj, nil)
			goldenScreen(t, m, f.proj)
		})
	}
}

// TestBrowserKeepsItsTitleBesideQuestionsThatEndAlike: three questions of
// one day whose IDs differ only in their first words and end alike
// ("…-retry-payment-webhooks-forever") are told apart by their cut IDs,
// and the list keeps its heading whole and their titles readable at
// 80×24 and 140×45, beside statuses that grow to say a decision waits:
// the ID column keeps more of their starts, not 35 cells of both halves,
// and its width is taken before the other columns grow, not after, which
// cut every title to "Should …" or less.
func TestBrowserKeepsItsTitleBesideQuestionsThatEndAlike(t *testing.T) {
	t.Parallel()
	ids := []string{
		"20261203-should-checkout-retry-payment-webhooks-forever",
		"20261203-should-billing-retry-payment-webhooks-forever",
		"20261203-should-refunds-be-retried-forever",
	}
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			bothPending(t, f) // a ◆ and a ◈ row: the STATUS column grows to say them
			for _, id := range ids {
				addQuestion(t, f.proj, id, "argue", "Should payment webhooks be retried forever?")
			}
			m := loadBrowser(t, f, size[0], size[1])
			s := screenText(m, f.proj)
			var heading string
			var cells []string
			for _, l := range strings.Split(s, "\n") {
				switch {
				case strings.Contains(l, "STATUS"):
					heading = strings.TrimSpace(l)
				case strings.Contains(l, "20261203"):
					cells = append(cells, strings.Fields(strings.TrimLeft(l, "▸ ◆?⚑●"))[0])
					// at 140 columns the title gives the STATUS room to say its decision whole
					if want := map[int]string{80: "Should payment", 140: "Should "}[size[0]]; !strings.Contains(l, want) {
						t.Errorf("a question's title is cut to nothing telling: %q", l)
					}
				}
			}
			if !strings.HasSuffix(heading, "TITLE") {
				t.Errorf("the heading is not whole, TITLE last: %q\n%s", heading, s)
			}
			if len(cells) != 3 || cells[0] == cells[1] || cells[1] == cells[2] || cells[0] == cells[2] {
				t.Errorf("the three questions' IDs do not read apart: %q\n%s", cells, s)
			}
			checkFrame(t, m, size[0], size[1], f.proj, nil)
		})
	}
}
