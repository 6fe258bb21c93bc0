package lsp

// What the server knows of a tree, in the terms of this package: files
// by their root-relative slash path, places as byte-offset spans into a
// file's text. Only engine.go builds these values from seg's own types;
// everything else in the package reads them.

type severity uint8

const (
	sevError severity = iota + 1
	sevWarning
	sevInfo
)

// finding is one diagnostic about a file.
type finding struct {
	file     string
	span     span
	severity severity
	code     string
	message  string
	detail   string
	related  []related
	// suggest is the text a "did you mean" proposes in place of fix
	// ("" when there is none).
	suggest string
	fix     span
	// line places a finding known by its line only (a config error),
	// before it is given a span.
	line int
}

type related struct {
	file    string
	span    span
	message string
}

// linkRef is one entry of a link option.
type linkRef struct {
	file   string
	from   string // the ID of the node the option is on ("" when it has none)
	option string
	id     string // the target as written
	span   span   // the target ID, without a state
}

// option is one field of a node's option list.
type option struct {
	name      string
	nameSpan  span // the name, between the colons
	valueSpan span // the value, from its first to its last character
	links     []linkRef
	// targets lists the kinds the entries of a link option may name, nil
	// for an option that holds no links.
	targets []string
}

// node is one directive of a file that makes a node.
type node struct {
	id        string
	kind      string // requirement, test, implementation, outcome, waiver, need
	directive string
	title     string
	file      string
	span      span // the directive's first line, from ".." to its end
	nameSpan  span // the directive name
	idSpan    span // the :id: value, or the directive name when there is none
	hasIDOpt  bool // the node has an :id: option
	parent    int  // index in the file's nodes of the node whose body holds it, or -1
	options   []option
	// defined is false for a node the graph left out: one without an ID,
	// or a later definition of a duplicate ID.
	defined bool
	// revision is the node's revision (16 hex digits), "" when the graph
	// has no such node.
	revision string
}

// verdict is what the evaluation says of one requirement.
type verdict struct {
	satisfied bool
	leaf      bool
	// status is satisfied, failing or unproven (docs/revisions.md).
	status   string
	reasons  []reason // blocking ones first
	tests    int      // test specifications that verify it
	impls    int      // implementations that implement it
	outcomes int      // outcomes that confirm those tests
	// Of those outcomes, as the evaluation counted them (evaluate.Tally):
	// counted bear on the verdict (passed, failed, excused, invalid),
	// skipped ran without a result either way, excluded are no evidence
	// (unwitnessed, stale, too old...); a non-leaf reads none of its own
	// (notRead).
	counted, skipped, excluded, notRead int
}

// linkState is a link that no longer holds as written: pinned in
// seg.lock to another revision of its target (stale), or, under strict
// review, not pinned at all (unreviewed).
type linkState struct {
	from, option, to string
	state            string // stale or unreviewed
	pinned           string // the revisions seg.lock names, "" when none
	now              string // the target's revision now
	file             string // where the link entry is written
	span             span
}

type reason struct {
	code     string
	message  string
	file     string
	span     span
	blocking bool
}

// snapshot is the analysis of the tree at one moment. It never changes;
// an edit makes a new one. Its methods are safe for concurrent use.
type snapshot interface {
	// files lists every file of the tree that holds nodes or findings,
	// sorted.
	files() []string
	// text is the text the analysis read for a file (nil when unknown).
	text(file string) []byte
	// findings lists a file's diagnostics, unsatisfied requirements
	// included, sorted by position.
	findings(file string) []finding
	// nodes lists a file's nodes in document order.
	nodes(file string) []node
	// lookup finds the node an ID resolves to.
	lookup(id string) (node, bool)
	verdict(id string) (verdict, bool)
	// references lists every link entry naming id, across the tree, by
	// file and position.
	references(id string) []linkRef
	// each calls f with every node of the graph, in ID order, until f
	// returns false.
	each(f func(id, kind, title string) bool)
	// optionNames lists the options a directive's nodes take, and whether
	// the directive makes nodes at all.
	optionNames(directive string) ([]string, bool)
	// linkTargets lists the kinds a link option of a directive may name
	// (nil when the option holds no links).
	linkTargets(directive, option string) []string
	// links lists the links from and to the node id that no longer hold
	// as written (stale or unreviewed), links from it first.
	links(id string) []linkState
	// accept is the edit of seg.lock that pins the stale link whose entry
	// starts at off in file to its target's current revision, as seg
	// review --accept would pin it: the file to change, the span to
	// replace and the text. ok is false when there is no such link, or
	// seg.lock holds two pins for it.
	accept(file string, off int) (lock string, sp span, text string, ok bool)
	// conditionFix is the rewrite of the failing condition FIELD == VALUE
	// of the link entry at off in file, as seg review --accept makes it
	// (graph.RewriteCondition): the span of the value, its new text, and
	// the condition as it reads after. ok is false when there is no such
	// entry or it cannot be rewritten.
	conditionFix(file string, off int) (sp span, text, now string, ok bool)
	// loose lists the findings that have no place in any file (a tree
	// without requirements).
	loose() []finding
	// validID reports whether id fits the tree's ID pattern.
	validID(id string) bool
	// at is the evaluation date, YYYY-MM-DD.
	at() string
	// changedSince lists the files whose findings may differ from prev's.
	changedSince(prev snapshot) []string
}

// engine reads and re-reads a tree. It is used from one goroutine.
type engine interface {
	// load reads the whole tree, with the open documents' text in place
	// of the files on disk (buffers gives them, nil: none; it is called
	// once the configuration is read, so that documents opened meanwhile
	// count). An error means the tree cannot be read at all
	// (an unreadable root, a bad config); the snapshot then says so in a
	// finding where it can.
	load(buffers func() map[string][]byte) (snapshot, error)
	// update re-reads the given files (text nil: read it from disk, or the
	// file is gone) and returns the new snapshot; with an error (the tree
	// can no longer be checked), the last one.
	update(changes map[string][]byte) (snapshot, error)
}
