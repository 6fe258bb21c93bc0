package needs

import (
	"slices"
	"strings"

	"github.com/seg-trace/seg/needs/model"
)

// The field model: one need as sphinx-needs' expressions read it (filter
// strings of needextend, needimport, dynamic functions and seg's
// --filter), with sphinx-needs' field names and values. It is the only
// place that says what a field is; the readers that hold needs (package
// postprocess, before the graph; package check, over the graph) only say
// what a need holds, as a NeedView.

// NeedCore is what a need is, as plain data.
type NeedCore struct {
	ID, Type, Title string
	// Docname is the need's document (needs.Docname); Doctype its
	// suffix (".rst", ".md").
	Docname, Doctype string
	Lineno           int
	// Content is the need's content, when HasContent.
	Content    string
	HasContent bool
	// External: a need of needs_external_needs. Imported: a need a
	// needimport made, when ImportKnown.
	External, Imported, ImportKnown bool
	// ParentNeed is the ID of the need whose content holds this one.
	ParentNeed string
}

// NeedView is what the field model reads of one need.
type NeedView interface {
	Core() NeedCore
	// Option is an option's value as written (after needextend and
	// dynamic functions, when they have run), and whether it is set.
	Option(name string) (string, bool)
	// Links are the targets of a link option as sphinx-needs lists them
	// ("ID" or "ID.part", dead ones included, dynamic functions not
	// computed left out), in order.
	Links(option string) []string
	// BackLinks are the IDs of the needs that link to this one with the
	// option; nil before the needs are linked (then the list is empty, as
	// in sphinx-needs before it links needs back).
	BackLinks(option string) []string
}

// Field is a value of sphinx-needs' field name for need v, and whether
// the need has such a field: a string, a []string, nil, a bool or an int,
// or NotComputed for a field sphinx-needs computes while it renders.
//
//   - id, type, title (and full_title), docname, doctype, lineno,
//     content (and the legacy description), parent_need: the need's;
//   - type_name, type_prefix, type_color, type_style: its need type's
//     (all "" for a directive that is no type of the project);
//   - is_external, is_import, is_need (true), is_part (false);
//   - tags and constraints: lists, split as sphinx-needs splits them;
//   - every link type, and its _back list;
//   - hide, collapse, jinja_content: booleans, False when not set;
//   - status and every other option a need takes: its value, or, not
//     set, the extra option's default ("" or None) and None for the rest.
func (p *Project) Field(v NeedView, name string) (any, bool) {
	switch name {
	case "id", "type", "type_name", "type_prefix", "type_color", "type_style", "title", "full_title",
		"docname", "doctype", "lineno", "content", "description", "is_external", "is_import", "is_need",
		"is_part", "parent_need":
		return p.coreField(v.Core(), name), true
	case "tags", "constraints":
		if s, ok := v.Option(name); ok {
			return SplitList(s), true
		}
		return []string{}, true
	}
	if p.Link(name) != nil {
		return orEmpty(v.Links(name)), true
	}
	if base, ok := strings.CutSuffix(name, "_back"); ok && p.Link(base) != nil {
		return orEmpty(v.BackLinks(base)), true
	}
	if slices.Contains(notComputedFields, name) {
		return NotComputed{}, true
	}
	if slices.Contains(boolFields, name) {
		if s, ok := v.Option(name); ok {
			b, _ := model.Boolean(s)
			return b, true
		}
		return false, true
	}
	if s, ok := v.Option(name); ok {
		return s, true
	}
	if p.IsExtra(name) {
		return p.Unset(name), true
	}
	if name == "status" || p.Takes(name) {
		return nil, true
	}
	return nil, false
}

// coreField is a field of the need's core data (Field).
func (p *Project) coreField(c NeedCore, name string) any {
	switch name {
	case "id":
		return c.ID
	case "type":
		return c.Type
	case "type_name", "type_prefix", "type_color", "type_style":
		t := p.Type(c.Type)
		switch {
		case t == nil:
			return ""
		case name == "type_name":
			return t.Title
		case name == "type_prefix":
			return t.Prefix
		case name == "type_color":
			return t.Color
		}
		return t.Style
	case "title", "full_title":
		return c.Title
	case "docname":
		return c.Docname
	case "doctype":
		return c.Doctype
	case "lineno":
		return c.Lineno
	case "content", "description":
		if !c.HasContent {
			return NotComputed{}
		}
		return c.Content
	case "is_external":
		return c.External
	case "is_import":
		if !c.ImportKnown {
			return NotComputed{}
		}
		return c.Imported
	case "is_need":
		return true
	case "is_part":
		return false
	}
	return c.ParentNeed // parent_need
}

// notComputedFields are the fields sphinx-needs computes while it renders,
// or keeps for itself, that seg does not: a filter that reads one is
// unsupported rather than wrong.
var notComputedFields = []string{
	"sections", "section_name", "signature", "parts", "arch",
	"is_modified", "modifications", "constraints_results", "constraints_passed",
	"content_id", "target_id", "external_url", "external_css",
	"pre_content", "post_content", "id_parent", "id_complete",
	"has_dead_links", "has_forbidden_dead_links", "lineno_content",
}

// boolFields are sphinx-needs' own options that are booleans.
var boolFields = []string{"hide", "collapse", "jinja_content"}

func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
