// Command fakeengine is a scripted stand-in for an LLM, used by moot's
// tests as a `command` engine: it reads the prompt on stdin and answers on
// stdout, behaving as the FAKE_PLAN rules say for each call.
//
// FAKE_PLAN is a comma-separated list of RULE=BEHAVIOUR; the first rule
// that matches the call wins (default: ok). A rule is "*", a role
// ("solver", "critic", "judge") or an id ("agente-2", "juiz"), optionally
// followed by "@ROUND" and "#ATTEMPT".
//
// Behaviours: ok, slow (streams line by line), hang (never answers), fail
// (exit 1), notfound (exit 127), invalid (no protocol sections), inject
// (a valid answer carrying an injection and forged fences), crash (half an
// answer, then killed), garbage (binary noise, exit 0), stderr (writes only
// to stderr, exit 0), flood:MB (MB of output), ignoreterm (ignores SIGTERM
// and hangs), grandchild (leaves a sleeping grandchild behind), closeout
// (closes stdout early and keeps running), startslow:MS (sleeps MS before
// answering), winner:X (a judge answer naming label X), first (a judge
// answer naming whichever proposal its prompt shows first), judgebad (a judge
// answer naming no label), middle (a judge answer naming the proposal
// shown in the middle), agree (a solver answer whose critique names no
// peer: "Concordo."; agree:self names only its own id), content:TEXT (a judge answer naming the proposal
// whose text holds TEXT), mark (a valid answer carrying the trace token
// TRACE<ROLE>R<round>S<n> in its first section), prose (a valid answer with common words and
// peer names in prose), variant (variant headings), otherlang (a valid
// answer in the other language), nojust (a confidence
// without justification), unknownheading (an extra unrecognised
// section), selfgraft:X, noverdict:X and nosynth:X (judge
// answers naming X with a self-graft, no spec verdict, or a synthesis
// without the mode's sections), leak[:fail] (a valid answer quoting the values
// of the variables named in FAKE_LEAK, on stdout and stderr; with fail, it
// then exits 1 quoting them again), escape[:fail] (a valid answer, and
// stderr, carrying terminal escapes: a window title, an OSC 52 clipboard
// write, a screen clear; with fail, it then exits 1 with them on stderr),
// daemon (leaves a grandchild in a session of its own, as setsid does,
// and answers), say (a valid answer followed by the text of FAKE_SAY),
// sayverdict:X (a judge answer naming X whose spec verdict line is
// replaced by FAKE_SAY), variant2 (headings with a parenthesised qualifier
// or a trailing dash, an English confidence word), pad:TOKENS (a valid
// answer padded to about TOKENS tokens, 4 bytes each).
//
// FAKE_ARGLOG names a file where each call appends its role, id, round,
// MOOT_PROTOCOL and arguments. FAKE_CWDLOG names a file where each call appends its working folder,
// that folder's mode and whether P.md is in it. FAKE_DELAY_MS delays every
// answer; FAKE_LOG names a file where each call
// appends "start|finish role id round attempt pid"; FAKE_PROMPTS names a
// folder where each prompt is saved as ROUND-ID-ATTEMPT.txt.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/reversa/moot/internal/fakeanswer"
)

