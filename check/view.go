package check

import (
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/source"
)

// Requirements lists every requirement with its verdict, in ID order; a
// narrowed check (Narrow) lists only those in its scope.
func (c *Check) Requirements() []Requirement {
	out := make([]Requirement, 0, len(c.Result.Verdicts))
	for i, v := range c.Result.Verdicts {
		r := Requirement{Node: c.Result.VerdictNode(c.Graph, i), Verdict: v}
		if c.only == nil || c.only(r) {
			out = append(out, r)
		}
	}
	return out
}

// Counts returns the figures of the summary line, over what the check
// shows.
func (c *Check) Counts() Counts {
	var n Counts
	for i := range c.Result.Verdicts {
		v := &c.Result.Verdicts[i]
		if c.only != nil && !c.only(Requirement{Node: c.Result.VerdictNode(c.Graph, i), Verdict: *v}) {
			continue
		}
		switch v.Status {
		case evaluate.Satisfied:
			n.Satisfied++
		case evaluate.Failing:
			n.Failing++
		default:
			n.Unproven++
		}
	}
	n.Unsatisfied = n.Failing + n.Unproven
	n.Requirements = n.Satisfied + n.Unsatisfied
	for _, d := range c.Diagnostics {
		switch d.Severity() {
		case diag.Error:
			n.Errors++
		case diag.Warning:
			n.Warnings++
		}
	}
	return n
}

// Narrowed reports whether the check shows only part of the tree's
// requirements (Narrow or Filter).
func (c *Check) Narrowed() bool { return c.only != nil }

// NarrowedToFiles reports whether the check is narrowed to the files a
// commit touches (Narrow).
func (c *Check) NarrowedToFiles() bool { return c.toFiles }

// FilterText is the --filter string the check was filtered with, or "".
func (c *Check) FilterText() string { return c.filter }

// Narrow is the check as a commit touching the files (root-relative slash
// paths) is blamed for it (docs/precommit.md). Verdicts are still those of
// the whole tree (SEG-SREQ-008); only what is shown, and so what can fail
// the check, is narrowed to what the files bear on: the diagnostics
// located in them or pointing into them (a related place, such as the
// first definition of a duplicate ID), and the requirements whose verdict
// depends on something written in them.
func (c *Check) Narrow(files map[string]bool) *Check {
	in := func(sp source.Pos) bool {
		f := c.Files.File(sp)
		return f != nil && files[f.Name()]
	}
	out := *c
	out.Diagnostics = nil
	for _, d := range c.Diagnostics {
		keep := in(d.Span.Start)
		for _, r := range d.Related {
			keep = keep || in(r.Span.Start)
		}
		if keep {
			out.Diagnostics = append(out.Diagnostics, d)
		}
	}
	var seeds []*graph.Node
	for n := range c.Graph.Nodes() {
		if in(n.Pos()) {
			seeds = append(seeds, n)
		}
	}
	touched := c.Graph.Affected(seeds)
	out.toFiles = true
	out.only = func(r Requirement) bool {
		if touched[r.Node] {
			return true
		}
		for _, reason := range r.Verdict.Blocking() {
			if in(reason.Pos) {
				return true
			}
		}
		return false
	}
	return &out
}
