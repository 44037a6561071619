package bugfolder

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/reversa/moot/internal/input"
	"github.com/reversa/moot/internal/safefs"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/reversa/moot/internal/lazyre"
	"go.yaml.in/yaml/v3"
)

// State is a debate's status in the command-line vocabulary.
type State string

// The states a debate can be in (docs/cli.md). Running also covers a moot
// debate left without a lock (quit, resumable); one whose lock names a
// dead process (killed) is interrupted; a hand-run one is interrupted, or
// waiting when only its judge is left.
const (
	StateNoDebate    State = "no-debate"
	StateRunning     State = "running"
	StateWaiting     State = "waiting"
	StateCancelled   State = "cancelled"
	StateJudgeFailed State = "judge-failed"
	StateDone        State = "done"
	// StateInterrupted is an unfinished debate that nothing runs: written
	// by hand or another tool (no event log; moot cannot continue it call
	// by call), or a moot run whose lock names a process that is gone
	// (killed; `moot resume` continues it).
	StateInterrupted State = "interrupted"
	// StateUnreadable is a bug whose bug.md or debate cannot be read (a
	// broken front matter): still listed, with the error.
	StateUnreadable State = "unreadable"
)

// DebateDir is the folder of a bug's latest debate.
const DebateDir = "debate"

// DebaterFile is one debater's file (solver, critic or judge), parsed.
type DebaterFile struct {
	Path            string
	ProtocolVersion int
	DebateID        string
	BugID           string
	Role            Role
	SolverID        string
	Engine          string
	// Model is the model that answered, as the engine was configured.
	Model      string
	Round      int
	Status     Status
	StartedAt  time.Time
	FinishedAt time.Time
	// StartedForm and FinishedForm say how much of the time the file
	// wrote: a date alone (started_at: 2026-10-04) is midnight UTC by
	// convention only, never to be shown as a time of day; a time
	// without an offset is shown as written.
	StartedForm, FinishedForm TimeForm
	// DurationMS is the call's wall time as moot measured it (0: not
	// recorded); the timestamps have only second resolution.
	DurationMS      int64
	TokensIn        int
	TokensOut       int
	CostUSD         float64
	TokensEstimated bool
	// CostRecorded is whether the file records a cost (a hand-run debate's
	// files do not: its cost is unknown, not zero).
	CostRecorded bool
	Attempt      int
	// Error is the last error line moot recorded for a failed call.
	Error string
	// Invalid lists why an invalid-output body failed validation.
	Invalid []string
	// Amendment describes a swapped engine or changed timeout, if any.
	Amendment string
	// Meta is the whole front matter (unknown fields kept).
	Meta *yaml.Node
	// Body is the debater's answer as received.
	Body string
}

// Duration is the call's wall time: duration_ms when recorded, else the
// span of the (second-resolution) timestamps when both are known.
func (f *DebaterFile) Duration() time.Duration {
	if f.DurationMS > 0 {
		return time.Duration(f.DurationMS) * time.Millisecond
	}
	if f.StartedAt.IsZero() || f.FinishedAt.IsZero() {
		return 0
	}
	return f.FinishedAt.Sub(f.StartedAt)
}

// ParseDebaterFile parses a debater file's bytes. Missing fields are left
// zero; a file without front matter is all body (as a hand-written one may be).
func ParseDebaterFile(path string, raw []byte) (*DebaterFile, error) {
	doc, err := ParseDocument(raw)
	if err != nil {
		return nil, &InputError{Path: path, Msg: err.Error(), Err: err}
	}
	m := doc.Meta
	f := &DebaterFile{Path: path, Meta: m, Body: doc.Body}
	f.ProtocolVersion, _, _ = intField(m, "protocol_version")
	f.DebateID = scalar(m, "debate_id")
	f.BugID = scalar(m, "bug_id")
	f.Role = Role(strings.ToLower(scalar(m, "role")))
	f.SolverID = scalar(m, "solver_id")
	f.Engine = scalar(m, "engine")
	f.Model = scalar(m, "model")
	if n, ok, _ := intField(m, "round"); ok {
		f.Round = n
	} else {
		f.Round = -1
	}
	f.Status = readStatus(scalar(m, "status"))
	f.StartedAt, f.StartedForm = formField(m, "started_at")
	f.FinishedAt, f.FinishedForm = formField(m, "finished_at")
	if n, ok, _ := intField(m, "duration_ms"); ok && n > 0 {
		f.DurationMS = int64(n)
	} else {
		f.DurationMS = hostDurationMS(m)
	}
	f.TokensIn, _, _ = intField(m, "tokens_in")
	f.TokensOut, _, _ = intField(m, "tokens_out")
	f.CostUSD = floatField(m, "cost_usd")
	f.CostRecorded = scalar(m, "cost_usd") != ""
	f.TokensEstimated = boolField(m, "tokens_estimated")
	f.Attempt, _, _ = intField(m, "attempt")
	f.Error = scalar(m, "error")
	f.Invalid = stringList(m, "invalid")
	f.Amendment = scalar(m, "amendment")
	return f, nil
}

// hostStatuses are the words hosts write for a call that answered: read
// as ok (a host's solver file with status: success is an answer).
var hostStatuses = map[string]Status{"success": StatusOK, "succeeded": StatusOK, "successful": StatusOK,
	"done": StatusOK, "completed": StatusOK, "complete": StatusOK, "sucesso": StatusOK, "concluido": StatusOK, "concluído": StatusOK}

// readStatus reads a debater file's status: moot's own words as written,
// a host's word for an answered call as ok.
func readStatus(s string) Status {
	w := strings.ToLower(strings.TrimSpace(s))
	if st, ok := hostStatuses[w]; ok {
		return st
	}
	return Status(w)
}

// ProblemFile is a parsed problema.md / problem.md.
type ProblemFile struct {
	Path            string
	ProtocolVersion int
	// Protocol is the protocol field as written ("" for every debate of
	// docs/protocols/debate.md: see ProtocolName).
	Protocol string
	BugID    string
	// QuestionID and Question are a question's ID and text ("" for a bug).
	QuestionID, Question string
	// Visibility is a restricted question's visibility ("" otherwise).
	Visibility string
	Mode       Mode
	N, R       int
	// Solvers maps solver ids to engine names, in order.
	Solvers []KV
	// Critics maps critic ids to engine names, in order.
	Critics []KV
	Judge   string
	// Lenses are the participants' frozen lenses, by id (nil: none).
	Lenses map[string]Lens
	// Engines maps each engine name to its recorded identity (kind,
	// model, host, argv_sha256), as written at setup.
	Engines map[string]map[string]string
	// Timeout is the timeout as written (a duration, or per engine).
	Timeout   string
	Timeouts  []KV
	PSHA256   string
	CreatedAt time.Time
	// CreatedForm says how much of created_at the file wrote.
	CreatedForm TimeForm
	// CreatedUnread is created_at as written when it is no date moot
	// reads ("" otherwise).
	CreatedUnread string
	// RLoose is set when R came from a hand-run debate's rounds/epochs,
	// whose author may have counted round 0 too.
	RLoose bool
	// Rubric holds the frozen criteria, in order.
	Rubric []string
	// P is the assembled problem.
	P string
	// SHA256 is the digest of the file's bytes as stored.
	SHA256 string
	Meta   *yaml.Node
	// VerifyJudge and AllowSameFamily are the frozen --verify-judge and
	// --allow-same-family (docs/beyond.md).
	VerifyJudge, AllowSameFamily bool
}