func main() {
	prompt, _ := io.ReadAll(os.Stdin)
	role, id, round := os.Getenv("MOOT_ROLE"), os.Getenv("MOOT_SOLVER_ID"), os.Getenv("MOOT_ROUND")
	attempt := attemptOf(id, round)
	logLine("start", role, id, round, attempt)
	if dir := os.Getenv("FAKE_PROMPTS"); dir != "" {
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s-%d.txt", round, id, attempt)), prompt, 0o644)
	}
	if f := os.Getenv("FAKE_ARGLOG"); f != "" {
		// what the engine contract hands the call: MOOT_PROTOCOL and the
		// expanded arguments
		appendFile(f, fmt.Sprintf("%s %s %s MOOT_PROTOCOL=%s args=%s\n", role, id, round, os.Getenv("MOOT_PROTOCOL"), strings.Join(os.Args[1:], " ")))
	}
	if f := os.Getenv("FAKE_CWDLOG"); f != "" {
		// where the call runs: its folder, the folder's mode, whether P is there
		wd, _ := os.Getwd()
		mode := "?"
		if fi, err := os.Stat(wd); err == nil {
			mode = fmt.Sprintf("%o", fi.Mode().Perm())
		}
		_, perr := os.Stat(filepath.Join(wd, "P.md"))
		appendFile(f, fmt.Sprintf("%s %s %v\n", wd, mode, perr == nil))
	}
	if role == "juror" { // a review juror answers JSON verdicts (juror.go)
		juror(os.Getenv("MOOT_LENS"), round)
		logLine("finish", role, id, round, attempt)
		return
	}
	behaviour := pick(os.Getenv("FAKE_PLAN"), role, id, round, attempt)
	if ms, _ := strconv.Atoi(os.Getenv("FAKE_DELAY_MS")); ms > 0 {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	holdUntil(os.Getenv("FAKE_HOLD"))
	p := string(prompt)
	name, arg, _ := strings.Cut(behaviour, ":")
	switch name {
	case "ok":
		fmt.Print(fakeanswer.Reply(p, role))
	case "agree":
		// a solver whose critique names no peer: just "Concordo." (with
		// self, it names only its own id)
		a, says := fakeanswer.Reply(p, role), "Concordo."
		if arg == "self" {
			says = "Concordo com a minha, " + id + "."
		}
		for _, h := range []string{"## Crítica às demais propostas\n", "## Critique of the other proposals\n"} {
			if i := strings.Index(a, h); i >= 0 {
				a = a[:i] + h + "\n" + says + "\n"
			}
		}
		fmt.Print(a)
	case "mark":
		// a valid answer carrying a trace token of who wrote it and when
		// (TRACE<ROLE>R<round>S<n>), so a test sees which text reaches
		// which reader
		fmt.Print(markAnswer(fakeanswer.Reply(p, role), traceToken(role, id, round)))
	case "pad":
		// a valid answer padded to about TOKENS tokens as moot estimates
		// them (4 bytes a token): a model whose answers have a known size
		// it carries its trace token (mark), so padded proposals differ
		n, _ := strconv.Atoi(arg)
		fmt.Print(pad(markAnswer(fakeanswer.Reply(p, role), traceToken(role, id, round)), n))
	case "slow":
		for _, line := range strings.SplitAfter(fakeanswer.Reply(p, role), "\n") {
			fmt.Print(line)
			time.Sleep(20 * time.Millisecond)
		}
	case "startslow":
		ms, _ := strconv.Atoi(arg)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Print(fakeanswer.Reply(p, role))
	case "hang":
		time.Sleep(time.Hour)
	case "fail":
		fmt.Fprintln(os.Stderr, "fake: model overloaded, giving up")
		os.Exit(1)
	case "notfound":
		fmt.Fprintln(os.Stderr, "fake: command not found")
		os.Exit(127)
	case "invalid":
		fmt.Print("I think the bug is in the discount code. Confidence: high.\n")
	case "inject":
		fmt.Print(fakeanswer.Injected(p, role))
	case "crash":
		a := fakeanswer.Reply(p, role)
		fmt.Print(a[:len(a)/2])
		os.Stdout.Sync()
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	case "garbage":
		os.Stdout.Write([]byte{0xff, 0xfe, 0x00, 0x01, 'x', 0x80, 0x81})
	case "stderr":
		fmt.Fprintln(os.Stderr, "fake: all my output went to stderr")
	case "flood":
		mb, _ := strconv.Atoi(arg)
		chunk := []byte(strings.Repeat("flood ", 1024*1024/6) + "\n")
		for i := 0; i < mb; i++ {
			if _, err := os.Stdout.Write(chunk); err != nil {
				os.Exit(1)
			}
		}
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "grandchild":
		cmd := exec.Command("sleep", "3600")
		cmd.Start()
		if f := os.Getenv("FAKE_PIDS"); f != "" {
			appendFile(f, fmt.Sprintf("%d\n", cmd.Process.Pid))
		}
		fmt.Print(fakeanswer.Reply(p, role))
	case "closeout":
		fmt.Print(fakeanswer.Reply(p, role)[:20])
		os.Stdout.Close()
		time.Sleep(time.Hour)
	case "leak":
		// a valid answer that quotes the values of the variables named in
		// FAKE_LEAK, on stdout and stderr, then fails when arg is "fail"
		var leak strings.Builder
		for _, v := range strings.Split(os.Getenv("FAKE_LEAK"), ",") {
			fmt.Fprintf(&leak, "\n%s=%s\n", v, os.Getenv(v))
		}
		fmt.Print(fakeanswer.Reply(p, role) + leak.String())
		fmt.Fprint(os.Stderr, "fake: my environment:"+leak.String())
		if arg == "fail" {
			fmt.Fprintln(os.Stderr, "fake: giving up, key"+leak.String())
			os.Exit(1)
		}
	case "escape":
		const esc = "\x1b]0;pwned-title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J"
		fmt.Print(fakeanswer.Reply(p, role) + "\n" + esc + "escaped\n")
		fmt.Fprint(os.Stderr, "fake: "+esc+"on stderr\n")
		if arg == "fail" {
			os.Exit(1)
		}
	case "daemon":
		cmd := exec.Command("sleep", "3600")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Start()
		if f := os.Getenv("FAKE_PIDS"); f != "" {
			appendFile(f, fmt.Sprintf("%d\n", cmd.Process.Pid))
		}
		fmt.Print(fakeanswer.Reply(p, role))
	case "winner":
		fmt.Print(fakeanswer.Judge(p, arg))
	case "first":
		// an order-sensitive judge: the winner is whichever proposal it
		// was shown first
		fmt.Print(fakeanswer.Judge(p, firstLabel(p)))
	case "middle":
		// a judge drawn to a slot: it names whichever proposal sits in
		// the middle of those shown (the second of three)
		shown := shownProposals(p)
		fmt.Print(fakeanswer.Judge(p, shown[(len(shown)-1)/2].label))
	case "content":
		// a judge that reads: it names the proposal whose text holds arg,
		// wherever it is shown and whatever its label
		win := "A"
		for _, sp := range shownProposals(p) {
			if strings.Contains(sp.body, arg) {
				win = sp.label
			}
		}
		fmt.Print(fakeanswer.Judge(p, win))
	case "prose":
		// a valid answer whose prose holds common words that are also
		// engine or kind names, and a peer named in the forms models use
		fmt.Print(fakeanswer.Reply(p, role) + "\nNota: rodamos local, sem openai nem claude; omega concorda. O Agent #2 e o debatedor 3 erraram; zeta-engine (zeta-1) falou.\n")
	case "say":
		fmt.Print(fakeanswer.Reply(p, role) + "\n" + os.Getenv("FAKE_SAY") + "\n")
	case "variant":
		// headings in the other language, numbered, emphasised, without
		// accents, with trailing colons
		a := fakeanswer.Reply(p, role)
		for from, to := range map[string]string{"## Hipóteses": "## 1. Hypotheses", "## Teste": "## **Teste**:", "## Evidências": "## Evidencias", "## Confiança": "## Confidence:"} {
			a = strings.Replace(a, from, to, 1)
		}
		fmt.Print(a)
	case "variant2":
		a := fakeanswer.Reply(p, role)
		for from, to := range map[string]string{"## Hipóteses": "## Hipóteses (H1–H3)", "## Teste": "## 3) Teste -", "## Confiança\n\nalta:": "## Confiança\n\nhigh:"} {
			a = strings.Replace(a, from, to, 1)
		}
		fmt.Print(a)
	case "otherlang":
		fmt.Print(fakeanswer.OtherLanguage(p, role))
	case "unknownheading":
		fmt.Print(fakeanswer.Reply(p, role) + "\n## Observações extras\n\nnada\n")
	case "nojust":
		a := fakeanswer.Reply(p, role)
		if i := strings.Index(a, "## Confiança"); i >= 0 {
			a = a[:i] + "## Confiança\n\nalta\n"
		}
		fmt.Print(a)
	case "selfgraft":
		// a judge answer whose only graft names the winner itself
		a := fakeanswer.Judge(p, arg)
		i, j := strings.Index(a, "## Enxertos"), strings.Index(a, "## Justificativa")
		fmt.Print(a[:i] + "## Enxertos\n\n- Proposta " + arg + ": o teste com 10 repetições.\n\n" + a[j:])
	case "noverdict":
		fmt.Print(strings.ReplaceAll(fakeanswer.Judge(p, arg), "Veredito recomendado: spec-correta.", ""))
	case "sayverdict":
		fmt.Print(strings.ReplaceAll(fakeanswer.Judge(p, arg), "Veredito recomendado: spec-correta.", os.Getenv("FAKE_SAY")))
	case "nosynth":
		a := fakeanswer.Judge(p, arg)
		fmt.Print(a[:strings.Index(a, "## Síntese")] + "## Síntese\n\nA vencedora está certa.\n")
	case "judgebad":
		fmt.Print("## Vencedora\n\na melhor\n\n## Síntese\n\nnada\n")
	default:
		fmt.Fprintf(os.Stderr, "fake: unknown behaviour %q\n", behaviour)
		os.Exit(2)
	}
	logLine("finish", role, id, round, attempt)
}

// traceToken names a call's answer: TRACE, the role in capitals, R and
// the round, S and the participant's number (0 for the final step).
func traceToken(role, id, round string) string {
	n := strings.TrimLeftFunc(id, func(r rune) bool { return r < '0' || r > '9' })
	if n == "" {
		n = "0"
	}
	return "TRACE" + strings.ToUpper(role) + "R" + round + "S" + n
}

// markAnswer puts token into an answer's first section (after its first
// heading's line), where every protocol's validator keeps it.
func markAnswer(a, token string) string {
	i := strings.Index(a, "## ")
	if i < 0 {
		return token + "\n" + a
	}
	j := strings.Index(a[i:], "\n")
	if j < 0 {
		return a + "\n" + token + "\n"
	}
	at := i + j + 1
	return a[:at] + "\n" + token + "\n" + a[at:]
}

// shownProposal is one proposal of a judge's prompt as it is shown.
type shownProposal struct{ label, body string }

// shownProposals lists the proposals a judge's prompt shows (after its
// "Final proposals" heading), in the order shown; one labelled A when it
// shows none.
func shownProposals(prompt string) []shownProposal {
	for _, h := range []string{"# Propostas finais", "# Final proposals"} {
		if i := strings.LastIndex(prompt, h); i >= 0 {
			prompt = prompt[i:]
		}
	}
	var out []shownProposal
	var cur *shownProposal
	for _, line := range strings.Split(prompt, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && (f[0] == "<<<INÍCIO" || f[0] == "<<<BEGIN"):
			out = append(out, shownProposal{label: f[2]})
			cur = &out[len(out)-1]
		case len(f) >= 1 && (f[0] == "<<<FIM" || f[0] == "<<<END"):
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		}
	}
	if len(out) == 0 {
		out = []shownProposal{{label: "A"}}
	}
	return out
}

