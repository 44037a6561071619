package tui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/review"
)

// TestScreensBeyondTheFixedStatesAtBothSizes renders, at 80×24 and
// 140×45 (golden files), the screens TestFixedStatesAtBothSizes leaves
// out: the wizard's engines and external-confirmation steps, argue's live
// view and its help, a running review's quit question, the resume's cost
// question and a zoomed tradeoff pane with its whole option. Each frame
// fits the window and keeps what the screen is about.
func TestScreensBeyondTheFixedStatesAtBothSizes(t *testing.T) {
	t.Parallel()
	longA := "Keep the coupon check inside the checkout transaction so an expired coupon can never be applied, even under concurrent requests"
	states := []struct {
		name string
		make func(f *fixture, w, h int) Model
		want []string
	}{
		{"wizard-engines", func(f *fixture, w, h int) Model {
			opts := f.options()
			opts.Bug = f.bug(t, "7")
			return keys(t, sized(t, opts, w, h), "enter", "enter", "enter", "enter") // mode, N, R, one engine for all
		}, []string{"Engine of ", "scripted"}},
		{"wizard-confirm", func(f *fixture, w, h int) Model {
			cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  cloud: {kind: openai, base_url: https://api.example.com/v1}\ndefaults: {solver: scripted, judge: scripted}\n"))
			if err != nil {
				t.Fatal(err)
			}
			opts := f.options()
			opts.Config, opts.Bug = cfg, f.bug(t, "7")
			m := keys(t, sized(t, opts, w, h), "enter", "enter", "enter", "enter")
			return keys(t, m, "down", "enter", "enter", "enter", "enter", "enter") // cloud for the solvers; critics, judge, order-swap, timeout
		}, []string{"Send this bug to external engines?", "cloud will receive the bug"}},
		{"argue-live", func(f *fixture, w, h int) Model { return argueLive(t, 2, w, h) },
			[]string{"0/13", "S stop & synthesize"}},
		{"argue-help", func(f *fixture, w, h int) Model { return keys(t, argueLive(t, 2, w, h), "?") },
			[]string{"Keys", "stop after the round in flight"}},
		{"review-quit", func(f *fixture, w, h int) Model {
			rf := runningReview(t, f)
			m := NewReview(rf.f.Dir, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
			m = pump(t, m, tea.WindowSizeMsg{Width: w, Height: h})
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			return keys(t, m, "q")
		}, []string{"Leave this review?", "Keep watching"}},
		{"resume-cost", func(f *fixture, w, h int) Model {
			// the question as r or moot resume opens it on an interrupted
			// debate (engine.ResumeNeed's words; e2e drives the real path)
			m := keys(t, selectRow(t, loadBrowser(t, f, w, h), "BUG-20260801-X9Z2"), "enter")
			m.dlg.openMenu(&m.frame, resumeCostMenu("BUG-20260801-X9Z2", "at least 8 more call(s), 12 in all with the 4 already made")) // its header counts 4/12
			return m
		}, []string{"Resume BUG-20260801-X9Z2?", "in all with the", "Cancel: nothing is called"}},
		{"zoom-option", func(f *fixture, w, h int) Model {
			return keys(t, tradeoffLive(t, f, w, h, longA, "Move the check to a cached validation service"), "enter")
		}, []string{"option A: Keep the coupon check", "Opção A."}},
	}
	for _, st := range states {
		for _, size := range [][2]int{{80, 24}, {140, 45}} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s/%dx%d", st.name, w, h), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				m := st.make(f, w, h)
				checkFrame(t, m, w, h, f.proj, st.want)
				goldenScreen(t, m, f.proj)
			})
		}
	}
}
