// Package lazyre holds regular expressions compiled when first used.
//
// seg's packages declare some forty expressions at package level, and
// a run uses few of them: a check served from the result cache uses
// none. Compiled in package initialisation, they cost every process
// its start-up time (docs/performance.md, "Process start"). A Regexp
// has the methods of *regexp.Regexp that seg calls; an expression that
// does not compile panics on first use, as regexp.MustCompile does at
// start-up, and TestEveryExpressionCompiles (internal/testing) compiles
// every one the tree declares.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Like
// *regexp.Regexp it is safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled when first used.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get is the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String is the expression's source text.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool              { return r.Get().MatchString(s) }
func (r *Regexp) FindString(s string) string             { return r.Get().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int         { return r.Get().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string   { return r.Get().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.Get().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string { return r.Get().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Get().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Get().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Get().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Get().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, f func(string) string) string {
	return r.Get().ReplaceAllStringFunc(src, f)
}
func (r *Regexp) Split(s string, n int) []string       { return r.Get().Split(s, n) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.Get().FindSubmatch(b) }
func (r *Regexp) Match(b []byte) bool                  { return r.Get().Match(b) }
func (r *Regexp) FindIndex(b []byte) []int             { return r.Get().FindIndex(b) }
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Get().FindAllIndex(b, n) }
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Get().FindAllSubmatchIndex(b, n)
}
