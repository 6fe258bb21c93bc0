package needs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// Document is a needs.json file in sphinx-needs' schema (seg graph --format
// needs-json; docs/sphinx-needs.md), as the tools that read sphinx-needs'
// output (needimport, external needs, ubCode) expect it:
//
//	{"created": ..., "current_version": V, "project": P,
//	 "versions": {V: {"created": ..., "filters": {}, "filters_amount": 0,
//	   "needs": {ID: {...}}, "needs_amount": N, "needs_schema": {...}}}}
//
// The caller (report) turns its graph into Needs; Map lays them out.
type Document struct {
	// Created is the file's date ("2006-01-02T15:04:05").
	Created string
	// Project is the project the needs belong to (its link types, extra
	// options, name and version); nil means sphinx-needs' defaults.
	Project *Project
	Needs   []Need
}

// Need is one need of a Document.
type Need struct {
	ID, Type, TypeName, Title string
	// Docname is the document's path from the documentation's root,
	// without its suffix; Doctype the suffix.
	Docname, Doctype string
	// Content is the need's content, as the directive holds it
	// (dedented).
	Content string
	Lineno  int
	// ParentNeed is the ID of the need whose content holds this one, or "".
	ParentNeed string
	// Options are the need's own option values (status, tags, extra
	// options), by name; an option not set is absent.
	Options map[string]string
	// Links are the need's link entries by link option, each list in
	// source order.
	Links map[string][]Link
	// SegKind, SegVerdict and SegStatus are seg's own fields; the last two
	// are "" on nodes that are no requirement (null in the file).
	SegKind, SegVerdict, SegStatus string
	// SegRevision is the fingerprint of what the need says
	// (docs/revisions.md).
	SegRevision string
}

// Link is one link entry of a Need.
type Link struct {
	// Address is the entry as sphinx-needs writes it: "ID" or "ID.part".
	Address string
	// To is the index in Document.Needs of the need the entry resolves to,
	// -1 for a dead link.
	To int
}

// Map is the document as JSON values. Every need has every link type of
// the project and every other link option used by any need (seg's own),
// each with its "_back" list; status, tags and the project's extra options
// (null when not set); id, type, type_name, title, docname, doctype,
// lineno, content, parent_need; and seg_kind, seg_verdict, seg_status.
// Back lists are sorted; link lists are in source order, or, for a
// project that targets sphinx-needs 8.2 or later (Project.SortLinks),
// sorted with every entry once, as those versions write them; a link type
// that copies its targets adds them to "links". "project" and
// "current_version" are the project's (conf.py's project and version, as
// sphinx-needs writes them).
func (d *Document) Map() map[string]any {
	project := d.Project
	if project == nil {
		project = NewProject()
	}
	fields := d.linkFields(project)
	links, back := d.resolved(project)
	needs := map[string]map[string]any{}
	for i := range d.Needs {
		n := &d.Needs[i]
		need := map[string]any{
			"id":           n.ID,
			"type":         n.Type,
			"type_name":    n.TypeName,
			"title":        n.Title,
			"docname":      n.Docname,
			"doctype":      n.Doctype,
			"lineno":       n.Lineno,
			"content":      n.Content,
			"status":       n.option("status"),
			"tags":         SplitList(n.Options["tags"]),
			"seg_kind":     n.SegKind,
			"seg_verdict":  orNull(n.SegVerdict),
			"seg_status":   orNull(n.SegStatus),
			"seg_revision": n.SegRevision,
			"parent_need":  n.ParentNeed,
		}
		for _, f := range fields {
			list := []string{}
			for _, e := range links[i][f] {
				list = append(list, e.Address)
			}
			if project.SortLinks {
				// sphinx-needs 8.2 and later write each link list sorted,
				// every entry once.
				slices.Sort(list)
				list = slices.Compact(list)
			}
			need[f] = list
			bl := append([]string{}, back[i][f]...)
			sort.Strings(bl)
			need[f+"_back"] = bl
		}
		for _, o := range project.Extra {
			if _, taken := need[o]; !taken {
				need[o] = n.option(o)
				if need[o] == nil {
					need[o] = project.Unset(o)
				}
			}
		}
		if len(project.StringLinks) > 0 {
			need["seg_string_links"] = n.stringLinks(project)
		}
		needs[n.ID] = need
	}
	version := map[string]any{
		"created":        d.Created,
		"filters":        map[string]any{},
		"filters_amount": 0,
		"needs":          needs,
		"needs_amount":   len(needs),
		"needs_schema":   schema(project, fields),
	}
	return map[string]any{
		"created":         d.Created,
		"current_version": project.Version,
		"project":         project.Project,
		"versions":        map[string]any{project.Version: version},
	}
}

