// Package graph holds the traceability graph: the nodes read from the tree,
// the edges their link options make, and the diagnostics that only the whole
// graph can show (unresolved links, duplicate IDs, cycles, ...).
//
// A Graph is immutable once Build returns it: every field is unexported and
// every accessor returns a value, a copy or an iterator, so the evaluator and
// the reports cannot change what they were given.
//
// A client that builds again after every edit hands BuildMemo a Memo;
// where the edit allows, the build patches the last graph (patch.go) and
// the Memo's Delta says which nodes it made anew. Every graph carries a
// generation, and a Delta names the two it joins; only this package
// makes a Delta (delta.go), so a reader of one (evaluate.Update) is
// never handed a list of changes that is not the graph's own.
package graph

import (
	"iter"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// The diagnostic codes of the graph: what only the whole tree can show.
var (
	CodeDuplicateID     = diag.NewError("duplicate-id", "two nodes share an ID")
	CodeUnresolvedLink  = diag.NewError("unresolved-link", "a link to an ID that is not defined")
	CodeWrongKind       = diag.NewError("wrong-kind", "a link to a node of the wrong kind")
	CodeRefinementCycle = diag.NewError("refinement-cycle", "requirements refine each other in a cycle")
	CodeOrphanTest      = diag.NewWarning("orphan-test", "a test specification that verifies nothing")
	CodeDuplicateLink   = diag.NewWarning("duplicate-link", "the same target twice in one link option")
)

// EdgeType names what a link option means.
type EdgeType uint8

const (
	Refines EdgeType = iota + 1
	Verifies
	Implements
	Confirms
	Witnesses
	Excuses
	// Link is a sphinx-needs link that is none of the six above: an
	// unmapped link option, or a mapped one whose ends do not fit the seg
	// edge (docs/sphinx-needs.md). Edge.Option names it. No rule reads it.
	Link
)

var edgeNames = [...]string{
	Refines:    "refines",
	Verifies:   "verifies",
	Implements: "implements",
	Confirms:   "confirms",
	Witnesses:  "witnesses",
	Excuses:    "excuses",
	Link:       "link",
}

func (t EdgeType) String() string {
	if int(t) < len(edgeNames) {
		return edgeNames[t]
	}
	return "unknown"
}

// edgeSpec says, for each link option, which edge it makes and what kind of
// node it must point at.
var edgeSpec = map[string]struct {
	typ    EdgeType
	from   parser.Kind
	target parser.Kind
	// also is a second kind the link may name (a waiver excuses an
	// outcome, or a test specification's outcomes).
	also parser.Kind
}{
	"refines":    {Refines, parser.Requirement, parser.Requirement, 0},
	"verifies":   {Verifies, parser.Test, parser.Requirement, 0},
	"implements": {Implements, parser.Implementation, parser.Requirement, 0},
	"confirms":   {Confirms, parser.Outcome, parser.Test, 0},
	"witnesses":  {Witnesses, parser.Outcome, parser.Implementation, 0},
	"excuses":    {Excuses, parser.Waiver, parser.Outcome, parser.Test},
}

// Result is an outcome's :result:.
type Result uint8

const (
	// ResultInvalid is a missing or unknown result: never evidence.
	ResultInvalid Result = iota
	Passed
	Failed
	Skipped
	ResultError
)

func (r Result) String() string {
	switch r {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	case ResultError:
		return "error"
	}
	return "invalid"
}

// ParseResult maps a :result: value onto a Result.
func ParseResult(s string) Result {
	switch s {
	case "passed":
		return Passed
	case "failed":
		return Failed
	case "skipped":
		return Skipped
	case "error":
		return ResultError
	}
	return ResultInvalid
}

// Node is one node of the graph. Its methods only read.
//
// A large tree has hundreds of thousands of nodes, and a language
// server holds two graphs while it analyses an edit: what only one kind
// of node has (an outcome's options, a waiver's) is behind a pointer, nil
// for the other kinds, and the flags sit together.
type Node struct {
	index int
	id    string
	kind  parser.Kind
	// outcome: its :result:
	result Result
	// sphinx-needs: the node is a need (its directive is a need type);
	// partsKnown is false where seg cannot tell a need's parts (a need of
	// another project, a node that is no need).
	need       bool
	external   bool
	partsKnown bool
	// broken: an error diagnostic is about the node itself (its options,
	// its ID, one of its link entries)
	broken bool
	// shadow marks an outcome kept though no link can reach it (no :id:,
	// or an ID defined before): its ID is a name shadowID made.
	shadow bool
	// outcome from a results file (its case's names are in oc)
	fromResults bool
	// test: :max-age: is written (maxAge is 0 when it is not a positive
	// whole number)
	hasMaxAge bool
	// pn is the node's parse: its directive, title, position and body
	// (the directive's content, verbatim and dedented: a waiver's
	// justification, a need's content) are read there. Parses are never
	// changed once made, and the graph's builder holds them anyway.
	pn    *parser.Node
	attrs []Attr
	// sphinx-needs: the ID of the node whose body holds it ("" at the top
	// level)
	parent   string
	revision uint64
	// implementation: :source:
	sources string
	// test: :cases:, and :max-age: in days
	cases  string
	maxAge int
	// oc is an outcome's (nil for other nodes), more a waiver's and a
	// need's parts (nil when there are none).
	oc   *outcomeData
	more *moreData

	// out are the node's own edges, sorted by (type, target, position);
	// in points at the edges into it, in (source, type, target, position)
	// order. A node owns its edges: a graph built again after an edit
	// shares every node it did not have to change, edges and all, with
	// the graph before (Memo).
	out []Edge
	in  []*Edge
}

// outcomeData is what an outcome node has of its own. (Its fields are
// exported so that tests comparing graphs field by field read them.)
type outcomeData struct {
	ResultRaw string // :result: as written
	Config    string
	// Date is :date:, HasDate that one is written, DateOK that it is a
	// valid date.
	Date            time.Time
	HasDate, DateOK bool
	// CaseNames are the names of the results case it was made from.
	CaseNames []string
}

// moreData is what a waiver has of its own, and a need's parts.
type moreData struct {
	Expires               time.Time
	HasExpires, ExpiresOK bool
	ExpiresText           string
	// Date is the waiver's :date:, as outcomeData's.
	Date            time.Time
	HasDate, DateOK bool
	// WaiverCases are its :cases: patterns, CasesPos where they are
	// written.
	WaiverCases []string
	CasesPos    source.Pos
	// Parts are the need parts a need of the tree defines
	// (parser.NeedParts), sorted.
	Parts []string
}

// noOutcome and noMore stand for the data of a node that has none.
var (
	noOutcome outcomeData
	noMore    moreData
)

// noParse stands for the parse of a node made without one (in tests).
var noParse parser.Node

func (n *Node) parse() *parser.Node {
	if n.pn == nil {
		return &noParse
	}
	return n.pn
}

func (n *Node) outcome() *outcomeData {
	if n.oc == nil {
		return &noOutcome
	}
	return n.oc
}

func (n *Node) extra() *moreData {
	if n.more == nil {
		return &noMore
	}
	return n.more
}

// Attr is an extra option kept as a plain attribute (config extra_options).
type Attr struct {
	Name, Value string
}

func (n *Node) Index() int          { return n.index }
func (n *Node) ID() string          { return n.id }
func (n *Node) Kind() parser.Kind   { return n.kind }
func (n *Node) Directive() string   { return n.parse().Directive }
func (n *Node) Title() string       { return n.parse().Title }
func (n *Node) Pos() source.Pos     { return n.parse().Pos }
func (n *Node) Result() Result      { return n.result }
func (n *Node) ResultText() string  { return n.outcome().ResultRaw }
func (n *Node) Config() string      { return n.outcome().Config }
func (n *Node) Sources() string     { return n.sources }
func (n *Node) Cases() string       { return n.cases }
func (n *Node) ExpiresText() string { return n.extra().ExpiresText }
func (n *Node) Attrs() []Attr       { return append([]Attr(nil), n.attrs...) }
func (n *Node) HasExpires() bool    { return n.extra().HasExpires }
func (n *Node) ExpiresValid() bool  { return n.extra().ExpiresOK }
func (n *Node) Expires() time.Time  { return n.extra().Expires }
func (n *Node) InDegree() int       { return len(n.in) }
func (n *Node) OutDegree() int      { return len(n.out) }
func (n *Node) String() string      { return n.id }
func (n *Node) IsRequirement() bool { return n.kind == parser.Requirement }

// Revision is the fingerprint of what the node says (package revision;
// an implementation's includes its :source: files).
func (n *Node) Revision() uint64 { return n.revision }

// Date is an outcome's or waiver's :date: (the day it was observed or
// granted): has reports that one is written, ok that it is a valid date.
func (n *Node) Date() (day time.Time, has, ok bool) {
	if n.oc != nil {
		return n.oc.Date, n.oc.HasDate, n.oc.DateOK
	}
	m := n.extra()
	return m.Date, m.HasDate, m.DateOK
}

// MaxAge is a test's :max-age: in days: has reports that one is written,
// and days is 0 when it is not a positive whole number.
func (n *Node) MaxAge() (days int, has bool) { return n.maxAge, n.hasMaxAge }

// WaiverCases are a waiver's :cases: patterns (nil when it has none).
func (n *Node) WaiverCases() []string { return append([]string(nil), n.extra().WaiverCases...) }

// FromResults reports whether the node is an outcome made from a test
// results file.
func (n *Node) FromResults() bool { return n.fromResults }

// CaseNames are the names of the results case an outcome was made from
// (nil for a hand-written outcome).
func (n *Node) CaseNames() []string { return append([]string(nil), n.outcome().CaseNames...) }

// Justification is a waiver's content, dedented: why the failure it
// excuses is accepted; "" for other nodes (Body has their content).
func (n *Node) Justification() string {
	if n.kind != parser.Waiver {
		return ""
	}
	return n.parse().Body
}

// Body is the node's content, verbatim and dedented (a need's content
// in sphinx-needs' terms).
func (n *Node) Body() string { return n.parse().Body }

// Broken reports whether an error diagnostic is about the node itself: an
// option or value of it, its ID, or one of its link entries. Such an
// outcome can only count against a requirement (semantics.md).
func (n *Node) Broken() bool { return n.broken }

// Shadow reports whether n is an outcome the graph keeps though no link
// can reach it (no :id:, or the ID of an earlier node): it counts against
// the tests it confirms, and no pin applies to it.
func (n *Node) Shadow() bool { return n.shadow }

// Pinnable reports whether seg.lock can pin the links n is written in: not
// for an outcome made from a results file (an observation of the tree as
// it is) nor for a shadow (its name is not an ID).
func (n *Node) Pinnable() bool { return !n.fromResults && !n.shadow }

// IsNeed reports whether the node is a sphinx-needs need: its directive is
// a need type of the project (whatever seg kind it maps onto).
func (n *Node) IsNeed() bool { return n.need }

// IsExternal reports whether the node is a need of another project
// (sphinx-needs' external needs): it resolves links, and is not this
// tree's to evaluate.
func (n *Node) IsExternal() bool { return n.external }

// Parent is the ID of the node whose body holds this one, "" when none
// (or when the tree is no sphinx-needs project: only needs.json uses it).
func (n *Node) Parent() string { return n.parent }
func (n *Node) Attr(name string) string {
	v, _ := n.LookupAttr(name)
	return v
}

// LookupAttr is the value of the attribute name and whether the node has
// it (the first, when it is repeated).
func (n *Node) LookupAttr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Edge is one resolved link entry.
type Edge struct {
	typ      EdgeType
	state    parser.State
	partial  bool // a verifies edge that verifies only in part
	from, to int32
	// The link entry's position and, when it sits on one line, its width:
	// a whole Span would double the size of the graph's largest array.
	pos   source.Pos
	width int32
	pin   *Pin       // nil for none; never changed once the build is done
	x     *edgeExtra // nil for an edge of seg's own link options
}

func newEdge(typ EdgeType, from, to int32, state parser.State, sp source.Span) Edge {
	return Edge{typ: typ, state: state, from: from, to: to, pos: sp.Start, width: int32(sp.Len())}
}

// edgeExtra is what an edge made by a sphinx-needs link option adds.
type edgeExtra struct {
	option, part, condition string
	cond                    *condResult // what the condition says of the target (conditions.go)
}

func (e *Edge) Type() EdgeType { return e.typ }

// Partial reports whether a verifies edge verifies its requirement only in
// part: made from a results case's PartiallyVerifies property
// (docs/results.md). The leaf rule counts it as any verifies edge unless
// the requirement's policy asks for full verification.
func (e *Edge) Partial() bool { return e.partial }

// Option is the link option the edge was written in: for seg's own
// options the edge type's name, for a sphinx-needs one its option name
// (which a Link edge has no other name for).
func (e *Edge) Option() string {
	if e.x != nil {
		return e.x.option
	}
	return e.typ.String()
}

// Part and Condition are the need part and the condition the entry named
// ("ID.part[condition]"), "" when none. seg does not check the part; the
// condition is evaluated against the target (Graph.Condition).
func (e *Edge) Part() string {
	if e.x != nil {
		return e.x.part
	}
	return ""
}

func (e *Edge) Condition() string {
	if e.x != nil {
		return e.x.condition
	}
	return ""
}

func (e *Edge) State() parser.State { return e.state }
func (e *Edge) Active() bool        { return e.state == parser.Active }
func (e *Edge) Pos() source.Pos     { return e.pos }

// Span is the link entry's span (only its start when it is not on one line).
func (e *Edge) Span() source.Span {
	sp := source.At(e.pos)
	if e.width > 0 {
		sp.End = e.pos.Add(int(e.width))
	}
	return sp
}

// Graph is the immutable traceability graph.
type Graph struct {
	nodes    []*Node // sorted by ID
	numEdges int
	byID     map[string]int32

	// Derived once by Build for the evaluator.
	order  []int32 // requirements, refining children before their parents
	cyclic []bool  // by node index: on a refinement cycle

	open    []OpenLink     // link entries that made no edge, in (from, position) order
	needs   *needs.Project // the sphinx-needs project, nil when none
	files   *source.FileSet
	pinned  int        // edges with a pin
	orphans []pins.Pin // seg.lock pins whose link the tree lacks
	// gen is the graph's generation (delta.go).
	gen uint64
}

// Files is the FileSet every position of the graph resolves against.
func (g *Graph) Files() *source.FileSet { return g.files }

// OpenReason says why a link entry made no edge.
type OpenReason uint8

const (
	// Unresolved: no node has the ID; an unresolved-link error says so.
	Unresolved OpenReason = iota + 1
	// WrongKind: the target is of the wrong kind; a wrong-kind error says so.
	WrongKind
	// Dangling: no node has the ID, and the link type allows dead links
	// (sphinx-needs' allow_dead_links), so it is no error.
	Dangling
	// Dynamic: a sphinx-needs dynamic or variant function ("[[...]]",
	// "<<...>>"), whose target only a Sphinx build knows; no error.
	Dynamic
)

func (r OpenReason) String() string {
	switch r {
	case Unresolved:
		return "unresolved"
	case WrongKind:
		return "wrong-kind"
	case Dangling:
		return "dangling"
	case Dynamic:
		return "dynamic"
	}
	return "unknown"
}

// OpenLink is a link entry that made no edge. Its methods only read.
type OpenLink struct {
	from   int32
	option string
	link   parser.Link
	reason OpenReason
}

func (o *OpenLink) Option() string     { return o.option }
func (o *OpenLink) Reason() OpenReason { return o.reason }
func (o *OpenLink) Span() source.Span  { return o.link.Span }
func (o *OpenLink) Pos() source.Pos    { return o.link.Span.Start }
func (o *OpenLink) Part() string       { return o.link.Part }
func (o *OpenLink) Condition() string  { return o.link.Condition }

// Target is the entry's target as written: an ID, or the whole dynamic
// function.
func (o *OpenLink) Target() string { return o.link.ID }

// Address is the target with its ".part", as needs.json writes links.
func (o *OpenLink) Address() string { return o.link.Address() }

// OpenLinks iterates over the link entries that made no edge, by the node
// they leave (in ID order), then by position.
func (g *Graph) OpenLinks() iter.Seq[*OpenLink] {
	return func(yield func(*OpenLink) bool) {
		for i := range g.open {
			if !yield(&g.open[i]) {
				return
			}
		}
	}
}

// OpenFrom is the node an open link leaves.
func (g *Graph) OpenFrom(o *OpenLink) *Node { return g.nodes[o.from] }

// Needs is the sphinx-needs project the graph was built with, nil when
// none. It is shared, not copied: callers must not change it.
func (g *Graph) Needs() *needs.Project { return g.needs }

// Len is the number of nodes.
func (g *Graph) Len() int { return len(g.nodes) }

// NumEdges is the number of edges.
func (g *Graph) NumEdges() int { return g.numEdges }

// Node returns the node at index i (0 <= i < Len()), in ID order.
func (g *Graph) Node(i int) *Node { return g.nodes[i] }

// Lookup finds a node by ID.
func (g *Graph) Lookup(id string) (*Node, bool) {
	i, ok := g.byID[id]
	if !ok {
		return nil, false
	}
	return g.nodes[i], true
}

// Nodes iterates over every node in ID order.
func (g *Graph) Nodes() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for _, n := range g.nodes {
			if !yield(n) {
				return
			}
		}
	}
}

