// Package harness calls engines: one adapter per kind (vendor CLIs, HTTP
// APIs, any command, recorded replays). It knows how to call an engine and
// classify what happened, not what a debate is.
package harness

import (
	"errors"
	"fmt"
	"github.com/reversa/moot/internal/safefs"
	"math"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/internal/input"
	"github.com/reversa/moot/internal/lazyre"
)

// Kind selects an engine's adapter.
type Kind string

// The engine kinds (docs/engines.md).
const (
	KindCommand   Kind = "command"
	KindCodex     Kind = "codex"
	KindClaude    Kind = "claude"
	KindGemini    Kind = "gemini"
	KindOpencode  Kind = "opencode"
	KindQwen      Kind = "qwen"
	KindOpenAI    Kind = "openai"
	KindAnthropic Kind = "anthropic"
	KindReplay    Kind = "replay"
)

// Kinds lists every kind, in the order help text shows them.
var Kinds = []Kind{KindCommand, KindCodex, KindClaude, KindGemini, KindOpencode, KindQwen, KindOpenAI, KindAnthropic, KindReplay}

// VendorCLI reports whether the kind runs a vendor's coding-agent CLI.
func (k Kind) VendorCLI() bool {
	switch k {
	case KindCodex, KindClaude, KindGemini, KindOpencode, KindQwen:
		return true
	}
	return false
}

// Price is an engine's price per million tokens, in US dollars.
type Price struct {
	InputPerMTok  float64 `json:"input_per_mtok"`
	OutputPerMTok float64 `json:"output_per_mtok"`
	// CacheReadPerMTok is the price of input served from the provider's
	// prompt cache and CacheWritePerMTok of input written to it; 0 is
	// unknown, priced as input (a cache read is never free, and a write
	// costs no less than input).
	CacheReadPerMTok  float64 `json:"cache_read_per_mtok,omitempty"`
	CacheWritePerMTok float64 `json:"cache_write_per_mtok,omitempty"`
}

// Cost prices a call with every input token at the input price: what it
// costs when nothing is cached.
func (p Price) Cost(in, out int) float64 {
	return float64(in)*p.InputPerMTok/1e6 + float64(out)*p.OutputPerMTok/1e6
}

// CostCached prices a call of in input tokens of which read were served
// from the prompt cache and write written to it, at the cache's prices.
func (p Price) CostCached(in, read, write, out int) float64 {
	readP, writeP := p.InputPerMTok, p.InputPerMTok
	if p.CacheReadPerMTok > 0 {
		readP = p.CacheReadPerMTok
	}
	if p.CacheWritePerMTok > 0 {
		writeP = p.CacheWritePerMTok
	}
	read, write = max(read, 0), max(write, 0)
	plain := max(in-read-write, 0)
	return (float64(plain)*p.InputPerMTok + float64(read)*readP + float64(write)*writeP + float64(out)*p.OutputPerMTok) / 1e6
}

// EngineConfig is one named entry of the engines file.
type EngineConfig struct {
	Name            string
	Kind            Kind
	Model           string
	BaseURL         string
	APIKeyEnv       string
	Timeout         time.Duration
	ContextTokens   int
	MaxOutputTokens int
	// Price is nil when the file gives none.
	Price *Price
	// External is the effective setting (declared, or the kind's default).
	External bool
	// ProjectAccess is "none" or "read-only".
	ProjectAccess string
	Parallel      int
	Env           map[string]string
	// EnvPassthrough names the variables of moot's environment a command
	// engine also gets (NAME, or PREFIX* for every name starting so);
	// without it a command engine gets a minimal environment.
	EnvPassthrough []string
	// Command is the argv of a command engine (placeholders unexpanded).
	Command []string
	// Cassette is a replay engine's recording.
	Cassette string
	// FamilyDecl is the family: field as written ("" when absent); Family
	// reads it first.
	FamilyDecl string
	// VerdictEffort is an openai engine's verdict_reasoning_effort: the
	// reasoning_effort sent on a structured-verdict call (a review
	// juror's: Request.ReasoningOff), "" to send none. Opt-in: docs/engines.md
	// verifies no reasoning switch, and a server or model that does not
	// know the field refuses the request.
	VerdictEffort string
	// Line is where the entry starts in the file (0 for built-in engines).
	Line int
}

