package parser

import (
	"regexp"

	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs/model"
)

// DefaultIDPattern is the ID pattern used when the config names none.
const DefaultIDPattern = `^[A-Za-z0-9][A-Za-z0-9_.-]*$`

// Config is what the parser needs to know of the project's configuration.
// The zero value is not usable; start from DefaultConfig.
type Config struct {
	// Directives maps a lower-cased directive name to the kind of node it
	// makes.
	Directives map[string]Kind
	// Literal holds lower-cased names of directives whose content is not RST
	// and so holds no nodes.
	Literal map[string]bool
	// ExtraOptions are options any node may carry besides its kind's own;
	// they are kept as plain attributes.
	ExtraOptions map[string]bool
	// IDPattern is what every ID must match.
	IDPattern *regexp.Regexp
	// Exclude holds glob patterns (path.Match syntax plus "**" for any
	// number of folders) of files and folders the walker skips.
	Exclude []string
	// SourcelinkSuffix, when set, says the tree is a Sphinx HTML build's
	// _sources folder: every file name carries this suffix after its own
	// (".txt": index.rst is index.rst.txt). The listing reads documents
	// by it (package check).
	SourcelinkSuffix string
	// Needs, when set, are the tables of the sphinx-needs project the
	// tree belongs to (set them with UseNeeds): its need types are in
	// Directives, and a node whose directive is one of them takes
	// sphinx-needs' options and link syntax instead of its kind's. The
	// rest of the project (needs.Project, which holds these tables) is no
	// concern of the parser's.
	Needs *model.Tables
}

// DefaultLiteral lists directives whose content docutils or Sphinx does not
// parse as RST.
var DefaultLiteral = []string{
	"code-block", "code", "sourcecode", "literalinclude", "parsed-literal",
	"math", "raw", "csv-table", "graphviz", "digraph", "graph", "plantuml",
	"uml", "mermaid", "highlight", "testcode", "testoutput", "doctest",
	// sphinx-needs' filter and diagram directives: their content is a
	// query or a template, not RST.
	"needtable", "needlist", "needflow", "needpie", "needbar", "needgantt",
	"needsequence", "needextract", "needfilter", "needuml", "needarch",
	"list2need",
}

// defaultIDPattern is DefaultIDPattern compiled once: every run makes
// the default configuration more than once.
var defaultIDPattern = lazyre.New(DefaultIDPattern)

// DefaultConfig returns the configuration used when the tree has no
// seg.toml. Each call returns fresh maps the caller may change; the ID
// pattern is shared (a Regexp is safe for concurrent use).
func DefaultConfig() *Config {
	c := &Config{
		Directives: map[string]Kind{
			"req": Requirement, "sys": Requirement, "sreq": Requirement,
			"test":    Test,
			"impl":    Implementation,
			"outcome": Outcome,
			"waiver":  Waiver,
		},
		Literal:      map[string]bool{},
		ExtraOptions: map[string]bool{},
		IDPattern:    defaultIDPattern.Get(),
	}
	for _, d := range DefaultLiteral {
		c.Literal[d] = true
	}
	return c
}

// OptionsOf lists the options (besides "id") a kind takes, and whether
// each holds links.
func OptionsOf(k Kind) map[string]bool {
	return kindOptions[k]
}

var kindOptions = map[Kind]map[string]bool{
	Requirement:    {"refines": true},
	Test:           {"verifies": true, "cases": false, "max-age": false},
	Implementation: {"implements": true, "source": false},
	Outcome:        {"confirms": true, "witnesses": true, "result": false, "config": false, "date": false},
	Waiver:         {"excuses": true, "expires": false, "cases": false, "date": false},
}

// ListOptions are the options that are not links but are lists split like
// them, each entry with its place: test case patterns and source paths.
var ListOptions = map[string]bool{"cases": true, "source": true}

// StatefulLinks are the link options whose entries may carry a state.
var StatefulLinks = map[string]bool{"verifies": true, "implements": true}
