package model

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Tables are what of a sphinx-needs project the parser reads a need
// directive by: the need types, the link types, the options a need
// takes, the ID rules and the title rules. Package needs fills them (a
// needs.Project holds its Tables) before parsing; from then on everybody
// only reads them. The zero value is an empty project.
type Tables struct {
	// Types and Links are in the project's order; Links starts with
	// sphinx-needs' own "links" and "parent_needs" unless the project
	// redefines them.
	Types []*NeedType
	Links []*LinkType
	// Extra lists the project's extra options (fields), in order.
	Extra []string
	// IDRequired: when false, a need without :id: is no error (sphinx-needs
	// generates an ID for it); seg leaves such a need out of the graph.
	IDRequired bool
	// IDPattern is what a need's ID must match (the project's id_regex);
	// nil means the parser's own pattern, which seg's own nodes always use.
	IDPattern *regexp.Regexp
	// IDLength and IDFromTitle shape the IDs sphinx-needs generates
	// (needs_id_length, needs_id_from_title; HashedID).
	IDLength    int
	IDFromTitle bool
	// TitleFromContent gives a need without a title the first sentence
	// of its content; MaxTitleLength trims such a title (-1: never).
	TitleFromContent bool
	MaxTitleLength   int

	types   map[string]*NeedType
	links   map[string]*LinkType
	options map[string]bool // every option a need takes, links included
}

// AddType adds (or replaces) a need type.
func (n *Tables) AddType(t NeedType) *NeedType {
	t.Directive = strings.ToLower(t.Directive)
	return addNamed(&n.Types, &n.types, t.Directive, t)
}

// addNamed adds v to list and to index under key, or replaces in its
// place the entry index already has under key.
func addNamed[T any](list *[]*T, index *map[string]*T, key string, v T) *T {
	if old := (*index)[key]; old != nil {
		*old = v
		return old
	}
	if *index == nil {
		*index = map[string]*T{}
	}
	p := &v
	*list = append(*list, p)
	(*index)[key] = p
	return p
}

// RemoveTypes removes every need type.
func (n *Tables) RemoveTypes() {
	n.Types = nil
	clear(n.types)
}

// AddLink adds (or replaces) a link type.
func (n *Tables) AddLink(l LinkType) *LinkType {
	l.Option = strings.ToLower(l.Option)
	n.AddCoreOption(l.Option)
	return addNamed(&n.Links, &n.links, l.Option, l)
}

// AddOption adds an extra option (field) every need takes.
func (n *Tables) AddOption(name string) {
	name = strings.ToLower(name)
	if !n.options[name] {
		n.Extra = append(n.Extra, name)
	}
	n.AddCoreOption(name)
}

// AddCoreOption makes every need take the (lower-cased) option, which is
// no extra option: one sphinx-needs itself gives every need.
func (n *Tables) AddCoreOption(name string) {
	if n.options == nil {
		n.options = map[string]bool{}
	}
	n.options[name] = true
}

// Type returns the need type of a lower-cased directive name, or nil.
// It is safe on nil *Tables.
func (n *Tables) Type(directive string) *NeedType {
	if n == nil {
		return nil
	}
	return n.types[directive]
}

// Link returns the link type of a lower-cased option name, or nil. It is
// safe on nil *Tables.
func (n *Tables) Link(option string) *LinkType {
	if n == nil {
		return nil
	}
	return n.links[option]
}

// Takes reports whether a need takes the (lower-cased) option. It is safe
// on nil *Tables.
func (n *Tables) Takes(option string) bool {
	return n != nil && (option == "id" || n.options[option])
}

// IsExtra reports whether name is one of the project's extra options. It
// is safe on nil *Tables.
func (n *Tables) IsExtra(name string) bool {
	return n != nil && slices.Contains(n.Extra, name)
}

// Options is the set of options a need takes besides ":id:", link types
// included. It is shared: callers must not change it.
func (n *Tables) Options() map[string]bool { return n.options }

// Fingerprint is a canonical text of what of the tables can change the
// parse of a file (for the parse cache's key): the need types and their
// kinds and prefixes, the link types, the seg edges they map onto (in
// every form of the mapping) and whether they read conditions, the
// options and the ID and title rules. It is "" for nil *Tables.
func (n *Tables) Fingerprint() string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, t := range n.Types {
		parts = append(parts, fmt.Sprintf("type %q %q prefix %q", t.Directive, t.Kind, t.Prefix))
	}
	for _, l := range n.Links {
		// Edge, Auto and Edges decide which entries take seg's "(state)"
		// suffix (Stateful, StateOption).
		parts = append(parts, fmt.Sprintf("link %q %q auto=%v edges=%q conditions=%v", l.Option, l.Edge, l.Auto, l.Edges, !l.NoConditions))
	}
	for o := range n.options {
		parts = append(parts, fmt.Sprintf("option %q", o))
	}
	sort.Strings(parts)
	pat := "<none>"
	if n.IDPattern != nil {
		pat = n.IDPattern.String()
	}
	return fmt.Sprintf("needs id_required=%v id_pattern=%q id_length=%d id_from_title=%v title_from_content=%v max_title_length=%d\n%s",
		n.IDRequired, pat, n.IDLength, n.IDFromTitle, n.TitleFromContent, n.MaxTitleLength, strings.Join(parts, "\n"))
}
