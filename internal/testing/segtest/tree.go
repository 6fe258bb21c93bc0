// Package segtest builds parser nodes directly, so graph and evaluator tests
// do not depend on the RST reader.
package segtest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Tree is a list of nodes under construction. Each node sits on its own
// lines of one file, t.rst, so every position is distinct.
type Tree struct {
	Nodes []parser.Node
	fset  *source.FileSet
	sf    *source.File
}

// lineWidth is the width of every line of the made-up file t.rst: wider
// than any column a node is given, and narrow enough for a million nodes
// to fit in a file's offsets.
const lineWidth = 128

// file is t.rst, whose lines are lineWidth bytes each, so that any line
// and column a node is given has a position.
func (t *Tree) file() *source.File {
	if t.sf == nil {
		t.fset = source.NewFileSet()
		t.sf = t.fset.Add("t.rst", 0, source.Docutils)
		t.grow(16)
	}
	return t.sf
}

// grow makes t.rst at least n lines long.
func (t *Tree) grow(n int) {
	starts := t.sf.Lines()
	if len(starts) >= n {
		return
	}
	more := make([]int32, max(n, 2*len(starts)))
	for i := range more {
		more[i] = int32(i * lineWidth)
	}
	t.sf.SetLines(more)
}

// At is the position of line and column (1-based) in t.rst.
func (t *Tree) At(line, col int) source.Pos {
	t.file()
	t.grow(line)
	return t.sf.Pos((line-1)*lineWidth + col - 1)
}

// FileSet is the FileSet t.rst is in.
func (t *Tree) FileSet() *source.FileSet {
	t.file()
	return t.fset
}

func (t *Tree) Add(kind parser.Kind, directive, id string, opts ...parser.Option) {
	line := len(t.Nodes)*10 + 1
	for i := range opts {
		opts[i].Pos = t.At(line+2+i, 4)
		opts[i].ValuePos = t.At(line+2+i, 6+len(opts[i].Name))
		for j := range opts[i].Links {
			opts[i].Links[j].Span.Start = t.At(line+2+i, 20+10*j)
		}
	}
	all := append([]parser.Option{{Name: "id", Value: id, Pos: t.At(line+1, 4),
		ValuePos: t.At(line+1, 8)}}, opts...)
	t.Nodes = append(t.Nodes, parser.Node{Kind: kind, Directive: directive, ID: id, Title: "title of " + id,
		Pos: t.At(line, 1), Options: all, Parent: -1})
}

// links parses "A, B (suspect)" the way the spec describes, enough for tests.
func Links(name, list string) parser.Option {
	o := parser.Option{Name: name, Value: list}
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		l := parser.Link{ID: part}
		if i := strings.Index(part, " ("); i >= 0 {
			l.ID = part[:i]
			l.StateText = strings.TrimSuffix(part[i+2:], ")")
			switch l.StateText {
			case "active":
				l.State = parser.Active
			case "suspect":
				l.State = parser.Suspect
			case "retired":
				l.State = parser.Retired
			default:
				l.State = parser.InvalidState
			}
		}
		o.Links = append(o.Links, l)
	}
	return o
}

func Opt(name, value string) parser.Option { return parser.Option{Name: name, Value: value} }

func (t *Tree) Req(id, refines string) {
	var o []parser.Option
	if refines != "" {
		o = append(o, Links("refines", refines))
	}
	t.Add(parser.Requirement, "sreq", id, o...)
}

func (t *Tree) Test(id, verifies string) {
	var o []parser.Option
	if verifies != "" {
		o = append(o, Links("verifies", verifies))
	}
	t.Add(parser.Test, "test", id, o...)
}

func (t *Tree) Impl(id, implements string) {
	t.Add(parser.Implementation, "impl", id, Links("implements", implements))
}

// outcome adds an outcome; witnesses "" leaves it unwitnessed and result ""
// leaves :result: out.
func (t *Tree) Outcome(id, confirms, witnesses, result string) {
	o := []parser.Option{Links("confirms", confirms)}
	if witnesses != "" {
		o = append(o, Links("witnesses", witnesses))
	}
	if result != "" {
		o = append(o, Opt("result", result))
	}
	t.Add(parser.Outcome, "outcome", id, o...)
}

func (t *Tree) Waiver(id, excuses, expires string) {
	o := []parser.Option{Links("excuses", excuses)}
	if expires != "" {
		o = append(o, Opt("expires", expires))
	}
	t.Add(parser.Waiver, "waiver", id, o...)
}

func (t *Tree) Files() []*parser.File {
	return []*parser.File{{Path: "t.rst", Source: t.file(), Nodes: t.Nodes}}
}

func (t *Tree) String() string {
	var b strings.Builder
	for _, n := range t.Nodes {
		fmt.Fprintf(&b, "%s %s", n.Directive, n.ID)
		for _, o := range n.Options[1:] {
			fmt.Fprintf(&b, " :%s: %s", o.Name, o.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// RST renders the tree as seg directives, one file's worth, so the same
// tree can go through the whole pipeline (parser included). Options are
// written as their raw values.
func (t *Tree) RST() string {
	var b strings.Builder
	for _, n := range t.Nodes {
		fmt.Fprintf(&b, ".. %s:: %s\n", n.Directive, n.Title)
		for _, o := range n.Options {
			fmt.Fprintf(&b, "   :%s: %s\n", o.Name, o.Value)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// RSTFiles spreads the tree over files files, in random order and with
// some nodes nested in a note or a list item, as real trees are written.
// Nesting makes no edge, so the verdicts are those of RST().
func (t *Tree) RSTFiles(r *rand.Rand, files int) map[string]string {
	out := map[string]*strings.Builder{}
	for _, i := range r.Perm(len(t.Nodes)) {
		n := t.Nodes[i]
		name := fmt.Sprintf("part-%d/doc-%d.rst", r.IntN(2), r.IntN(files))
		b := out[name]
		if b == nil {
			b = &strings.Builder{}
			out[name] = b
		}
		indent := ""
		switch r.IntN(4) {
		case 0:
			b.WriteString(".. note::\n\n")
			indent = "   "
		case 1:
			b.WriteString("- A list item with a node in it:\n\n")
			indent = "  "
		}
		fmt.Fprintf(b, "%s.. %s:: %s\n", indent, n.Directive, n.Title)
		for _, o := range n.Options {
			fmt.Fprintf(b, "%s   :%s: %s\n", indent, o.Name, o.Value)
		}
		b.WriteString("\nSome prose between nodes.\n\n")
	}
	res := map[string]string{}
	for name, b := range out {
		res[name] = b.String()
	}
	return res
}

// With is a tree of nodes placed in t's file (nodes taken from t, in
// another order, say), so that graphs built from both compare equal.
func (t *Tree) With(nodes []parser.Node) *Tree {
	t.file()
	return &Tree{Nodes: nodes, fset: t.fset, sf: t.sf}
}
