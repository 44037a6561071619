package tui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
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
// (-race, tests side by side) from dropping the message a test waits for
// (10 s was not enough under -race on a two-core machine at load 20: the
// load of a debate was dropped, and `r` then resumed it instead of opening
// its judge menu).
const cmdDeadline = 60 * time.Second

// eventWait is how long run waits for a command that waits on an outside
// event (a folder change, the engines' answers to the probe): such a wait
// may never return while the test holds the model, so it is left behind
// quickly.
const eventWait = 400 * time.Millisecond

// engineWait is how long run waits for the engine's next event. A run or
// a resume started by a key sends its first event (a menu, a call
// started) within moments on an idle machine, but under -race on a loaded
// two-core machine reading the debate back can take seconds (400 ms once
// dropped the judge menu a resume asked for); the wait that never returns
// (the engine waiting on a menu's answer) costs this once.
const engineWait = 10 * time.Second

// waitsOnEvents are the commands that wait for something outside the model
// to happen (a folder change, the engines' answers to the probe), named as
// the runtime names their closures.
var waitsOnEvents = []string{".(*fsWatch).next.", ".(*holderWatch).next.", ".probeCmd."}

// cmdKind says how run treats a command: a clock (tea.Tick, a cursor's
// blink) is never run, for the test sends the clock; the engine's next event
// gets engineWait, a wait on another outside event eventWait;
// anything else cmdDeadline.
func cmdKind(cmd tea.Cmd) (clock bool, wait time.Duration) {
	name := ""
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		name = f.Name()
	}
	if strings.Contains(name, "bubbletea/v2.Tick.") || strings.Contains(name, "bubbletea/v2.Every.") || strings.Contains(name, "bubbles/v2/cursor.") {
		return true, 0
	}
	if strings.Contains(name, ".waitForEngine.") {
		return false, engineWait
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
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
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

// wizardStages are the wizard's stages, each named by the field title only
// that stage draws (checked in this order: the protocol stage draws "New
// debate" too).
var wizardStages = []struct{ stage, title string }{
	{"protocol", "Protocol"},
	{"confirm", "Send this bug to external engines?"},
	{"engines", "Timeout per call"}, {"engines", "Order-swap check"}, {"engines", "Critics"}, {"engines", "Engine of "},
	{"basics", "New debate"}, {"basics", "Mode"}, {"basics", "Rounds after round 0 (R)"}, {"basics", "Rebuttal rounds (cap R)"},
	{"basics", " engines"}, {"basics", "Question"}, {"basics", "Change"}, {"basics", "Contract"},
	{"inputs", "Lenses"}, {"inputs", "Options"}, {"inputs", "Criteria"}, {"inputs", "Value at risk"},
}

// fieldTitles are the frame's lines with the form's focus bar and the
// indentation taken away.
func fieldTitles(m Model) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		out[strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "┃"))] = true
	}
	return out
}

// drawsTitle reports whether the frame draws a field titled title (a title
// ending in a space is a prefix: "Engine of " names every solver's field;
// one starting with a space a suffix: " engines" names the strategy field
// in every protocol's words).
func drawsTitle(titles map[string]bool, title string) bool {
	for t := range titles {
		switch {
		case strings.HasSuffix(title, " ") && strings.HasPrefix(t, title),
			strings.HasPrefix(title, " ") && strings.HasSuffix(t, title) && !strings.Contains(t, " "+strings.TrimSpace(title)+" "),
			t == title:
			return true
		}
	}
	return false
}

// wizardStage names the wizard's stage by what the frame asks ("" when the
// frame is not the wizard's): protocol, basics, inputs, engines, confirm.
func wizardStage(m Model) string {
	if drawnScreen(m) != "wizard" {
		return ""
	}
	titles := fieldTitles(m)
	for _, s := range wizardStages {
		if drawsTitle(titles, s.title) {
			return s.stage
		}
	}
	return "unknown"
}

