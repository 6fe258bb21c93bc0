package model

import "slices"

// NeedType is one need type of a sphinx-needs project.
type NeedType struct {
	// Directive is the lower-cased directive name; it is also the need's
	// "type" in needs.json.
	Directive string
	// Title is the human-readable name ("type_name" in needs.json).
	Title  string
	Prefix string
	Color  string
	Style  string
	// Kind is the seg kind seg.toml maps the type onto ("requirement",
	// "test" or "implementation"), "" when it maps onto none: then the
	// need is a node of seg's kind "need", which no rule reads.
	Kind string
}

// LinkType is one link option of a sphinx-needs project.
type LinkType struct {
	// Option is the lower-cased option name ("links", "blocks", ...); the
	// back links are "<Option>_back" in needs.json.
	Option string
	// Incoming and Outgoing are the titles of the two directions.
	Incoming, Outgoing string
	// Copy: the option's targets are also copied into "links".
	Copy bool
	// AllowDead: a target that is not defined is no error.
	AllowDead bool
	// Edge is the seg link option seg.toml maps this one onto
	// ("refines", "verifies" or "implements"), or "". Auto, Reverse and
	// Edges are the other forms of [needs.links] (needs.LinkMap).
	Edge    string
	Auto    bool
	Reverse bool
	Edges   []string
	// NoConditions: the link type's parse_conditions is false, so
	// brackets after an ID are part of the ID (sphinx-needs reads no
	// condition there).
	NoConditions bool
}

// AutoEdges are the edges "auto" chooses among, in the order tried.
var AutoEdges = []string{"refines", "verifies", "implements", "confirms"}

// Stateful reports whether the link type's entries may carry seg's own
// "(state)" suffix: it may make a verifies or implements edge.
func (l *LinkType) Stateful() bool {
	edges, _ := l.Candidates()
	return slices.Contains(edges, "verifies") || slices.Contains(edges, "implements")
}

// StateOption is the link option whose states the link type's entries
// take: "verifies" when it may make a verifies or implements edge (both
// take the same states), else its Edge.
func (l *LinkType) StateOption() string {
	if l.Stateful() {
		return "verifies"
	}
	return l.Edge
}

// Mapped reports whether the link type makes seg edges (any mapping).
func (l *LinkType) Mapped() bool { return l.Edge != "" || l.Auto || len(l.Edges) > 0 }

// Candidates are the edges an entry of the link type may make, in the
// order they are tried; reversed says the need named is the edge's
// start.
func (l *LinkType) Candidates() (edges []string, reversed bool) {
	switch {
	case l.Auto:
		return AutoEdges, false
	case len(l.Edges) > 0:
		return l.Edges, false
	case l.Edge != "":
		return []string{l.Edge}, l.Reverse
	}
	return nil, false
}