// resolved are every need's links, with the targets of the link types
// that copy theirs also in "links", and every need's back links by link
// field (d is only read).
func (d *Document) resolved(project *Project) ([]map[string][]Link, []map[string][]string) {
	links := make([]map[string][]Link, len(d.Needs))
	for i := range d.Needs {
		links[i] = d.Needs[i].Links
		cloned := false
		// sphinx-needs' "copy": a link type's targets are also links.
		for _, lt := range project.Links {
			if lt.Copy && lt.Option != "links" && len(links[i][lt.Option]) > 0 {
				if !cloned {
					links[i], cloned = maps.Clone(links[i]), true
				}
				links[i]["links"] = append(slices.Clip(links[i]["links"]), links[i][lt.Option]...)
			}
		}
	}
	back := make([]map[string][]string, len(d.Needs))
	for i := range d.Needs {
		from := d.Needs[i].ID
		for opt, list := range links[i] {
			for _, e := range list {
				if e.To < 0 {
					continue
				}
				if back[e.To] == nil {
					back[e.To] = map[string][]string{}
				}
				if !slices.Contains(back[e.To][opt], from) {
					back[e.To][opt] = append(back[e.To][opt], from)
				}
			}
		}
	}
	return links, back
}

// linkFields are every link field of the document: the project's link
// types in order, then the other options that made a link (seg's own),
// sorted.
func (d *Document) linkFields(project *Project) []string {
	var fields, others []string
	known := map[string]bool{}
	for _, lt := range project.Links {
		fields = append(fields, lt.Option)
		known[lt.Option] = true
	}
	for i := range d.Needs {
		for opt := range d.Needs[i].Links {
			if !known[opt] {
				known[opt] = true
				others = append(others, opt)
			}
		}
	}
	sort.Strings(others)
	return append(fields, others...)
}

// stringLinks are the links the project's string links make of the
// need's fields, by field: {"github": [{"name": ..., "url": ...}]}.
func (n *Need) stringLinks(p *Project) map[string]any {
	out := map[string]any{}
	for name, value := range n.Options {
		var list []any
		for _, l := range p.StringLinksOf(name, value) {
			list = append(list, map[string]any{"name": l.Name, "url": l.URL})
		}
		if list != nil {
			out[name] = list
		}
	}
	return out
}

func (n *Need) option(name string) any {
	if v, ok := n.Options[name]; ok {
		return v
	}
	return nil
}