// wizardAsks fails the test unless the frame draws the wizard at that
// stage.
func wizardAsks(t *testing.T, m Model, stage string) {
	t.Helper()
	if got := wizardStage(m); got != stage {
		t.Fatalf("the wizard should ask its %s stage, it draws %q:\n%s", stage, got, screenText(m, ""))
	}
}

// focusedField is the title of the form field the focus bar (┃) marks:
// the first marked line.
func focusedField(m Model) string {
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "┃") {
			return strings.TrimSpace(strings.TrimPrefix(t, "┃"))
		}
	}
	return ""
}

// sgr matches one SGR escape and the text after it up to the next escape.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m([^\x1b]*)`)

// activeTab is the tab the frame marks (drawn underlined) on its row of
// tabs, among the first lines ("" when none is).
func activeTab(m Model) string {
	lines := strings.Split(m.Render(), "\n")
	for _, l := range lines[:min(4, len(lines))] {
		var b strings.Builder
		for _, g := range sgr.FindAllStringSubmatch(l, -1) {
			if slices.Contains(strings.Split(g[1], ";"), "4") {
				b.WriteString(g[2])
			}
		}
		if b.Len() > 0 {
			return strings.TrimSpace(b.String())
		}
	}
	return ""
}

// footer is the frame's last line that is not blank.
func footer(m Model) string {
	lines := strings.Split(strings.TrimRight(screenText(m, ""), "\n "), "\n")
	return lines[len(lines)-1]
}

// zoomShown reports whether the frame is a zoom: one document full screen
// (under a review's header in a review) with the zoom's footer (its scroll keys, its search prompt or its
// matches).
func zoomShown(m Model) bool {
	f := footer(m)
	return (strings.Contains(f, "scroll") || strings.Contains(f, "enter find · esc close") || strings.Contains(f, "esc clear"))
}

// anyMenuDrawn reports whether a decision menu is drawn over the screen:
// a known menu's title or the menus' confirm key in the footer.
func anyMenuDrawn(m Model) bool {
	text := screenText(m, "")
	for _, title := range menuTitles {
		if strings.Contains(text, title) {
			return true
		}
	}
	screen := drawnScreen(m)
	return screen != "wizard" && screen != "cost" && strings.Contains(footer(m), "enter confirm")
}

// menuMarks name a menu by words only it draws, the most specific first
// (the quorum menu offers "Other…" and the judge menu "Retry the …"):
// drawnMenu takes the first that matches.
var menuMarks = []struct {
	kind menuKind
	mark *regexp.Regexp
}{
	{menuQuorumOther, regexp.MustCompile(`│ [┃ ] (Other|Which failed \w+\?) +│`)},
	{menuSwapEngine, regexp.MustCompile(`New engine for `)},
	{menuTimeout, regexp.MustCompile(`New timeout for `)},
	{menuJudgeHuman, regexp.MustCompile(`Which proposal wins\?`)},
	{menuJudgeEngine, regexp.MustCompile(`on another engine \(now: `)},
	{menuJudge, regexp.MustCompile(`failed \(attempt \d+\)`)},
	{menuQuorum, regexp.MustCompile(`Quorum lost in round`)},
	{menuQuit, regexp.MustCompile(`Leave this debate\?`)},
	{menuEngineChange, regexp.MustCompile(`The engines changed since this debate started`)},
	{menuTrust, regexp.MustCompile(`Trust this project's engines file\?`)},
	{menuDecide, regexp.MustCompile(`Record the human decision on`)},
	{menuBudgetRaise, regexp.MustCompile(`New cap in dollars`)},
	{menuBudget, regexp.MustCompile(`The budget cap is reached`)},
}

// drawnMenu is the kind of the menu the frame draws (menuNone when none).
func drawnMenu(m Model) menuKind {
	text := screenText(m, "")
	for _, mm := range menuMarks {
		if mm.mark.MatchString(text) {
			return mm.kind
		}
	}
	return menuNone
}

