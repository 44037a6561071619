package tui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/review"
)

// fixedNow is the clock of every UI test.
var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

type fixture struct {
	proj string
	reg  *bugfolder.Register
	cfg  *harness.Config
	// planOf and whoIs, when set, go into the options (see Options).
	planOf func(engine.Setup, *harness.Config) (*engine.Plan, error)
	whoIs  func(context.Context, string, func(string) string) string
}

// newFixture copies the sample register and reads its engines file.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	proj := testutil.CopyTree(t, "sample")
	reg, err := bugfolder.FindRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.LoadConfig(filepath.Join(reg.Root, "moot.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{proj: proj, reg: reg, cfg: cfg}
}

func (f *fixture) options() Options {
	return Options{Protocol: debate.Protocol{}, Records: []engine.RecordKeeper{review.Keeper{}}, Register: f.reg, Config: f.cfg, Harness: harness.Options{ConfigDir: f.reg.Root}, Now: func() time.Time { return fixedNow },
		planOf: f.planOf, whoIs: f.whoIs}
}

func (f *fixture) bug(t *testing.T, arg string) *bugfolder.Bug {
	t.Helper()
	_, b, err := bugfolder.Resolve(f.proj, arg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pump feeds msg to the model, then runs the commands it returns (and
// theirs), feeding their messages back. A command that does not return
// within the wait (a tick, a wait on the engine) is left behind.
func pump(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0 && steps < pumpSteps; steps++ {
		next := queue[0]
		queue = queue[1:]
		if next == nil {
			continue
		}
		nm, cmd := m.Update(next)
		m = nm.(Model)
		queue = append(queue, run(cmd)...)
	}
	if len(queue) > 0 {
		// the model asks for the same work again and again: in the app a
		// loop that keeps a core busy while the screen looks idle
		t.Fatalf("after %d messages the model still asks for more (next %T): an endless chain of commands", pumpSteps, queue[0])
	}
	return m
}

// pumpSteps bounds how many messages pump handles; a chain of commands
// that does not end within it fails the test. Reading a register of 2,000
// bugs takes many small index batches under -race.
const pumpSteps = 100_000

// cmdDeadline is how long run waits at most for a command that reads or
// computes something: it returns as soon as the command does, so a
// generous bound costs nothing on a fast machine and keeps a slow one
// (-race, tests side by side) from dropping the message a test waits for.
const cmdDeadline = 10 * time.Second

// eventWait is how long run waits for a command that waits on an outside
// event (the engine's next event, a folder change): such a wait may never
// return while the test holds the model, so it is left behind quickly.
const eventWait = 400 * time.Millisecond

// waitsOnEvents are the commands that wait for something outside the model
// to happen, named as the runtime names their closures.
var waitsOnEvents = []string{".waitForEngine.", ".(*fsWatch).next.", ".(*holderWatch).next."}

// cmdKind says how run treats a command: a clock (tea.Tick, a cursor's
// blink) is never run, for the test sends the clock; a wait on an outside event gets eventWait;
// anything else cmdDeadline.
func cmdKind(cmd tea.Cmd) (clock bool, wait time.Duration) {
	name := ""
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		name = f.Name()
	}
	if strings.Contains(name, "bubbletea/v2.Tick.") || strings.Contains(name, "bubbletea/v2.Every.") || strings.Contains(name, "bubbles/v2/cursor.") {
		return true, 0
	}
	for _, w := range waitsOnEvents {
		if strings.Contains(name, w) {
			return false, eventWait
		}
	}
	return false, cmdDeadline
}

// run executes a command and its batches (a batch's commands side by side),
// waiting for each as cmdKind says, and returns their messages in order.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	clock, wait := cmdKind(cmd)
	if clock {
		return nil // clocks are the test's to send
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		if batch, ok := msg.(tea.BatchMsg); ok {
			outs := make([][]tea.Msg, len(batch))
			var wg sync.WaitGroup
			for i, c := range batch {
				wg.Add(1)
				go func() { defer wg.Done(); outs[i] = run(c) }()
			}
			wg.Wait()
			var out []tea.Msg
			for _, o := range outs {
				out = append(out, o...)
			}
			return out
		}
		switch msg.(type) {
		case tickMsg, watchTickMsg, tea.BackgroundColorMsg:
			return nil // clocks and terminal queries are the test's to send
		}
		return []tea.Msg{msg}
	case <-time.After(wait):
		if os.Getenv("MOOT_SLOWCMD") != "" {
			f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
			if lf, err := os.OpenFile(os.Getenv("MOOT_SLOWCMD"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
				fmt.Fprintln(lf, "SLOWCMD", f.Name(), wait.String())
				lf.Close()
			}
		}
		return nil
	}
}

// keys sends key presses ("enter", "down", "q", or text).
func keys(t *testing.T, m Model, ks ...string) Model {
	t.Helper()
	for _, k := range ks {
		m = pump(t, m, keyMsg(k))
	}
	return m
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screenText is the frame without ANSI, with temporary paths replaced.
func screenText(m Model, proj string) string {
	s := ansi.Strip(m.Render())
	if proj != "" {
		s = strings.ReplaceAll(s, proj, "<project>")
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n") + "\n"
}

// goldenScreen compares the frame with testdata/<test>.golden (-update
// rewrites it).
func goldenScreen(t *testing.T, m Model, proj string) {
	t.Helper()
	golden.RequireEqual(t, []byte(screenText(m, proj)))
}

// checkFrame checks a frame at w×h: exactly h lines, none wider than w,
// and every want in its text; it returns the text.
func checkFrame(t *testing.T, m Model, w, h int, proj string, want []string) string {
	t.Helper()
	lines := strings.Split(m.Render(), "\n")
	if len(lines) != h {
		t.Errorf("%d lines", len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d wide", i, n)
		}
	}
	text := screenText(m, proj)
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("lacks %q:\n%s", s, text)
		}
	}
	return text
}

// sized starts a model at a window size, dark background.
func sized(t *testing.T, opts Options, w, h int) Model {
	t.Helper()
	m := New(opts)
	m = pump(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range run(m.Init()) {
		m = pump(t, m, msg)
	}
	return m
}

// osMkdirTemp makes a folder that outlives one test (a fixture shared by
// tests); TestMain removes it.
func osMkdirTemp(pattern string) (string, error) {
	d, err := os.MkdirTemp("", pattern)
	if err == nil {
		sharedDirs = append(sharedDirs, d)
	}
	return d, err
}

// sharedDirs are the fixtures TestMain removes after the tests.
var sharedDirs []string

func TestMain(m *testing.M) {
	// the seal key of the review fixtures stays out of the user's config folder
	if d, err := os.MkdirTemp("", "moot-tui-xdg-"); err == nil {
		os.Setenv("XDG_CONFIG_HOME", d)
		sharedDirs = append(sharedDirs, d)
	}
	flag.Parse()
	code := m.Run()
	for _, d := range sharedDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// probed wraps a Model run by teatest so a test can wait on the model's
// state, not on bytes of the output stream (which a diffing renderer may
// have written in an earlier read): after every Update, on the program's
// goroutine, it checks when and closes hit the first time it holds.
type probed struct {
	Model
	when func(Model) bool
	hit  chan struct{}
	once *sync.Once
}

func newProbed(m Model, when func(Model) bool) probed {
	return probed{Model: m, when: when, hit: make(chan struct{}), once: new(sync.Once)}
}

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.Model.Update(msg)
	p.Model = m.(Model)
	if p.when(p.Model) {
		p.once.Do(func() { close(p.hit) })
	}
	return p, cmd
}

// wait waits until the condition has held, failing the test when it has
// not within the deadline.
func (p probed) wait(t *testing.T, what string, d time.Duration) {
	t.Helper()
	select {
	case <-p.hit:
	case <-time.After(d):
		t.Fatalf("the model never showed %s within %s", what, d)
	}
}

// drawnScreen names the screen the frame draws, by what only that screen
// draws at its top: the browser's and the wizard's titles, the cost
// screen's, a review's header, the debate view's row of tabs ("" when none
// is recognised, as in a zoom).
func drawnScreen(m Model) string {
	lines := strings.Split(ansi.Strip(m.Render()), "\n")
	for _, l := range lines[:min(3, len(lines))] {
		switch {
		case strings.HasPrefix(l, "moot · debates over"):
			return "browser"
		case strings.HasPrefix(l, "moot · set up a"):
			return "wizard"
		case strings.HasPrefix(l, "Cost of the"):
			return "cost"
		case strings.HasPrefix(l, "review "):
			return "review"
		case strings.HasPrefix(l, "Problem "):
			return "debate"
		}
	}
	return ""
}

// menuTitles are the words each menu draws at its top.
var menuTitles = map[menuKind]string{
	menuQuorum: "Quorum lost in round", menuSwapEngine: "New engine for", menuTimeout: "New timeout for",
	menuJudge: "failed (attempt", menuJudgeHuman: "Which proposal wins?", menuJudgeEngine: "Retry the ",
	menuQuit: "Leave this debate?", menuEngineChange: "The engines changed since this debate started",
	menuTrust: "Trust this project's engines file?", menuDecide: "Record the human decision on",
	menuBudget: "The budget cap is reached", menuBudgetRaise: "New cap in dollars",
}

// menuDrawn reports whether the frame draws the menu of that kind (its
// title, over the screen).
func menuDrawn(m Model, kind menuKind) bool {
	title, ok := menuTitles[kind]
	if !ok {
		panic(fmt.Sprintf("no title known for menu kind %d", kind))
	}
	return strings.Contains(screenText(m, ""), title)
}

// lineWith is the first line of text that holds s ("" when none does).
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