// Config is a parsed engines file.
type Config struct {
	// Path is the file read ("" for the built-in defaults).
	Path string
	// SHA256 is the hex sha256 of the file's bytes ("" for the defaults):
	// what `moot trust` remembers.
	SHA256  string
	Engines map[string]*EngineConfig
	// Order lists the engine names in file order.
	Order    []string
	Defaults struct {
		Solver string
		Judge  string
	}
	// Lenses are the file's own lenses (lenses: {name: text}), in file
	// order; the lens package checks their names and texts.
	Lenses []LensEntry
	// Review is the file's review: mapping (the tribunal's ladders).
	Review ReviewConfig
	// Budget is the file's budget: cap (zero: no cap); the run's
	// --max-usd and --max-tokens override it.
	Budget Budget
}

// Budget is a debate's spending cap: USD and tokens (in + out, as moot
// records them); a zero field sets no limit.
type Budget struct {
	MaxUSD    float64
	MaxTokens int
}

// Set reports whether the budget caps anything.
func (b Budget) Set() bool { return b.MaxUSD > 0 || b.MaxTokens > 0 }

// LensEntry is one lens of the engines file's lenses: mapping.
type LensEntry struct {
	Name, Text string
	// Line is the entry's line in the file, for messages.
	Line int
}

// Engine returns the named engine, or an error that lists the known ones.
func (c *Config) Engine(name string) (*EngineConfig, error) {
	if e, ok := c.Engines[name]; ok {
		return e, nil
	}
	where := "the built-in engines"
	if c.Path != "" {
		where = c.Path
	}
	return nil, &input.Error{Path: c.Path, Msg: fmt.Sprintf("no engine named %q in %s (known: %s)", name, where, strings.Join(c.Order, ", ")), Err: ErrUnknownEngine}
}

// ErrUnknownEngine is what Engine's error wraps: the name is in no engine
// of the file (a debate started with another engines file, say).
var ErrUnknownEngine = errors.New("unknown engine")

var (
	engineNameRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	envNameRE    = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// FindConfig returns the engines file to use: explicit when given, else
// moot.yaml in the register root, else $XDG_CONFIG_HOME/moot/moot.yaml
// (~/.config when unset). "" means none exists.
func FindConfig(explicit, registerRoot string) string {
	if explicit != "" {
		return explicit
	}
	if registerRoot != "" {
		if p := filepath.Join(registerRoot, "moot.yaml"); present(p) {
			return p // a FIFO or symlink is refused by LoadConfig, not skipped
		}
	}
	return UserConfigPath()
}

// UserConfigPath is the user's own engines file,
// $XDG_CONFIG_HOME/moot/moot.yaml (~/.config when unset), or "" when there
// is none.
func UserConfigPath() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		if h, err := os.UserHomeDir(); err == nil {
			base = filepath.Join(h, ".config")
		}
	}
	if base != "" {
		if p := filepath.Join(base, "moot", "moot.yaml"); present(p) {
			// the user's own file may be a symlink (dotfiles): it is trusted
			if real, err := filepath.EvalSymlinks(p); err == nil {
				return real
			}
			return p
		}
	}
	return ""
}

// present reports whether anything (a file, a FIFO, a symlink) is at p.
func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// MaxConfigBytes is the largest engines file moot reads.
const MaxConfigBytes = 256 << 10

// LoadConfig reads and validates an engines file.
func LoadConfig(path string) (*Config, error) {
	raw, err := safefs.ReadFile(path, MaxConfigBytes)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &input.Error{Path: path, Msg: "does not exist; pass an existing engines file to --config", Err: err}
		}
		if errors.Is(err, safefs.ErrTooLarge) || errors.Is(err, safefs.ErrNotRegular) || errors.Is(err, safefs.ErrLinked) {
			return nil, &input.Error{Path: path, Msg: fmt.Sprintf("is refused (%v); an engines file is a regular file of at most %d KiB", err, MaxConfigBytes>>10), Err: err}
		}
		return nil, &input.Error{Path: path, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	c, err := ParseConfig(path, raw)
	if err != nil {
		return nil, err
	}
	c.SHA256 = sha256Hex(raw)
	return c, nil
}

