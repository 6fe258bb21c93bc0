package postprocess

import (
	"strings"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// notComputed are the fields sphinx-needs computes while it renders, or
// keeps for itself, that seg does not: a filter that reads one is
// unsupported rather than wrong.
var notComputed = map[string]bool{
	"sections": true, "section_name": true, "signature": true, "parts": true, "arch": true,
	"is_modified": true, "modifications": true, "constraints_results": true, "constraints_passed": true,
	"content_id": true, "target_id": true, "external_url": true, "external_css": true,
	"pre_content": true, "post_content": true, "id_parent": true, "id_complete": true,
	"has_dead_links": true, "has_forbidden_dead_links": true, "lineno_content": true,
}

// boolOptions are sphinx-needs' own options that are booleans.
var boolOptions = map[string]bool{"hide": true, "collapse": true, "jinja_content": true}

// fields is a need of the tree as a filter or a dynamic function reads it,
// with sphinx-needs' names: id, type, title, status, tags, docname, every
// link type (and its _back list, empty until the graph is built, as in
// sphinx-needs before it links needs back), parent_need(s), is_external,
// the extra options and sphinx-needs' own options.
type fields struct {
	t *tree
	n *need
}

func (f fields) Field(name string) (any, bool) {
	t, n := f.t, f.n
	t.resolve(n, name)
	nd := t.node(n)
	p := t.in.Project
	switch name {
	case "id":
		return nd.ID, true
	case "type":
		return nd.Directive, true
	case "type_name", "type_prefix", "type_color", "type_style":
		ty := p.Type(nd.Directive)
		if ty == nil {
			return "", true
		}
		return map[string]string{"type_name": ty.Title, "type_prefix": ty.Prefix, "type_color": ty.Color, "type_style": ty.Style}[name], true
	case "title", "full_title":
		return nd.Title, true
	case "docname":
		return n.docname, true
	case "doctype":
		return ".rst", true
	case "lineno":
		return n.line, true
	case "content", "description":
		return nd.Body, true
	case "is_external":
		return n.external(), true
	case "is_import":
		return n.imported, true
	case "is_need":
		return true, true
	case "is_part":
		return false, true
	case "parent_need":
		if ps := linkIDs(nd, "parent_needs"); len(ps) > 0 {
			return ps[0], true
		}
		return "", true
	case "tags", "constraints":
		if o := nd.Option(name); o != nil {
			return needs.SplitList(o.Value), true
		}
		return []string{}, true
	}
	if p.Link(name) != nil {
		return linkIDs(nd, name), true
	}
	if base, ok := strings.CutSuffix(name, "_back"); ok && p.Link(base) != nil {
		return []string{}, true
	}
	if notComputed[name] {
		return needs.NotComputed{}, true
	}
	if boolOptions[name] {
		if o := nd.Option(name); o != nil {
			b, _ := needs.Boolean(o.Value)
			return b, true
		}
		return false, true
	}
	if name == "status" || p.Takes(name) {
		if o := nd.Option(name); o != nil {
			return o.Value, true
		}
		if p.IsExtra(name) {
			return p.Unset(name), true
		}
		return nil, true
	}
	return nil, false
}

// linkIDs are the targets of a link option as sphinx-needs lists them
// (ID or ID.part); dynamic functions not computed yet are left out.
func linkIDs(nd *parser.Node, name string) []string {
	out := []string{}
	if o := nd.Option(name); o != nil {
		for _, l := range o.Links {
			if !l.IsDynamic() {
				out = append(out, l.Address())
			}
		}
	}
	return out
}
