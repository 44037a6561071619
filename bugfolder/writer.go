package bugfolder

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/internal/safefs"
	"go.yaml.in/yaml/v3"
	"golang.org/x/sys/unix"
)

// ProtocolVersion is the version of the debate protocol moot writes.
const ProtocolVersion = 1

// Writer writes one debate folder in one language form, under its lock.
// Every file is written atomically and owner-only, and nothing is written
// into a bug folder closed by DONE.md.
type Writer struct {
	// Dir is the debate folder; BugDir the bug folder that holds it.
	Dir    string
	BugDir string
	Lang   Lang
	lock   *Lock
	// root is the bug folder, opened once: every file is written beneath
	// it by descriptor, never through a symlink; rel is Dir within it.
	root *safefs.Root
	rel  string

	evMu sync.Mutex
	ev   *os.File

	// pending are the folders with renames not yet made durable (Barrier).
	pendMu  sync.Mutex
	pending map[string]bool
}

// defer records a folder whose renames Barrier makes durable.
func (w *Writer) deferSync(dir string) {
	w.pendMu.Lock()
	if w.pending == nil {
		w.pending = map[string]bool{}
	}
	w.pending[dir] = true
	w.pendMu.Unlock()
}

// Barrier makes every file written since the last barrier survive a power
// loss (one fsync per folder, not one per file). The engine calls it at
// the end of each round, before the next round reads it; the setup and
// the final answer are durable as they are written. The folders are
// synced at once (a round's folder, its raw/ and the debate's each wait
// on the disk, and one journal commit can carry them all); Barrier
// returns only when every one is on disk, so what the next round reads
// is durable as before.
func (w *Writer) Barrier() error { return w.StartBarrier()() }

// StartBarrier starts syncing the folders written since the last
// barrier, in the background, and returns what waits for them: a round
// starts it once its answers are written, so the disk works while the
// round's convergence is measured and written, and its Barrier (which
// syncs what came since) is durable only once the wait has returned too.
func (w *Writer) StartBarrier() (wait func() error) {
	w.pendMu.Lock()
	dirs := w.pending
	w.pending = nil
	w.pendMu.Unlock()
	errs := make(chan error, len(dirs))
	for d := range dirs {
		go func() { errs <- syncDir(d) }()
	}
	return func() error {
		var all []error
		for range dirs {
			all = append(all, <-errs)
		}
		return errors.Join(all...)
	}
}

// CheckWritable refuses a bug folder closed by DONE.md.
func CheckWritable(bugDir string) error {
	p := filepath.Join(bugDir, DoneFile)
	if _, err := os.Lstat(p); err == nil {
		return &InputError{Path: p, Msg: "the bug is closed and read-only; moot shows its debates but never writes there (remove DONE.md deliberately to reopen it, or register a new bug with regression-of)", Err: ErrLocked}
	}
	return nil
}

