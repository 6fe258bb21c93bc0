package postprocess

import (
	"path"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// fields is a need of the tree as a filter or a dynamic function reads it:
// package needs' field model (Project.Field) over what the need holds at
// this point of post-processing. A field's dynamic functions are computed
// when it is first read; back links are empty (sphinx-needs links needs
// back after this).
type fields struct {
	t *tree
	n *need
}

func (f fields) Field(name string) (any, bool) {
	f.t.resolve(f.n, name)
	return f.t.in.Project.Field(f, name)
}

// Core is the need's own data. An imported need's document is the
// needimport's; an external need has no content seg read.
func (f fields) Core() needs.NeedCore {
	nd := f.t.node(f.n)
	c := needs.NeedCore{ID: nd.ID, Type: nd.Directive, Title: nd.Title, Docname: f.n.docname, Lineno: f.n.line,
		External: f.n.external(), Imported: f.n.imported, ImportKnown: true}
	if f.n.external() {
		c.Doctype = ".rst"
	} else {
		c.Doctype = path.Ext(f.t.files[f.n.file].Path)
		c.Content, c.HasContent = nd.Body, true
	}
	if o := nd.Option("parent_needs"); o != nil {
		for _, l := range o.Links {
			if !l.IsDynamic() {
				c.ParentNeed = l.Address()
				break
			}
		}
	}
	return c
}

func (f fields) Option(name string) (string, bool) {
	if o := f.t.node(f.n).Option(name); o != nil {
		return o.Value, true
	}
	return "", false
}

func (f fields) Links(option string) []string { return linkIDs(f.t.node(f.n), option) }

func (f fields) BackLinks(string) []string { return nil }

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
