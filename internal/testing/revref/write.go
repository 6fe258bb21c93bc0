package revref

import (
	"os"
	"path/filepath"
	"strings"
)

// doc is one RST file before it is written: top-level pieces, each a run
// of text lines or a node.
type doc struct {
	path  string
	eol   string
	parts []Part
}

// writer lays out one file's lines, giving every node and entry its
// position as it goes.
type writer struct {
	file  string
	lines []string
}

// put appends a line and returns its 1-based number.
func (w *writer) put(s string) int {
	w.lines = append(w.lines, s)
	return len(w.lines)
}

func (w *writer) lastBlank() bool {
	return len(w.lines) == 0 || strings.Trim(w.lines[len(w.lines)-1], " \t") == ""
}

// indent is the white space that reaches column col, with tabs for whole
// tab stops when tabs is set.
func indent(col int, tabs bool) string {
	if tabs && col >= 8 {
		return strings.Repeat("\t", col/8) + strings.Repeat(" ", col%8)
	}
	return strings.Repeat(" ", col)
}

// render writes d and returns its bytes.
func (d *doc) render() string {
	w := &writer{file: d.path}
	w.parts(d.parts, 0, false, nil)
	return strings.Join(w.lines, d.eol) + d.eol
}

// parts writes pieces of content at column col, keeping a blank line
// between pieces; owner, when set, collects the lines of its own content.
func (w *writer) parts(ps []Part, col int, tabs bool, owner *Node) {
	keep := func(s string) {
		w.put(s)
		if owner != nil {
			owner.content = append(owner.content, s)
		}
	}
	for i, p := range ps {
		solid := p.Node != nil || len(p.Lines) > 0 && strings.Trim(p.Lines[0], " \t") != ""
		if i > 0 && solid && !w.lastBlank() {
			keep("")
		}
		// Text indented past col right after a node would belong to the
		// node's block (RST reads it so): a paragraph keeps them apart.
		if i > 0 && ps[i-1].Node != nil && p.Node == nil && indented(p.Lines) {
			keep(indent(col, tabs) + "after the nested node")
			keep("")
		}
		switch {
		case p.Node == nil:
			for _, l := range p.Lines {
				keep(indent(col, tabs) + l)
			}
		case p.Wrap == "note":
			keep(indent(col, tabs) + ".. note::")
			keep("")
			w.node(p.Node, col+3)
		case p.Wrap == "item":
			keep(indent(col, tabs) + "- " + p.Lines[0])
			keep("")
			w.node(p.Node, col+2)
		default:
			w.node(p.Node, col)
		}
	}
}

// indented: the first line with text starts with white space.
func indented(lines []string) bool {
	for _, l := range lines {
		if strings.Trim(l, " \t") != "" {
			return l[0] == ' ' || l[0] == '\t'
		}
	}
	return false
}

// node writes n with its ".." at column col.
func (w *writer) node(n *Node, col int) {
	ind := indent(col, n.Tabs)
	head := ind + ".. " + n.Directive + "::"
	if len(n.Title) > 0 && n.Title[0] != "" {
		head += " " + n.Title[0]
	}
	n.File, n.Line, n.Col = w.file, w.put(head), len(ind)+1
	block := col + n.Indent
	bi := indent(block, n.Tabs)
	for _, t := range n.Title[min(1, len(n.Title)):] {
		w.put(bi + t)
	}
	for _, o := range n.Options {
		marker := bi + ":" + o.Name + ":"
		first := marker
		if o.Lines[0] != "" {
			first += " " + o.Lines[0]
		}
		lines := []int{w.put(first)}
		starts := []int{len(marker) + 1}
		ci := indent(block+o.ContIndent, n.Tabs)
		for _, c := range o.Lines[1:] {
			lines = append(lines, w.put(ci+c))
			starts = append(starts, len(ci))
		}
		for _, e := range o.Entries {
			e.Line, e.Col = lines[e.line], starts[e.line]+e.off+1
		}
	}
	if len(n.Body) == 0 {
		return
	}
	w.put("")
	for _, p := range n.Body {
		if p.Node != nil {
			p.Node.Parent = n
		}
	}
	w.parts(n.Body, block, n.Tabs, n)
}

// Write puts the tree's files under root.
func (t *Tree) Write(root string) error {
	for name, text := range t.Files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
