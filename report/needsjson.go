package report

import (
	"io"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// WriteNeedsJSON writes the graph as a needs.json in sphinx-needs' schema
// (seg graph --format needs-json; docs/sphinx-needs.md), so that the tools
// that read sphinx-needs' output (needimport, external needs, ubCode) can
// read seg's view of the tree:
//
//	{"created": ..., "current_version": V, "project": P,
//	 "versions": {V: {"created": ..., "filters": {}, "filters_amount": 0,
//	   "needs": {ID: {...}}, "needs_amount": N, "needs_schema": {...}}}}
//
// Every node of the graph is a need: its "type" is its directive. A need
// has id, type, type_name, title, docname, doctype, lineno, status, tags,
// parent_need, every link type of the project and every other link option
// used in the tree, each with its "_back" list, the project's extra
// options, and seg's own extra fields seg_kind and seg_verdict ("satisfied"
// or "unsatisfied" on a requirement, null otherwise). Links are written as
// sphinx-needs writes them ("ID" or "ID.part", no condition) in source
// order, dead ones included and dynamic functions left out; back links
// are sorted. "created" is the evaluation date, so the bytes repeat.
func WriteNeedsJSON(w io.Writer, c *check.Check) error {
	g := c.Graph
	project := g.Needs()
	if project == nil {
		project = parser.NewNeeds()
	}
	created := c.At.UTC().Format("2006-01-02T15:04:05")

	// Every link field, in the project's order, then the other options
	// that made a link (seg's own), sorted.
	var fields []string
	known := map[string]bool{}
	for _, lt := range project.Links {
		fields = append(fields, lt.Option)
		known[lt.Option] = true
	}
	var others []string
	addOther := func(opt string) {
		if !known[opt] {
			known[opt] = true
			others = append(others, opt)
		}
	}
	type entry struct {
		pos  source.Pos
		addr string
		to   int // the target's node index, -1 for an open link
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
		addOther(e.Option())
		add(g.From(e).Index(), e.Option(), entry{e.Pos(), addr, g.To(e).Index()})
	}
	for o := range g.OpenLinks() {
		if o.Reason() == graph.Dynamic {
			continue
		}
		addOther(o.Option())
		add(g.OpenFrom(o).Index(), o.Option(), entry{o.Pos(), o.Address(), -1})
	}
	sort.Strings(others)
	fields = append(fields, others...)
	for _, m := range out {
		for _, list := range m {
			slices.SortStableFunc(list, func(a, b entry) int { return c.Files.Compare(a.pos, b.pos) })
		}
		if m == nil {
			continue
		}
		// sphinx-needs' "copy": a link type's targets are also links.
		for _, lt := range project.Links {
			if lt.Copy && lt.Option != "links" {
				m["links"] = append(m["links"], m[lt.Option]...)
			}
		}
	}

	back := make([]map[string][]string, g.Len())
	for i, m := range out {
		from := g.Node(i).ID()
		for opt, list := range m {
			for _, e := range list {
				if e.to < 0 {
					continue
				}
				if back[e.to] == nil {
					back[e.to] = map[string][]string{}
				}
				if !slices.Contains(back[e.to][opt], from) {
					back[e.to][opt] = append(back[e.to][opt], from)
				}
			}
		}
	}

	needs := map[string]map[string]any{}
	for n := range g.Nodes() {
		i := n.Index()
		p := c.Files.Position(n.Pos())
		need := map[string]any{
			"id":           n.ID(),
			"type":         n.Directive(),
			"type_name":    typeName(project, n),
			"title":        n.Title(),
			"docname":      docname(project.DocRoot, p.Filename),
			"doctype":      path.Ext(p.Filename),
			"lineno":       p.Line,
			"status":       attrOrNull(n, "status"),
			"tags":         splitList(n.Attr("tags")),
			"seg_kind":     n.Kind().String(),
			"seg_revision": parser.RevisionString(n.Revision()),
		}
		if v := verdictOf(c, n); v != "" {
			need["seg_verdict"] = v
			need["seg_status"] = statusOf(c, n)
		} else {
			need["seg_verdict"] = nil
			need["seg_status"] = nil
		}
		need["parent_need"] = ""
		if p, ok := g.Lookup(n.Parent()); ok && n.Parent() != "" {
			need["parent_need"] = p.ID()
		}
		for _, f := range fields {
			links := []string{}
			for _, e := range out[i][f] {
				links = append(links, e.addr)
			}
			need[f] = links
			bl := append([]string{}, back[i][f]...)
			sort.Strings(bl)
			need[f+"_back"] = bl
		}
		for _, o := range project.Extra {
			if _, taken := need[o]; !taken {
				need[o] = attrOrNull(n, o)
			}
		}
		needs[n.ID()] = need
	}

	version := map[string]any{
		"created":        created,
		"filters":        map[string]any{},
		"filters_amount": 0,
		"needs":          needs,
		"needs_amount":   len(needs),
		"needs_schema":   needsSchema(project, fields),
	}
	doc := map[string]any{
		"created":         created,
		"current_version": project.Version,
		"project":         project.Project,
		"versions":        map[string]any{project.Version: version},
	}
	return encode(w, doc)
}

// needsSchema is the JSON schema of one need, with sphinx-needs'
// "field_type" for each field (core, links, backlinks, extra).
func needsSchema(project *parser.Needs, links []string) map[string]any {
	prop := func(typ any, fieldType, desc string) map[string]any {
		return map[string]any{"type": typ, "field_type": fieldType, "description": desc}
	}
	strList := func(fieldType, desc string) map[string]any {
		p := prop("array", fieldType, desc)
		p["items"] = map[string]any{"type": "string"}
		return p
	}
	props := map[string]any{
		"id":           prop("string", "core", "ID of the need."),
		"type":         prop("string", "core", "Type of the need: its directive."),
		"type_name":    prop("string", "core", "Name of the type."),
		"title":        prop("string", "core", "Title of the need."),
		"docname":      prop("string", "core", "Document the need is in, without its suffix."),
		"doctype":      prop("string", "core", "Suffix of the document."),
		"lineno":       prop("integer", "core", "Line of the need's directive."),
		"status":       prop([]string{"string", "null"}, "core", "Status of the need."),
		"tags":         strList("core", "Tags of the need."),
		"parent_need":  prop("string", "core", "ID of the need whose content holds this one, or empty."),
		"seg_kind":     prop("string", "extra", "seg's kind of the node: requirement, test, implementation, outcome, waiver or need."),
		"seg_verdict":  prop([]string{"string", "null"}, "extra", "seg's verdict on a requirement: satisfied or unsatisfied; null on other nodes."),
		"seg_status":   prop([]string{"string", "null"}, "extra", "seg's status of a requirement: satisfied, failing or unproven; null on other nodes."),
		"seg_revision": prop("string", "extra", "the fingerprint of what the need says (seg's docs/revisions.md); a link pinned to another revision is stale."),
	}
	titles := map[string]*parser.LinkType{}
	for _, lt := range project.Links {
		titles[lt.Option] = lt
	}
	for _, l := range links {
		out, in := l, l+" (incoming)"
		if lt := titles[l]; lt != nil {
			if lt.Outgoing != "" {
				out = lt.Outgoing
			}
			if lt.Incoming != "" {
				in = lt.Incoming
			}
		}
		props[l] = strList("links", out)
		props[l+"_back"] = strList("backlinks", in)
	}
	for _, o := range project.Extra {
		if _, taken := props[o]; !taken {
			props[o] = prop([]string{"string", "null"}, "extra", "Extra option.")
		}
	}
	return map[string]any{
		"$schema":    "http://json-schema.org/draft-07/schema#",
		"type":       "object",
		"properties": props,
	}
}

var kindTitles = map[parser.Kind]string{
	parser.Requirement:    "Requirement",
	parser.Test:           "Test specification",
	parser.Implementation: "Implementation",
	parser.Outcome:        "Test outcome",
	parser.Waiver:         "Waiver",
	parser.Need:           "Need",
}

func typeName(project *parser.Needs, n *graph.Node) string {
	if t := project.Type(n.Directive()); t != nil && t.Title != "" {
		return t.Title
	}
	return kindTitles[n.Kind()]
}

// docname is the file's path relative to the documentation's root,
// without its suffix, as Sphinx names documents. (An outcome read from a
// test results file keeps that file's path.)
func docname(root, file string) string {
	if root != "" {
		if rest, ok := strings.CutPrefix(file, root+"/"); ok {
			file = rest
		}
	}
	return strings.TrimSuffix(file, path.Ext(file))
}

func attrOrNull(n *graph.Node, name string) any {
	for _, a := range n.Attrs() {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// splitList splits a sphinx-needs list option (tags) on ",", ";" and "|".
func splitList(v string) []string {
	out := []string{}
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