// solverList maps a hand-run list of engine names to agente-1..N.
func solverList(names []string) []KV {
	var out []KV
	for i, n := range names {
		out = append(out, KV{Key: fmt.Sprintf("agente-%d", i+1), Value: strings.Trim(strings.TrimSpace(n), "`*\"'")})
	}
	return out
}

var proseModeRE = lazyre.New(`(?im)^\s*\|?\s*[*_]*(?:modo|mode)[*_]*\s*(?::|\|)\s*[*_\x60]*([A-Za-z]+)`)

var bulletKV = lazyre.New(`^\s*[-*]\s*([^:]+):\s*(.*)$`)

// ParseProblemFile parses problema.md: front matter, the rubric and P. It
// also reads a hand-written file whose settings are a bullet list
// ("- modo: diagnosis", "- N: 3").
func ParseProblemFile(path string, raw []byte) (*ProblemFile, error) {
	doc, err := ParseDocument(raw)
	if err != nil {
		return nil, &InputError{Path: path, Msg: err.Error(), Err: err}
	}
	return problemFile(path, doc, sha256Hex(raw))
}

// parseProblemText is ParseProblemFile of the file read into a string
// (safefs.ReadFileString): a large P is neither copied nor hashed from a
// copy.
func parseProblemText(path, raw string) (*ProblemFile, error) {
	doc, err := parseDocumentText(input.NormalizeString(raw))
	if err != nil {
		return nil, &InputError{Path: path, Msg: err.Error(), Err: err}
	}
	return problemFile(path, doc, SHA256String(raw))
}

// problemFile reads problema.md's fields from its parsed document; sum is
// the file's sha256.
func problemFile(path string, doc *Document, sum string) (*ProblemFile, error) {
	var err error
	p := &ProblemFile{Path: path, Meta: doc.Meta, SHA256: sum}
	m := doc.Meta
	p.ProtocolVersion, _, _ = intField(m, "protocol_version")
	p.BugID = scalar(m, "bug_id")
	p.QuestionID, p.Question = scalar(m, "question_id"), scalar(m, "question")
	p.Visibility = scalar(m, "visibility")
	if s := scalar(m, "mode"); s != "" {
		p.Mode, err = ParseMode(s)
		if err != nil {
			return nil, inputErr(path, "mode", "%v", err)
		}
	}
	if n, _, err := intField(m, "n"); err != nil {
		return nil, inputErr(path, "n", "%v", err)
	} else {
		p.N = n
	}
	if r, _, err := intField(m, "r"); err != nil {
		return nil, inputErr(path, "r", "%v", err)
	} else {
		p.R = r
	}
	p.Solvers = stringMap(m, "solvers")
	if names := stringList(m, "solvers"); len(p.Solvers) == 0 && len(names) > 1 {
		p.Solvers = solverList(names) // solvers: [codex, claude, gemini]
	}
	p.Critics = stringMap(m, "critics")
	p.Judge = scalar(m, "judge")
	p.Lenses = lensesField(m)
	// a hand-run debate's own words for the settings: solvers: 3 is N,
	// rounds/epochs is R as its author counted it (the rounds on disk
	// decide, see deriveShape), judge: 1 is a count, never an engine
	for _, k := range []string{"solvers", "agents", "agentes", "debaters"} {
		if v, ok, err := intField(m, k); p.N == 0 && ok && err == nil {
			p.N = v
		}
	}
	if p.N == 0 {
		p.N = len(p.Solvers)
	}
	for _, k := range []string{"rounds", "rodadas", "epochs"} {
		if v, ok, err := intField(m, k); p.R == 0 && ok && err == nil {
			p.R, p.RLoose = v, true
		}
	}
	if isCount(p.Judge) {
		p.Judge = ""
	}
	if en := Lookup(m, "engines"); en != nil && en.Kind == yaml.MappingNode {
		p.Engines = map[string]map[string]string{}
		for i := 0; i+1 < len(en.Content); i += 2 {
			fields := map[string]string{}
			for _, kv := range stringMap(en, en.Content[i].Value) {
				fields[kv.Key] = kv.Value
			}
			p.Engines[en.Content[i].Value] = fields
		}
	}
	p.Timeout = scalar(m, "timeout")
	p.Timeouts = stringMap(m, "timeout")
	p.PSHA256 = scalar(m, "p_sha256")
	p.CreatedAt, p.CreatedForm = formField(m, "created_at")
	if v := strings.TrimSpace(scalar(m, "created_at")); v != "" && p.CreatedAt.IsZero() {
		p.CreatedUnread = v
	}
	p.Protocol = strings.TrimSpace(scalar(m, "protocol"))
	p.VerifyJudge, p.AllowSameFamily = scalar(m, "verify_judge") == "true", scalar(m, "allow_same_family") == "true"

	pre, secs := ParseSections(doc.Body)
	// hand-written settings as a bullet list
	preLines := strings.Split(pre, "\n")
	for li, line := range preLines {
		mm := bulletKV.FindStringSubmatch(line)
		if mm == nil {
			continue
		}
		// "- **Judge:** opus": the emphasis closes after the colon
		key, val := normalizeWord(mm[1]), strings.TrimSpace(strings.Trim(strings.TrimSpace(mm[2]), "`*_"))
		switch key {
		case "created_at", "created", "criado_em", "started_at", "started", "iniciado_em":
			if t, form := parseForm(val); p.CreatedAt.IsZero() && !t.IsZero() {
				p.CreatedAt, p.CreatedForm, p.CreatedUnread = t, form, ""
			} else if t.IsZero() && p.CreatedAt.IsZero() && p.CreatedUnread == "" {
				p.CreatedUnread = val
			}
		case "modo", "mode":
			if p.Mode == "" {
				if md, err := ParseMode(strings.Trim(val, "`*")); err == nil {
					p.Mode = md
				} else {
					return nil, inputErr(path, "mode", "%v", err)
				}
			}
		case "n", "solvers", "agents", "agentes", "debatedores", "debaters":
			if names := strings.Split(strings.Trim(val, "[]"), ","); len(names) > 1 && p.N == 0 && len(p.Solvers) == 0 {
				p.Solvers, p.N = solverList(names), len(names) // - solvers: [codex, claude, gemini]
			} else if p.N == 0 {
				p.N, _ = strconv.Atoi(leadingNumber(val))
			}
		case "r":
			if p.R == 0 {
				p.R, _ = strconv.Atoi(leadingNumber(val))
			}
		case "rounds", "rodadas", "epochs":
			if p.R == 0 {
				p.R, _ = strconv.Atoi(leadingNumber(val))
				p.RLoose = true
			}
		case "juiz", "judge":
			if v := strings.Trim(val, "`*"); p.Judge == "" && !isCount(v) {
				p.Judge = v
			}
		case "rubrica", "rubrica do juiz", "rubric", "judge's rubric", "rubrica congelada":
			// "- Rubrica do Juiz:" over its criteria, indented below it
			for _, item := range preLines[li+1:] {
				if !strings.HasPrefix(item, " ") && !strings.HasPrefix(item, "\t") {
					break
				}
				if c := strings.TrimSpace(listMarkerRE.ReplaceAllString(strings.TrimSpace(item), "")); c != "" {
					p.Rubric = append(p.Rubric, c)
				}
			}
		}
	}
	if p.Mode == "" { // "| Mode | spec |" or "Mode: spec" written as a table row or prose
		if mm := proseModeRE.FindStringSubmatch(pre); mm != nil {
			if md, err := ParseMode(mm[1]); err == nil {
				p.Mode = md
			}
		}
	}
	for i, s := range secs {
		switch s.Key {
		case SecRubric:
			for _, e := range entries(s.Content) {
				p.Rubric = append(p.Rubric, strings.TrimSpace(listMarkerRE.ReplaceAllString(e, "")))
			}
		case SecProblem:
			// P is the last section: everything after its heading
			if i == len(secs)-1 {
				p.P = trimmedLine(s.Content) // no copy of a large P
				break
			}
			var b strings.Builder
			b.WriteString(s.Content)
			for _, rest := range secs[i+1:] {
				if p.PSHA256 == "" && rest.Key == SecRubric {
					break // a host writes its frozen rubric after P
				}
				b.WriteString("## " + rest.Heading + "\n" + rest.Content)
			}
			p.P = strings.TrimSpace(b.String()) + "\n"
		}
		if s.Key == SecProblem && (p.PSHA256 != "" || !slices.ContainsFunc(secs[i+1:], func(r Section) bool { return r.Key == SecRubric })) {
			break
		}
	}
	return p, nil
}

