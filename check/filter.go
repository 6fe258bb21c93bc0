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
// fields of package needs' field model (needs.Project.Field: id, type,
// title, status, tags, docname, content, each link type and its _back
// list, the extra options, ...) and seg's own (seg_kind, seg_status,
// seg_verdict, seg's link options). A node the filter cannot be evaluated on (a type error,
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

// Field is seg's own fields (seg_kind, seg_status, seg_verdict, seg's own
// link options and their _back lists), then package needs' field model.
func (f nodeFields) Field(name string) (any, bool) {
	n := f.n
	switch name {
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
	p := f.c.Graph.Needs()
	if p.Link(name) == nil {
		if base, back := strings.CutSuffix(name, "_back"); back && segLinks[base] {
			return f.links(base, true), true
		}
		if segLinks[name] {
			return f.links(name, false), true
		}
	}
	return p.Field(f, name)
}

// Core is the node as the field model reads it. A node has no record of
// whether a needimport made it, so is_import is not known here.
func (f nodeFields) Core() needs.NeedCore {
	n := f.n
	pos := f.c.Files.Position(n.Pos())
	c := needs.NeedCore{ID: n.ID(), Type: n.Directive(), Title: n.Title(), Docname: f.docname(),
		Doctype: path.Ext(pos.Filename), Lineno: pos.Line, External: n.IsExternal(), ParentNeed: n.Parent()}
	if n.IsExternal() {
		c.Doctype = ".rst" // placed in its needs.json, read as sphinx-needs reads it
	} else {
		c.Content, c.HasContent = n.Body(), true
	}
	return c
}

func (f nodeFields) Option(name string) (string, bool) { return f.n.LookupAttr(name) }

func (f nodeFields) Links(option string) []string { return f.links(option, false) }

func (f nodeFields) BackLinks(option string) []string { return f.links(option, true) }

// segLinks are seg's own link options.
var segLinks = map[string]bool{"refines": true, "verifies": true, "implements": true, "confirms": true, "witnesses": true, "excuses": true}

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
