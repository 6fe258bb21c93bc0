package parser

import (
	"sort"
)

// Severity says whether a diagnostic fails the check.
type Severity uint8

const (
	Error Severity = iota + 1
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

// Related is a second place a diagnostic points at, such as the other
// definition of a duplicate ID.
type Related struct {
	Span    Span
	Message string
}

// Diagnostic is one finding about the input. Code is stable and documented
// (docs/codes.md); Message is the terse one-line summary (it already holds
// any "did you mean" hint); Detail, when set, is full sentences with the
// remedy.
type Diagnostic struct {
	Severity Severity
	Code     string
	Message  string
	Detail   string
	Span     Span
	Related  []Related
}

// Diagnostics is a list of diagnostics that sorts by position.
type Diagnostics []Diagnostic

// Sort orders the list by file, line, column, code and message, so every
// output format lists diagnostics in the same order whatever the order in
// which they were found.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Span.Start, ds[j].Span.Start
		if a != b {
			return a.Before(b)
		}
		if ds[i].Code != ds[j].Code {
			return ds[i].Code < ds[j].Code
		}
		return ds[i].Message < ds[j].Message
	})
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}
