package tui

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// resumeCostDialog asks before a resume spends calls: moot resume on a
// terminal and r in the browser say what is left to run, as the cost
// screen does for a new debate and as headless asks for --yes.
type resumeCostDialog struct{}

// resumeFigures is what resuming d still runs (engine.ResumeNeed: need,
// the question's words) and the whole its header then counts against
// (the calls made and those left); nothing for a hand-run debate, whose
// resume only records a human choice, nor for one stopped at a menu,
// which asks itself before any call.
func resumeFigures(d *bugfolder.Debate, proto engine.Protocol) (need string, whole int) {
	if d == nil || proto == nil || d.HandRun() || d.PendingDecision() != "" {
		return "", 0
	}
	need, left := engine.ResumeNeed(d, proto, false)
	if left > 0 {
		whole = d.ModelCalls() + left
	}
	return need, whole
}

// resumeCostMenu asks whether to spend what resuming bugID needs.
func resumeCostMenu(bugID, need string) *menu {
	m := &menu{kind: menuResumeCost, choice: "resume"}
	m.form = newForm(huh.NewGroup(
		m.wrappedNote("Resume "+bugID+"?",
			fmt.Sprintf("Resuming needs %s; no answer already written is asked again.", need)),
		huh.NewSelect[string]().Options(
			huh.NewOption("Resume: make the calls", "resume"),
			huh.NewOption("Cancel: nothing is called", "cancel"),
		).Value(&m.choice).Height(3),
	))
	return m
}

// ask resumes the debate just loaded, first asking when it would
// make calls. What the resume makes is counted off the UI goroutine (it
// reads the debate's folders): resumeFiguresMsg brings it.
func (resumeCostDialog) ask(m Model, d *bugfolder.Debate) (Model, tea.Cmd) {
	proto, cfg, id := m.dv.protocol(&m.frame), m.opts.Config, m.subj.bug.ID
	if d == nil {
		return resumeCostDialog{}.figures(m, resumeFiguresMsg{dir: m.dv.deb.dir})
	}
	return m, func() tea.Msg {
		msg := resumeFiguresMsg{dir: d.Dir}
		msg.need, msg.whole = resumeFigures(d, proto)
		// said before the question, not after its yes; a hand-run debate's
		// resume records a choice, and a menu asks before any call (another
		// engine among its answers): neither asks here
		if msg.need != "" {
			if err := missingEngine(d, cfg); err != nil {
				return resumeFiguresMsg{dir: d.Dir, err: unknownEngineAdvice(err, id, d.EnginesFile())}
			}
		}
		return msg
	}
}

// resumeFiguresMsg is what resuming the debate in dir makes: the need the
// question says ("" asks nothing), and the whole the header then counts
// against (the calls made and those left; 0 none).
type resumeFiguresMsg struct {
	dir, need string
	whole     int
	// err says why it cannot resume here: an engine it runs on is not in
	// this moot's engines file (it was started with another, --config).
	err error
}

// missingEngine is the error of the first engine d's problema.md runs on
// (its solvers, critics and judge) that cfg lacks; nil when it has them
// all, or when there is no engines file to check against.
func missingEngine(d *bugfolder.Debate, cfg *harness.Config) error {
	if cfg == nil || d.Problem == nil {
		return nil
	}
	names := []string{d.Problem.Judge}
	for _, kv := range append(slices.Clone(d.Problem.Solvers), d.Problem.Critics...) {
		names = append(names, kv.Value)
	}
	for _, n := range names {
		if n == "" {
			continue
		}
		if _, err := cfg.Engine(n); errors.Is(err, harness.ErrUnknownEngine) {
			return err
		}
	}
	return nil
}

// figures asks the resume question with what the resume makes, or
// resumes at once when it makes no call; the debate shown since (another
// opened, or a run started) takes no answer meant for this one.
func (resumeCostDialog) figures(m Model, msg resumeFiguresMsg) (Model, tea.Cmd) {
	if m.dv.deb == nil || m.dv.deb.dir != msg.dir || m.run.on || !m.opts.Resume {
		return m, nil
	}
	if msg.err != nil { // shown wrapped until a key, as a run's error; nothing called
		m.toast.text, m.toast.until, m.toast.errShown = msg.err.Error(), m.clock().Add(24*time.Hour), true
		m.opts.Resume = false
		return m, nil
	}
	m.dv.deb.resumedWhole = msg.whole // the header counts against the whole the question says
	if msg.need != "" {
		return m, m.dlg.openMenu(&m.frame, resumeCostMenu(m.subj.bug.ID, msg.need))
	}
	var c tea.Cmd
	m.dv, c = m.dv.resume(&m.frame)
	return m, c
}

func (resumeCostDialog) keys(*menu) []key.Binding {
	return []key.Binding{menuChoose, menuConfirm, menuBack}
}

// back and reopen cancel: nothing was called.
func (d resumeCostDialog) back(m Model, mn *menu) (Model, tea.Cmd) {
	mn.choice = "cancel"
	return d.done(m, mn)
}
func (d resumeCostDialog) reopen(m Model, mn *menu) (Model, tea.Cmd) { return d.back(m, mn) }

func (resumeCostDialog) done(m Model, mn *menu) (Model, tea.Cmd) {
	m.dlg.menu = nil
	if mn.choice == "resume" {
		var c tea.Cmd
		m.dv, c = m.dv.resume(&m.frame)
		return m, c
	}
	m.opts.Resume = false
	if !m.fromBrowser() {
		m.out.Cancelled = true
		return m, tea.Quit
	}
	return m, statusCmd("not resumed: nothing was called")
}
