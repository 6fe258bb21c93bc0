package needs

import (
	"reflect"
	"testing"
)

// view is a NeedView given as plain data.
type view struct {
	core  NeedCore
	opts  map[string]string
	links map[string][]string
	back  map[string][]string
}

func (v view) Core() NeedCore { return v.core }
func (v view) Option(name string) (string, bool) {
	s, ok := v.opts[name]
	return s, ok
}
func (v view) Links(option string) []string     { return v.links[option] }
func (v view) BackLinks(option string) []string { return v.back[option] }

// TestFieldModel holds Project.Field to sphinx-needs' field semantics
// (its NeedsCoreFields and how it fills a need it is not given values
// for): every core field's name and value, the need type's fields, the
// defaults of fields not set (an extra option "", a nullable one None,
// status None, the booleans False, tags []), lists split as sphinx-needs
// splits them, back links empty until needs are linked, and the fields it
// computes while rendering, which seg does not.
func TestFieldModel(t *testing.T) {
	p := NewProject()
	p.AddType(NeedType{Directive: "req", Title: "Requirement", Prefix: "R_", Color: "#BFD8D2", Style: "node"})
	p.AddOption("owner")
	p.AddOption("asil")
	p.SetNullable("asil")
	p.AddLink(LinkType{Option: "tests"})
	v := view{
		core: NeedCore{ID: "REQ_1", Type: "req", Title: "Stop", Docname: "sub/page", Doctype: ".rst", Lineno: 4,
			Content: "The system shall stop.", HasContent: true, Imported: true, ImportKnown: true, ParentNeed: "REQ_0"},
		opts:  map[string]string{"status": "open", "tags": "a; b|c, d", "hide": "", "collapse": "no"},
		links: map[string][]string{"links": {"REQ_2", "REQ_3.p1"}},
	}
	want := map[string]any{
		"id": "REQ_1", "type": "req", "title": "Stop", "full_title": "Stop", "docname": "sub/page", "doctype": ".rst",
		"lineno": 4, "content": "The system shall stop.", "description": "The system shall stop.",
		"type_name": "Requirement", "type_prefix": "R_", "type_color": "#BFD8D2", "type_style": "node",
		"is_external": false, "is_import": true, "is_need": true, "is_part": false, "parent_need": "REQ_0",
		"status": "open", "tags": []string{"a", "b", "c", "d"}, "constraints": []string{},
		"hide": true, "collapse": false, "jinja_content": false,
		"owner": "", "asil": nil,
		"links": []string{"REQ_2", "REQ_3.p1"}, "links_back": []string{}, "tests": []string{}, "tests_back": []string{},
		"sections": NotComputed{}, "signature": NotComputed{}, "constraints_passed": NotComputed{},
		"duration": nil, "layout": nil,
	}
	for name, w := range want {
		got, ok := p.Field(v, name)
		if !ok || !reflect.DeepEqual(got, w) {
			t.Errorf("%s: %#v (%v), want %#v", name, got, ok, w)
		}
	}
	if got, ok := p.Field(v, "no_such_field"); ok {
		t.Errorf("no_such_field: %#v", got)
	}

	// What a reader does not know is not made up: an external need's
	// content, whether a graph node was imported; a directive that is no
	// need type has empty type fields.
	v.core = NeedCore{ID: "X", Type: "other", External: true}
	for name, w := range map[string]any{"content": NotComputed{}, "is_import": NotComputed{}, "is_external": true, "type_name": "", "type_prefix": ""} {
		if got, _ := p.Field(v, name); !reflect.DeepEqual(got, w) {
			t.Errorf("external %s: %#v, want %#v", name, got, w)
		}
	}
	// Back links, once the needs are linked.
	v.back = map[string][]string{"links": {"REQ_9"}}
	if got, _ := p.Field(v, "links_back"); !reflect.DeepEqual(got, []string{"REQ_9"}) {
		t.Errorf("links_back %#v", got)
	}
}
