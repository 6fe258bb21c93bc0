// Package report renders one evaluation (diagnostics, verdicts, the graph)
// in every output format. All formats read the same Check value, so they
// cannot disagree, and none of them probes the terminal: the caller says
// whether to color.
package report

import (
	"time"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
)

// Check is everything one run of seg found.
type Check struct {
	At          time.Time
	Graph       *graph.Graph
	Result      *evaluate.Result
	Diagnostics parser.Diagnostics // every stage's, sorted by position
	// Source returns a file's bytes for source snippets (nil when it cannot
	// be read); the path is relative to the root.
	Source func(path string) []byte
	// Unmatched lists result-file test cases no specification claims.
	Unmatched []UnmatchedCase
	// Only, when set, narrows the requirements listed and counted (seg
	// check FILE...); verdicts still come from the whole graph.
	Only func(Requirement) bool
}

// UnmatchedCase is a test case from a results file that no test
// specification's :cases: matches.
type UnmatchedCase struct {
	Name   string     `json:"name"`
	Result string     `json:"result"`
	Pos    parser.Pos `json:"-"`
}

// Counts sums up a check.
type Counts struct {
	Requirements, Satisfied, Unsatisfied, Errors, Warnings int
}

// Counts returns the figures of the summary line.
func (c *Check) Counts() Counts {
	var n Counts
	for _, r := range c.Requirements() {
		if r.Verdict.Satisfied {
			n.Satisfied++
		} else {
			n.Unsatisfied++
		}
	}
	n.Requirements = n.Satisfied + n.Unsatisfied
	for _, d := range c.Diagnostics {
		switch d.Severity {
		case parser.Error:
			n.Errors++
		case parser.Warning:
			n.Warnings++
		}
	}
	return n
}

// Failed reports whether the check fails (exit code 1).
func (c *Check) Failed() bool {
	n := c.Counts()
	return n.Errors > 0 || n.Unsatisfied > 0
}

// Requirement pairs a requirement node with its verdict.
type Requirement struct {
	Node    *graph.Node
	Verdict evaluate.Verdict
}

// Requirements lists every requirement with its verdict, in ID order.
func (c *Check) Requirements() []Requirement {
	out := make([]Requirement, 0, len(c.Result.Verdicts))
	for _, v := range c.Result.Verdicts {
		n, _ := c.Graph.Lookup(v.ID)
		r := Requirement{Node: n, Verdict: v}
		if c.Only == nil || c.Only(r) {
			out = append(out, r)
		}
	}
	return out
}

// Date formats an evaluation date.
func Date(t time.Time) string { return t.Format(time.DateOnly) }