// debateOf is the bug whose debate the frame shows: the first word of the
// debate screen's header ("" on any other screen).
func debateOf(m Model) string {
	if drawnScreen(m) != "debate" {
		return ""
	}
	head, _, _ := strings.Cut(screenText(m, ""), "\n")
	id, _, _ := strings.Cut(head, " ")
	return id
}

// elapsedFigure is a duration as the header writes it (40s, 1m25s).
var elapsedFigure = regexp.MustCompile(`^(\d+h)?(\d+m)?(\d+s)?$`)

// callsShortForm is the calls figure of a narrower header: "2/10 (1
// running)", "2/10".
var callsShortForm = regexp.MustCompile(`^\d+/\d+( \(\d+ running\))?$`)

// headerFigure is one figure of the debate header as drawn: "elapsed"
// (40s), "calls" (calls 6/10 …, 5/6 (1 running), 5/6 calls, 5/6), "tokens" (2.8k, without its unit), "round"
// (round 1 of 2 …); "" when the header does not draw it.
func headerFigure(m Model, which string) string {
	head, _, _ := strings.Cut(screenText(m, ""), "\n")
	for _, part := range strings.Split(head, " · ") {
		switch {
		case which == "elapsed" && part != "" && elapsedFigure.MatchString(part):
			return part
		case which == "calls" && (strings.Contains(part, "calls") || callsShortForm.MatchString(part)):
			return part
		case which == "tokens" && strings.HasSuffix(part, " tokens"):
			return strings.TrimSuffix(part, " tokens")
		case which == "tokens" && strings.HasSuffix(part, " tok"):
			return strings.TrimSuffix(part, " tok")
		case which == "money" && (strings.HasPrefix(part, "$") || strings.HasPrefix(part, "unknown")):
			return part
		case which == "round" && (strings.HasPrefix(part, "round ") || strings.HasPrefix(part, "stopped at round ") || strings.HasPrefix(part, "cut by the budget")):
			return part
		}
	}
	return ""
}

// headerLine is the frame's first line: a debate's header.
func headerLine(m Model) string {
	head, _, _ := strings.Cut(screenText(m, ""), "\n")
	return head
}

// callsFigure reads the calls made and planned from the header's "calls
// M/P" or "M/P calls" (ok false when the header draws no such figure).
func callsFigure(m Model) (made, planned int, ok bool) {
	g := regexp.MustCompile(`(\d+)/(\d+)`).FindStringSubmatch(headerFigure(m, "calls"))
	if g == nil {
		return 0, 0, false
	}
	made, _ = strconv.Atoi(g[1])
	planned, _ = strconv.Atoi(g[2])
	return made, planned, true
}

// toTab presses tab until the frame marks the named tab (at most a dozen
// times), and fails the test when it never does.
func toTab(t *testing.T, m Model, name string) Model {
	t.Helper()
	for i := 0; i < 12 && activeTab(m) != name; i++ {
		m = keys(t, m, "tab")
	}
	if activeTab(m) != name {
		t.Fatalf("tab never reaches the %s tab:\n%s", name, screenText(m, ""))
	}
	return m
}

// pricedPlan matches the cost screen's count of calls ("… = 10 calls"),
// drawn once the plan is priced.
var pricedPlan = regexp.MustCompile(`= \d+ calls`)

// costPriced reports whether the frame is the cost screen with a priced
// plan on it.
func costPriced(m Model) bool {
	return drawnScreen(m) == "cost" && pricedPlan.MatchString(screenText(m, ""))
}

// selectRow moves the browser's selection down (j) to the row that names
// id, as a user would, and fails the test when no row does.
func selectRow(t *testing.T, m Model, id string) Model {
	t.Helper()
	for i := 0; i < 50 && !strings.HasPrefix(lineWith(screenText(m, ""), id), "▸"); i++ {
		m = keys(t, m, "j")
	}
	if !strings.HasPrefix(lineWith(screenText(m, ""), id), "▸") {
		t.Fatalf("no row of %s is selected:\n%s", id, screenText(m, ""))
	}
	return m
}