// OpenWriter takes the lock of the debate folder dir (creating it) inside
// bugDir. command names the holder in the lock file. An existing debate
// folder is tightened to owner-only, and the temp files a killed run left
// in it are swept.
func OpenWriter(bugDir, dir string, lang Lang, command string) (*Writer, error) {
	if err := CheckWritable(bugDir); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(bugDir, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, &InputError{Path: dir, Msg: "is not inside its bug folder; moot never writes outside " + RootName + "/"}
	}
	root, err := safefs.OpenRoot(bugDir, safefs.NoSymlinks)
	if err != nil {
		return nil, outsideError(bugDir, err)
	}
	lk, err := acquireLock(root, rel, command)
	if err != nil {
		root.Close()
		return nil, err
	}
	w := &Writer{Dir: dir, BugDir: bugDir, Lang: lang, lock: lk, root: root, rel: rel}
	if err := w.tighten(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// tighten makes the debate folder and the folders in it (rounds, raw/,
// judge) owner-only and removes the temp files of a run that was killed
// mid-write.
func (w *Writer) tighten() error {
	if err := w.tightenDir(w.rel, 2); err != nil {
		return err
	}
	if _, err := w.root.SweepTemps(w.rel); err != nil {
		return outsideError(w.Dir, err)
	}
	return nil
}

// TookOver names the previous holder when a stale lock was taken over.
func (w *Writer) TookOver() *LockInfo { return w.lock.TookOver }

// Close closes the event log and releases the lock.
func (w *Writer) Close() error {
	_ = w.Barrier()
	w.evMu.Lock()
	if w.ev != nil {
		_ = w.ev.Close()
		w.ev = nil
	}
	w.evMu.Unlock()
	err := w.lock.Release()
	if w.root != nil {
		w.root.Close()
		w.root = nil
	}
	return err
}

// write checks the DONE lock, then writes a file of the debate atomically
// and durably.
func (w *Writer) write(rel string, data []byte) (string, error) {
	return w.writeFile(rel, data, FilePerm, true)
}

// writeDeferred is write with the folder's fsync left to the next Barrier.
func (w *Writer) writeDeferred(rel string, data []byte) (string, error) {
	return w.writeFile(rel, data, FilePerm, false)
}

// writeFile writes rel of the debate folder atomically, by descriptor
// beneath the bug folder: a symlink anywhere on the way is refused.
func (w *Writer) writeFile(rel string, data []byte, perm os.FileMode, durable bool) (string, error) {
	if err := CheckWritable(w.BugDir); err != nil {
		return "", err
	}
	p := filepath.Join(w.Dir, rel)
	if err := w.root.WriteFile(filepath.Join(w.rel, rel), data, perm, DirPerm, durable); err != nil {
		return "", outsideError(p, err)
	}
	if !durable {
		w.deferSync(filepath.Dir(p))
	}
	return p, nil
}

// WriteExtra writes a protocol's own file of the debate folder (rel, a
// path below it: argue's scoring/round_001.json), atomically and
// owner-only. It returns the file's path.
func (w *Writer) WriteExtra(rel string, data []byte) (string, error) {
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("write %s: not a path inside the debate folder", rel)
	}
	return w.writeDeferred(rel, data)
}

// RemoveExtra removes a protocol's own file of the debate folder (rel, a
// path below it), if there is one: argue's score file of a round that was
// discarded after it was written.
func (w *Writer) RemoveExtra(rel string) error {
	if !filepath.IsLocal(rel) {
		return fmt.Errorf("remove %s: not a path inside the debate folder", rel)
	}
	if err := CheckWritable(w.BugDir); err != nil {
		return err
	}
	if err := w.root.Remove(filepath.Join(w.rel, rel)); err != nil {
		return outsideError(filepath.Join(w.Dir, rel), err)
	}
	return nil
}

// ProblemMeta is problema.md's front matter, in the order it is written.
type ProblemMeta struct {
	ProtocolVersion int `yaml:"protocol_version"`
	// Protocol names the protocol; empty (and left out) for
	// DefaultProtocol, so a debate's problema.md reads as it always has.
	Protocol string `yaml:"protocol,omitempty"`
	BugID    string `yaml:"bug_id,omitempty"`
	// QuestionID and Question name a question's debate (no bug_id then).
	QuestionID string `yaml:"question_id,omitempty"`
	Question   string `yaml:"question,omitempty"`
	// Visibility is a question's when it is restricted (its evidence
	// holds a restricted bug's files), so a resume keeps it restricted;
	// left out otherwise (a bug's is its bug.md's).
	Visibility string     `yaml:"visibility,omitempty"`
	Mode       Mode       `yaml:"mode"`
	N          int        `yaml:"n"`
	R          int        `yaml:"r"`
	Solvers    *yaml.Node `yaml:"solvers"`
	Critics    *yaml.Node `yaml:"critics"`
	Judge      string     `yaml:"judge"`
	// Lenses freezes each participant's lens, name and text (none: omitted).
	Lenses           *yaml.Node `yaml:"lenses,omitempty"`
	Engines          *yaml.Node `yaml:"engines,omitempty"`
	Timeout          *yaml.Node `yaml:"timeout"`
	Parallel         int        `yaml:"parallel"`
	Language         string     `yaml:"language"`
	PBytes           int        `yaml:"p_bytes"`
	PTokensEstimated int        `yaml:"p_tokens_estimated"`
	PSHA256          string     `yaml:"p_sha256"`
	CreatedAt        Stamp      `yaml:"created_at"`
	MootVersion      string     `yaml:"moot_version,omitempty"`
	// VerifyJudge freezes --verify-judge (the judge's order-swap check),
	// AllowSameFamily --allow-same-family (docs/beyond.md); left out when off.
	VerifyJudge     bool `yaml:"verify_judge,omitempty"`
	AllowSameFamily bool `yaml:"allow_same_family,omitempty"`
	// Budget is the debate's cap (max_usd, max_tokens; none: omitted),
	// frozen at setup so a resume keeps it.
	Budget *yaml.Node `yaml:"budget,omitempty"`
	// SetupSHA256 is the digest of the whole file without this line: the
	// settings, rubric and P a resume must find unchanged.
	SetupSHA256 string `yaml:"setup_sha256,omitempty"`
}

// OrderedMap builds a YAML mapping node from pairs, keeping their order.
func OrderedMap(pairs []KV) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(pairs) == 0 {
		n.Style = yaml.FlowStyle
	}
	for _, kv := range pairs {
		n.Content = append(n.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: kv.Key},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: kv.Value})
	}
	return n
}

