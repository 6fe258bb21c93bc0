package review

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/safefile"
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
		x, err := g.RewriteCondition(e, rw.Old[bom:])
		if err != nil {
			fail("%v", err)
			continue
		}
		start, end, cs, ce := x.Start+bom, x.End+bom, x.CondStart+bom, x.CondEnd+bom
		rw.Conditions = append(rw.Conditions, ConditionEdit{Link: g.Link(e), At: e.Span(),
			Was: cond.Text, Now: string(rw.Old[cs:start]) + x.Text + string(rw.Old[end:ce])})
		edits[at.Filename] = append(edits[at.Filename], edit{start, end, x.Text})
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
