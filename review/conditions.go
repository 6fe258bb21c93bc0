package review

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// A link entry's condition (sphinx-needs 8's "ID[condition]") is a pin
// written in the source: accepting a node whose link's condition does
// not hold rewrites the condition to the target's current value. It is
// the one place seg review writes RST (docs/revisions.md, "Link
// conditions"), and it changes only the characters of the condition's
// value: version==1 becomes version==2, nothing else of the file moves.

// Rewrite is one source file as accepting makes it: its bytes now and
// after, and each condition rewritten in it.
type Rewrite struct {
	// File is the file's name as the tree's positions give it (relative
	// to the root, with forward slashes).
	File       string
	Old, New   []byte
	Conditions []ConditionEdit
}

// ConditionEdit is one entry's condition rewritten.
type ConditionEdit struct {
	Link     pins.Link
	At       source.Span // the entry
	Was, Now string      // the condition before and after
}

// ConditionError is seg review refusing to accept links whose condition
// does not hold and that it cannot rewrite: nothing is written.
type ConditionError struct{ Lines []string }

func (e *ConditionError) Error() string {
	return "seg review: cannot rewrite these conditions; fix them by hand and review again:\n  " + strings.Join(e.Lines, "\n  ")
}

// Rewrites are the source files accepting ch changes: for every link of
// an accepted node (every link, with All) whose entry's condition does
// not hold, the condition rewritten to the target's value now. A
// condition that cannot be rewritten (one that cannot be evaluated, one
// not of the form FIELD == VALUE, an entry that spans lines or is not in
// a file of the tree, a file that changed since it was read) is a
// *ConditionError naming each, and no rewrite is returned.
func (r *Review) Rewrites(ch Change) ([]Rewrite, error) {
	c := r.Check
	g := c.Graph
	accept := map[string]bool{}
	for _, id := range ch.Accept {
		accept[id] = true
	}
	byFile := map[string]*Rewrite{}
	type edit struct {
		start, end int
		text       string
	}
	edits := map[string][]edit{}
	var refused []string
	for e := range g.Edges() {
		from := g.From(e)
		if !from.Pinnable() || !(ch.All || accept[from.ID()]) {
			continue
		}
		cond := g.Condition(e)
		if cond.Holds() {
			continue
		}
		at := c.Files.Position(e.Span().Start)
		fail := func(format string, args ...any) {
			refused = append(refused, fmt.Sprintf("%s: link %s [%s]: %s", at, g.Link(e), cond.Text, fmt.Sprintf(format, args...)))
		}
		if cond.State == graph.ConditionInvalid {
			fail("it cannot be evaluated (%s)", cond.Err)
			continue
		}
		if from.IsExternal() {
			fail("it is written in another project's needs")
			continue
		}
		rw := byFile[at.Filename]
		if rw == nil {
			old, err := safefile.Read(filepath.Join(c.Root, filepath.FromSlash(at.Filename)))
			if err != nil {
				fail("cannot read the file: %v", err)
				continue
			}
			rw = &Rewrite{File: at.Filename, Old: old}
			byFile[at.Filename] = rw
		}
		// Positions count from after a byte order mark (parser.ParseFile).
		bom := 0
		if bytes.HasPrefix(rw.Old, []byte("\xef\xbb\xbf")) {
			bom = 3
		}
		start, end, lit, err := conditionLiteral(g, e, cond, rw.Old[bom:])
		if err != nil {
			fail("%v", err)
			continue
		}
		start, end, lit.condStart, lit.condEnd = start+bom, end+bom, lit.condStart+bom, lit.condEnd+bom
		rw.Conditions = append(rw.Conditions, ConditionEdit{Link: g.Link(e), At: e.Span(),
			Was: cond.Text, Now: string(rw.Old[lit.condStart:start]) + lit.text + string(rw.Old[end:lit.condEnd])})
		edits[at.Filename] = append(edits[at.Filename], edit{start, end, lit.text})
	}
	if len(refused) > 0 {
		slices.Sort(refused)
		return nil, &ConditionError{refused}
	}
	var out []Rewrite
	for _, name := range slicesSorted(byFile) {
		rw := byFile[name]
		es := edits[name]
		if len(es) == 0 {
			continue
		}
		slices.SortFunc(es, func(a, b edit) int { return a.start - b.start })
		var b bytes.Buffer
		last := 0
		for _, x := range es {
			if x.start < last {
				continue // one entry, two edges (a target and its part)
			}
			b.Write(rw.Old[last:x.start])
			b.WriteString(x.text)
			last = x.end
		}
		b.Write(rw.Old[last:])
		rw.New = b.Bytes()
		out = append(out, *rw)
	}
	return out, nil
}

func slicesSorted(m map[string]*Rewrite) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// literal is the new text of a condition's value, and where the
// condition's own text is in the file.
type literal struct {
	text               string
	condStart, condEnd int
}

// conditionLiteral finds, in src (the file the entry of e is written
// in, as it is on disk now), the characters of the value of e's
// condition, and the text that makes the condition hold for the target
// now. It fails when the entry is not where the graph has it (the file
// changed since it was read), spans lines, or its condition is not
// FIELD == VALUE.
func conditionLiteral(g *graph.Graph, e *graph.Edge, cond graph.Condition, src []byte) (start, end int, lit literal, err error) {
	sp := e.Span()
	if !sp.End.IsValid() || !sp.Start.HasOffset() {
		return 0, 0, lit, fmt.Errorf("the entry spans lines")
	}
	a, z := sp.Start.Offset(), sp.End.Offset()
	if z > len(src) {
		return 0, 0, lit, fmt.Errorf("the file changed since seg read it")
	}
	entry := src[a:z]
	if bytes.ContainsAny(entry, "\r\n") {
		return 0, 0, lit, fmt.Errorf("the entry spans lines")
	}
	lt := g.Needs().Link(e.Option())
	es, probs := needs.SplitLinks(entry, e.Option(), lt)
	if len(es) != 1 || len(probs) > 0 || es[0].Condition != cond.Text || es[0].ID != g.To(e).ID() && es[0].ID+"."+es[0].Part != g.To(e).ID() {
		return 0, 0, lit, fmt.Errorf("the file changed since seg read it: the entry is not where it was")
	}
	open := bytes.IndexByte(entry, '[')
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
	if open < 0 || ce < 0 {
		return 0, 0, lit, fmt.Errorf("the file changed since seg read it: the entry is not where it was")
	}
	raw := entry[cs:ce]
	lead := len(raw) - len(bytes.TrimLeft(raw, " \t"))
	text := string(bytes.TrimSpace(raw))
	eq, ok := needs.ParseEquality(text)
	if !ok {
		return 0, 0, lit, fmt.Errorf("only a condition FIELD == VALUE is rewritten")
	}
	v, ok := cond.Value(eq.Field)
	if !ok {
		return 0, 0, lit, fmt.Errorf("the condition read no field %q", eq.Field)
	}
	lt2, err := eq.Literal(v)
	if err != nil {
		return 0, 0, lit, err
	}
	base := a + cs + lead
	return base + eq.Start, base + eq.End, literal{text: lt2, condStart: base, condEnd: base + len(text)}, nil
}