// Edges iterates over every edge, sorted by (from, type, to).
func (g *Graph) Edges() iter.Seq[*Edge] {
	return func(yield func(*Edge) bool) {
		for _, n := range g.nodes {
			for k := range n.out {
				if !yield(&n.out[k]) {
					return
				}
			}
		}
	}
}

// From is the node an edge leaves.
func (g *Graph) From(e *Edge) *Node { return g.nodes[e.from] }

// To is the node an edge points at.
func (g *Graph) To(e *Edge) *Node { return g.nodes[e.to] }

// In iterates over the edges of type t that point at n (every type when t is
// 0), in (from, type) order.
func (g *Graph) In(n *Node, t EdgeType) iter.Seq[*Edge] {
	return func(yield func(*Edge) bool) {
		for _, e := range n.in {
			if t != 0 && e.typ != t {
				continue
			}
			if !yield(e) {
				return
			}
		}
	}
}

// Out iterates over the edges of type t that leave n (every type when t is
// 0).
func (g *Graph) Out(n *Node, t EdgeType) iter.Seq[*Edge] {
	return func(yield func(*Edge) bool) {
		for k := range n.out {
			e := &n.out[k]
			if t != 0 && e.typ != t {
				continue
			}
			if !yield(e) {
				return
			}
		}
	}
}

// HasIn reports whether any edge of type t points at n.
func (g *Graph) HasIn(n *Node, t EdgeType) bool {
	for range g.In(n, t) {
		return true
	}
	return false
}

// HasOut reports whether any edge of type t leaves n.
func (g *Graph) HasOut(n *Node, t EdgeType) bool {
	for range g.Out(n, t) {
		return true
	}
	return false
}

// IsLeaf reports whether nothing refines requirement n.
func (g *Graph) IsLeaf(n *Node) bool { return !g.HasIn(n, Refines) }
