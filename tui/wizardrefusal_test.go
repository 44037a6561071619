package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestWizardShowsARefusalWhole: a refusal longer than a line (option B
// states option A again) is shown whole, wrapped under the form, with the
// footer kept, at 80×24 and 60×15; typing again takes it away.
func TestWizardShowsARefusalWhole(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, now := optionBRefused(t, f, size[0], size[1])
			text := checkFrame(t, m, size[0], size[1], f.proj, []string{"enter next"})
			if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, `* options A and B are the same statement ("Strip discounts before recalculating"): a tradeoff weighs two different options`) {
				t.Errorf("the refusal is not shown whole:\n%s", text)
			}
			goldenScreen(t, m, f.proj)
			*now = now.Add(readAfter) // the refusal read
			m = keys(t, m, "x")
			if text := screenText(m, f.proj); strings.Contains(text, "same statement") {
				t.Errorf("the refusal stays once B is typed again:\n%s", text)
			}
		})
	}
}

// optionBRefused is the tradeoff wizard at w×h with enter pressed on an
// option B that states option A again; now is its clock, to move.
func optionBRefused(t *testing.T, f *fixture, w, h int) (Model, *time.Time) {
	t.Helper()
	opts := protocolOptions(f, t)
	const a = "Strip discounts before recalculating"
	opts.Proposals = func(*bugfolder.Bug) (string, string, bool) { return a, a, true }
	now := fixedNow
	opts.Now = func() time.Time { return now }
	m := sized(t, opts, w, h)
	return keys(t, m, "down", "enter", "enter", "enter", "enter", "enter", "enter"), &now // tradeoff; mode, R, engines; A, B
}

// TestWizardTakesARefusalAwayAtAPaste: option B refused (it states option
// A again), then, once the refusal could be read, another option B pasted
// into the field: the refusal goes, as it goes at a typed key (huh keeps
// a field's refusal through a paste), and the pasted text is in the field.
func TestWizardTakesARefusalAwayAtAPaste(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, now := optionBRefused(t, f, 80, 24)
	if text := screenText(m, f.proj); !strings.Contains(text, "same statement") {
		t.Fatalf("option B is not refused:\n%s", text)
	}
	*now = now.Add(readAfter) // the refusal read
	m = pump(t, m, tea.PasteMsg{Content: " once, at order creation"})
	text := screenText(m, f.proj)
	if strings.Contains(text, "same statement") {
		t.Errorf("the refusal stays after a paste into the field:\n%s", text)
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "once, at order creation") {
		t.Errorf("the pasted text is not in the field:\n%s", text)
	}
}

// TestAToastStaysOnTheScreenThatRaisedIt: a note the browser shows on its
// status line is not shown by the wizard n opens (its footer is its
// keys); a note the wizard raises is.
func TestAToastStaysOnTheScreenThatRaisedIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := sized(t, f.options(), 80, 24)
	m = pump(t, m, statusMsg("a note of the browser"))
	if !strings.Contains(footer(m), "a note of the browser") {
		t.Fatalf("the browser does not show its own note: %q", footer(m))
	}
	m = keys(t, m, "n")
	if got := footer(m); strings.Contains(got, "a note of the browser") || !strings.Contains(got, "enter next") {
		t.Errorf("the wizard's footer shows the browser's note, not its keys: %q", got)
	}
	m = pump(t, m, statusMsg("a note of the wizard"))
	if got := footer(m); !strings.Contains(got, "a note of the wizard") {
		t.Errorf("the wizard does not show its own note: %q", got)
	}
}

// TestWizardShowsAQuestionRefusedAtItsEndWhole: moot ask's refusal when
// the completed wizard sets the question up (its folder reserved) is shown
// whole under the question's page, not cut on the status line, at 80×24
// and 60×15; a key takes it away.
func TestWizardShowsAQuestionRefusedAtItsEndWhole(t *testing.T) {
	t.Parallel()
	const why = "the question's folder .moot/debates/20261130-should-checkout-retry/ is taken by a debate another moot is writing; wait for it, or ask another question"
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			var asked, reviewed [][]string
			opts := fiveProtocolOptions(f, t, &asked, &reviewed)
			opts.Ask = func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error) {
				if reserve {
					return nil, engine.Setup{}, errors.New(why + "; nothing was written")
				}
				return nil, engine.Setup{}, nil
			}
			m := sized(t, opts, size[0], size[1])
			m = keys(t, m, "down", "enter")
			m = typeText(t, m, "Should checkout retry?")
			m = keys(t, m, "enter", "enter", "enter", "enter", "enter", "enter") // personas, R; engines, synthesizer, timeout
			text := checkFrame(t, m, size[0], size[1], f.proj, []string{"Question"})
			if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "* the question cannot be set up: "+why) {
				t.Errorf("the refusal is not shown whole:\n%s", text)
			}
			if m = keys(t, m, "x"); strings.Contains(screenText(m, f.proj), "cannot be set up") {
				t.Errorf("the refusal stays after a key:\n%s", screenText(m, f.proj))
			}
		})
	}
}

// TestWizardKeepsARefusalForTheTextTypedBehindEnter: on a review's page,
// enter on an empty Change the review refuses, with text typed right
// behind it (before the refusal could be read), shows the refusal whole
// under the form, the text in Change, the focus still there; a key typed
// once the refusal could be read takes it away, as any refusal goes.
func TestWizardKeepsARefusalForTheTextTypedBehindEnter(t *testing.T) {
	t.Parallel()
	const why = "7 has no applied fix to review: no fix/CHG-*.diff in its folder; apply the fix first, or give the change in the Change field (a git range A..B, or the files it touches); nothing was called or written"
	f := newFixture(t)
	var asked, reviewed [][]string
	opts := fiveProtocolOptions(f, t, &asked, &reviewed)
	opts.Review = func(args []string, check bool) (ReviewStart, error) {
		if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--change") || strings.HasPrefix(a, "--files") }) {
			return ReviewStart{}, errors.New(why)
		}
		return ReviewStart{}, nil
	}
	now := fixedNow
	opts.Now = func() time.Time { return now }
	m := sized(t, opts, 80, 24)
	m = keys(t, m, "down", "down", "enter") // review
	m = keys(t, m, "enter")
	m = typeText(t, m, "HEAD~1..HEAD")
	text := checkFrame(t, m, 80, 24, f.proj, []string{"┃ > HEAD~1..HEAD", "enter next"})
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "* "+strings.TrimSuffix(why, "; nothing was called or written")) {
		t.Errorf("the refusal is not shown whole:\n%s", text)
	}
	if strings.Contains(text, "┃ Contract") {
		t.Errorf("the focus left the field that refused:\n%s", text)
	}
	goldenScreen(t, m, f.proj)
	now = now.Add(readAfter)
	m = keys(t, m, "x")
	if text := screenText(m, f.proj); strings.Contains(text, "no applied fix") || !strings.Contains(text, "┃ > HEAD~1..HEADx") {
		t.Errorf("a key typed once the refusal could be read does not take it away:\n%s", text)
	}
}