func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// schema is the JSON schema of one need, with sphinx-needs' "field_type"
// for each field (core, links, backlinks, extra).
func schema(project *Project, links []string) map[string]any {
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
		"content":      prop("string", "core", "Content of the need, as its directive holds it."),
		"status":       prop([]string{"string", "null"}, "core", "Status of the need."),
		"tags":         strList("core", "Tags of the need."),
		"parent_need":  prop("string", "core", "ID of the need whose content holds this one, or empty."),
		"seg_kind":     prop("string", "extra", "seg's kind of the node: requirement, test, implementation, outcome, waiver or need."),
		"seg_verdict":  prop([]string{"string", "null"}, "extra", "seg's verdict on a requirement: satisfied or unsatisfied; null on other nodes."),
		"seg_status":   prop([]string{"string", "null"}, "extra", "seg's status of a requirement: satisfied, failing or unproven; null on other nodes."),
		"seg_revision": prop("string", "extra", "the fingerprint of what the need says (seg's docs/revisions.md); a link pinned to another revision is stale."),
	}
	for _, l := range links {
		out, in := l, l+" (incoming)"
		if lt := project.Link(l); lt != nil {
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
	if len(project.StringLinks) > 0 {
		props["seg_string_links"] = prop("object", "extra", "The links needs_string_links make of the need's fields: by field, a list of {name, url}.")
	}
	return map[string]any{
		"$schema":    "http://json-schema.org/draft-07/schema#",
		"type":       "object",
		"properties": props,
	}
}

// Docname is a file's path relative to the documentation's root (a slash
// path relative to the tree's root, "" for the root itself), without its
// suffix, as Sphinx names documents. A file outside the documentation's
// root keeps its path.
func Docname(docRoot, file string) string {
	if docRoot != "" {
		if rest, ok := strings.CutPrefix(file, docRoot+"/"); ok {
			file = rest
		}
	}
	return strings.TrimSuffix(file, path.Ext(file))
}

// SplitList splits a sphinx-needs list option (tags) on ",", ";" and "|",
// white space around each item dropped, empty items skipped.
func SplitList(v string) []string {
	out := []string{}
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// A File is a needs.json file as read (by needimport and external needs):
// the needs of one version, each with the line its entry starts on.
type File struct {
	Project, Version string
	Needs            []ReadNeed
}

// ReadNeed is one need of a needs.json file: its fields as JSON values
// (strings, []any, nil, bool, float64, maps), and the line and byte
// offset of its key.
type ReadNeed struct {
	Key          string
	Fields       map[string]any
	Line, Offset int
}

// Str returns a string field, "" when it is missing or not a string.
func (n *ReadNeed) Str(name string) string {
	s, _ := n.Fields[name].(string)
	return s
}

// Strings returns a list field (a list of strings, or a string split as
// sphinx-needs splits tags), nil when missing.
func (n *ReadNeed) Strings(name string) []string {
	switch v := n.Fields[name].(type) {
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		return SplitList(v)
	}
	return nil
}

// ReadFile reads needs.json data: the version named (its
// current_version when version is ""), its needs in the file's order.
func ReadFile(data []byte, version string) (*File, error) {
	var doc struct {
		Project        any                        `json:"project"`
		CurrentVersion any                        `json:"current_version"`
		Versions       map[string]json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a needs.json file: %v", err)
	}
	if version == "" {
		s, ok := doc.CurrentVersion.(string)
		if !ok {
			return nil, errors.New(`"current_version" is missing or not a string`)
		}
		version = s
	}
	raw, ok := doc.Versions[version]
	if !ok {
		return nil, fmt.Errorf("version %q is not in the file", version)
	}
	var v struct {
		Needs json.RawMessage `json:"needs"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("version %q: %v", version, err)
	}
	f := &File{Version: version}
	f.Project, _ = doc.Project.(string)
	// The needs in file order, each with the line its key is on: the
	// offset of the "needs" object in the file is found from the raw
	// message, which json keeps as a subslice of data.
	base := 0
	if len(v.Needs) > 0 {
		if i := bytes.Index(data, v.Needs); i >= 0 {
			base = i
		}
	}
	dec := json.NewDecoder(bytes.NewReader(v.Needs))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("version %q: \"needs\" is not an object", version)
	}
	line, at := 1, 0 // line is the line of data[at]
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		end := base + int(dec.InputOffset())
		line += bytes.Count(data[at:end], []byte{'\n'})
		at = end
		// The key's opening quote: the first unescaped one before its end.
		start := end - 1
		for start > 0 && !(data[start-1] == '"' && (start < 2 || data[start-2] != '\\')) {
			start--
		}
		var fields map[string]any
		if err := dec.Decode(&fields); err != nil {
			return nil, fmt.Errorf("need %q: %v", key, err)
		}
		f.Needs = append(f.Needs, ReadNeed{Key: key, Fields: fields, Line: line, Offset: max(start-1, 0)})
	}
	return f, nil
}