// cfgErr is an engines-file error at a line, naming the field.
func cfgErr(path string, n *yaml.Node, field, format string, args ...any) error {
	p := path
	if n != nil && n.Line > 0 {
		p = fmt.Sprintf("%s:%d", path, n.Line)
	}
	return &input.Error{Path: p, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ParseConfig parses an engines file's bytes; path is used in messages.
func ParseConfig(path string, raw []byte) (*Config, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(input.NormalizeText(raw)), &root); err != nil {
		return nil, &input.Error{Path: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
	}
	if key, line, dup := input.DuplicateKey(&root); dup {
		return nil, &input.Error{Path: fmt.Sprintf("%s:%d", path, line), Field: key, Msg: "is set twice in one mapping: YAML keeps only the last, so the file would not mean what it says; keep one"}
	}
	c := &Config{Path: path, Engines: map[string]*EngineConfig{}}
	if len(root.Content) == 0 {
		return nil, &input.Error{Path: path, Msg: "is empty; it needs an engines: mapping (see moot help engines)"}
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, cfgErr(path, top, "", "the file must be a mapping with engines: and defaults:")
	}
	var enginesNode, defaultsNode, lensesNode, reviewNode, budgetNode *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "engines":
			enginesNode = v
		case "defaults":
			defaultsNode = v
		case "lenses":
			lensesNode = v
		case "review":
			reviewNode = v
		case "budget":
			budgetNode = v
		default:
			return nil, cfgErr(path, k, k.Value, "unknown key; the file has engines:, defaults:, lenses:, review: and budget:")
		}
	}
	if enginesNode == nil || enginesNode.Kind != yaml.MappingNode || len(enginesNode.Content) == 0 {
		return nil, cfgErr(path, enginesNode, "engines", "needs at least one named engine (engines: {local: {kind: openai, …}})")
	}
	for i := 0; i+1 < len(enginesNode.Content); i += 2 {
		k, v := enginesNode.Content[i], enginesNode.Content[i+1]
		name := k.Value
		if !engineNameRE.MatchString(name) {
			return nil, cfgErr(path, k, "engines."+name, "an engine name uses letters, digits, '.', '_' and '-' only")
		}
		if _, dup := c.Engines[name]; dup {
			return nil, cfgErr(path, k, "engines."+name, "defined twice")
		}
		e, err := parseEngine(path, name, v)
		if err != nil {
			return nil, err
		}
		e.Line = k.Line
		c.Engines[name] = e
		c.Order = append(c.Order, name)
		rememberSecrets(e)
	}
	if defaultsNode != nil {
		if defaultsNode.Kind != yaml.MappingNode {
			return nil, cfgErr(path, defaultsNode, "defaults", "must be a mapping (defaults: {solver: NAME, judge: NAME})")
		}
		for i := 0; i+1 < len(defaultsNode.Content); i += 2 {
			k, v := defaultsNode.Content[i], defaultsNode.Content[i+1]
			field := "defaults." + k.Value
			if v.Kind != yaml.ScalarNode {
				return nil, cfgErr(path, v, field, "must be an engine name")
			}
			if _, ok := c.Engines[v.Value]; !ok {
				return nil, cfgErr(path, v, field, "names %q, which is not defined under engines: (known: %s)", v.Value, strings.Join(c.Order, ", "))
			}
			switch k.Value {
			case "solver":
				c.Defaults.Solver = v.Value
			case "judge":
				c.Defaults.Judge = v.Value
			default:
				return nil, cfgErr(path, k, field, "unknown key; defaults has solver: and judge:")
			}
		}
	}
	lenses, err := parseLenses(path, lensesNode)
	if err != nil {
		return nil, err
	}
	c.Lenses = lenses
	if c.Review, err = parseReview(path, reviewNode, c); err != nil {
		return nil, err
	}
	if c.Budget, err = parseBudget(path, budgetNode); err != nil {
		return nil, err
	}
	return c, nil
}

// parseBudget reads budget: {max_usd: FLOAT, max_tokens: INT}; each is
// positive when set.
func parseBudget(path string, n *yaml.Node) (Budget, error) {
	var b Budget
	if n == nil {
		return b, nil
	}
	if n.Kind != yaml.MappingNode {
		return b, cfgErr(path, n, "budget", "must be a mapping (budget: {max_usd: 2.50, max_tokens: 400000})")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := "budget." + k.Value
		if v.Kind != yaml.ScalarNode {
			return b, cfgErr(path, v, field, "must be a number")
		}
		switch k.Value {
		case "max_usd":
			f, err := strconv.ParseFloat(v.Value, 64)
			if err != nil || !(f > 0) || math.IsInf(f, 0) {
				return b, cfgErr(path, v, field, "must be a positive amount of dollars (max_usd: 2.50), not %q", v.Value)
			}
			b.MaxUSD = f
		case "max_tokens":
			t, err := strconv.Atoi(v.Value)
			if err != nil || t <= 0 {
				return b, cfgErr(path, v, field, "must be a positive whole number of tokens (max_tokens: 400000), not %q", v.Value)
			}
			b.MaxTokens = t
		default:
			return b, cfgErr(path, k, field, "unknown key; budget has max_usd: and max_tokens:")
		}
	}
	return b, nil
}