// trimmedLine is strings.TrimSpace(s) + "\n", cut from s itself when the
// newline follows there.
func trimmedLine(s string) string {
	rest := strings.TrimLeftFunc(s, unicode.IsSpace)
	t := strings.TrimRightFunc(rest, unicode.IsSpace)
	if end := len(s) - len(rest) + len(t); end < len(s) && s[end] == '\n' {
		return s[len(s)-len(rest) : end+1]
	}
	return t + "\n"
}

var countRE = lazyre.New(`^\s*\d+\s*$`)

// isCount reports whether a setting is a bare number (judge: 1 counts
// judges; it does not name an engine).
func isCount(s string) bool { return countRE.MatchString(s) }

var leadingNumRE = lazyre.New(`\d+`)

// leadingNumber is the first number of a hand-written value ("3 (três)").
func leadingNumber(s string) string { return leadingNumRE.FindString(s) }

// Final is a parsed resposta-final.md / final-answer.md.
type Final struct {
	DebaterFile
	// Labels maps label letters to solver ids ("A" → "agente-2").
	Labels []KV
	// Winner is the winning label's letter.
	Winner string
	// WinnerSolver is the solver id behind the winning label, when known.
	WinnerSolver          string
	AcceptedContributions int
	// WinnerAmbiguous lists the proposals a hand-written judge's file names
	// as winner when it names more than one ("label:A", "agente-2"): the
	// winner is then unknown, never picked silently.
	WinnerAmbiguous []string
	// Synthesis is set when a hand-written judge's file names a synthesis
	// of the proposals as its outcome, no single winner ("Vencedora
	// (Síntese da Convergência)").
	Synthesis bool
	// DecidedBy is the final step's role ("judge" for a debate,
	// "synthesizer" for council, tradeoff and argue) or "human".
	DecidedBy string
	// Participants is how many solvers' proposals reached the judge (K of N).
	Participants, Of int
	// HealthTokensPerContribution is tokens spent ÷ accepted contributions.
	HealthTokensPerContribution float64
	// TotalTokens and TotalCostUSD cover the whole debate, as recorded.
	TotalTokens  int
	TotalCostUSD float64
	// TotalCostRecorded is whether total_cost_usd was written.
	TotalCostRecorded bool
	// RecommendedVerdict and Decision are a spec-mode debate's recommended
	// verdict and the human decision on it ("pending" until taken).
	RecommendedVerdict, Decision string
	// Escalation is a council's flag: "escalate", "human" or "".
	Escalation string
	// EscalationReasons are what escalated it, as the council recorded
	// them (none in a final written before they were recorded).
	EscalationReasons []string
	// BudgetCut is set when the budget cap cut the debate short.
	BudgetCut bool
	// Degraded is set when fewer took part than planned, or the budget
	// cut the debate.
	Degraded bool
	// CostAccuracy is each engine's estimate against its actuals.
	CostAccuracy []CostAccuracy
}

// Partial reports whether the debate did not run as planned (PartialRun):
// its cost accuracy is no estimate error.
func (f *Final) Partial() bool { return PartialRun(f.BudgetCut, f.Degraded, f.CostAccuracy) }

var twoNumbers = lazyre.New(`(\d+)\D+(\d+)`)

// ParseFinal parses the judge's final answer file.
func ParseFinal(path string, raw []byte) (*Final, error) {
	df, err := ParseDebaterFile(path, raw)
	if err != nil {
		return nil, err
	}
	f := &Final{DebaterFile: *df}
	m := df.Meta
	f.Labels = stringMap(m, "labels")
	f.Winner = strings.TrimSpace(scalar(m, "winner"))
	if f.Winner == "" {
		if ls := hostWinnerLabels(SectionText(df.Body, SecWinner)); len(ls) == 1 {
			f.Winner = ls[0]
		} else {
			f.Winner, f.WinnerSolver, f.WinnerAmbiguous = handWinner(df.Body)
			f.Synthesis = f.Winner == "" && f.WinnerSolver == "" && len(f.WinnerAmbiguous) == 0 && synthesisWinnerRE.MatchString(df.Body)
		}
	} else if ls := FindLabels(f.Winner); len(ls) == 1 {
		f.Winner = ls[0]
	}
	for _, kv := range f.Labels {
		if strings.EqualFold(kv.Key, f.Winner) {
			f.WinnerSolver = kv.Value
		}
	}
	f.AcceptedContributions, _, _ = intField(m, "accepted_contributions")
	f.DecidedBy = scalar(m, "decided_by")
	f.RecommendedVerdict, f.Decision = scalar(m, "recommended_verdict"), flag(scalar(m, "decision"))
	if f.RecommendedVerdict == "" {
		f.RecommendedVerdict = HostVerdict(df.Body)
	}
	f.Escalation = flag(scalar(m, "escalation"))
	f.EscalationReasons = stringList(m, "escalation_reasons")
	if pn := Lookup(m, "participants"); pn != nil {
		switch pn.Kind {
		case yaml.ScalarNode:
			if mm := twoNumbers.FindStringSubmatch(pn.Value); mm != nil {
				f.Participants, _ = strconv.Atoi(mm[1])
				f.Of, _ = strconv.Atoi(mm[2])
			} else {
				f.Participants, _ = strconv.Atoi(strings.TrimSpace(pn.Value))
			}
		case yaml.MappingNode:
			f.Participants, _, _ = intField(pn, "k")
			f.Of, _, _ = intField(pn, "n")
		}
	}
	f.HealthTokensPerContribution = floatField(m, "health_tokens_per_contribution")
	f.TotalTokens, _, _ = intField(m, "total_tokens")
	f.TotalCostUSD = floatField(m, "total_cost_usd")
	f.TotalCostRecorded = scalar(m, "total_cost_usd") != ""
	f.BudgetCut = scalar(m, "budget_cut") == "true"
	f.Degraded = scalar(m, "degraded") == "true"
	f.CostAccuracy = parseCostAccuracy(m)
	return f, nil
}

