package needs

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

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
	// ("refines", "verifies" or "implements"), or "".
	Edge string
}

// Stateful reports whether the link type's entries may carry seg's own
// "(state)" suffix: it is mapped onto verifies or implements.
func (l *LinkType) Stateful() bool { return l.Edge == "verifies" || l.Edge == "implements" }

// Project is a sphinx-needs project as seg reads it. Build it with
// NewProject and the Add methods (or Load) before parsing; from then on
// everybody only reads it.
type Project struct {
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
	// Project and Version name the project and its version in needs.json.
	Project, Version string
	// DocRoot is the folder, relative to the tree's root (forward
	// slashes, "" for the root itself), that needs.json docnames are
	// relative to: Sphinx's source folder.
	DocRoot string
	// File is the project file read (ubproject.toml or conf.py), "" when
	// the project has sphinx-needs' defaults; Raw is its bytes.
	File string
	Raw  []byte

	types   map[string]*NeedType
	links   map[string]*LinkType
	options map[string]bool // every option a need takes, links included
}

// CoreOptions are the options sphinx-needs itself gives every need
// besides its link types (":id:" included).
var CoreOptions = []string{
	"id", "status", "tags", "collapse", "delete", "jinja_content", "hide",
	"title_from_content", "style", "layout", "template", "pre_template",
	"post_template", "constraints", "constraints_passed",
	"constraints_results", "duration", "completion",
}

// DefaultTypes are sphinx-needs' need types when the project defines
// none.
func DefaultTypes() []NeedType {
	return []NeedType{
		{Directive: "req", Title: "Requirement", Prefix: "R_", Color: "#BFD8D2", Style: "node"},
		{Directive: "spec", Title: "Specification", Prefix: "S_", Color: "#FEDCD2", Style: "node"},
		{Directive: "impl", Title: "Implementation", Prefix: "I_", Color: "#DF744A", Style: "node"},
		{Directive: "test", Title: "Test Case", Prefix: "T_", Color: "#DCB239", Style: "node"},
	}
}

// DefaultIDPattern is sphinx-needs' id_regex when the project sets none.
// sphinx-needs matches it at the start of the ID only (Python's re.match),
// as the leading "^" does here.
const DefaultIDPattern = `^[A-Z0-9_]{5,}`

// NewProject returns a project with sphinx-needs' two built-in link types
// and no need type.
func NewProject() *Project {
	n := &Project{types: map[string]*NeedType{}, links: map[string]*LinkType{}, options: map[string]bool{}}
	for _, o := range CoreOptions[1:] { // ":id:" is every node's
		n.options[o] = true
	}
	n.AddLink(LinkType{Option: "links", Incoming: "links incoming", Outgoing: "links outgoing"})
	n.AddLink(LinkType{Option: "parent_needs", Incoming: "child needs", Outgoing: "parent needs"})
	return n
}

// AddType adds (or replaces) a need type.
func (n *Project) AddType(t NeedType) *NeedType {
	t.Directive = strings.ToLower(t.Directive)
	if old := n.types[t.Directive]; old != nil {
		*old = t
		return old
	}
	p := &t
	n.Types = append(n.Types, p)
	n.types[t.Directive] = p
	return p
}

// AddLink adds (or replaces) a link type.
func (n *Project) AddLink(l LinkType) *LinkType {
	l.Option = strings.ToLower(l.Option)
	n.options[l.Option] = true
	if old := n.links[l.Option]; old != nil {
		*old = l
		return old
	}
	p := &l
	n.Links = append(n.Links, p)
	n.links[l.Option] = p
	return p
}

// AddOption adds an extra option (field) every need takes.
func (n *Project) AddOption(name string) {
	name = strings.ToLower(name)
	if !n.options[name] {
		n.Extra = append(n.Extra, name)
	}
	n.options[name] = true
}

// Type returns the need type of a lower-cased directive name, or nil.
// It is safe on a nil *Project.
func (n *Project) Type(directive string) *NeedType {
	if n == nil {
		return nil
	}
	return n.types[directive]
}

// Link returns the link type of a lower-cased option name, or nil.
func (n *Project) Link(option string) *LinkType {
	if n == nil {
		return nil
	}
	return n.links[option]
}

// Takes reports whether a need takes the (lower-cased) option.
func (n *Project) Takes(option string) bool {
	return n != nil && (option == "id" || n.options[option])
}

// Options is the set of options a need takes besides ":id:", link types
// included. It is shared: callers must not change it.
func (n *Project) Options() map[string]bool { return n.options }

// Fingerprint is a canonical text of what of the project can change the
// parse of a file (for the parse cache's key): the need types and their
// kinds, the link types and the seg edges they map onto, the options and
// id_required. It is "" for a nil project.
func (n *Project) Fingerprint() string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, t := range n.Types {
		parts = append(parts, fmt.Sprintf("type %q %q", t.Directive, t.Kind))
	}
	for _, l := range n.Links {
		parts = append(parts, fmt.Sprintf("link %q %q", l.Option, l.Edge))
	}
	for o := range n.options {
		parts = append(parts, fmt.Sprintf("option %q", o))
	}
	sort.Strings(parts)
	pat := "<none>"
	if n.IDPattern != nil {
		pat = n.IDPattern.String()
	}
	return fmt.Sprintf("needs id_required=%v id_pattern=%q\n%s", n.IDRequired, pat, strings.Join(parts, "\n"))
}
