package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/debate"
)

// fiveProtocolOptions are a fixture's options with every way in the
// wizard offers: a bug's protocol, argue on a question (ask) and a review
// of a change (review), each answering as its command would: ask refuses
// a persona it does not know, review a contract without criteria.
func fiveProtocolOptions(f *fixture, t *testing.T, asked, reviewed *[][]string) Options {
	opts := f.options()
	opts.Bug = f.bug(t, "7")
	opts.Protocols = []engine.Protocol{debate.Protocol{}}
	opts.Questions = []engine.Protocol{argue.Protocol{}}
	opts.Ask = func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error) {
		*asked = append(*asked, args)
		if i := slices.Index(args, "--persona"); i >= 0 && args[i+1] == "nobody" {
			return nil, engine.Setup{}, errors.New(`--persona: "nobody" is no persona; nothing was written`)
		}
		return nil, engine.Setup{}, nil
	}
	opts.Review = func(args []string, check bool) (ReviewStart, error) {
		*reviewed = append(*reviewed, args)
		if i := slices.Index(args, "--contract"); i >= 0 && !strings.Contains(args[i+1], "|") {
			return ReviewStart{}, fmt.Errorf("Contract %q: give \"intent | pass criteria\"; nothing was called or written", args[i+1])
		}
		return ReviewStart{}, nil
	}
	return opts
}

// TestWizardOffersArgueAndReview: the wizard lists argue (on a question)
// and review (of a change) beside a bug's protocols; argue's page asks
// the question, the personas and the round cap and hands them to the ask
// command's own checks (its refusal shown as typed); review's page asks
// the change, the contract, the builder and the lenses, checked by the
// review command's (a field not reached yet is not refused). Goldens at
// 80×24 and 140×45.
func TestWizardOffersArgueAndReview(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			var asked, reviewed [][]string
			opts := fiveProtocolOptions(f, t, &asked, &reviewed)
			m := sized(t, opts, sz.w, sz.h)
			checkFrame(t, m, sz.w, sz.h, f.proj, []string{"debate —", "argue — on a question", "review — of a change"})
			goldenScreenNamed(t, "protocols", m, f.proj)

			q := keys(t, m, "down", "enter")
			checkFrame(t, q, sz.w, sz.h, f.proj, []string{"Question", "Personas", "Rounds (cap R)"})
			goldenScreenNamed(t, "question", q, f.proj)
			q = typeText(t, q, "Should checkout cache coupon lookups?")
			q = keys(t, q, "enter")
			q = typeText(t, q, "nobody")
			q = keys(t, q, "enter")
			checkFrame(t, q, sz.w, sz.h, f.proj, []string{`"nobody" is no persona`})
			if len(asked) == 0 || !slices.Contains(asked[len(asked)-1], "Should checkout cache coupon lookups?") || !slices.Contains(asked[len(asked)-1], "--persona") {
				t.Errorf("the ask command was not given the answers: %q", asked)
			}

			r := keys(t, sized(t, opts, sz.w, sz.h), "down", "down", "enter") // a fresh wizard: the model shares its own
			checkFrame(t, r, sz.w, sz.h, f.proj, []string{"Change", "Contract", "Builder", "Lenses", "applied fix"})
			goldenScreenNamed(t, "review", r, f.proj)
			r = typeText(t, r, "HEAD~1..HEAD")
			r = keys(t, r, "enter")
			if s := screenText(r, f.proj); strings.Contains(s, "intent | pass criteria\" ;") || strings.Contains(s, "give \"intent") {
				t.Errorf("the contract is refused before its turn:\n%s", s)
			}
			r = typeText(t, r, "document Total")
			r = keys(t, r, "enter")
			checkFrame(t, r, sz.w, sz.h, f.proj, []string{"pass criteria"})
			if len(reviewed) == 0 {
				t.Fatalf("the review command checked nothing:\n%s", screenText(r, f.proj))
			}
			last := reviewed[len(reviewed)-1]
			if !slices.Contains(last, "HEAD~1..HEAD") || last[len(last)-1] != f.bug(t, "7").ID {
				t.Errorf("the review command was not given the change and the bug: %q", last)
			}
		})
	}
}

// typeText types s into the focused field, a key press a character.
func typeText(t *testing.T, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		if r == ' ' {
			m = keys(t, m, "space")
			continue
		}
		m = keys(t, m, string(r))
	}
	return m
}