var (
	// a winner named where host agents name it: "## Vencedora (D1 — …)",
	// "**D1 vence**", "Candidate A wins.", "Adopt Proposal C as the
	// winning proposal", "Winner: Proposal B"
	winnerRefRE = `\*{0,2}((?:proposta|proposal|candidat[oa]|candidate|op[cç][aã]o|option)\s+[A-Z]|P-[A-Z]|D\d{1,2}|agente?-\d{1,2}|agent-\d{1,2})\b\*{0,2}`
	winsRE      = `\s+(?:vence|venceu|wins|won|is the winner|é a vencedora|é o vencedor)\b`
	// winnerTiers are the forms by precedence: the judge's explicit naming
	// (a Winner heading or line, a bold "X wins", "overall … X wins", "adopt
	// X as the winning …") outranks a plain "X wins" or "adopt X", which a
	// judge also writes of a proposal that wins one criterion only.
	winnerTiers = [][]*lazyre.Regexp{{
		lazyre.New(`(?im)^#{1,6}\s*\**(?:vencedora|vencedor|winner)\**\s*[:(—–-]\s*` + winnerRefRE),
		lazyre.New(`(?im)^\s*[-*]?\s*\**(?:vencedora|vencedor|winner|winning proposal|proposta vencedora)\**\s*:\**\s*` + winnerRefRE),
		lazyre.New(`(?i)\*\*` + winnerRefRE + winsRE + `[^*\n]*\*\*`),
		lazyre.New(`(?i)\b(?:overall|no geral|no conjunto|in the end|ao final|finalmente|finally)\b[^.;\n]*?` + winnerRefRE + winsRE),
		// "A vencedora é a P-B", "the winner is Proposal C" in prose under
		// any heading
		lazyre.New(`(?i)\b(?:vencedora|vencedor|winner|winning proposal)\s+(?:é|foi|is|was)\s+(?:a\s+|o\s+|the\s+)?` + winnerRefRE),
		lazyre.New(`(?i)\badopt(?:ar|e|o)?\s+(?:a\s+|the\s+)?` + winnerRefRE + `[^.;\n]*\b(?:winn|vencedor)`),
	}, {
		lazyre.New(`(?i)` + winnerRefRE + winsRE),
		lazyre.New(`(?i)\badopt(?:ar|e|o)?\s+(?:a\s+|the\s+)?` + winnerRefRE),
	}}
	// a naming the judge denies: "would not adopt X", "X wins nothing"
	negatedBeforeRE = lazyre.New(`(?i)(?:\bnot|n't|\bnever|\bnão|\bnunca|\bno longer)\s+(?:\w+\s+){0,2}$`)
	negatedAfterRE  = lazyre.New(`(?i)^\s*(?:nothing|no\b|nada|nenhum)`)
)

var (
	// hostLabelRE is a label as a host judge names one: anonymised ("P-A")
	// or in words ("Proposta B", "Proposal C").
	hostLabelRE = lazyre.New(`\b(?:P-([A-Z])|(?i:proposta|proposal)\s+([A-Z]))\b`)
	// synthesisWinnerRE is a judge naming a synthesis as its outcome:
	// "**Vencedora (Síntese da Convergência)**", "Winner: synthesis".
	synthesisWinnerRE = lazyre.New(`(?im)^[#*\s-]*(?:vencedora|vencedor|winner)\**\s*[:(—–-]?\s*\(?\s*\**\s*(?:s[ií]ntese|synthesis|converg)`)
	// verdictHeadingRE is a spec-mode judge's verdict heading or line:
	// "## RECOMENDAÇÃO de veredito", "Recommended verdict:".
	// A heading or bold line saying only "Veredito"/"Verdict" or
	// "Recomendação"/"Recommendation" is one too, and so is a line that
	// opens "Recomendo"/"I recommend"; a sentence that opens with
	// "Veredito" is not.
	verdictHeadingRE = lazyre.New(`(?im)^(?:(?:#{1,6}\s*|[-*]\s*)?\**\s*(?:recomenda[cç][aã]o\s+de\s+veredito|veredito\s+recomendado|recommended\s+verdict|verdict\s+recommendation)\b|#{1,6}\s*\**\s*(?:veredito|verdict|recomenda[cç][aã]o|recommendation)\s*\**\s*:?\s*$|\s*[-*]?\s*\**\s*(?:recomendo|recomendamos|i\s+recommend|we\s+recommend)\b|[-*]?\s*\*\*\s*(?:veredito|verdict)\s*:?\s*\*\*\s*:?)`)
	// graftWordRE says the other labels on a winner's line are grafts.
	graftWordRE = lazyre.New(`(?i)\b(?:enxert|graft)`)
	// englishVerdictRE is a verdict in its English form.
	englishVerdictRE = lazyre.New(`(?i)\bspec-(?:correct|outdated)\b`)
)

