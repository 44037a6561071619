// Package lazyre holds regular expressions compiled at their first use
// rather than at program start: a package-level regexp.MustCompile costs
// every run of moot (moot version included) its compilation.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use; its methods are
// regexp.Regexp's. It panics at that use if the expression is invalid (as
// regexp.MustCompile would at start), so every one needs a test that uses
// it.
type Regexp struct {
	expr     string
	once     sync.Once
	compiled *regexp.Regexp
}

// New returns the lazily compiled expr. It only records expr: a
// package-level New is laid out by the linker, with no work (not even an
// allocation) at start.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// re is the compiled expression, compiled at the first call.
func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.compiled = regexp.MustCompile(r.expr) })
	return r.compiled
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.re().FindStringSubmatchIndex(s) }

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex.
func (r *Regexp) FindSubmatchIndex(b []byte) []int { return r.re().FindSubmatchIndex(b) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.re().FindAllStringIndex(s, n) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
