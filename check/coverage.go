package check

import (
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
)

// Coverage is the coverage of what the check shows (a narrowed or
// filtered check counts its part of the tree), as evaluate works it out.
func (c *Check) Coverage() evaluate.Coverage {
	if c.only == nil && c.shown == nil {
		return c.Result.Coverage(c.Graph, nil)
	}
	return c.Result.Coverage(c.Graph, func(n *graph.Node) bool {
		if n.IsRequirement() {
			v, _ := c.Result.Verdict(n)
			return c.only == nil || c.only(Requirement{Node: n, Verdict: v})
		}
		return c.Shows(n)
	})
}

// Shortfalls are the MinCoverage thresholds the check's coverage does
// not reach, in the order given: each fails the check (Failed).
func (c *Check) Shortfalls() []evaluate.Shortfall {
	if len(c.MinCoverage) == 0 {
		return nil
	}
	return c.Coverage().Below(c.MinCoverage)
}