// hostLabels returns the distinct labels ("P-A", "Proposta B") a text
// names, as letters, in order of first mention.
func hostLabels(text string) []string {
	var out []string
	for _, m := range hostLabelRE.FindAllStringSubmatch(text, -1) {
		if l := m[1] + m[2]; !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// hostWinnerLabels reads the labels of a winner section: the one its
// first line opens with ("P-A (with grafts of P-B)", "**Proposta B**, com
// enxertos da Proposta A"), else every one it names.
func hostWinnerLabels(section string) []string {
	first, _, _ := strings.Cut(strings.TrimSpace(section), "\n")
	first = strings.TrimLeft(first, "*_` ")
	ms := hostLabelRE.FindAllStringIndex(first, -1)
	if len(ms) == 0 || ms[0][0] != 0 {
		return hostLabels(section)
	}
	ls := hostLabels(first)
	rest := first[ms[0][1]:]
	if len(ls) == 1 || strings.ContainsAny(first[ms[0][1]:ms[1][0]], "(—–:") || graftWordRE.MatchString(rest) {
		return ls[:1] // "P-C (com enxertos de P-A)": the others are grafts
	}
	return ls // "P-A e P-B empatam": no single winner
}

// HostVerdict reads the spec verdict a hand-written judge's answer
// recommends under its verdict heading or line ("## RECOMENDAÇÃO de
// veredito", "Recommended verdict:"), down to the next heading, by the one
// rule spec verdicts are read with (FindVerdict: a negated mention does not
// count); "" when the answer has no such heading or it settles on none.
func HostVerdict(body string) string {
	for _, loc := range verdictHeadingRE.FindAllStringIndex(body, -1) {
		section := body[loc[1]:]
		if i := strings.Index(section, "\n#"); i >= 0 {
			section = section[:i]
		}
		l := PT
		if englishVerdictRE.MatchString(section) {
			l = EN
		}
		if v, _ := FindVerdict(section, l); v != "" {
			return v
		}
	}
	return ""
}

// handWinner finds the winner of a final answer written by hand (a host
// agent running the debate skill): a label letter ("C" for "Proposal C",
// "Candidate C") or a solver id ("agente-1" for "D1"), or neither. The
// strongest form that names anyone decides; when it names two different
// proposals the winner is unknown and ambiguous lists them.
func handWinner(body string) (letter, solver string, ambiguous []string) {
	_, secs := ParseSections(body)
	text := body
	for _, s := range secs {
		if s.Key == SecWinner {
			text = "## " + s.Heading + "\n" + s.Content + "\n" + body
		}
	}
	for _, tier := range winnerTiers {
		var refs []string
		for _, re := range tier {
			for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
				if negatedBeforeRE.MatchString(text[:m[0]]) || negatedAfterRE.MatchString(text[m[1]:]) {
					continue
				}
				if ref := winnerRef(text[m[2]:m[3]]); !slices.Contains(refs, ref) {
					refs = append(refs, ref)
				}
			}
		}
		switch len(refs) {
		case 0:
			continue
		case 1:
			if l, ok := strings.CutPrefix(refs[0], "label:"); ok {
				return l, "", nil
			}
			return "", refs[0], nil
		default:
			return "", "", refs
		}
	}
	return "", "", nil
}

// AmbiguousWinner is the warning for a judge's file that names more than
// one winner (nil when it names one or none): it says which, and that the
// winner is left unknown.
func (f *Final) AmbiguousWinner(l Lang) error {
	if len(f.WinnerAmbiguous) == 0 {
		return nil
	}
	var names []string
	for _, r := range f.WinnerAmbiguous {
		if x, ok := strings.CutPrefix(r, "label:"); ok {
			r = l.LabelName(x)
		}
		names = append(names, r)
	}
	return &InputError{Path: f.Path, Msg: fmt.Sprintf("names more than one winner (%s): the winner is left unknown; write one winner (\"## Winner\" / \"## Vencedora\") to settle it", strings.Join(names, ", "))}
}

// winnerRef reads a winner reference: "label:C" for "Proposal C", a solver
// id for "D1" or "agente-1".
func winnerRef(ref string) string {
	ref = strings.ToLower(ref)
	if l, ok := strings.CutPrefix(ref, "p-"); ok && len(l) == 1 {
		return "label:" + strings.ToUpper(l) // an anonymised label, "P-B"
	}
	if i := strings.LastIndexAny(ref, " \t"); i >= 0 {
		return "label:" + strings.ToUpper(ref[i+1:])
	}
	return "agente-" + strings.TrimLeft(ref, "abcdefghijklmnopqrstuvwxyz-")
}

// Round is one round folder of a debate.
type Round struct {
	K   int
	Dir string
	// Files holds the solver files (by solver number) then the critic files.
	Files []*DebaterFile
	// Solvers counts the round's solver files.
	Solvers int
}

// File returns the file of the given solver or critic id in the round, or nil.
func (r *Round) File(id string) *DebaterFile {
	for _, f := range r.Files {
		if f.SolverID == id {
			return f
		}
	}
	return nil
}

// DefaultProtocol is the protocol of a problema.md that names none: the
// debate protocol (docs/protocols/debate.md), which every debate written before moot ran other
// protocols is (and which still names none, so its files are unchanged).
const DefaultProtocol = "debate"

// ProtocolName is the protocol the debate runs: its protocol field, else
// DefaultProtocol.
func (p *ProblemFile) ProtocolName() string {
	if p.Protocol == "" {
		return DefaultProtocol
	}
	return p.Protocol
}

// Debate is one debate folder, read in full.
type Debate struct {
	// Dir is the folder; Name its base name ("debate", "debate-20260715T100000Z").
	Dir  string
	Name string
	Lang Lang
	// Problem is nil when problema.md is missing (a debate that never set up).
	Problem *ProblemFile
	Rounds  []*Round
	// Convergence is the body of convergencia.md, or "".
	Convergence string
	// Final is nil when there is no final answer yet.
	Final *Final
	// JudgeAttempts are the failed judge attempts (juiz/tentativa-K.md).
	JudgeAttempts []*DebaterFile
	// Anonymised is the file a host's judge read its proposals from
	// (juiz/propostas-anonimas.md), "" when none: the proposals as
	// labelled there (P-A, P-B…), in the host's order; the host records
	// no label → solver map.
	Anonymised string
	// Decision is the human decision recorded in decisao.md, nil when none.
	Decision *Decision
	// Events is the event log, oldest first (nil when there is none).
	Events []Event
	// Holder is the lock's holder when the lock file names one, and
	// HolderAlive whether its process ran when the folder was read.
	Holder      *LockInfo
	HolderAlive bool
	// Problems are files that could not be parsed; they are reported, not fatal.
	Problems []error
	// State is derived from the files and the event log.
	State State
	// memo keeps the folder listings while an index reads the debate
	// (nil otherwise: every look lists the folder again).
	memo dirMemo
}

var (
	roundDirRE = lazyre.New(`^(?:rodada|round)-(\d+)$`)
	debaterRE  = lazyre.New(`^(?i:(agente|agent|critic|critico|crítico))-(\d+|[A-Za-z][A-Za-z0-9_.-]*)\.(?i:md)$`)
	attemptRE  = lazyre.New(`^(?:tentativa|attempt)-(\d+)\.md$`)
	// archivedName is an archived debate's folder: debate-<its start>,
	// or debate-undated when nothing in it records a time
	archivedName = lazyre.New(`^debate-(?:(\d{8}T\d{6}Z)|undated)(?:-\d+)?$`)
)

// anonymisedNames are the names a host gives the anonymised proposals
// its judge read.
var anonymisedNames = []string{"propostas-anonimas.md", "propostas-anônimas.md", "anonymized-proposals.md", "anonymised-proposals.md"}

// DetectLang tells which language a debate folder is written in: the
// translated file names are English; otherwise problema.md's language
// field says; otherwise (a hand-run debate, an empty folder) fallback, the
// project's doc_language.
func DetectLang(dir string, fallback Lang) Lang {
	p := filepath.Join(dir, names[PT].Problem)
	lang, _, _ := detectLang(func(name string) bool { return exists(filepath.Join(dir, name)) },
		func() ([]byte, error) { return readFrontMatter(p) }, fallback)
	return lang
}

// detectLang is the one rule DetectLang and the index share: translated
// names mean English, else problema.md's front matter names the language,
// else fallback. has says whether the folder holds a name; read returns
// problema.md's front matter, and head and err are what it returned (nil
// when it was not called).
func detectLang(has func(string) bool, read func() ([]byte, error), fallback Lang) (lang Lang, head []byte, err error) {
	if has(translated.Problem) || has(translated.Final) || has(translated.RoundPrefix+"0") {
		return EN, nil, nil
	}
	if !has(names[PT].Problem) {
		return fallback, nil, nil
	}
	if head, err = read(); err != nil {
		return fallback, head, err
	}
	return langOfProblem(head, fallback), head, nil
}

// langOfProblem is the language problema.md's front matter (raw, read
// as far as its closing line) names, else fallback: the plain line read
// directly, anything else by the YAML parser.
func langOfProblem(raw []byte, fallback Lang) Lang {
	v := ""
	fm := frontMatterBlock(raw)
	if vals, ok := quickFields(fm, "language"); ok && fm != nil && plainFrontMatter(fm) {
		v = vals["language"]
	} else if doc, err := ParseDocument(raw); err == nil {
		v = strings.TrimSpace(scalar(doc.Meta, "language"))
	}
	if v != "" {
		return LangFromDocLanguage(v)
	}
	return fallback
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// ReadDebate reads a debate folder. It fails only when the folder itself
// cannot be read; files that cannot be parsed are listed in Problems.
func ReadDebate(dir string, fallback Lang) (*Debate, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &Debate{Dir: dir, Name: filepath.Base(dir), Lang: fallback, State: StateNoDebate}, nil
		}
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	if !fi.IsDir() {
		return nil, &InputError{Path: dir, Msg: "is not a folder"}
	}
	d := &Debate{Dir: dir, Name: filepath.Base(dir)}
	d.Lang = DetectLang(dir, fallback)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case !e.IsDir() && (name == names[PT].Problem || name == translated.Problem):
			if raw, err := d.readString(p); err == nil {
				if pf, err := parseProblemText(p, raw); err != nil {
					d.Problems = append(d.Problems, err)
				} else {
					d.Problem = pf
				}
			}
		case !e.IsDir() && (name == names[PT].Final || name == translated.Final):
			if raw, err := d.read(p); err == nil {
				if f, err := ParseFinal(p, raw); err != nil {
					d.Problems = append(d.Problems, err)
				} else {
					d.Final = f
				}
			}
		case !e.IsDir() && (name == names[PT].Convergence || name == translated.Convergence):
			if raw, err := d.read(p); err == nil {
				if doc, err := ParseDocument(raw); err == nil {
					d.Convergence = doc.Body
				} else {
					d.Convergence = NormalizeText(raw)
				}
			}
		case !e.IsDir() && (name == "eventos.jsonl" || name == "events.jsonl"):
			d.readEvents(p)
		case !e.IsDir() && name == DecisionFile:
			d.readDecision(p)
		case !e.IsDir() && name == LockFile:
			d.Holder = readLockInfo(p)
		case e.IsDir() && roundDirRE.MatchString(name):
			k, _ := strconv.Atoi(roundDirRE.FindStringSubmatch(name)[1])
			d.Rounds = append(d.Rounds, d.readRound(k, p))
		case e.IsDir() && (name == names[PT].JudgeID || name == translated.JudgeID):
			d.readJudge(p)
		}
	}
	sort.Slice(d.Rounds, func(i, j int) bool { return d.Rounds[i].K < d.Rounds[j].K })
	deriveShape(d)
	if d.Holder != nil {
		d.HolderAlive = d.Holder.Alive()
	}
	d.State = deriveState(d)
	return d, nil
}

