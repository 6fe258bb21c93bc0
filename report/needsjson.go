package report

import (
	"io"
	"path"
	"slices"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// WriteNeedsJSON writes the graph as a needs.json in sphinx-needs' schema
// (seg graph --format needs-json; docs/sphinx-needs.md); package needs
// lays the file out (needs.Document), this only reads the check into it.
// Every node of the graph is a need: its "type" is its directive. Links
// are written as sphinx-needs writes them ("ID" or "ID.part", no
// condition) in source order, dead ones included and dynamic functions
// left out. seg's own fields are seg_kind, seg_verdict and seg_status.
// "created" is the evaluation date, so the bytes repeat.
func WriteNeedsJSON(w io.Writer, c *check.Check) error {
	g := c.Graph
	doc := needs.Document{
		Created: c.At.UTC().Format("2006-01-02T15:04:05"),
		Project: g.Needs(),
	}
	// The needs written: those the check shows, not another project's
	// (external needs are in that project's needs.json), by graph index.
	at := make([]int, g.Len())
	for n := range g.Nodes() {
		at[n.Index()] = -1
		if c.Shows(n) && !n.IsExternal() {
			at[n.Index()] = len(doc.Needs)
			doc.Needs = append(doc.Needs, needs.Need{})
		}
	}
	docRoot := ""
	if doc.Project != nil {
		docRoot = doc.Project.DocRoot
	}
	type entry struct {
		pos source.Pos
		needs.Link
	}
	out := make([]map[string][]entry, g.Len())
	add := func(from int, opt string, e entry) {
		if out[from] == nil {
			out[from] = map[string][]entry{}
		}
		out[from][opt] = append(out[from][opt], e)
	}
	for e := range g.Edges() {
		addr := g.To(e).ID()
		if p := e.Part(); p != "" {
			addr += "." + p
		}
		add(g.From(e).Index(), e.Option(), entry{e.Pos(), needs.Link{Address: addr, To: at[g.To(e).Index()]}})
	}
	for o := range g.OpenLinks() {
		if o.Reason() == graph.Dynamic {
			continue
		}
		add(g.OpenFrom(o).Index(), o.Option(), entry{o.Pos(), needs.Link{Address: o.Address(), To: -1}})
	}
	for n := range g.Nodes() {
		i := n.Index()
		if at[i] < 0 {
			continue
		}
		p := c.Files.Position(n.Pos())
		need := needs.Need{
			ID: n.ID(), Type: n.Directive(), TypeName: typeName(doc.Project, n), Title: n.Title(),
			Docname: needs.Docname(docRoot, p.Filename), Doctype: path.Ext(p.Filename), Lineno: p.Line, Content: n.Body(),
			Options: map[string]string{}, Links: map[string][]needs.Link{},
			SegKind: n.Kind().String(), SegRevision: revision.String(n.Revision()),
		}
		for _, a := range n.Attrs() {
			if _, dup := need.Options[a.Name]; !dup {
				need.Options[a.Name] = a.Value
			}
		}
		if v := verdictOf(c, n); v != "" {
			need.SegVerdict, need.SegStatus = v, statusOf(c, n)
		}
		if p, ok := g.Lookup(n.Parent()); ok && n.Parent() != "" {
			need.ParentNeed = p.ID()
		}
		for opt, list := range out[i] {
			slices.SortStableFunc(list, func(a, b entry) int { return c.Files.Compare(a.pos, b.pos) })
			for _, e := range list {
				need.Links[opt] = append(need.Links[opt], e.Link)
			}
		}
		doc.Needs[at[i]] = need
	}
	return encode(w, doc.Map())
}

var kindTitles = map[parser.Kind]string{
	parser.Requirement:    "Requirement",
	parser.Test:           "Test specification",
	parser.Implementation: "Implementation",
	parser.Outcome:        "Test outcome",
	parser.Waiver:         "Waiver",
	parser.Need:           "Need",
}

func typeName(project *needs.Project, n *graph.Node) string {
	if t := project.Type(n.Directive()); t != nil && t.Title != "" {
		return t.Title
	}
	return kindTitles[n.Kind()]
}