// parseLenses reads the lenses: mapping (name: text, each a single value).
func parseLenses(path string, n *yaml.Node) ([]LensEntry, error) {
	if n == nil {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, cfgErr(path, n, "lenses", "must be a mapping of lens names to their texts (lenses: {cfo: \"unit economics, conservative on risk\"})")
	}
	var out []LensEntry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return nil, cfgErr(path, v, "lenses."+k.Value, "must be the lens's text, a single value")
		}
		out = append(out, LensEntry{Name: k.Value, Text: v.Value, Line: k.Line})
	}
	return out, nil
}

var engineFields = []string{"kind", "model", "base_url", "api_key_env", "timeout", "context_tokens", "max_output_tokens", "price", "external", "project_access", "parallel", "env", "env_passthrough", "command", "cassette", "family", "verdict_reasoning_effort"}

func parseEngine(path, name string, n *yaml.Node) (*EngineConfig, error) {
	pre := "engines." + name
	if n.Kind != yaml.MappingNode {
		return nil, cfgErr(path, n, pre, "must be a mapping with at least kind:")
	}
	e := &EngineConfig{Name: name, ProjectAccess: "none"}
	fields := map[string]*yaml.Node{}
	keyLine := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		known := false
		for _, f := range engineFields {
			if f == k.Value {
				known = true
			}
		}
		if !known {
			return nil, cfgErr(path, k, pre+"."+k.Value, "unknown field (an engine may have: %s)", strings.Join(engineFields, ", "))
		}
		fields[k.Value] = v
		keyLine[k.Value] = k
	}
	str := func(f string) (string, error) {
		v := fields[f]
		if v == nil {
			return "", nil
		}
		if v.Kind != yaml.ScalarNode {
			return "", cfgErr(path, v, pre+"."+f, "must be a single value")
		}
		return strings.TrimSpace(v.Value), nil
	}
	num := func(f string) (int, error) {
		s, err := str(f)
		if err != nil || s == "" {
			return 0, err
		}
		x, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
		if err != nil || x < 0 {
			return 0, cfgErr(path, fields[f], pre+"."+f, "%q is not a whole number ≥ 0", s)
		}
		return x, nil
	}
	kind, err := str("kind")
	if err != nil {
		return nil, err
	}
	if kind == "" {
		return nil, cfgErr(path, n, pre+".kind", "missing; set one of %s", kindList())
	}
	e.Kind = Kind(kind)
	valid := false
	for _, k := range Kinds {
		if k == e.Kind {
			valid = true
		}
	}
	if !valid {
		return nil, cfgErr(path, fields["kind"], pre+".kind", "%q is not a kind moot knows; use one of %s", kind, kindList())
	}
	if e.Model, err = str("model"); err != nil {
		return nil, err
	}
	if e.BaseURL, err = str("base_url"); err != nil {
		return nil, err
	}
	if e.BaseURL != "" {
		u, perr := url.Parse(e.BaseURL)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, cfgErr(path, fields["base_url"], pre+".base_url", "%q is not an http(s) URL (e.g. http://127.0.0.1:11434/v1)", e.BaseURL)
		}
	}
	if e.APIKeyEnv, err = str("api_key_env"); err != nil {
		return nil, err
	}
	if e.APIKeyEnv != "" && !envNameRE.MatchString(e.APIKeyEnv) {
		return nil, cfgErr(path, fields["api_key_env"], pre+".api_key_env", "%q is not an environment variable name; give the variable's NAME (e.g. OPENAI_API_KEY), never the key itself", e.APIKeyEnv)
	}
	if s, err := str("timeout"); err != nil {
		return nil, err
	} else if s != "" {
		d, perr := time.ParseDuration(s)
		if perr != nil || d <= 0 {
			return nil, cfgErr(path, fields["timeout"], pre+".timeout", "%q is not a positive duration (use e.g. 90s, 2m, 1h)", s)
		}
		e.Timeout = d
	}
	if e.ContextTokens, err = num("context_tokens"); err != nil {
		return nil, err
	}
	if e.MaxOutputTokens, err = num("max_output_tokens"); err != nil {
		return nil, err
	}
	if e.Parallel, err = num("parallel"); err != nil {
		return nil, err
	}
	if pn := fields["price"]; pn != nil {
		if pn.Kind != yaml.MappingNode {
			return nil, cfgErr(path, pn, pre+".price", "must be a mapping {input_per_mtok: N, output_per_mtok: N} (and optionally cache_read_per_mtok, cache_write_per_mtok)")
		}
		p := &Price{}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			k, v := pn.Content[i], pn.Content[i+1]
			f, perr := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
			if v.Kind != yaml.ScalarNode || perr != nil || f < 0 {
				return nil, cfgErr(path, v, pre+".price."+k.Value, "%q is not a price ≥ 0 in US dollars per million tokens", v.Value)
			}
			switch k.Value {
			case "input_per_mtok":
				p.InputPerMTok = f
			case "output_per_mtok":
				p.OutputPerMTok = f
			case "cache_read_per_mtok":
				p.CacheReadPerMTok = f
			case "cache_write_per_mtok":
				p.CacheWritePerMTok = f
			default:
				return nil, cfgErr(path, k, pre+".price."+k.Value, "unknown field; price has input_per_mtok, output_per_mtok, cache_read_per_mtok and cache_write_per_mtok")
			}
		}
		e.Price = p
	}
	if s, err := str("project_access"); err != nil {
		return nil, err
	} else if s != "" {
		switch s {
		case "none":
		case "read-only":
			if e.Kind != KindCodex {
				return nil, cfgErr(path, fields["project_access"], pre+".project_access", "read-only project access needs a read-only mode moot can verify, and only kind codex has one (its OS sandbox); use none")
			}
		default:
			return nil, cfgErr(path, fields["project_access"], pre+".project_access", "%q is not none or read-only", s)
		}
		e.ProjectAccess = s
	}
	if en := fields["env"]; en != nil {
		if en.Kind != yaml.MappingNode {
			return nil, cfgErr(path, en, pre+".env", "must be a mapping of VARIABLE: value")
		}
		e.Env = map[string]string{}
		for i := 0; i+1 < len(en.Content); i += 2 {
			k, v := en.Content[i], en.Content[i+1]
			if !envNameRE.MatchString(k.Value) || v.Kind != yaml.ScalarNode {
				return nil, cfgErr(path, k, pre+".env."+k.Value, "must be VARIABLE: value")
			}
			e.Env[k.Value] = v.Value
		}
	}
	if cn := fields["command"]; cn != nil {
		if cn.Kind != yaml.SequenceNode || len(cn.Content) == 0 {
			return nil, cfgErr(path, cn, pre+".command", "must be a list: [\"./my-llm\", \"--role\", \"{role}\"]")
		}
		for _, a := range cn.Content {
			if a.Kind != yaml.ScalarNode {
				return nil, cfgErr(path, a, pre+".command", "every argument must be a string")
			}
			e.Command = append(e.Command, a.Value)
		}
	}
	if e.Cassette, err = str("cassette"); err != nil {
		return nil, err
	}
	if e.VerdictEffort, err = str("verdict_reasoning_effort"); err != nil {
		return nil, err
	}
	if e.VerdictEffort != "" && (e.Kind != KindOpenAI || !familyRE.MatchString(e.VerdictEffort)) {
		return nil, cfgErr(path, fields["verdict_reasoning_effort"], pre+".verdict_reasoning_effort", "is for openai engines only, one word (none, minimal, low): the reasoning_effort a review juror's call sends")
	}
	if e.FamilyDecl, err = str("family"); err != nil {
		return nil, err
	}
	if e.FamilyDecl != "" && !familyRE.MatchString(e.FamilyDecl) {
		return nil, cfgErr(path, fields["family"], pre+".family", "%q is not a family name: one word of lower-case letters, digits and '-' naming the vendor (anthropic, openai, google, alibaba, meta, mistral…)", e.FamilyDecl)
	}
	e.FamilyDecl = strings.ToLower(e.FamilyDecl)
	if v := e.VendorFamily(); e.FamilyDecl != "" && canonicalFamily(e.FamilyDecl) != v && v != "" {
		return nil, cfgErr(path, fields["family"], pre+".family", "is %q, but a %s engine%s is of family %s whatever its file says (a builder could otherwise judge its own work): drop family:, or set it to %s; family: is for command and openai engines", e.FamilyDecl, e.Kind, modelNote(e), v, v)
	}
	if pt := fields["env_passthrough"]; pt != nil {
		if pt.Kind != yaml.SequenceNode {
			return nil, cfgErr(path, pt, pre+".env_passthrough", "must be a list of variable names ([AWS_PROFILE, \"MY_*\"])")
		}
		for _, v := range pt.Content {
			if v.Kind != yaml.ScalarNode || !envNameRE.MatchString(strings.TrimSuffix(v.Value, "*")) {
				return nil, cfgErr(path, v, pre+".env_passthrough", "%q is not a variable name (NAME or PREFIX*)", v.Value)
			}
			e.EnvPassthrough = append(e.EnvPassthrough, v.Value)
		}
		if e.Kind != KindCommand {
			return nil, cfgErr(path, pt, pre+".env_passthrough", "only a command engine takes env_passthrough: (the other kinds get a fixed minimal environment)")
		}
	}
	switch e.Kind {
	case KindCommand:
		if len(e.Command) == 0 {
			return nil, cfgErr(path, n, pre+".command", "missing; a command engine needs command: [\"./program\", \"args\"…]")
		}
	case KindReplay:
		if e.Cassette == "" {
			return nil, cfgErr(path, n, pre+".cassette", "missing; a replay engine needs cassette: path/to/cassette.yaml")
		}
	default:
		if len(e.Command) > 0 {
			return nil, cfgErr(path, fields["command"], pre+".command", "only a command engine takes command:")
		}
	}
	if e.Cassette != "" && e.Kind != KindReplay {
		return nil, cfgErr(path, fields["cassette"], pre+".cassette", "only a replay engine takes cassette:")
	}
	e.External = DefaultExternal(e.Kind, e.BaseURL)
	if s, err := str("external"); err != nil {
		return nil, err
	} else if s != "" {
		b, perr := strconv.ParseBool(s)
		if perr != nil {
			return nil, cfgErr(path, fields["external"], pre+".external", "%q is not true or false", s)
		}
		if !b && e.External && (e.Kind.VendorCLI() || e.Kind == KindAnthropic) && !IsLoopback(e.BaseURL) ||
			!b && e.Kind == KindOpenAI && e.BaseURL != "" && !IsLoopback(e.BaseURL) {
			return nil, cfgErr(path, fields["external"], pre+".external", "a %s engine sends the bug off this machine (to the vendor's service or a non-loopback base_url), so it is external; only a loopback base_url makes it local", e.Kind)
		}
		e.External = b
	}
	return e, nil
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// DefaultExternal is whether a kind counts as external when the file does
// not say: command and the vendor kinds are; openai only when its host is
// not loopback; replay never.
func DefaultExternal(k Kind, baseURL string) bool {
	switch k {
	case KindReplay:
		return false
	case KindOpenAI:
		if baseURL == "" {
			return false // Ollama's default address on this machine
		}
		return !IsLoopback(baseURL)
	}
	return true
}

