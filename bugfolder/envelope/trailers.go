package envelope

import (
	"fmt"
	"slices"
	"strings"
)

// builderKeys are the commit trailers that may say who (or what) built a
// change: the co-author line coding agents add ("Co-authored-by: Claude
// <noreply@anthropic.com>"), a sign-off, the keys teams use to name a
// model, and the commit's own author and committer (an agent that commits
// as itself), which BuilderTrailers writes as "Author:" and "Committer:".
var builderKeys = []string{"co-authored-by", "signed-off-by", "built-by", "built-with", "generated-by", "generated-with",
	"assisted-by", "made-with", "model", "ai-model", "builder", "author", "committer"}

// BuilderTrailers returns the values of the range's trailers that may name
// its builder (builderKeys), and each commit's author and committer, in
// commit order, once each; they are read, never shown to a juror (who
// sees no commit message).
func BuilderTrailers(repo, change string) ([]string, error) {
	if change == "" {
		return nil, nil
	}
	a, b, _, err := resolveRange(repo, change)
	if err != nil {
		return nil, err
	}
	out, err := git(repo, "log", "--format=Author: %an <%ae>%nCommitter: %cn <%ce>%n%(trailers:unfold,only)%x00", a+".."+b, "--")
	if err != nil {
		return nil, fmt.Errorf("--change %q: read its commits' trailers: %w", change, err)
	}
	return ParseBuilderTrailers(string(out)), nil
}

// ParseBuilderTrailers reads "Key: value" lines (git's unfolded trailers)
// and returns the values of builderKeys (any case), trimmed, once each in
// the order met. Any other line is ignored.
func ParseBuilderTrailers(text string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' || r == 0 }) {
		key, value, ok := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		if !ok || value == "" || !slices.Contains(builderKeys, strings.ToLower(strings.TrimSpace(key))) {
			continue
		}
		if !slices.Contains(out, value) {
			out = append(out, value)
		}
	}
	return out
}

// TrailerWords are the words of a trailer's value that may name a builder:
// each word of its name (before any "<email>") and, when there is an
// email, its domain's first label ("noreply@anthropic.com": "anthropic").
func TrailerWords(value string) []string {
	name, email := splitPerson(value)
	words := strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '(' || r == ')' || r == '/' })
	if _, domain, ok := strings.Cut(email, "@"); ok {
		if label, _, _ := strings.Cut(domain, "."); label != "" {
			words = append(words, label)
		}
	}
	return words
}
