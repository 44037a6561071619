package envelope

import (
	"fmt"
	"path"
	"strings"
)

// langs maps an extension to its fence's language tag.
var langs = map[string]string{
	".go": "go", ".py": "python", ".js": "javascript", ".jsx": "jsx", ".mjs": "javascript",
	".cjs": "javascript", ".ts": "typescript", ".tsx": "tsx", ".mts": "typescript",
	".cts": "typescript", ".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml",
	".toml": "toml", ".sh": "sh", ".bash": "bash", ".rs": "rust", ".java": "java", ".kt": "kotlin",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".rb": "ruby", ".php": "php",
	".cs": "csharp", ".swift": "swift", ".sql": "sql", ".html": "html", ".css": "css", ".xml": "xml",
}

// Render writes the envelope as the jurors read it (Markdown: contract,
// context, each file whole in a fence, the test checks), deterministic:
// the same envelope gives the same bytes.
func (e *Envelope) Render() string {
	var b strings.Builder
	b.WriteString("# The change under review\n\n## Contract\n\n")
	fmt.Fprintf(&b, "- Intent: %s\n- Pass criteria: %s\n", oneLine(e.Contract.Intent), strings.TrimSpace(e.Contract.Criteria))
	for _, p := range e.Context {
		fmt.Fprintf(&b, "\n## Context: %s\n\n%s\n", oneLine(p.Title), strings.TrimRight(p.Body, "\n"))
	}
	if len(e.Omitted) > 0 {
		b.WriteString("\n## Left out of the envelope\n\n")
		for _, o := range e.Omitted {
			fmt.Fprintf(&b, "- %s\n", oneLine(o))
		}
	}
	fmt.Fprintf(&b, "\n## Files (%d)\n", len(e.Files))
	for _, f := range e.Files {
		renderFile(&b, f)
	}
	if len(e.Tests) > 0 {
		b.WriteString("\n## Test checks moot ran\n\n")
		for _, c := range e.Tests {
			renderCheck(&b, c)
		}
	}
	return b.String()
}

// renderFile writes one file: its heading, then its body whole in a fence
// longer than any backtick run inside it.
func renderFile(b *strings.Builder, f File) {
	role := ""
	if f.Test {
		role = " (test file)"
	}
	switch {
	case f.Deleted:
		fmt.Fprintf(b, "\n### %s%s — deleted by the change\n", f.Path, role)
		return
	case f.Omitted != "":
		fmt.Fprintf(b, "\n### %s%s — %s, not shown\n", f.Path, role, f.Omitted)
		return
	}
	fence := fenceFor(f.Body)
	body := f.Body
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	fmt.Fprintf(b, "\n### %s%s\n\n%s%s\n%s%s\n", f.Path, role, fence, langs[ext(path.Base(f.Path))], body, fence)
}

// renderCheck writes one test check; a detail of several lines goes in a
// fence.
func renderCheck(b *strings.Builder, c TestCheck) {
	state := "FAILED"
	if c.OK {
		state = "passed"
	}
	fmt.Fprintf(b, "- %s: %s", c.Name, state)
	if c.File != "" {
		fmt.Fprintf(b, " (%s)", c.File)
	}
	detail := strings.TrimRight(c.Detail, "\n")
	head, rest, multi := strings.Cut(detail, "\n")
	if head != "" {
		fmt.Fprintf(b, " — %s", head)
	}
	b.WriteString("\n")
	if multi {
		fence := fenceFor(rest)
		fmt.Fprintf(b, "\n  %s\n", fence)
		for _, l := range strings.Split(rest, "\n") {
			fmt.Fprintf(b, "  %s\n", l)
		}
		fmt.Fprintf(b, "  %s\n\n", fence)
	}
}

// fenceFor returns a backtick fence longer than any backtick run in s
// (at least three).
func fenceFor(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