// IsLoopback reports whether a URL's host is this machine.
func IsLoopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Names lists the configured engine names, sorted.
func (c *Config) Names() []string {
	out := append([]string(nil), c.Order...)
	sort.Strings(out)
	return out
}

// DefaultOllamaURL is the address of the built-in local engine.
const DefaultOllamaURL = "http://127.0.0.1:11434/v1"

// BuiltinConfig is the configuration used without an engines file: the
// local OpenAI-compatible engine at Ollama's default address, plus an
// engine for every vendor CLI found on PATH (named after its kind, with the
// vendor's default model). Whether each passes its probe is checked where
// they are offered.
func BuiltinConfig() *Config {
	c := &Config{Engines: map[string]*EngineConfig{}}
	c.Engines["local"] = &EngineConfig{Name: "local", Kind: KindOpenAI, BaseURL: DefaultOllamaURL, ProjectAccess: "none"}
	c.Order = []string{"local"}
	for _, k := range Kinds {
		spec, ok := specs[k]
		if !ok {
			continue
		}
		if _, err := exec.LookPath(spec.bin); err != nil {
			continue
		}
		c.Engines[string(k)] = &EngineConfig{Name: string(k), Kind: k, ProjectAccess: "none", External: true}
		c.Order = append(c.Order, string(k))
	}
	c.Defaults.Solver = "local"
	c.Defaults.Judge = "local"
	return c
}

// modelNote names an opencode engine's model in a message (its family
// comes from it).
func modelNote(e *EngineConfig) string {
	if e.Kind == KindOpencode {
		return fmt.Sprintf(" serving %q", e.Model)
	}
	return ""
}
