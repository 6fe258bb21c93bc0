// Package diag is seg's one vocabulary of findings. A Code is declared
// once, by the package that owns the rule behind it, with its name, its
// severity and a one-line summary; a Diagnostic is made from a Code, never
// from a bare string and a severity, so a code cannot be misspelt at an
// emit site or carry two severities. docs/codes.md documents every code,
// and a test keeps the two in step.
package diag

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/seg-trace/seg/source"
)

// Severity says whether a diagnostic fails a check.
type Severity uint8

const (
	// Error fails the check.
	Error Severity = iota + 1
	// Warning is shown and, by default, does not fail the check.
	Warning
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "unknown"
}

// Code is one stable, documented code: a diagnostic code (with a
// severity) or a verdict reason code (severity 0). Codes are never renamed.
type Code struct {
	Name     string
	Severity Severity // 0 for a reason code
	Summary  string
	// Blocking is set on a reason code that makes a requirement
	// unsatisfied; the other reason codes are notes in explanations.
	Blocking bool
	// Editor is set on a code only the language server reports (seg check
	// never does, so SARIF's rule table leaves it out).
	Editor bool
}

// DocURL is where every code is documented, each under a heading of its
// own name: a SARIF rule's helpUri and an editor's code link are DocURL
// followed by the code.
const DocURL = "https://github.com/seg-trace/seg/blob/main/docs/codes.md#"

// URL is where c is documented.
func (c *Code) URL() string { return DocURL + c.Name }

func (c *Code) String() string { return c.Name }

// IsReason reports whether c is a verdict reason code.
func (c *Code) IsReason() bool { return c.Severity == 0 }

var (
	mu       sync.Mutex
	registry = map[string]*Code{}
)

func register(c *Code) *Code {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[c.Name]; dup {
		panic("diag: code " + c.Name + " declared twice")
	}
	registry[c.Name] = c
	return c
}

// NewError declares a diagnostic code of severity Error.
func NewError(name, summary string) *Code {
	return register(&Code{Name: name, Severity: Error, Summary: summary})
}

// NewWarning declares a diagnostic code of severity Warning.
func NewWarning(name, summary string) *Code {
	return register(&Code{Name: name, Severity: Warning, Summary: summary})
}

// NewEditor declares a diagnostic code of severity sev that only the
// language server reports.
func NewEditor(name string, sev Severity, summary string) *Code {
	return register(&Code{Name: name, Severity: sev, Summary: summary, Editor: true})
}

// NewReason declares a verdict reason code; blocking says whether it makes
// a requirement unsatisfied (otherwise it is a note).
func NewReason(name, summary string, blocking bool) *Code {
	return register(&Code{Name: name, Summary: summary, Blocking: blocking})
}

// Lookup finds a declared code by name.
func Lookup(name string) (*Code, bool) {
	mu.Lock()
	defer mu.Unlock()
	c, ok := registry[name]
	return c, ok
}

// Codes lists every declared code: diagnostic codes, then reason codes,
// each group sorted by name. Only the codes of packages linked into the
// program are declared.
func Codes() []*Code {
	mu.Lock()
	out := make([]*Code, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	mu.Unlock()
	slices.SortFunc(out, func(a, b *Code) int {
		if a.IsReason() != b.IsReason() {
			if a.IsReason() {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Related is a second place a diagnostic points at, such as the other
// definition of a duplicate ID.
type Related struct {
	Span    source.Span
	Message string
}

// Diagnostic is one finding about the input. Message is the terse
// one-line summary (it already holds any "did you mean"); Detail, when
// set, is full sentences with the remedy.
type Diagnostic struct {
	Code    *Code
	Message string
	Detail  string
	Span    source.Span
	Related []Related
}

// New makes a diagnostic of code c at sp.
func New(c *Code, sp source.Span, format string, args ...any) Diagnostic {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Diagnostic{Code: c, Message: msg, Span: sp}
}

// Severity is the severity of the diagnostic's code.
func (d *Diagnostic) Severity() Severity { return d.Code.Severity }

// Pos is where the diagnostic starts.
func (d *Diagnostic) Pos() source.Pos { return d.Span.Start }

// List is a list of diagnostics.
type List []Diagnostic

// Sort orders the list by file, line, column, code and message, so every
// output lists diagnostics in one order whatever the order in which they
// were found.
func (l List) Sort(fs *source.FileSet) {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		if c := fs.Compare(a.Span.Start, b.Span.Start); c != 0 {
			return c
		}
		if a.Code.Name != b.Code.Name {
			return strings.Compare(a.Code.Name, b.Code.Name)
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for i := range l {
		if l[i].Code.Severity == Error {
			return true
		}
	}
	return false
}