// firstLabel is the label of the first proposal a judge's prompt shows
// (after its "Final proposals" heading), "A" when it shows none.
func firstLabel(prompt string) string {
	for _, h := range []string{"# Propostas finais", "# Final proposals"} {
		if i := strings.LastIndex(prompt, h); i >= 0 {
			prompt = prompt[i:]
		}
	}
	for _, line := range strings.Split(prompt, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && (f[0] == "<<<INÍCIO" || f[0] == "<<<BEGIN") {
			return f[2]
		}
	}
	return "A"
}

// attemptOf counts this call's attempt from the log of earlier calls.
func attemptOf(id, round string) int {
	f := os.Getenv("FAKE_LOG")
	if f == "" {
		return 1
	}
	b, _ := os.ReadFile(f)
	n := 1
	for _, l := range strings.Split(string(b), "\n") {
		parts := strings.Fields(l)
		if len(parts) >= 4 && parts[0] == "start" && parts[2] == id && parts[3] == round {
			n++
		}
	}
	return n
}

func logLine(what, role, id, round string, attempt int) {
	if f := os.Getenv("FAKE_LOG"); f != "" {
		appendFile(f, fmt.Sprintf("%s %s %s %s %d %d\n", what, role, id, round, attempt, os.Getpid()))
	}
}

