package check

import (
	"fmt"
	"path"
	"strings"

	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
)

// Filter is the check as `--filter EXPR` shows it: only the requirements
// the filter selects are listed (and, for seg graph, only the nodes it
// selects are drawn); verdicts and diagnostics stay the whole tree's
// (SEG-SREQ-008). The filter is a sphinx-needs filter string, over the
// fields needs.json has (id, type, title, status, tags, docname, each link
// type and its _back list, the extra options, seg_kind, seg_status,
// seg_verdict). A node the filter cannot be evaluated on (a type error,
// as Python would raise) is not selected, as sphinx-needs does; the
// first such error is returned as a note. An unsupported filter is an
// error.
func (c *Check) Filter(f *needs.Filter) (*Check, string, error) {
	keep := map[*graph.Node]bool{}
	note := ""
	for n := range c.Graph.Nodes() {
		nf := nodeFields{c, n}
		ctx := needs.FilterContext{Docname: nf.docname()}
		if p := c.Graph.Needs(); p != nil {
			ctx.Data, ctx.DataUnknown = p.FilterData, p.FilterDataUnknown
		}
		ok, err := f.Match(nf, ctx)
		if err != nil {
			if err.Unsupported {
				return nil, "", fmt.Errorf("--filter %q: %s", f.Source, err.Msg)
			}
			if note == "" {
				note = fmt.Sprintf("--filter %q on %s: %s; such nodes are not selected", f.Source, n.ID(), err.Msg)
			}
			continue
		}
		if ok {
			keep[n] = true
		}
	}
	out := *c
	prev := c.only
	out.only = func(r Requirement) bool { return keep[r.Node] && (prev == nil || prev(r)) }
	out.shown = keep
	out.filter = f.Source
	return &out, note, nil
}

// Shows reports whether a filtered check (Filter) draws node n.
func (c *Check) Shows(n *graph.Node) bool { return c.shown == nil || c.shown[n] }

// nodeFields is a graph node as a filter reads it.
type nodeFields struct {
	c *Check
	n *graph.Node
}

func (f nodeFields) docname() string {
	p := f.c.Files.Position(f.n.Pos())
	root := ""
	if pr := f.c.Graph.Needs(); pr != nil {
		root = pr.DocRoot
	}
	return needs.Docname(root, p.Filename)
}

func (f nodeFields) Field(name string) (any, bool) {
	n, g := f.n, f.c.Graph
	p := g.Needs()
	switch name {
	case "id":
		return n.ID(), true
	case "type":
		return n.Directive(), true
	case "title", "full_title":
		return n.Title(), true
	case "docname":
		return f.docname(), true
	case "doctype":
		return path.Ext(f.c.Files.Position(n.Pos()).Filename), true
	case "lineno":
		return f.c.Files.Position(n.Pos()).Line, true
	case "type_name":
		if t := p.Type(n.Directive()); t != nil {
			return t.Title, true
		}
		return "", true
	case "is_external":
		return n.IsExternal(), true
	case "parent_need":
		return n.Parent(), true
	case "tags":
		return needs.SplitList(n.Attr("tags")), true
	case "seg_kind":
		return n.Kind().String(), true
	case "seg_status", "seg_verdict":
		v, ok := f.c.Result.Verdict(n)
		if !ok {
			return nil, true
		}
		if name == "seg_status" {
			return v.Status.String(), true
		}
		if v.Satisfied {
			return "satisfied", true
		}
		return "unsatisfied", true
	}
	if base, back := strings.CutSuffix(name, "_back"); back && f.isLink(base) {
		return f.links(base, true), true
	}
	if f.isLink(name) {
		return f.links(name, false), true
	}
	for _, a := range n.Attrs() {
		if a.Name == name {
			return a.Value, true
		}
	}
	if p.IsExtra(name) {
		return p.Unset(name), true
	}
	if name == "status" || p.Takes(name) {
		return nil, true
	}
	switch name {
	case "content", "sections", "section_name", "signature", "is_modified", "modifications", "constraints_results":
		return needs.NotComputed{}, true
	}
	return nil, false
}

// isLink reports whether a name is a link option: a link type of the
// project, or one of seg's own.
func (f nodeFields) isLink(name string) bool {
	if f.c.Graph.Needs().Link(name) != nil {
		return true
	}
	switch name {
	case "refines", "verifies", "implements", "confirms", "witnesses", "excuses":
		return true
	}
	return false
}

// links are the targets of a link option (ID or ID.part, dead links
// included, dynamic functions left out), or with back the IDs of the
// nodes that link to this one with it.
func (f nodeFields) links(option string, back bool) []string {
	g, n := f.c.Graph, f.n
	out := []string{}
	if back {
		for e := range g.In(n, 0) {
			if e.Option() == option {
				out = append(out, g.From(e).ID())
			}
		}
		return out
	}
	for e := range g.Out(n, 0) {
		if e.Option() == option {
			addr := g.To(e).ID()
			if e.Part() != "" {
				addr += "." + e.Part()
			}
			out = append(out, addr)
		}
	}
	for o := range g.OpenLinks() {
		if g.OpenFrom(o) == n && o.Option() == option && o.Reason() != graph.Dynamic {
			out = append(out, o.Address())
		}
	}
	return out
}
