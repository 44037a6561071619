package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
)

var (
	reg2000Once sync.Once
	reg2000Dir  string
	reg2000Err  error
)

// register2000 generates, once per test binary, a register of 2,000 bugs.
func register2000(t *testing.T) *bugfolder.Register {
	t.Helper()
	reg2000Once.Do(func() {
		reg2000Dir, reg2000Err = osMkdirTemp("moot-2000-")
		if reg2000Err == nil {
			reg2000Err = testutil.GenerateRegister(reg2000Dir, 2000)
		}
	})
	if reg2000Err != nil {
		t.Fatal(reg2000Err)
	}
	reg, err := bugfolder.FindRoot(reg2000Dir)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// loadBig opens the browser on the 2,000-bug register and reads it all.
func loadBig(t *testing.T, w, h int) Model {
	t.Helper()
	f := &fixture{reg: register2000(t), cfg: harness.BuiltinConfig()}
	f.proj = f.reg.Project
	return loadBrowser(t, f, w, h)
}

// onScreen reports whether the selected row is drawn, with the cursor.
func selectedOnScreen(m Model) bool {
	r := m.browser.selected()
	if r == nil {
		return false
	}
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		if strings.HasPrefix(l, "▸") && strings.Contains(l, r.name()) {
			return true
		}
	}
	return false
}

// TestBrowserKeepsTheSelectionOnScreen walks a 2,000-bug register at the
// sizes people use: every move leaves the selected row drawn, and Enter
// opens the row that is drawn as selected.
func TestBrowserKeepsTheSelectionOnScreen(t *testing.T) {
	t.Parallel()
	// the register is read once (three reads of 2,000 bugs took most of
	// this package's time under -race); each size is a resize of it
	big := loadBig(t, 80, 24)
	for _, size := range [][2]int{{80, 24}, {140, 45}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := keys(t, pump(t, big, tea.WindowSizeMsg{Width: size[0], Height: size[1]}), "g")
			steps := []struct {
				keys   []string
				cursor int
			}{
				{repeat("j", 30), 30},
				{[]string{"pgdown"}, 30 + m.lay.rows},
				{[]string{"pgup", "pgup"}, 30 - m.lay.rows},
				{[]string{"G"}, 1999},
				{[]string{"k", "k"}, 1997},
				{[]string{"end"}, 1999},
				{[]string{"g"}, 0},
				{[]string{"home"}, 0},
			}
			for _, s := range steps {
				m = keys(t, m, s.keys...)
				if want := max(0, s.cursor) + 1; drawnPosition(m) != want {
					t.Errorf("after %v: the browser says row %d, want %d", s.keys, drawnPosition(m), want)
				}
				if !selectedOnScreen(m) {
					t.Errorf("after %v the selected row %d is off screen:\n%s", s.keys, drawnPosition(m), screenText(m, ""))
				}
			}
			m = keys(t, m, "G")
			last := selectedBug(m)
			m = keys(t, m, "enter")
			if drawnScreen(m) != "debate" || !strings.Contains(lineWith(screenText(m, ""), "·"), last) {
				t.Errorf("enter on the last row did not open %s:\n%s", last, screenText(m, ""))
			}
		})
	}
}

// drawnPosition is the selected row's place the browser draws on its
// second line ("31/2000 · …", or "31/199 · 199 of 2000 match" under an
// accepted filter), 1 for the first row; 0 when it draws none.
func drawnPosition(m Model) int {
	lines := strings.Split(screenText(m, ""), "\n")
	if len(lines) < 2 {
		return 0
	}
	p := drawnPositionRe.FindStringSubmatch(lines[1])
	if p == nil {
		return 0
	}
	n, _ := strconv.Atoi(p[1])
	return n
}

var drawnPositionRe = regexp.MustCompile(`(?:^|\s)(\d+)/\d+`)

// selectedLine is the list's row drawn with the selection mark ("" when
// none is).
func selectedLine(m Model) string {
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		if strings.HasPrefix(l, "▸") {
			return l
		}
	}
	return ""
}

// selectedBug is the bug ID on the row drawn as selected.
func selectedBug(m Model) string {
	return bugIDRe.FindString(selectedLine(m))
}

var bugIDRe = regexp.MustCompile(`BUG-\d{8}-[0-9A-Z]+`)

