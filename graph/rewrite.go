package graph

import (
	"bytes"
	"fmt"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/needs/model"
)

// ConditionRewrite is the edit that makes a link entry's condition
// FIELD == VALUE hold for the target as it is now: the bytes of the
// value, and the literal to write in their place. seg review --accept
// and the language server's quick fix both make it, so that the two
// write the same text (docs/revisions.md, "Link conditions").
type ConditionRewrite struct {
	// Start and End are the value's bytes in the text the entry is
	// written in; Text is the new value, written as the old one was
	// (quoted the same way, or a bare number).
	Start, End int
	Text       string
	// CondStart and CondEnd are the condition's own text (within the
	// brackets, without the blanks around it).
	CondStart, CondEnd int
}

// RewriteCondition finds, in src (the text of the file the entry of e
// is written in, offsets as the graph's positions count them), the
// characters of the value of e's condition, and the text that makes the
// condition hold for the target now. It fails when the entry is not
// where the graph has it (the text changed since it was read), spans
// lines, or its condition is not FIELD == VALUE.
func (g *Graph) RewriteCondition(e *Edge, src []byte) (ConditionRewrite, error) {
	var rw ConditionRewrite
	cond := g.Condition(e)
	sp := e.Span()
	if !sp.End.IsValid() || !sp.Start.HasOffset() {
		return rw, fmt.Errorf("the entry spans lines")
	}
	a, z := sp.Start.Offset(), sp.End.Offset()
	if z > len(src) || a > z {
		return rw, fmt.Errorf("the file changed since seg read it")
	}
	entry := src[a:z]
	if bytes.ContainsAny(entry, "\r\n") {
		return rw, fmt.Errorf("the entry spans lines")
	}
	lt := g.Needs().Link(e.Option())
	es, probs := model.SplitLinks(entry, e.Option(), lt)
	if len(es) != 1 || len(probs) > 0 || es[0].Condition != cond.Text || es[0].ID != g.To(e).ID() && es[0].ID+"."+es[0].Part != g.To(e).ID() {
		return rw, fmt.Errorf("the file changed since seg read it: the entry is not where it was")
	}
	open := bytes.IndexByte(entry, '[')
	if open < 0 {
		return rw, fmt.Errorf("the file changed since seg read it: the entry is not where it was")
	}
	depth := 0
	for open+depth < len(entry) && entry[open+depth] == '[' {
		depth++
	}
	cs, ce := open+depth, -1
	for k := cs; k < len(entry); {
		if entry[k] != ']' {
			k++
			continue
		}
		run := k
		for run < len(entry) && entry[run] == ']' {
			run++
		}
		if run-k >= depth {
			ce = run - depth
			break
		}
		k = run
	}
	if ce < 0 {
		return rw, fmt.Errorf("the file changed since seg read it: the entry is not where it was")
	}
	raw := entry[cs:ce]
	lead := len(raw) - len(bytes.TrimLeft(raw, " \t"))
	text := string(bytes.TrimSpace(raw))
	eq, ok := needs.ParseEquality(text)
	if !ok {
		return rw, fmt.Errorf("only a condition FIELD == VALUE is rewritten")
	}
	v, ok := cond.Value(eq.Field)
	if !ok {
		return rw, fmt.Errorf("the condition read no field %q", eq.Field)
	}
	lit, err := eq.Literal(v)
	if err != nil {
		return rw, err
	}
	base := a + cs + lead
	return ConditionRewrite{Start: base + eq.Start, End: base + eq.End, Text: lit, CondStart: base, CondEnd: base + len(text)}, nil
}
