package needs

import (
	"fmt"
	"regexp"
	"slices"
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
	// ("refines", "verifies" or "implements"), or "". Auto, Reverse and
	// Edges are the other forms of [needs.links] (linkmap.go).
	Edge    string
	Auto    bool
	Reverse bool
	Edges   []string
	// NoConditions: the link type's parse_conditions is false, so
	// brackets after an ID are part of the ID (sphinx-needs reads no
	// condition there).
	NoConditions bool
}

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
	// IDLength and IDFromTitle shape the IDs sphinx-needs generates
	// (needs_id_length, needs_id_from_title; HashedID).
	IDLength    int
	IDFromTitle bool
	// TitleFromContent gives a need without a title the first sentence
	// of its content; MaxTitleLength trims such a title (-1: never).
	TitleFromContent bool
	MaxTitleLength   int
	// Project and Version name the project and its version in needs.json.
	Project, Version string
	// SortLinks: the project targets sphinx-needs 8.2 or later, which
	// writes needs.json's link lists sorted and deduplicated
	// (TargetsSortedLinks).
	SortLinks bool
	// DocRoot is the folder, relative to the tree's root (forward
	// slashes, "" for the root itself), that needs.json docnames are
	// relative to: Sphinx's source folder.
	DocRoot string
	// SrcDir is Sphinx's source folder on disk (where conf.py is): paths
	// of the configuration are relative to it.
	SrcDir string
	// External are the needs_external_needs sources.
	External []ExternalSource
	// Fetched maps a URL (of an external source or a needimport) to the
	// local file that stands for it (seg.toml's [needs] external, or
	// --needs-file): seg never fetches anything.
	Fetched map[string]string
	// StringLinks are the needs_string_links entries, by name.
	StringLinks []StringLink
	// Suppress is Sphinx's suppress_warnings; ExcludePatterns its
	// exclude_patterns (relative to SrcDir). Both come from conf.py.
	Suppress        []string
	ExcludePatterns []string
	// Extensions are the Sphinx extensions conf.py loads (when it says).
	Extensions []string
	// ImportKeys are needs_import_keys: a needimport argument that is a
	// key stands for its path.
	ImportKeys map[string]string
	// FilterData are needs_filter_data: names every filter string can
	// read besides the need's fields, as filter values (FilterValue).
	FilterData map[string]any
	// FilterDataUnknown: conf.py computes needs_filter_data, so a name a
	// filter reads that is no field may be one of them.
	FilterDataUnknown bool
	// VariantData are needs_variant_data (nested maps of filter values),
	// what a variant data reference "<{ var.a.b }>" reads; VariantKnown
	// says seg knows them (a needs_variant_data_file it cannot read, or
	// one a build chooses, leaves them unknown).
	VariantData  map[string]any
	VariantKnown bool
	// File is the project file read (ubproject.toml or conf.py), "" when
	// the project has sphinx-needs' defaults; Raw is its bytes (and those
	// of the conf.py that named it), for cache keys.
	File string
	Raw  []byte

	types    map[string]*NeedType
	links    map[string]*LinkType
	options  map[string]bool // every option a need takes, links included
	nullable map[string]bool // extra options whose value when not set is None
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
	n := &Project{types: map[string]*NeedType{}, links: map[string]*LinkType{}, options: map[string]bool{},
		IDLength: 5, MaxTitleLength: -1}
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

// SetNullable makes an extra option nullable (a field's nullable = true):
// not set, its value is None rather than "".
func (n *Project) SetNullable(name string) {
	if n.nullable == nil {
		n.nullable = map[string]bool{}
	}
	n.nullable[strings.ToLower(name)] = true
}

// Unset is the value of an extra option a need does not set, as
// sphinx-needs gives it: "" (its default), nil for a nullable one.
func (n *Project) Unset(name string) any {
	if n != nil && n.nullable[name] {
		return nil
	}
	return ""
}

// IsExtra reports whether name is one of the project's extra options.
func (n *Project) IsExtra(name string) bool {
	if n == nil {
		return false
	}
	for _, e := range n.Extra {
		if e == name {
			return true
		}
	}
	return false
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
		parts = append(parts, fmt.Sprintf("type %q %q prefix %q", t.Directive, t.Kind, t.Prefix))
	}
	for _, l := range n.Links {
		parts = append(parts, fmt.Sprintf("link %q %q conditions=%v", l.Option, l.Edge, !l.NoConditions))
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

// ExternalSource is one entry of needs_external_needs: a needs.json whose
// needs this project links to without owning them.
type ExternalSource struct {
	// JSONPath is a local file (relative to Base), JSONURL one to fetch;
	// exactly one is set.
	JSONPath, JSONURL string
	// Base is the folder a relative JSONPath starts from: the folder of
	// the file that names it (conf.py's, or a ubproject.toml's, which
	// may be in a subfolder of conf.py's).
	Base string
	// Version is the version to read ("": the file's current_version).
	Version string
	// IDPrefix goes before every ID (upper-cased, as sphinx-needs does).
	IDPrefix string
	BaseURL  string
	// Line is the line of the entry in the project file, 0 when unknown.
	Line int
}

// StringLink is one entry of needs_string_links: values of the named
// fields that match Regex render as links.
type StringLink struct {
	Name              string
	Regex             *regexp.Regexp
	LinkURL, LinkName string
	Options           []string
}
