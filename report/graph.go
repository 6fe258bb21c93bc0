package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/revision"
)

type jsonGraph struct {
	Schema string `json:"schema"`
	At     string `json:"at"`
	// Narrowed is "filter" when --filter selected the nodes drawn.
	Narrowed []string   `json:"narrowed,omitempty"`
	Nodes    []jsonNode `json:"nodes"`
	Edges    []jsonEdge `json:"edges"`
	// OpenLinks are the sphinx-needs link entries that make no edge and
	// are no error: dynamic functions and allowed dead links.
	OpenLinks []jsonOpenLink `json:"open_links,omitempty"`
}

type jsonOpenLink struct {
	Reason    string `json:"reason"`
	Option    string `json:"option"`
	From      string `json:"from"`
	To        string `json:"to"`
	Part      string `json:"part,omitempty"`
	Condition string `json:"condition,omitempty"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

type jsonNode struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Directive string `json:"directive"`
	Title     string `json:"title"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Verdict   string `json:"verdict,omitempty"`
	Status    string `json:"status,omitempty"`
	Revision  string `json:"revision"`
	// External: a need of another project (needs_external_needs), placed
	// in its needs.json; it resolves links and is not evaluated.
	External bool `json:"external,omitempty"`
}

type jsonEdge struct {
	Type   string `json:"type"`
	From   string `json:"from"`
	To     string `json:"to"`
	State  string `json:"state"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// A sphinx-needs link: Option is the link option when it is not the
	// type (a mapped one), Part and Condition what the entry named.
	Option    string `json:"option,omitempty"`
	Part      string `json:"part,omitempty"`
	Condition string `json:"condition,omitempty"`
}

// edgeJSON is one edge as every graph format shows it: a Link edge is
// named by its option.
func edgeJSON(c *check.Check, e *graph.Edge) jsonEdge {
	g := c.Graph
	p := g.Files().Position(e.Pos())
	typ := e.Type().String()
	if e.Type() == graph.Link {
		typ = e.Option()
	}
	je := jsonEdge{Type: typ, From: g.From(e).ID(), To: g.To(e).ID(), State: c.Result.EdgeState(g, e).Written.String(),
		File: p.Filename, Line: p.Line, Column: p.Column, Part: e.Part(), Condition: e.Condition()}
	if o := e.Option(); o != typ {
		je.Option = o
	}
	return je
}

// sortedEdges lists the edges by (from, type, to) as strings, then by
// position, the order every graph format uses: those between nodes the
// check shows (check.Filter).
func sortedEdges(c *check.Check) []jsonEdge {
	g := c.Graph
	out := make([]jsonEdge, 0, g.NumEdges())
	for e := range g.Edges() {
		if c.Shows(g.From(e)) && c.Shows(g.To(e)) {
			out = append(out, edgeJSON(c, e))
		}
	}
	slices.SortStableFunc(out, func(a, b jsonEdge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.Type, b.Type), strings.Compare(a.To, b.To))
	})
	return out
}

// WriteGraphJSON writes the seg-graph/1 document.
func WriteGraphJSON(w io.Writer, c *check.Check) error {
	wh := whereOf(c)
	doc := jsonGraph{Schema: "seg-graph/1", At: Date(c.At), Narrowed: narrowedBy(c), Nodes: []jsonNode{}, Edges: sortedEdges(c)}
	for n := range c.Graph.Nodes() {
		if !c.Shows(n) {
			continue
		}
		p := wh.at(n.Pos())
		doc.Nodes = append(doc.Nodes, jsonNode{n.ID(), n.Kind().String(), n.Directive(), n.Title(), p.Filename, p.Line, p.Column, verdictOf(c, n), statusOf(c, n), revision.String(n.Revision()), n.IsExternal()})
	}
	for o := range c.Graph.OpenLinks() {
		if r := o.Reason(); r != graph.Dynamic && r != graph.Dangling || !c.Shows(c.Graph.OpenFrom(o)) {
			continue // an error, already a diagnostic
		}
		p := wh.at(o.Pos())
		doc.OpenLinks = append(doc.OpenLinks, jsonOpenLink{o.Reason().String(), o.Option(), c.Graph.OpenFrom(o).ID(),
			o.Target(), o.Part(), o.Condition(), p.Filename, p.Line, p.Column})
	}
	return encode(w, doc)
}

var dotShapes = map[string]string{
	"requirement": "box", "test": "ellipse", "implementation": "component", "outcome": "note", "waiver": "octagon",
	"need": "box3d",
}

// Colors shared by the pictures and the HTML matrix, matching the terminal:
// green satisfied, red unsatisfied.
const (
	colorSatisfied   = "#2e7d32"
	colorUnsatisfied = "#c62828"
	colorOther       = "#546e7a"
)

func nodeColor(c *check.Check, n *graph.Node) string {
	switch verdictOf(c, n) {
	case "satisfied":
		return colorSatisfied
	case "unsatisfied":
		return colorUnsatisfied
	}
	return colorOther
}

// WriteDOT writes the graph for Graphviz, requirements colored by verdict.
func WriteDOT(w io.Writer, c *check.Check) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "// seg graph, evaluated at %s\ndigraph seg {\n  rankdir=BT;\n  node [fontname=\"Helvetica\", fontsize=10];\n", Date(c.At))
	for n := range c.Graph.Nodes() {
		if !c.Shows(n) {
			continue
		}
		label := n.ID()
		if v := verdictOf(c, n); v != "" {
			label += "\n" + v
		}
		fmt.Fprintf(bw, "  %s [label=%s, shape=%s, color=%q, fontcolor=%q, tooltip=%s];\n",
			dotQuote(n.ID()), dotQuote(label), dotShapes[n.Kind().String()], nodeColor(c, n), nodeColor(c, n),
			dotQuote(n.Title()+" ("+c.Files.Position(n.Pos()).String()+", revision "+revision.String(n.Revision())+")"))
	}
	for _, e := range sortedEdges(c) {
		style := "solid"
		if e.State != "active" {
			style = "dashed"
		}
		fmt.Fprintf(bw, "  %s -> %s [label=%s, style=%s];\n", dotQuote(e.From), dotQuote(e.To), dotQuote(edgeLabel(e)), style)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func edgeLabel(e jsonEdge) string {
	if e.State != "active" {
		return e.Type + " (" + e.State + ")"
	}
	return e.Type
}

func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// WriteMermaid writes a Mermaid flowchart, requirements colored by verdict.
func WriteMermaid(w io.Writer, c *check.Check) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%%%% seg graph, evaluated at %s\nflowchart BT\n", Date(c.At))
	ids := map[string]string{}
	i := 0
	for n := range c.Graph.Nodes() {
		if !c.Shows(n) {
			continue
		}
		ids[n.ID()] = fmt.Sprintf("n%d", i)
		i++
		open, close := "[", "]"
		switch n.Kind().String() {
		case "test":
			open, close = "([", "])"
		case "implementation":
			open, close = "[[", "]]"
		case "outcome":
			open, close = "[/", "/]"
		case "waiver":
			open, close = "{{", "}}"
		}
		label := mermaidText(n.ID())
		if v := verdictOf(c, n); v != "" {
			label += "<br/>" + v
		}
		fmt.Fprintf(bw, "  %s%s\"%s\"%s\n", ids[n.ID()], open, label, close)
		fmt.Fprintf(bw, "  %%%% %s revision %s\n", ids[n.ID()], revision.String(n.Revision()))
	}
	for _, e := range sortedEdges(c) {
		arrow := "-->"
		if e.State != "active" {
			arrow = "-.->"
		}
		fmt.Fprintf(bw, "  %s %s|%s| %s\n", ids[e.From], arrow, mermaidText(edgeLabel(e)), ids[e.To])
	}
	bw.WriteString("  classDef satisfied stroke:" + colorSatisfied + ",color:" + colorSatisfied + ",stroke-width:2px\n")
	bw.WriteString("  classDef unsatisfied stroke:" + colorUnsatisfied + ",color:" + colorUnsatisfied + ",stroke-width:2px\n")
	for n := range c.Graph.Nodes() {
		if v := verdictOf(c, n); v != "" && c.Shows(n) {
			fmt.Fprintf(bw, "  class %s %s\n", ids[n.ID()], v)
		}
	}
	return bw.Flush()
}

// mermaidText makes s safe inside a quoted Mermaid label or between the
// pipes of an edge label, and shown as written. Nodes are named n0, n1, ...
// so an ID is only ever label text. Mermaid turns "#code;" into the HTML
// entity "&code;" and renders labels as HTML, so every character that is
// markup there (< > & "), that ends a label (" |), that starts a markdown
// label (`), or that starts an entity (#) is written as a numeric entity
// code. So is ":": Mermaid drops the last ";" of a line that holds
// "style", then ":" and "#" (meant for style statements), which would
// break an entity in an ID such as "tests/test_style.py::case#2".
var mermaidText = strings.NewReplacer(
	"#", "#35;", `"`, "#quot;", "&", "#38;", "<", "#60;", ">", "#62;",
	"`", "#96;", "|", "#124;", ":", "#58;",
).Replace
