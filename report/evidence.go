package report

import (
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diff"
	"github.com/seg-trace/seg/evaluate"
)

// countedEvidence is the evidence requirement r's verdict counted, as
// evaluate records it (evaluate.Result.Counted): what seg-check/1 writes
// as evidence[] and seg diff compares.
func countedEvidence(wh where, c *check.Check, v *evaluate.Verdict) []diff.Evidence {
	out := []diff.Evidence{}
	for _, e := range c.Result.Counted(c.Graph, v) {
		p := wh.at(e.Pos)
		de := diff.Evidence{Kind: e.Kind, ID: e.Node.ID(), File: p.Filename, Line: p.Line}
		if e.Via != nil {
			de.Via = e.Via.ID()
		}
		out = append(out, de)
	}
	return out
}

// evidenceIf is countedEvidence when the report asks for it, else nil
// (the key left out: a document without it is one seg diff cannot
// compare for lost evidence, and says so).
func evidenceIf(want bool, wh where, c *check.Check, v *evaluate.Verdict) *[]diff.Evidence {
	if !want {
		return nil
	}
	ev := countedEvidence(wh, c, v)
	return &ev
}
