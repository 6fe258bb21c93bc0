package needs

import (
	"regexp"
	"strings"

	"github.com/seg-trace/seg/needs/model"
)

// NeedType is one need type of a sphinx-needs project, LinkType one link
// option: the tables the parser reads need directives by are package
// model's (Project holds them, as its Tables).
type (
	NeedType = model.NeedType
	LinkType = model.LinkType
)

// Project is a sphinx-needs project as seg reads it. Build it with
// NewProject and the Add methods (or Load) before parsing; from then on
// everybody only reads it.
type Project struct {
	// Tables are what the parser reads need directives by: the need
	// types and link types (in the project's order; Links starts with
	// sphinx-needs' own "links" and "parent_needs" unless the project
	// redefines them), the extra options, the ID and title rules.
	model.Tables
	// IDRequiredSet and IDPatternSet: the project file sets id_required
	// and id_regex (an extension's defaults apply only where it does not).
	IDRequiredSet, IDPatternSet bool
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
	n := &Project{}
	n.IDLength, n.MaxTitleLength = 5, -1
	for _, o := range CoreOptions[1:] { // ":id:" is every node's
		n.AddCoreOption(o)
	}
	n.AddLink(LinkType{Option: "links", Incoming: "links incoming", Outgoing: "links outgoing"})
	n.AddLink(LinkType{Option: "parent_needs", Incoming: "child needs", Outgoing: "parent needs"})
	return n
}

// ClearDefaultTypes removes the need types when they are exactly
// sphinx-needs' defaults (DefaultTypes), as S-CORE's metamodel extension
// does before it adds its own; it reports whether it did.
func (n *Project) ClearDefaultTypes() bool {
	defs := DefaultTypes()
	if len(n.Types) != len(defs) {
		return false
	}
	for i, t := range n.Types {
		if t.Directive != defs[i].Directive {
			return false
		}
	}
	n.RemoveTypes()
	return true
}

// Type returns the need type of a lower-cased directive name, or nil.
// It is safe on a nil *Project.
func (n *Project) Type(directive string) *NeedType {
	if n == nil {
		return nil
	}
	return n.Tables.Type(directive)
}

// Link returns the link type of a lower-cased option name, or nil.
func (n *Project) Link(option string) *LinkType {
	if n == nil {
		return nil
	}
	return n.Tables.Link(option)
}

// Takes reports whether a need takes the (lower-cased) option.
func (n *Project) Takes(option string) bool {
	return n != nil && n.Tables.Takes(option)
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
// It is safe on a nil *Project.
func (n *Project) IsExtra(name string) bool { return n != nil && n.Tables.IsExtra(name) }

// Fingerprint is the Fingerprint of the project's Tables: what of the
// project can change the parse of a file. It is "" for a nil project.
func (n *Project) Fingerprint() string {
	if n == nil {
		return ""
	}
	return n.Tables.Fingerprint()
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