func repeat(k string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// TestBrowserFilterCountAndSort: the filter says how many bugs match, and
// s orders the list by date, status, cost and health keeping the
// selected bug selected.
func TestBrowserFilterCountAndSort(t *testing.T) {
	t.Parallel()
	m := loadBig(t, 80, 24)
	m = keys(t, m, "/", "1", "9", "9")
	text := screenText(m, "")
	n := 0
	if c := regexp.MustCompile(`(\d+) of 2000 match`).FindStringSubmatch(text); c != nil {
		n, _ = strconv.Atoi(c[1])
	}
	if n == 0 || n == 2000 || !strings.Contains(text, fmt.Sprintf("%d of 2000 match", n)) {
		t.Errorf("filter 199: %d visible\n%s", n, text)
	}
	m = keys(t, m, "esc")
	m = keys(t, m, "j", "j", "j")
	sel := selectedBug(m)
	// the order of all 2,000 rows: a frame draws about twenty of them (and
	// at 80 columns not the COST column), so the rows are read from the
	// list itself; the frame is checked for the order's name below
	costs := func() []float64 {
		var out []float64
		for _, i := range m.browser.visible {
			out = append(out, m.browser.rows[i].sum.CostUSD)
		}
		return out
	}
	for _, want := range []string{"date", "status", "cost"} {
		m = keys(t, m, "s")
		if order := lineWith(screenText(m, ""), "/2000"); !strings.Contains(order, sortWords[want]) {
			t.Fatalf("after s the browser says %q, want the order %q", order, sortWords[want])
		}
		if selectedBug(m) != sel || !selectedOnScreen(m) {
			t.Errorf("sorting by %s lost the selected bug %s", want, sel)
		}
	}
	c := costs()
	for i := 1; i < len(c); i++ {
		if c[i] > c[i-1] {
			t.Fatalf("by cost: row %d costs %v after %v", i, c[i], c[i-1])
		}
	}
	if !strings.Contains(screenText(m, ""), "costliest first") {
		t.Error("the screen does not say the order")
	}
}

// sortWords are the words the browser draws for each order.
var sortWords = map[string]string{"date": "newest first", "status": "by status", "cost": "costliest first", "health": "worst health first"}

// TestBrowserColumnsAt80: at 80 columns titles are visible and the marks
// of closed and restricted bugs are drawn whole; ? explains them.
func TestBrowserColumnsAt80(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := loadBrowser(t, f, size[0], size[1])
			text := screenText(m, f.proj)
			for _, want := range []string{"⊘   BUG-20260610-K4M1", "⚑  BUG-20260720-R5T6", "Cupom expirado", "Invoice total"} {
				if !strings.Contains(text, want) {
					t.Errorf("%dx%d lacks %q:\n%s", size[0], size[1], want, text)
				}
			}
			goldenScreen(t, m, f.proj)
			m = keys(t, m, "?")
			help := screenText(m, f.proj)
			for range 4 { // at 80x24 the help scrolls: read it to the end
				m = keys(t, m, "down")
				help += screenText(m, f.proj)
			}
			for _, want := range []string{"⊘", "closed by DONE.md", "⚑", "restricted", "g/G"} {
				if !strings.Contains(help, want) {
					t.Errorf("help lacks %q:\n%s", want, help)
				}
			}
		})
	}
}

// TestBrowserFlowOn2000Bugs drives a real program: End, then Enter opens
// the last bug.
func TestBrowserFlowOn2000Bugs(t *testing.T) {
	t.Parallel()
	reg := register2000(t)
	tm := teatest.NewTestModel(t, New(Options{Protocol: debate.Protocol{}, Register: reg, Config: harness.BuiltinConfig()}), teatest.WithInitialTermSize(80, 24))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("BUG-20260101-0000")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // read or not yet, it opens
	waitFor("Round 2")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"}) // back to the browser
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(Model)
	if p := drawnPosition(final); p != 2000 {
		t.Errorf("the browser says row %d after End, want 2000", p)
	}
	if want := selectedBug(final); want == "" || !strings.Contains(final.Outcome().Dir, want) {
		t.Errorf("opened %s, want the last bug %s", final.Outcome().Dir, want)
	}
}