// NestedMap builds a YAML mapping of name → ordered mapping, keeping the
// order of names (problema.md's engine identities).
func NestedMap(names []string, fields map[string][]KV) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, name := range names {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, OrderedMap(fields[name]))
	}
	return n
}

// ScalarNode builds a YAML string scalar.
func ScalarNode(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

// ProblemDoc is problema.md as the pieces it is written from: the sealed
// front matter, the rubric under its heading, then P. They are never
// joined, so a large P is held once while it is written.
type ProblemDoc struct {
	pieces []string
	// SHA256 is the hex digest of the file's bytes.
	SHA256 string
}

// WriteTo writes the whole file to w, piece by piece (P is not copied).
func (d *ProblemDoc) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, s := range d.pieces {
		k, err := io.WriteString(w, s)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// RenderProblem renders problema.md: front matter, the numbered rubric, then P.
func RenderProblem(l Lang, meta ProblemMeta, rubric []string, p string) (*ProblemDoc, error) {
	var b strings.Builder
	b.WriteString("\n" + SecRubric.Heading(l) + "\n\n")
	for i, c := range rubric {
		fmt.Fprintf(&b, "%d. %s\n", i+1, c)
	}
	b.WriteString("\n" + SecProblem.Heading(l) + "\n\n")
	pieces := []string{"", b.String(), strings.TrimRight(p, "\n"), "\n"}
	meta.SetupSHA256 = ""
	for seal := range 2 {
		front, err := frontMatter(meta, 0)
		if err != nil {
			return nil, err
		}
		pieces[0] = front.String()
		if seal == 0 {
			meta.SetupSHA256 = normalizedSHA(pieces) // as SetupIntact reads it
		}
	}
	return &ProblemDoc{pieces: pieces, SHA256: SHA256String(pieces...)}, nil
}

// normalizedSHA is sha256Hex of NormalizeText of the pieces joined,
// without joining them when they need no normalizing (no CR: a file moot
// wrote itself; the front matter's "---" comes first, so no BOM).
func normalizedSHA(pieces []string) string {
	for _, s := range pieces {
		if strings.IndexByte(s, '\r') >= 0 {
			return sha256Hex([]byte(NormalizeText([]byte(strings.Join(pieces, "")))))
		}
	}
	return SHA256String(pieces...)
}

// WriteProblem writes problema.md and makes it read-only; it refuses to
// replace an existing one (problema.md never changes after setup). It
// writes the document's pieces one after another (P is not copied) and
// returns the sha256 of the bytes written.
func (w *Writer) WriteProblem(doc *ProblemDoc) (string, error) {
	name := w.Lang.Names().Problem
	p := filepath.Join(w.Dir, name)
	if _, err := os.Lstat(p); err == nil {
		return "", &InputError{Path: p, Msg: "already exists; problema.md is written once, at setup"}
	}
	if err := CheckWritable(w.BugDir); err != nil {
		return "", err
	}
	f, err := w.root.Create(filepath.Join(w.rel, name), 0o400, DirPerm)
	if err != nil {
		return "", outsideError(p, err)
	}
	if _, err := doc.WriteTo(f); err != nil {
		f.Discard()
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	// the bug folder is fsynced beside problema.md and its folder (the
	// disk takes the three at once): the debate folder's own entry, and a
	// move of the previous debate aside (MoveDebateAside), are durable
	// when problema.md is
	bugSync := make(chan error, 1)
	go func() { bugSync <- syncDir(w.BugDir) }()
	err = f.Commit(true)
	if serr := <-bugSync; err == nil && serr != nil {
		return "", serr
	}
	if err != nil {
		return "", outsideError(p, err)
	}
	return doc.SHA256, nil
}

// DebaterMeta is a debater file's front matter, in the order it is written.
type DebaterMeta struct {
	ProtocolVersion int      `yaml:"protocol_version"`
	DebateID        string   `yaml:"debate_id"`
	BugID           string   `yaml:"bug_id"`
	Role            Role     `yaml:"role"`
	SolverID        string   `yaml:"solver_id"`
	Engine          string   `yaml:"engine"`
	Model           string   `yaml:"model,omitempty"`
	Round           int      `yaml:"round"`
	Status          Status   `yaml:"status"`
	StartedAt       Stamp    `yaml:"started_at"`
	FinishedAt      Stamp    `yaml:"finished_at"`
	DurationMS      int64    `yaml:"duration_ms"`
	Attempt         int      `yaml:"attempt"`
	TokensIn        int      `yaml:"tokens_in"`
	TokensOut       int      `yaml:"tokens_out"`
	CostUSD         *float64 `yaml:"cost_usd,omitempty"`
	TokensEstimated bool     `yaml:"tokens_estimated,omitempty"`
	ExitCode        *int     `yaml:"exit_code,omitempty"`
	Error           string   `yaml:"error,omitempty"`
	Invalid         []string `yaml:"invalid,omitempty"`
	Amendment       string   `yaml:"amendment,omitempty"`
}

// FinalMeta is the final answer's front matter: the judge's debater fields
// plus what the engine records after validating the answer.
type FinalMeta struct {
	DebaterMeta                 `yaml:",inline"`
	Winner                      string     `yaml:"winner"`
	WinnerSolver                string     `yaml:"winner_solver"`
	Labels                      *yaml.Node `yaml:"labels"`
	AcceptedContributions       int        `yaml:"accepted_contributions"`
	DecidedBy                   string     `yaml:"decided_by"`
	Participants                string     `yaml:"participants"`
	Degraded                    bool       `yaml:"degraded"`
	Absent                      []string   `yaml:"absent,omitempty"`
	TotalTokens                 int        `yaml:"total_tokens"`
	TotalCostUSD                *float64   `yaml:"total_cost_usd,omitempty"`
	HealthTokensPerContribution float64    `yaml:"health_tokens_per_contribution"`
	// RecommendedVerdict is a spec-mode debate's recommendation
	// (spec-correta | spec-desatualizada | spec-gap); Decision is "pending"
	// until a human decides.
	RecommendedVerdict string `yaml:"recommended_verdict,omitempty"`
	Decision           string `yaml:"decision,omitempty"`
	// Escalation is a council's flag (docs/architecture.md): "escalate" when its
	// convergence or synthesis confidence is under 70 % or a critical
	// divergence is unresolved, "human" when the confidence is under 50 %.
	Escalation string `yaml:"escalation,omitempty"`
	// EscalationReasons name what escalated a council (a low convergence
	// or confidence, a critical divergence, the stakes), in its language.
	EscalationReasons []string `yaml:"escalation_reasons,omitempty"`
	// JudgeOrderCheck is the judge's order-swap check (--verify-judge,
	// docs/beyond.md): "stable" or "unstable"; left out when not asked.
	JudgeOrderCheck string `yaml:"judge_order_check,omitempty"`
	// AllowSameFamily records --allow-same-family: the judge family rule
	// was lifted for this debate.
	AllowSameFamily bool `yaml:"allow_same_family,omitempty"`
	// BudgetCut marks a debate the budget cap cut short (its body says
	// the cap and the spend).
	BudgetCut bool `yaml:"budget_cut,omitempty"`
	// CostAccuracy is each engine's estimate against its actuals
	// (CostAccuracyNode).
	CostAccuracy *yaml.Node `yaml:"cost_accuracy,omitempty"`
}

// Stamp is a timestamp as the protocol writes it: ISO 8601, UTC, whole
// seconds, unquoted in the front matter.
type Stamp string

// Timestamp formats a time as a Stamp.
func Timestamp(t time.Time) Stamp { return Stamp(t.UTC().Format("2006-01-02T15:04:05Z")) }

// MarshalYAML writes the stamp as a plain YAML timestamp.
func (s Stamp) MarshalYAML() (any, error) {
	if s == "" {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: string(s)}, nil
}

// Participants formats "K of N" in the language form ("2 de 3").
func Participants(l Lang, k, n int) string {
	if l == EN {
		return fmt.Sprintf("%d of %d", k, n)
	}
	return fmt.Sprintf("%d de %d", k, n)
}

// DebaterPath is the path of a debater file of round k, relative to the
// debate folder ("rodada-1/agente-2.md").
func (w *Writer) DebaterPath(round int, id string) string {
	return filepath.Join(w.Lang.RoundDir(round), id+".md")
}

// WriteDebater writes a debater file: moot's front matter, then the body as
// received. It returns the file's path and bytes.
func (w *Writer) WriteDebater(meta DebaterMeta, body string) (string, []byte, error) {
	meta.CostUSD = roundUSD(meta.CostUSD)
	data, err := marshalFrontMatter(meta, body)
	if err != nil {
		return "", nil, err
	}
	p, err := w.writeDeferred(w.DebaterPath(meta.Round, meta.SolverID), data)
	return p, data, err
}

// WriteJudgeAttempt keeps a failed judge attempt as juiz/tentativa-K.md.
func (w *Writer) WriteJudgeAttempt(k int, meta DebaterMeta, body string) (string, error) {
	meta.CostUSD = roundUSD(meta.CostUSD)
	data, err := marshalFrontMatter(meta, body)
	if err != nil {
		return "", err
	}
	return w.write(filepath.Join(w.Lang.Names().JudgeID, w.Lang.JudgeAttemptFile(k)), data)
}

// WriteFinal writes resposta-final.md.
func (w *Writer) WriteFinal(meta FinalMeta, body string) (string, error) {
	if err := w.Barrier(); err != nil {
		return "", err
	}
	meta.CostUSD = roundUSD(meta.CostUSD)
	meta.TotalCostUSD = roundUSD(meta.TotalCostUSD)
	data, err := marshalFrontMatter(meta, body)
	if err != nil {
		return "", err
	}
	return w.write(w.Lang.Names().Final, data)
}

// roundUSD keeps a cost to the micro-dollar: engines report sums with
// floating-point noise (0.011356000000000002).
func roundUSD(c *float64) *float64 {
	if c == nil {
		return nil
	}
	r := math.Round(*c*1e6) / 1e6
	return &r
}

// WriteConvergence writes convergencia.md.
func (w *Writer) WriteConvergence(body string) (string, error) {
	return w.writeDeferred(w.Lang.Names().Convergence, []byte(body))
}

// RawPath is where the raw output of one attempt goes, relative to the
// debate folder: rodada-k/raw/agente-2.attempt-1.stdout; the judge's under
// juiz/raw/.
func (w *Writer) RawPath(round int, id string, attempt int, stream string) string {
	dir := w.Lang.RoundDir(round)
	if id == w.Lang.Names().JudgeID {
		dir = w.Lang.Names().JudgeID
	}
	return filepath.Join(dir, "raw", fmt.Sprintf("%s.attempt-%d.%s", id, attempt, stream))
}

// CreateRaw starts an atomic raw-output file at a RawPath.
func (w *Writer) CreateRaw(rel string) (*AtomicFile, error) {
	if err := CheckWritable(w.BugDir); err != nil {
		return nil, err
	}
	pf, err := w.root.Create(filepath.Join(w.rel, rel), FilePerm, DirPerm)
	if err != nil {
		return nil, outsideError(filepath.Join(w.Dir, rel), err)
	}
	return &AtomicFile{pf: pf, deferred: w.deferSync}, nil
}

// AppendEvent appends one JSON line to the event log, synced to disk when
// sync is set. The log is append-only: a crash can cut its last line
// short, never rewrite it.
func (w *Writer) AppendEvent(line []byte, sync bool) error {
	w.evMu.Lock()
	defer w.evMu.Unlock()
	if w.ev == nil {
		if err := CheckWritable(w.BugDir); err != nil {
			return err
		}
		p := filepath.Join(w.Dir, w.Lang.Names().Events)
		f, err := w.root.Open(filepath.Join(w.rel, w.Lang.Names().Events), unix.O_CREAT|unix.O_RDWR|unix.O_APPEND|unix.O_NONBLOCK, FilePerm)
		if err != nil {
			return outsideError(p, err)
		}
		// a hard link or a FIFO planted as the log is never appended to
		if _, err := safefs.CheckRegular(f); err != nil {
			f.Close()
			return outsideError(p, err)
		}
		// a line torn by a power loss stays alone on its line, so every
		// line appended after it is whole
		if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
			last := make([]byte, 1)
			if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
				if _, err := f.Write([]byte{'\n'}); err != nil {
					f.Close()
					return fmt.Errorf("append %s: %w", p, err)
				}
			}
		}
		w.ev = f
	}
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	if _, err := w.ev.Write(line); err != nil {
		return fmt.Errorf("append %s: %w", w.ev.Name(), err)
	}
	if !sync {
		return nil
	}
	if err := w.ev.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", w.ev.Name(), err)
	}
	return nil
}