func appendFile(name, s string) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	f.WriteString(s)
	f.Close()
}

// pick finds the behaviour of a call in the plan: rules are
// WHO[@ROUND][#ATTEMPT]=BEHAVIOUR, the first match wins.
func pick(plan, role, id, round string, attempt int) string {
	for _, rule := range strings.Split(plan, ",") {
		who, b, ok := strings.Cut(strings.TrimSpace(rule), "=")
		if !ok {
			continue
		}
		wantAttempt, wantRound := "", ""
		if i := strings.LastIndex(who, "#"); i >= 0 {
			who, wantAttempt = who[:i], who[i+1:]
		}
		if i := strings.Index(who, "@"); i >= 0 {
			who, wantRound = who[:i], who[i+1:]
		}
		if who != "*" && who != role && who != id {
			continue
		}
		if wantRound != "" && wantRound != round {
			continue
		}
		if wantAttempt != "" && wantAttempt != strconv.Itoa(attempt) {
			continue
		}
		return b
	}
	return "ok"
}

// pad lengthens an answer with plain words to about tokens×4 bytes (an
// answer already longer is left as it is).
func pad(answer string, tokens int) string {
	need := tokens*4 - len(answer) - 2
	if need <= 0 {
		return answer
	}
	words := strings.Repeat("filler ", need/7+1)[:need]
	return strings.TrimRight(answer, "\n") + "\n\n" + words + "\n"
}

// holdUntil waits, when file is set, until it exists (at most two
// minutes): a test lets the engines answer once it watches the run.
func holdUntil(file string) {
	if file == "" {
		return
	}
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(file); err == nil {
			return
		}
	}
}
