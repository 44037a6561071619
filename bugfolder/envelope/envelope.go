// Package envelope is a PLACEHOLDER of r16a's envelope API (api16.md): the
// types and signatures are the seam's, the bodies are the simplest that
// work, so the tribunal (protocol/review) builds against the API. The lead
// replaces this package with r16a's.
package envelope

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Contract is the change's intent in one line and its pass criteria.
type Contract struct{ Intent, Criteria string }

// ParseContract reads --contract "intent | pass criteria" (error names the flag when either side is empty).
func ParseContract(s string) (Contract, error) {
	intent, criteria, _ := strings.Cut(s, "|")
	c := Contract{Intent: strings.TrimSpace(intent), Criteria: strings.TrimSpace(criteria)}
	if c.Intent == "" || c.Criteria == "" {
		return Contract{}, fmt.Errorf("--contract %q: give \"intent | pass criteria\", both sides non-empty", s)
	}
	return c, nil
}

// File is one file the jurors read whole.
type File struct {
	Path string // repo-relative, slash-separated
	Body string
	Test bool // a test file of a touched file (found by naming convention), not itself touched
}

// Part is context that joins the contract on a bug (the bug's P summary, the debate's final answer).
type Part struct{ Title, Body string }

// TestCheck is one check moot ran itself (--test-cmd / --red).
type TestCheck struct {
	Name   string
	OK     bool
	Detail string
	File   string
}

// Envelope is everything a juror sees, nothing else.
type Envelope struct {
	Contract Contract
	Files    []File
	Context  []Part
	Tests    []TestCheck
}

// Source says where the change is.
type Source struct {
	Repo     string
	Change   string
	Files    []string
	Contract Contract
	Context  []Part
}

// Build assembles the envelope from the current files on disk.
func Build(src Source) (*Envelope, error) {
	paths := src.Files
	if src.Change != "" {
		out, err := exec.Command("git", "-C", src.Repo, "diff", "--name-only", src.Change).Output()
		if err != nil {
			return nil, fmt.Errorf("git diff --name-only %s: %w", src.Change, err)
		}
		paths = strings.Fields(string(out))
	}
	e := &Envelope{Contract: src.Contract, Context: src.Context}
	seen := map[string]bool{}
	for _, p := range paths {
		rel := p
		if filepath.IsAbs(p) {
			r, err := filepath.Rel(src.Repo, p)
			if err != nil {
				return nil, err
			}
			rel = r
		}
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		b, err := os.ReadFile(filepath.Join(src.Repo, rel))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
		e.Files = append(e.Files, File{Path: rel, Body: string(b)})
	}
	sort.Slice(e.Files, func(i, j int) bool { return e.Files[i].Path < e.Files[j].Path })
	return e, nil
}

// Identities returns the identity strings git knows in the range.
func Identities(repo, change string) ([]string, error) {
	if change == "" {
		return nil, nil
	}
	out, err := exec.Command("git", "-C", repo, "log", "--format=%an%n%ae%n%cn%n%ce", change).Output()
	if err != nil {
		return nil, fmt.Errorf("git log %s: %w", change, err)
	}
	var ids []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			ids = append(ids, l)
		}
	}
	return ids, nil
}

// Leak is one identity found in the envelope.
type Leak struct {
	File string
	Line int
	What string
}

var trailerRE = regexp.MustCompile(`(?i)(co-authored-by|signed-off-by):`)

// Scan finds each of ids in the envelope (case-insensitive substring).
func Scan(e *Envelope, ids []string) []Leak {
	var out []Leak
	for _, f := range e.Files {
		for i, line := range strings.Split(f.Body, "\n") {
			low := strings.ToLower(line)
			for _, id := range ids {
				if id != "" && strings.Contains(low, strings.ToLower(id)) {
					out = append(out, Leak{File: f.Path, Line: i + 1, What: id})
				}
			}
			if m := trailerRE.FindString(line); m != "" {
				out = append(out, Leak{File: f.Path, Line: i + 1, What: m})
			}
		}
	}
	return out
}

// LeakError is returned by the caller when Scan finds leaks.
type LeakError struct{ Leaks []Leak }

func (l *LeakError) Error() string {
	var parts []string
	for _, k := range l.Leaks {
		parts = append(parts, fmt.Sprintf("%s:%d %q", k.File, k.Line, k.What))
	}
	return "the envelope would leak identity (" + strings.Join(parts, "; ") + "); remove it from the files and run again"
}

// Render writes the envelope as the jurors read it.
func (e *Envelope) Render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Contract\n\nIntent: %s\n\nPass criteria: %s\n", e.Contract.Intent, e.Contract.Criteria)
	for _, p := range e.Context {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", p.Title, p.Body)
	}
	for _, f := range e.Files {
		fmt.Fprintf(&b, "\n## File %s\n\n````\n%s\n````\n", f.Path, f.Body)
	}
	if len(e.Tests) > 0 {
		b.WriteString("\n## Test checks\n\n")
		for _, t := range e.Tests {
			fmt.Fprintf(&b, "- %s: %v %s\n", t.Name, t.OK, t.Detail)
		}
	}
	return b.String()
}