// TestBrowserEscDoesNotQuit: esc clears an applied filter and, on the plain
// list, does nothing; q quits.
func TestBrowserEscDoesNotQuit(t *testing.T) {
	t.Parallel()
	m := loadBrowser(t, newFixture(t), 80, 24)
	all := strings.Count(screenText(m, ""), "BUG-")
	m = keys(t, m, "/", "K", "4", "M", "enter")
	if text := screenText(m, ""); !strings.Contains(text, "1 of 6 match") {
		t.Fatalf("the filter does not show its one match:\n%s", text)
	}
	next, cmd := m.Update(keyMsg("esc"))
	m = next.(Model)
	if text := screenText(m, ""); isQuit(cmd) || strings.Contains(text, "match") || strings.Count(text, "BUG-") != all {
		t.Errorf("esc on an applied filter: quit %v, want every row and no filter:\n%s", isQuit(cmd), text)
	}
	if _, cmd := m.Update(keyMsg("esc")); isQuit(cmd) {
		t.Error("esc on the plain list quit")
	}
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q did not quit")
	}
}

// isQuit reports whether a command quits the program.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// TestSortPutsUnknownCostsLast: sorted by cost, bugs with no debate or no
// known cost come after every known cost, a known $0.00 included.
func TestSortPutsUnknownCostsLast(t *testing.T) {
	t.Parallel()
	b := &browser{sortBy: "cost"}
	for _, s := range []*bugfolder.Summary{
		{Count: 0},                    // no debate: "—"
		{Count: 1, CostUSD: 0},        // a free engine: $0.00
		{Count: 1, CostUnknown: true}, // unknown
		{Count: 1, CostUSD: 0.5},      // $0.50
	} {
		b.rows = append(b.rows, &browserRow{sum: s})
	}
	order := []int{0, 1, 2, 3}
	slices.SortStableFunc(order, b.less)
	if want := []int{3, 1, 0, 2}; !slices.Equal(order, want) {
		t.Errorf("by cost: %v, want %v", order, want)
	}
}

// TestBrowserSmallItems: an accepted filter says where the selection is
// as well as how many match; sorting by cost or health puts the bugs
// without a figure (no debate) last; CONTEXT takes its contexts' natural
// width where the title has room (140 columns), its own at 80.
func TestBrowserSmallItems(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 100, 30)
	m = keys(t, m, "/", "B", "U", "G", "enter", "j")
	if text := screenText(m, f.proj); !strings.Contains(text, "2/6 · 6 of 6 match") {
		t.Errorf("the accepted filter does not say the position:\n%s", text)
	}
	m = keys(t, m, "esc")
	for _, by := range []string{"cost", "health"} {
		for i := 0; i < 5 && !strings.Contains(lineWith(screenText(m, ""), "/6"), sortWords[by]); i++ {
			m = keys(t, m, "s")
		}
		// justified: every row's figure, whether the width draws its column
		// or not: the order's rule is checked on the list itself
		seenNone := false
		for _, i := range m.browser.visible {
			s := m.browser.rows[i].sum
			none := s.Count == 0 || (by == "health" && s.Health == 0) || (by == "cost" && s.CostUnknown)
			if seenNone && !none {
				t.Errorf("by %s: %s (with a figure) after a row without one", by, s.Bug.ID)
			}
			seenNone = seenNone || none
		}
	}
	// a context with a long name, drawn whole at 160 columns (with the
	// PROTOCOL column, 140 leaves the title no more to give)
	if err := os.MkdirAll(filepath.Join(f.proj, "_reversa_bugs", "payments-gateway", "bugs"), 0o755); err != nil {
		t.Fatal(err)
	}
	newBug(t, f.proj, "payments-gateway", "BUG-20260901-P4G7", "Gateway timeout")
	wide := loadBrowser(t, f, 160, 40)
	if row := lineWith(screenText(wide, f.proj), "BUG-20260901-P4G7"); !strings.Contains(row, " payments-gateway ") {
		t.Errorf("CONTEXT at 160 columns does not draw payments-gateway whole: %q", row)
	}
	// justified: at 80 columns CONTEXT is not drawn; the width it keeps is the layout's own
	b := &wide.browser
	ctx := slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "CONTEXT" })
	if w := b.colWidths(columnsFor(80), 80)[ctx]; w != browserCols[ctx].width {
		t.Errorf("CONTEXT at 80 columns is %d wide, want %d (the title keeps its room)", w, browserCols[ctx].width)
	}
}