// readString is read into a string (problema.md: P held once).
func (d *Debate) readString(p string) (string, error) {
	raw, err := safefs.ReadFileString(p)
	if err != nil {
		d.Problems = append(d.Problems, &InputError{Path: p, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err})
	}
	return raw, err
}

func (d *Debate) read(p string) ([]byte, error) {
	raw, err := safefs.ReadFile(p, 0)
	if err != nil {
		d.Problems = append(d.Problems, &InputError{Path: p, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err})
	}
	return raw, err
}

func (d *Debate) readRound(k int, dir string) *Round {
	r := &Round{K: k, Dir: dir}
	ents, err := os.ReadDir(dir)
	if err != nil {
		d.Problems = append(d.Problems, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err})
		return r
	}
	type item struct {
		critic bool
		n      int
		f      *DebaterFile
	}
	var items []item
	for _, e := range ents {
		m := debaterRE.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		raw, err := d.read(p)
		if err != nil {
			continue
		}
		f, err := ParseDebaterFile(p, raw)
		if err != nil {
			d.Problems = append(d.Problems, err)
			continue
		}
		n, err := strconv.Atoi(m[2])
		critic := !strings.HasPrefix(strings.ToLower(m[1]), "agent") // Agente-3.md is agente-3
		if err != nil && !critic {
			continue // agente-<name>.md is not a solver file
		}
		if err != nil {
			n = 1 << 20 // a named critic (critic-security.md) after the numbered ones
		}
		id := strings.ToLower(e.Name()[:len(e.Name())-len(".md")])
		if f.SolverID == "" {
			f.SolverID = id
		}
		if f.Role == "" {
			f.Role = RoleSolver
			if critic {
				f.Role = RoleCritic
			}
		}
		if f.Round < 0 {
			f.Round = k
		}
		if f.Status == "" {
			// a hand-written file without status: judge it by its body
			f.Status = StatusOK
		}
		items = append(items, item{critic, n, f})
	}
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].critic != items[j].critic {
			return !items[i].critic
		}
		return items[i].n < items[j].n
	})
	for _, it := range items {
		r.Files = append(r.Files, it.f)
		if !it.critic {
			r.Solvers++
		}
	}
	return r
}

// countSolvers counts the solver files of a round folder by name.
func countSolvers(m dirMemo, dir string) int {
	ents, _ := m.readDir(dir)
	n := 0
	for _, e := range ents {
		if m := debaterRE.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() && strings.HasPrefix(strings.ToLower(m[1]), "agent") && isCount(m[2]) {
			n++
		}
	}
	return n
}

// deriveShape settles a hand-run debate's N and R from the rounds on disk
// (problema.md written by moot, with its p_sha256, is the truth for its
// own): N is the most solver files a round holds; R is the last round when
// the debate finished, when problema.md says nothing, or when it counted
// rounds its own way (rounds, epochs).
func deriveShape(d *Debate) {
	p := d.Problem
	if p == nil || p.PSHA256 != "" || len(d.Rounds) == 0 {
		return
	}
	n, r := 0, 0
	for _, rd := range d.Rounds {
		n, r = max(n, rd.Solvers), max(r, rd.K)
	}
	if d.Final == nil && len(d.JudgeAttempts) == 0 {
		// unfinished: the rounds on disk are only part of it, and what
		// problema.md planned stands where it says more
		p.N, p.R = max(p.N, n), max(p.R, r)
		return
	}
	if n > 0 {
		p.N = n
	}
	if d.Final != nil || p.R == 0 || p.RLoose || r > p.R {
		p.R = r
	}
}

