// Package revref is a reference for the rules of evidence that still
// applies (shared/spec/revisions.md and semantics.md), written from the
// spec and docs/revisions.md alone and sharing no code with seg: it makes
// random trees of real files (RST, source files, seg.toml, seg.lock),
// computes every node's revision from the documented canonical form, reads
// seg.lock itself and decides every requirement's status by a plain
// fixed-point iteration over maps. Tests run seg on the same files and
// compare.
//
// Nothing here imports seg's packages: the reference knows the tree
// because it made it, so it never parses RST.
package revref

import (
	"strings"
	"time"
)

// Kind is a node's kind, as the revision's canonical form names it.
type Kind int

const (
	Requirement Kind = iota
	Test
	Implementation
	Outcome
	Waiver
)

var kindNames = [...]string{"requirement", "test", "implementation", "outcome", "waiver"}

func (k Kind) String() string { return kindNames[k] }

// linkOptions are the link options, each with the kinds its entries may
// name (format.md).
var linkOptions = map[string][]Kind{
	"refines":    {Requirement},
	"verifies":   {Requirement},
	"implements": {Requirement},
	"confirms":   {Test},
	"witnesses":  {Implementation},
	"excuses":    {Outcome, Test},
}

// Node is one directive the generator wrote.
type Node struct {
	Kind      Kind
	Directive string
	ID        string
	// Title holds the argument's lines as written: the first follows the
	// "::", the others are continuation lines before the options.
	Title   []string
	Options []*Option // in the order written, :id: included
	Body    []Part
	// Indent is how far the option and content block sits right of the
	// directive's "..".
	Indent int
	// Tabs: indentation of 8 columns or more is written with tabs.
	Tabs bool

	// Where the writer put the directive's "..".
	File      string
	Line, Col int
	Parent    *Node
	// Broken: a link entry of the node makes no edge (an unresolved
	// link or one to a node of the wrong kind), an error on the node.
	Broken bool
	// content is the node's content as written, line by line, without
	// the lines of the nodes nested in it.
	content []string
}

// Option is one field of a node's option block.
type Option struct {
	Name string
	// Lines is the value as written: Lines[0] follows the field marker
	// ("" when the value starts on the next line), the rest are
	// continuation lines.
	Lines []string
	// ContIndent is how much further than the field marker continuation
	// lines are indented.
	ContIndent int
	// Entries are a link option's or :source:'s entries.
	Entries []*Entry
}

// Value is the option's value with its lines joined by single spaces.
func (o *Option) Value() string {
	var parts []string
	for _, l := range o.Lines {
		if l = strings.Trim(l, " \t"); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// Entry is one entry of a list option.
type Entry struct {
	Text  string // the ID or the path
	State string // the state in parentheses, "" for none
	// line is the index in Option.Lines, off the byte offset of Text in it.
	line, off int
	// Line and Col are its position once written.
	Line, Col int
}

// Part is one piece of a node's content: lines of text, or a nested node.
type Part struct {
	// Lines are text lines relative to the content's indentation; a line
	// of white space only is blank.
	Lines []string
	Node  *Node
	// Wrap is what holds a nested node: "" (the node itself), "note" (a
	// note directive), "item" (a bullet list item).
	Wrap string
}

// opt is the node's option named name, or nil.
func (n *Node) opt(name string) *Option {
	for _, o := range n.Options {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Link is one link entry that made an edge.
type Link struct {
	Type     string // the link option's name
	From, To *Node
	State    string
	Entry    *Entry
}

// Key is how seg.lock names a link.
func (l *Link) Key() string { return l.From.ID + " " + l.Type + " " + l.To.ID }

// Tree is a generated tree: its nodes, its files as written and its
// settings.
type Tree struct {
	Seed  uint64
	At    time.Time
	Nodes []*Node
	ByID  map[string]*Node
	Links []*Link
	// Files maps each file's path (relative to the root, forward
	// slashes) to its bytes: RST files, source files, seg.toml, seg.lock.
	Files map[string]string
	// Sources are the source files (paths), a subset of Files.
	Sources []string

	Strict     bool
	MaxAgeDays int // 0: no global maximum age
	Extra      bool

	// Hits counts what the generator wrote (nested nodes, tabs, line
	// ends...), for the test's coverage report.
	Hits map[string]int
}
