package engine

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/lazyre"
)

// Nonce returns a fresh random marker code for fencing untrusted text.
func Nonce() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
	return hex.EncodeToString(b)
}

// nonceRE matches a marker code as Nonce writes it.
var nonceRE = lazyre.New(`[0-9a-f]{24}`)

// sameBesidesNonce reports whether two prompts are the same text but for
// their fresh marker codes (each prompt fences its proposals anew).
func sameBesidesNonce(a, b string) bool {
	return len(a) == len(b) && nonceRE.ReplaceAllString(a, "") == nonceRE.ReplaceAllString(b, "")
}

// Proposal is one anonymized final proposal as the judge sees it.
type Proposal struct {
	// Label is the letter ("A").
	Label string
	// SolverID is who wrote it; it never reaches the judge's prompt.
	SolverID string
	// Body is the anonymized body.
	Body string
	// Original is the body as its author wrote it; it never reaches the
	// judge's prompt (a human winner's synthesis quotes it).
	Original string
	// SHA256 is the digest of Body, which fixes the order.
	SHA256 string
}

// Anonymizer removes who wrote a proposal: participant ids (in every form
// a model uses: agente-2, "Agent #2", "debatedor 2"), model ids and
// distinctive engine names are replaced by neutral words. Ordinary prose
// is never altered: an engine named like a plain word is left as written.
type Anonymizer struct {
	re   *regexp.Regexp
	lang bugfolder.Lang
}

// AnonymizeMode says what an Anonymizer replaces.
type AnonymizeMode int

const (
	// HideAll replaces participant ids and engine and model names (the
	// judge's view).
	HideAll AnonymizeMode = iota
	// KeepIDs replaces engine and model names only: debaters see each
	// other as agente-i, never by engine.
	KeepIDs
)

// participantRE matches a participant named by id, in the forms a model
// uses for itself or a peer, in either language: agente-2, agent_2,
// "Agent #2", "agente #2", "agente nº 2", "agent no. 3", solver-2,
// critic-1, "debatedor 2", "debater no. 3". A bare "agente 2" is left
// alone: it is as likely ordinary prose ("um agente 2 vezes mais lento")
// as a name, and so is "agente no 2º dia" (Portuguese "no" is "in the"):
// an agent's "no" counts only with its dot.
const participantRE = `(?:(?:agente|agent|solver|critic|cr[ií]tico)(?:[-_]|\s?#\s?|\s+(?:n[º°]|no\.)\s*)|(?:debatedora?|debater)(?:[-_ ]?#?\s?|\s+n[º°o]?\.?\s*))\d+`

var debaterID = lazyre.New(`(?i)^` + participantRE + `$`)

// commonWords are ordinary English and Portuguese words likely to be used
// as engine or model names; a name among them cannot be hidden without
// altering prose. Vendor and model-family names (codex, claude, qwen,
// mistral…) and invented names are not ordinary words, and are hidden.
// Built on first use: a map filled at initialisation is paid by every
// start of the binary, `moot version` included.
var commonWords = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(`local default fast faster slow main test testing model big small
		mini tiny large medium cheap smart best good new old prod dev primary secondary backup fallback
		remote cloud home work server api cli agent judge solver critic base pro plus max turbo lite
		free open one two three first second third auto standard basic simple quick strong weak
		red blue green black white gold silver dark light reader writer helper assistant engine
		alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron sigma tau upsilon phi
		chi psi omega
		rapido rápido lento principal padrao padrão modelo teste grande pequeno barato novo velho
		casa servidor juiz agente crítico critico forte fraco simples básico basico leitor`) {
		set[w] = true
	}
	return set
})

var plainWord = lazyre.New(`^\p{L}+$`)

// Distinctive reports whether an engine or model name can be hidden
// without altering prose: a name shorter than 3 letters ("cx") or an
// ordinary word ("local", "omega", "fast") cannot; a vendor or model-family
// name ("claude", "qwen"), an invented word ("zorbatron") or a name with a
// digit or a separator ("zeta-engine", "qwen3:8b") can.
func Distinctive(name string) bool {
	name = strings.TrimSpace(name)
	if len([]rune(name)) < 3 {
		return false
	}
	return !plainWord.MatchString(name) || !commonWords()[strings.ToLower(name)]
}

// NewAnonymizer builds an anonymizer for the given engine and model names
// (plain-word names are skipped: see Distinctive); with HideAll,
// participant ids go too.
func NewAnonymizer(l bugfolder.Lang, names []string, mode AnonymizeMode) *Anonymizer {
	var alts []string
	if mode == HideAll {
		alts = append(alts, participantRE)
	}
	seen := map[string]bool{}
	names = slices.Clone(names)
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !Distinctive(n) || seen[strings.ToLower(n)] {
			continue
		}
		seen[strings.ToLower(n)] = true
		alts = append(alts, regexp.QuoteMeta(n))
	}
	if len(alts) == 0 {
		return &Anonymizer{lang: l}
	}
	re := regexp.MustCompile(`(?i)(?:^|\b)(?:` + strings.Join(alts, "|") + `)(?:\b|$)`)
	return &Anonymizer{re: re, lang: l}
}

// Apply replaces every mention in text.
func (a *Anonymizer) Apply(text string) string {
	if a.re == nil {
		return text
	}
	debater, model := "[debatedor]", "[modelo]"
	if a.lang == bugfolder.EN {
		debater, model = "[debater]", "[model]"
	}
	return a.re.ReplaceAllStringFunc(text, func(m string) string {
		if debaterID.MatchString(m) {
			return debater
		}
		return model
	})
}

// Label assigns labels to proposals: each body is anonymized, the
// proposals are ordered by the sha256 of their anonymized content, and
// lettered A, B, C….
func Label(a *Anonymizer, bodies map[string]string) []Proposal {
	var ps []Proposal
	for id, body := range bodies {
		anon := strings.TrimSpace(a.Apply(body)) + "\n"
		sum := sha256.Sum256([]byte(anon))
		ps = append(ps, Proposal{SolverID: id, Body: anon, Original: body, SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].SHA256 != ps[j].SHA256 {
			return ps[i].SHA256 < ps[j].SHA256
		}
		return ps[i].SolverID < ps[j].SolverID
	})
	for i := range ps {
		ps[i].Label = string(rune('A' + i))
	}
	return ps
}