// handRunJudgeDue reports whether a hand-run debate has every round it
// planned (the last with all its solvers) and no judge's answer yet: only a
// judge — or a human choice — is left.
func handRunJudgeDue(d *Debate) bool {
	if len(d.Rounds) == 0 || d.Final != nil {
		return false
	}
	last := d.Rounds[len(d.Rounds)-1]
	n, r := last.Solvers, last.K
	if d.Problem != nil {
		n, r = max(n, d.Problem.N), max(r, d.Problem.R)
	}
	return last.K == r && last.Solvers >= n && n >= 2
}

func (d *Debate) readJudge(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		d.Problems = append(d.Problems, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err})
		return
	}
	type item struct {
		n int
		f *DebaterFile
	}
	var items []item
	for _, e := range ents {
		if !e.IsDir() && slices.Contains(anonymisedNames, e.Name()) {
			d.Anonymised = filepath.Join(dir, e.Name())
			continue
		}
		m := attemptRE.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		raw, err := d.read(p)
		if err != nil {
			continue
		}
		f, err := ParseDebaterFile(p, raw)
		if err != nil {
			d.Problems = append(d.Problems, err)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if f.Attempt == 0 {
			f.Attempt = n
		}
		items = append(items, item{n, f})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].n < items[j].n })
	for _, it := range items {
		d.JudgeAttempts = append(d.JudgeAttempts, it.f)
	}
}

func (d *Debate) readEvents(p string) {
	raw, err := d.read(p)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var ev Event
		if err := json.Unmarshal(b, &ev); err != nil {
			// a line cut short by a crash is expected at the very end only
			if !bytes.HasSuffix(raw, []byte("\n")) && line == bytes.Count(raw, []byte("\n"))+1 {
				break
			}
			d.Problems = append(d.Problems, &InputError{Path: p, Msg: fmt.Sprintf("line %d is not a JSON event: %v", line, err)})
			continue
		}
		d.Events = append(d.Events, ev)
	}
	if d.Events == nil {
		d.Events = []Event{}
	}
}

// resolving reports whether a decision choice settles its decision point
// (pause and cancel leave it pending: resume asks again).
func resolving(choice string) bool {
	switch choice {
	case "pause", "cancel", "":
		return false
	}
	return true
}

// EnginesFile is the engines file the debate's last session was given
// with --config, as its event log records it: what a printed moot resume
// repeats. "" when that session found its engines file itself, or when
// the log predates the record (then no file can be named).
func (d *Debate) EnginesFile() string {
	file := ""
	for _, ev := range d.Events {
		if ev.Type == EvSetup || ev.Type == EvResumed {
			file = ev.EnginesFile
		}
	}
	return file
}

// PendingDecision returns the decision point ("quorum", "judge", or
// "budget" for a debate stopped at its budget cap until a raise) that the
// event log shows as asked and not yet settled, or "".
func (d *Debate) PendingDecision() string {
	pending := ""
	for _, ev := range d.Events {
		switch ev.Type {
		case EvDebateFinished:
			if ev.Outcome == OutcomeWaiting && strings.Contains(ev.Reason, BudgetStopMark) {
				pending = string(PointBudget)
			}
		case EvQuorumLost:
			pending = "quorum"
		case EvJudgeFailed:
			pending = "judge"
		case EvDecision:
			if resolving(ev.Choice) {
				pending = ""
			}
		case EvJudgeFinished:
			pending = ""
		}
	}
	return pending
}

// BudgetStopMark is what the reason of a debate stopped at its budget
// cap says (engine's stop): such a debate waits for a raised cap.
const BudgetStopMark = "stopped at the budget cap"

// deriveState derives the CLI status from the files and the event log.
func deriveState(d *Debate) State {
	if d.Final != nil {
		return StateDone
	}
	if d.Problem == nil && len(d.Rounds) == 0 && len(d.JudgeAttempts) == 0 && d.Events == nil {
		return StateNoDebate
	}
	if d.Events != nil {
		var last Outcome
		for _, ev := range d.Events {
			switch ev.Type {
			case EvDebateFinished:
				last = ev.Outcome
			case EvResumed, EvRoundStarted, EvCallStarted, EvJudgeStarted:
				last = ""
			}
		}
		if last == OutcomeCancelled {
			return StateCancelled
		}
		switch d.PendingDecision() {
		case "judge":
			return StateJudgeFailed
		case "quorum", string(PointBudget):
			return StateWaiting
		}
		if d.Holder != nil && !d.HolderAlive {
			// the lock names a process that is gone (killed): nothing runs it
			return StateInterrupted
		}
		return StateRunning
	}
	if len(d.JudgeAttempts) > 0 {
		return StateJudgeFailed
	}
	if d.HandRun() {
		// no moot process writes it: never "running"
		if handRunJudgeDue(d) {
			return StateWaiting
		}
		return StateInterrupted
	}
	return StateRunning
}

// Calls returns every debater file of the debate: rounds, judge attempts
// and the final answer.
func (d *Debate) Calls() []*DebaterFile {
	var out []*DebaterFile
	for _, r := range d.Rounds {
		out = append(out, r.Files...)
	}
	out = append(out, d.JudgeAttempts...)
	if d.Final != nil {
		out = append(out, &d.Final.DebaterFile)
	}
	return out
}

// Totals sums the tokens and cost of every call the debate made
// (CallTotals): the event log's, across its sessions, and the files'.
func (d *Debate) Totals() (tokens int, usd float64) {
	return CallTotals(d.Events, d.Calls())
}

// CallTotals sums the tokens and cost of every call made: each attempt the
// event log records as finished, once, and each file whose call the log
// does not record (a debate without a log, or a kill between the file and
// its event). A retried call's earlier attempts count too: their files
// were replaced by the retry's, but they were made (and paid for), so a
// total never drops when a debate is resumed or read again.
func CallTotals(events []Event, files []*DebaterFile) (tokens int, usd float64) {
	seen := map[string]bool{}
	key := func(round int, id string, attempt int) string { return fmt.Sprintf("%d/%s/%d", round, id, attempt) }
	for _, ev := range events {
		if ev.Type != EvCallFinished || ev.SolverID == "" {
			continue
		}
		k := key(ev.Round, ev.SolverID, ev.Attempt)
		if seen[k] {
			continue
		}
		seen[k] = true
		tokens += ev.TokensIn + ev.TokensOut
		usd += ev.CostUSD
	}
	for _, f := range files {
		if seen[key(f.Round, f.SolverID, f.Attempt)] {
			continue
		}
		tokens += f.TokensIn + f.TokensOut
		usd += f.CostUSD
	}
	return tokens, usd
}

// HandRun reports whether the debate was written by hand or by another
// tool (the debate skill run by a host agent): no event log, and no
// problema.md with moot's p_sha256. moot cannot resume it call by call.
func (d *Debate) HandRun() bool {
	return d.Events == nil && (d.Problem == nil || d.Problem.PSHA256 == "")
}

// Translated reports whether the folder is written with the translated
// names (problem.md, round-K/agent-i.md), which moot reads but no longer
// writes: it cannot continue such a debate in place.
func (d *Debate) Translated() bool {
	return exists(filepath.Join(d.Dir, translated.Problem)) || exists(filepath.Join(d.Dir, translated.Final)) || exists(filepath.Join(d.Dir, translated.RoundPrefix+"0"))
}

