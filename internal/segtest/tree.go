// Package segtest builds parser nodes directly, so graph and evaluator tests
// do not depend on the RST reader.
package segtest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/seg-trace/seg/parser"
)

// Tree is a list of nodes under construction. Each node sits on its own
// lines of one file, t.rst, so every position is distinct.
type Tree struct {
	Nodes []parser.Node
}

func (t *Tree) Add(kind parser.Kind, directive, id string, opts ...parser.Option) {
	line := len(t.Nodes)*10 + 1
	for i := range opts {
		opts[i].Pos = parser.Pos{File: "t.rst", Line: line + 2 + i, Col: 4}
		opts[i].ValuePos = parser.Pos{File: "t.rst", Line: line + 2 + i, Col: 6 + len(opts[i].Name)}
		for j := range opts[i].Links {
			opts[i].Links[j].Span.Start = parser.Pos{File: "t.rst", Line: line + 2 + i, Col: 20 + 10*j}
		}
	}
	all := append([]parser.Option{{Name: "id", Value: id, Pos: parser.Pos{File: "t.rst", Line: line + 1, Col: 4},
		ValuePos: parser.Pos{File: "t.rst", Line: line + 1, Col: 8}}}, opts...)
	t.Nodes = append(t.Nodes, parser.Node{Kind: kind, Directive: directive, ID: id, Title: "title of " + id,
		Pos: parser.Pos{File: "t.rst", Line: line, Col: 1}, Options: all, Parent: -1})
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
	return []*parser.File{{Path: "t.rst", Nodes: t.Nodes}}
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
