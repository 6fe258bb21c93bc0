package parser

import (
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// Kind is what a node is in the traceability graph.
type Kind uint8

const (
	Requirement Kind = iota + 1
	Test
	Implementation
	Outcome
	Waiver
	// Need is a sphinx-needs need whose type seg.toml maps onto none of
	// the kinds above (package needs): it is read, resolved and shown,
	// and no rule applies to it.
	Need
	// Instruction is a sphinx-needs directive that makes no node of its
	// own but says something about needs (needextend, needimport): the
	// parser reads its argument (Title) and options, which takes any
	// option and no ID, and it never reaches the graph.
	Instruction
)

var kindNames = [...]string{
	Requirement:    "requirement",
	Test:           "test",
	Implementation: "implementation",
	Outcome:        "outcome",
	Waiver:         "waiver",
	Need:           "need",
	Instruction:    "instruction",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// KindByName maps "requirement", "test", ... back to a Kind.
func KindByName(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n != "" && n == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// State is the state written on a verifies or implements link entry.
type State uint8

const (
	Active State = iota // the default when none is written
	Suspect
	Retired
	// InvalidState marks an entry whose state is outside the vocabulary. It
	// is never active, so bad input cannot make evidence appear.
	InvalidState
)

func (s State) String() string {
	switch s {
	case Active:
		return "active"
	case Suspect:
		return "suspect"
	case Retired:
		return "retired"
	}
	return "invalid"
}

// Link is one entry of a link option: a target ID and, for verifies and
// implements, a state.
type Link struct {
	ID    string
	State State
	// StateText is the state as written, "" when none was written.
	StateText string
	// Span covers the ID (and its state, when written).
	Span source.Span
	// Part and Condition are set on the entries of a sphinx-needs link
	// option only (model.SplitLinks): "ID.part[condition]" has ID "ID",
	// Part "part" and Condition "condition". The graph evaluates the
	// condition against the target (graph.Condition).
	Part      string `json:",omitempty"`
	Condition string `json:",omitempty"`
	// Partial marks a verifies link that verifies its requirement only in
	// part: set on the links of a test specification made from a results
	// case's PartiallyVerifies property (package results), never by the
	// parser.
	Partial bool `json:",omitempty"`
}

// Option is one field of a directive's option list. Value joins
// continuation lines with single spaces.
type Option struct {
	Name     string
	Value    string
	Pos      source.Pos // the field marker's first colon
	ValuePos source.Pos // the first byte of the value, or the end of the marker when empty
	// Links holds the parsed entries of a link option, and the patterns
	// of a test's :cases: (with no state), each with its exact span; nil
	// otherwise.
	Links []Link
}

// Node is one seg directive found in a file.
type Node struct {
	Kind      Kind
	Directive string // the directive name, lower-cased
	ID        string // "" when :id: is missing
	Title     string
	Pos       source.Pos // the ".." that starts the directive
	Options   []Option
	Body      string // the directive's content, verbatim, dedented
	// Parent is the index in File.Nodes of the innermost node whose body
	// holds this one, or -1. Nesting alone makes no edge.
	Parent int
	// Broken is set when the node has an error diagnostic of its own (an
	// unknown option, an invalid value, a missing ID...): such an outcome
	// can only count against a requirement (semantics.md).
	Broken bool `json:",omitempty"`
	// Revision is the fingerprint of the node's text (package revision); an
	// implementation's adds its :source: files once they are read.
	Revision uint64 `json:",omitempty"`
	// FromResults marks an outcome made from a test results file (package
	// results), and CaseNames are the names its case goes by (the first is
	// its name; pytest's node IDs and the like follow): waivers match
	// them, and no pin applies to such an outcome.
	FromResults bool     `json:",omitempty"`
	CaseNames   []string `json:",omitempty"`
	// External is set on a need of another project (needs_external_needs,
	// made by package postprocess, never by the parser): links may
	// name it, and no rule reads it.
	External bool `json:",omitempty"`
	// Imported is set on a need a needimport made (package
	// postprocess, never the parser): its parts are in the
	// needs.json it came from, which seg does not read, so a link to one
	// of them is not checked.
	Imported bool `json:",omitempty"`
}

// Option returns the first option called name, or nil.
func (n *Node) Option(name string) *Option {
	for i := range n.Options {
		if n.Options[i].Name == name {
			return &n.Options[i]
		}
	}
	return nil
}

// IDPos is the position of the :id: value, or the directive's when absent.
func (n *Node) IDPos() source.Pos {
	if o := n.Option("id"); o != nil {
		return o.ValuePos
	}
	return n.Pos
}

// File is what parsing one file yields: its nodes in source order and the
// diagnostics found in it, sorted by position.
type File struct {
	Path string // relative to the root, forward slashes
	// Source is the file in the run's FileSet: every position of the
	// nodes and diagnostics points into it.
	Source      *source.File
	Nodes       []Node
	Diagnostics diag.List
	// Rejected are the outcomes docutils rejects (a repeated option, a
	// malformed option block), with the options that could be read. They
	// are not nodes of the document, but each counts against the tests
	// its :confirms: names, as an outcome that did not pass.
	Rejected []Node `json:",omitempty"`
	// Ignores are the file's suppression comments (ignore.go), in order.
	Ignores []Ignore `json:",omitempty"`
	// HasInclude: the file has an ".. include::" directive where docutils
	// runs it (Includes finds them). A run follows the includes of such
	// files only, and a report that depends on included bytes is never
	// stored; it comes from the parse, so an unchanged file's parse from
	// the cache says it without the file being read again.
	HasInclude bool `json:",omitempty"`
}

// Position resolves a position of this file's nodes or diagnostics.
func (f *File) Position(p source.Pos) source.Position {
	if f.Source == nil || !p.SameFile(f.Source.Whole()) {
		return source.Position{Offset: -1}
	}
	return f.Source.Position(p.Offset())
}