// Archivable reports whether starting a new debate moves this one aside
// (ArchiveDebate): a finished or cancelled debate, or an unfinished one run
// by hand or written with the translated names — which moot cannot
// continue, and never leaves as a dead end.
func (d *Debate) Archivable() bool {
	switch d.State {
	case StateDone, StateCancelled:
		return true
	case StateNoDebate:
		return false
	}
	return d.HandRun() || d.Translated()
}

// CostKnown reports whether any cost was recorded: a total in the final
// answer, or a cost on any call. A debate run by hand records none, and
// its cost is unknown — never $0.00.
func (d *Debate) CostKnown() bool {
	if d.Final != nil && d.Final.TotalCostRecorded && d.Final.TotalCostUSD > 0 {
		return true
	}
	for _, f := range d.Calls() {
		if f.CostRecorded {
			return true
		}
	}
	return false
}

// CostUnpriced reports whether some of the debate's cost is unknown: no
// cost recorded at all, or a call that records none (an engine without a
// price). Totals then counts only the priced calls.
func (d *Debate) CostUnpriced() bool {
	if !d.CostKnown() {
		return true
	}
	return slices.ContainsFunc(d.Calls(), func(f *DebaterFile) bool { return !f.CostRecorded })
}

// ArchiveTime is the time an archived debate folder is named by: StartedAt,
// else the earliest time a file of it says it finished; zero (the folder
// is then named debate-undated) when its files record no time at all. A
// modification time is never used: a git clone or a copy resets it, and
// a host debate from October would be archived under today.
func (d *Debate) ArchiveTime() time.Time {
	if t := d.StartedAt(); !t.IsZero() {
		return t
	}
	var t time.Time
	files := d.Calls()
	if d.Final != nil {
		files = append(files, &d.Final.DebaterFile)
	}
	for _, f := range files {
		if !f.FinishedAt.IsZero() && (t.IsZero() || f.FinishedAt.Before(t)) {
			t = f.FinishedAt
		}
	}
	return t
}

// StartedAt is when the debate was set up: problema.md's created_at (front
// matter or a bullet), else the earliest call's started_at, else the time in
// an archived folder's name; zero when nothing records it (a file's
// modification time is no start: a git clone resets it).
func (d *Debate) StartedAt() time.Time {
	if d.Problem != nil && !d.Problem.CreatedAt.IsZero() {
		return d.Problem.CreatedAt
	}
	var t time.Time
	for _, f := range d.Calls() {
		if !f.StartedAt.IsZero() && (t.IsZero() || f.StartedAt.Before(t)) {
			t = f.StartedAt
		}
	}
	if t.IsZero() {
		if m := archivedName.FindStringSubmatch(d.Name); m != nil && m[1] != "" {
			t, _ = time.Parse("20060102T150405Z", m[1])
		}
	}
	return t.UTC()
}

// sortArchived orders archived debate folders oldest first: the undated
// ones (run by hand before any dated one: moot records every start) come
// first, then by the time in their names.
func sortArchived(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return newerArchive(names[j], names[i]) })
}

// newerArchive reports whether archived folder a is newer than b.
func newerArchive(a, b string) bool {
	ua, ub := strings.HasPrefix(a, "debate-undated"), strings.HasPrefix(b, "debate-undated")
	if ua != ub {
		return ub
	}
	return a > b
}

// StartedForm says how much of StartedAt its file wrote: a date alone
// (started_at: 2026-10-04) is shown as that date, never as midnight UTC;
// a time without an offset is shown as written, never as UTC.
func (d *Debate) StartedForm() TimeForm {
	if d.Problem != nil && !d.Problem.CreatedAt.IsZero() {
		return d.Problem.CreatedForm
	}
	var first *DebaterFile
	for _, f := range d.Calls() {
		if !f.StartedAt.IsZero() && (first == nil || f.StartedAt.Before(first.StartedAt) || f.StartedAt.Equal(first.StartedAt) && first.StartedForm == TimeDay && f.StartedForm != TimeDay) {
			first = f
		}
	}
	if first == nil {
		return TimeZoned
	}
	return first.StartedForm
}

// UnreadStart names the first start a debate's files wrote that moot
// cannot read as a date (problema.md's created_at, else a call's
// started_at): the file, the field and the value as written; "" when
// every start written was read, or none was written.
func (d *Debate) UnreadStart() (path, field, value string) {
	if d.Problem != nil && d.Problem.CreatedUnread != "" {
		return d.Problem.Path, "created_at", d.Problem.CreatedUnread
	}
	for _, f := range d.Calls() {
		if v := strings.TrimSpace(scalar(f.Meta, "started_at")); v != "" && f.StartedAt.IsZero() {
			return f.Path, "started_at", v
		}
	}
	return "", "", ""
}

// StartedDay reports whether StartedAt is a date alone.
func (d *Debate) StartedDay() bool { return d.StartedForm() == TimeDay }

// Mode, N and R from problema.md (zero when unknown).
func (d *Debate) Mode() Mode {
	if d.Problem == nil {
		return ""
	}
	return d.Problem.Mode
}

// ReadDebates reads every debate of a bug: the archived debate-<timestamp>/
// folders, oldest first, then the current debate/ (when it exists); a
// question's folder is its one debate.
func ReadDebates(b *Bug) ([]*Debate, error) {
	if b.IsQuestion { // a question's folder is its one debate
		d, err := ReadDebate(b.Dir, b.Register.Lang)
		if err != nil || d.State == StateNoDebate {
			return nil, err
		}
		return []*Debate{d}, nil
	}
	ents, err := os.ReadDir(b.Dir)
	if err != nil {
		return nil, &InputError{Path: b.Dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	var archived []string
	for _, e := range ents {
		if e.IsDir() && archivedName.MatchString(e.Name()) {
			archived = append(archived, e.Name())
		}
	}
	sortArchived(archived)
	var out []*Debate
	for _, name := range archived {
		d, err := ReadDebate(filepath.Join(b.Dir, name), b.Register.Lang)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	cur := filepath.Join(b.Dir, DebateDir)
	if isDir(cur) {
		d, err := ReadDebate(cur, b.Register.Lang)
		if err != nil {
			return nil, err
		}
		if d.State != StateNoDebate {
			out = append(out, d)
		}
	}
	return out, nil
}

// hostDurationMS reads a call's duration as host agents write it —
// duration_s / duration_seconds in seconds, or duration as "1m20s" or a
// number of seconds — in milliseconds; 0 when none is written or readable.
func hostDurationMS(m *yaml.Node) int64 {
	for _, key := range []string{"duration_s", "duration_seconds", "duration"} {
		v := strings.TrimSpace(scalar(m, key))
		if v == "" {
			continue
		}
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 && secs < 1e7 {
			return int64(secs * 1000)
		}
		if dur, err := time.ParseDuration(v); err == nil && dur > 0 {
			return dur.Milliseconds()
		}
	}
	return 0
}