// EventsFrom returns the event log's bytes from offset on, read under the
// log's lock, so never a line half appended (none when there is no log).
func (w *Writer) EventsFrom(offset int64) ([]byte, error) {
	w.evMu.Lock()
	defer w.evMu.Unlock()
	f := w.ev
	if f == nil {
		rel := filepath.Join(w.rel, w.Lang.Names().Events)
		g, err := w.root.OpenRegular(rel)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, outsideError(filepath.Join(w.Dir, w.Lang.Names().Events), err)
		}
		defer g.Close()
		f = g
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if fi.Size() <= offset {
		return nil, nil
	}
	buf := make([]byte, fi.Size()-offset)
	if _, err := f.ReadAt(buf, offset); err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return buf, nil
}

// ArchiveDebate moves a bug's finished or cancelled debate/ (or an
// unfinished one run by hand) aside as ArchivePath names it, so a new
// debate can start; it returns the new folder. A finished debate is never
// overwritten, and the archived folder carries no lock file. The move is
// durable when it returns (the bug folder is fsynced).
func ArchiveDebate(bugDir string, startedAt time.Time) (string, error) {
	dst, err := MoveDebateAside(bugDir, startedAt)
	if err != nil || dst == "" {
		return dst, err
	}
	return dst, syncDir(bugDir)
}

