// Package postprocess does to a parsed sphinx-needs tree what sphinx-needs
// does to its needs after it has read every document, before anything
// reads them (sphinx-needs' post-processing; docs/sphinx-needs.md):
//
//  1. a need with :delete: true is gone, and the needs inside it;
//  2. needimport brings the needs of a local needs.json in as needs of the
//     document it is written in, and needs_external_needs adds the needs
//     of other projects, which links may name but which are not this
//     tree's to evaluate;
//  3. a need nested in another has it as its parent_needs;
//  4. needextend modifies the needs its ID or filter selects, in
//     (extend_priority, docname, line) order;
//  5. dynamic functions ([[copy("status")]], ...) in option values and
//     link lists are computed.
//
// It sits between the parser and the graph: it takes the parsed files
// and returns them changed (a file it changes is a copy: parsed files may
// be shared with the parse cache), plus the external needs as extra nodes,
// and the graph is built from those. Everything sphinx-needs-specific it
// needs (filters, needs.json, IDs) is package needs'.
package postprocess

import (
	"cmp"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The diagnostic codes of post-processing (docs/codes.md).
var (
	CodeNeedextendNoTarget = diag.NewWarning("needextend-no-target", "a needextend whose ID names no need")
	CodeInvalidNeedextend  = diag.NewWarning("invalid-needextend", "a needextend option sphinx-needs ignores")
	CodeUnsupportedFunc    = diag.NewWarning("unsupported-dynamic-function", "a dynamic function seg does not compute")
	CodeInvalidFunc        = diag.NewWarning("invalid-dynamic-function", "a dynamic function sphinx-needs cannot compute either")
	CodeURLNotFetched      = diag.NewError("needs-url-not-fetched", "a needs.json to fetch from a URL, which seg never does")
	CodeInvalidExternal    = diag.NewError("invalid-external-needs", "external needs seg cannot read")
	CodeInvalidNeedimport  = diag.NewError("invalid-needimport", "a needimport seg cannot read")
	CodeInvalidNeedOption  = diag.NewWarning("invalid-need-option", "a need option whose value sphinx-needs refuses, which drops the need")
)

// Input is a parsed tree and its project.
type Input struct {
	// Root is the tree's root on disk.
	Root    string
	Files   *source.FileSet
	Parsed  []*parser.File
	Project *needs.Project
	// Config is the parser's configuration: the seg kind of each need
	// type (an imported need is a need of this project).
	Config *parser.Config
}

// Output is the tree as sphinx-needs would hold it.
type Output struct {
	// Parsed are the files, in the same order; a file that changed is a
	// copy.
	Parsed []*parser.File
	// External are the external needs, nodes of kind Need with External
	// set, placed in the needs.json they come from.
	External    []parser.Node
	Diagnostics diag.List
}

// Run post-processes the tree. Without a project it returns the tree as
// it is.
func Run(in Input) Output {
	if in.Project == nil {
		return Output{Parsed: in.Parsed}
	}
	t := &tree{in: in, files: slices.Clone(in.Parsed), copied: make([]bool, len(in.Parsed))}
	t.deleteNeeds()
	t.importNeeds()
	t.list2need()
	t.collect()
	t.external()
	t.parentNeeds()
	t.extend()
	t.functions()
	return Output{Parsed: t.files, External: t.ext, Diagnostics: t.diags}
}

// tree is the tree being post-processed.
type tree struct {
	in     Input
	files  []*parser.File
	copied []bool
	ext    []parser.Node
	needs  []*need // every need, local ones in (docname, line) order, external ones last
	byID   map[string]*need
	diags  diag.List
	// imported are the nodes needimport made, by file and index.
	imported map[[2]int]bool
	// config is the project file, once a diagnostic points into it.
	config *source.File
	// state is where each field's dynamic functions stand (functions.go):
	// nil before they are computed, then 1 while, 2 once computed.
	state map[fieldKey]uint8
}

// need is one need of the tree: node idx of file (or of ext).
type need struct {
	file, idx int // file -1: ext[idx]
	docname   string
	line      int
	imported  bool
}

func (n *need) external() bool { return n.file < 0 }

// node is the need's node, for reading.
func (t *tree) node(n *need) *parser.Node {
	if n.file < 0 {
		return &t.ext[n.idx]
	}
	return &t.files[n.file].Nodes[n.idx]
}

// edit is the need's node, in a copy of its file the tree owns, with its
// own option list: the parsed files may be shared with the parse cache.
func (t *tree) edit(n *need) *parser.Node {
	if n.file < 0 {
		return &t.ext[n.idx]
	}
	nd := t.editNode(n.file, n.idx)
	return nd
}

func (t *tree) editNode(fi, idx int) *parser.Node {
	if !t.copied[fi] {
		f := *t.files[fi]
		f.Nodes = slices.Clone(f.Nodes)
		f.Diagnostics = slices.Clone(f.Diagnostics)
		t.files[fi] = &f
		t.copied[fi] = true
	}
	nd := &t.files[fi].Nodes[idx]
	nd.Options = slices.Clone(nd.Options)
	return nd
}

func (t *tree) diag(d diag.Diagnostic) { t.diags = append(t.diags, d) }

func (t *tree) isNeed(nd *parser.Node) bool {
	return nd.Kind != 0 && nd.Kind != parser.Instruction && t.in.Project.Type(nd.Directive) != nil
}

func (t *tree) docname(fi int) string {
	return needs.Docname(t.in.Project.DocRoot, t.files[fi].Path)
}

func (t *tree) line(p source.Pos) int { return t.in.Files.Position(p).Line }

// deleteNeeds removes every need whose :delete: is true, and every node
// nested in it: sphinx-needs makes nothing of such a need, content
// included. A removed node keeps its place (so Parent indices hold) with
// no kind and no ID, which the graph leaves out.
func (t *tree) deleteNeeds() {
	for fi, f := range t.files {
		var gone []bool
		for i := range f.Nodes {
			nd := &f.Nodes[i]
			del := gone != nil && nd.Parent >= 0 && gone[nd.Parent]
			if !del && t.isNeed(nd) {
				if o := nd.Option("delete"); o != nil {
					v, ok := model.Boolean(o.Value)
					if !ok {
						t.diag(diag.Diagnostic{Code: CodeInvalidNeedOption, Span: source.At(o.ValuePos),
							Message: "invalid :delete: value " + quote(o.Value) + " (want true or false)",
							Detail:  "sphinx-needs warns and makes no need of this directive, so seg leaves it out too."})
					}
					del = v || !ok
				}
			}
			if del {
				if gone == nil {
					gone = make([]bool, len(f.Nodes))
				}
				gone[i] = true
			}
		}
		for i := range gone {
			if gone[i] {
				nd := t.editNode(fi, i)
				nd.Kind, nd.ID = 0, ""
			}
		}
	}
}

// collect lists the local needs in document order and indexes them by ID.
func (t *tree) collect() {
	t.byID = map[string]*need{}
	for fi, f := range t.files {
		doc := t.docname(fi)
		for i := range f.Nodes {
			nd := &f.Nodes[i]
			if !t.isNeed(nd) || nd.ID == "" {
				continue
			}
			t.needs = append(t.needs, &need{file: fi, idx: i, docname: doc, line: t.line(nd.Pos), imported: t.imported[[2]int{fi, i}]})
		}
	}
	slices.SortStableFunc(t.needs, func(a, b *need) int {
		return cmp.Or(strings.Compare(a.docname, b.docname), cmp.Compare(a.line, b.line))
	})
	for _, n := range t.needs {
		if _, dup := t.byID[t.node(n).ID]; !dup {
			t.byID[t.node(n).ID] = n
		}
	}
}

// parentNeeds sets every need's parent_needs to the need it is nested in
// (the nearest need around it), or to nothing: sphinx-needs sets it from
// where the need is, over any :parent_needs: written on it.
func (t *tree) parentNeeds() {
	if t.in.Project.Link("parent_needs") == nil {
		return
	}
	for _, n := range t.needs {
		if n.external() {
			continue
		}
		nd := t.node(n)
		parent := ""
		nodes := t.files[n.file].Nodes
		for p := nd.Parent; p >= 0 && p < len(nodes); p = nodes[p].Parent {
			if t.isNeed(&nodes[p]) && nodes[p].ID != "" {
				parent = nodes[p].ID
				break
			}
		}
		written := nd.Option("parent_needs")
		if parent == "" && written == nil {
			continue
		}
		e := t.edit(n)
		var opt parser.Option
		if parent != "" {
			opt = parser.Option{Name: "parent_needs", Value: parent, Pos: e.Pos, ValuePos: e.Pos,
				Links: []parser.Link{{ID: parent, Span: source.At(e.Pos)}}}
		}
		setOption(e, "parent_needs", opt, parent != "")
	}
}

// setOption replaces (or, with keep false, removes) the option name of nd;
// a new option goes last.
func setOption(nd *parser.Node, name string, o parser.Option, keep bool) {
	out := nd.Options[:0]
	done := false
	for _, x := range nd.Options {
		if x.Name != name {
			out = append(out, x)
			continue
		}
		if keep && !done {
			out = append(out, o)
			done = true
		}
	}
	if keep && !done {
		out = append(out, o)
	}
	nd.Options = out
}

func quote(s string) string { return `"` + s + `"` }