// MoveDebateAside is ArchiveDebate without its fsync of the bug folder,
// for a new debate about to be set up there: that debate's
// Writer.WriteProblem fsyncs the bug folder beside problema.md, which makes
// the move and the new debate folder durable at once, before the first
// call. A crash before then leaves either the old debate/ where it was or
// the archive, whole: nothing was reported done yet.
func MoveDebateAside(bugDir string, startedAt time.Time) (string, error) {
	if err := CheckWritable(bugDir); err != nil {
		return "", err
	}
	src := filepath.Join(bugDir, DebateDir)
	dst := ArchivePath(bugDir, startedAt)
	if err := os.Rename(src, dst); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		return "", fmt.Errorf("archive %s: %w", src, err)
	}
	if err := os.Remove(filepath.Join(dst, LockFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("archive %s: %w", dst, err)
	}
	return dst, nil
}

// ArchivePath is where a bug's debate/ goes when a new debate starts:
// debate-<started_at as YYYYMMDDTHHMMSSZ>/ (a date alone is its midnight),
// debate-undated/ for a zero time, numbered -2, -3… when taken.
func ArchivePath(bugDir string, startedAt time.Time) string {
	base := "debate-undated"
	if !startedAt.IsZero() {
		base = "debate-" + startedAt.UTC().Format("20060102T150405Z")
	}
	dst := filepath.Join(bugDir, base)
	for i := 2; exists(dst); i++ {
		dst = filepath.Join(bugDir, fmt.Sprintf("%s-%d", base, i))
	}
	return dst
}

// tightenDir sets rel (beneath the writer's root) and its subfolders down
// to depth levels to DirPerm; a symlink is refused, never followed.
func (w *Writer) tightenDir(rel string, depth int) error {
	name := filepath.Join(w.root.Name(), rel)
	d, err := w.root.Open(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return outsideError(name, err)
	}
	defer d.Close()
	if err := d.Chmod(DirPerm); err != nil {
		return fmt.Errorf("chmod %s: %w", name, err)
	}
	if depth == 0 {
		return nil
	}
	ents, err := d.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	for _, e := range ents {
		if e.IsDir() {
			if err := w.tightenDir(filepath.Join(rel, e.Name()), depth-1); err != nil {
				return err
			}
		}
	}
	return nil
}
