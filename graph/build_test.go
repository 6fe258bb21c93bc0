package graph_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

type diagLine struct {
	Code    string
	Sev     string
	Message string
	Line    int
	Related int
}

func diagsOf(fs *source.FileSet, ds diag.List) []diagLine {
	ds.Sort(fs)
	var out []diagLine
	for _, d := range ds {
		out = append(out, diagLine{d.Code.Name, d.Severity().String(), d.Message, fs.Position(d.Span.Start).Line, len(d.Related)})
	}
	return out
}

func TestGraphDiagnostics(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("SEG-SREQ-006", "")                                 // line 1
	tr.Test("TS-1", "SEG-SREQ-06, SEG-SREQ-006, SEG-SREQ-006") // line 11: typo + duplicate
	tr.Impl("IMPL", "TS-1")                                    // line 21: wrong kind
	tr.Outcome("O-1", "TS-1", "", "passed")                    // line 31: unwitnessed (evaluate's warning)
	tr.Waiver("W-1", "O-1", "")                                // line 41: unused (evaluate's warning)
	tr.Test("TS-ORPHAN", "")                                   // line 51
	tr.Req("SEG-SREQ-006", "")                                 // line 61: duplicate ID
	tr.Req("A", "B")                                           // line 71
	tr.Req("B", "A")                                           // line 81
	tr.Waiver("W-NONE", "", "")                                // line 91: no :excuses: (the parser's error), no warning
	tr.Waiver("W-DANGLING", "NOPE", "")                        // line 101: unresolved, no warning
	_, ds := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	want := []diagLine{
		{"unresolved-link", "error", `unresolved link "SEG-SREQ-06" (did you mean "SEG-SREQ-006"?)`, 13, 0},
		{"duplicate-link", "warning", `"SEG-SREQ-006" is listed twice in :verifies:`, 13, 0},
		{"wrong-kind", "error", `:implements: must name a requirement, but "TS-1" is a test`, 23, 1},
		{"orphan-test", "warning", `test specification "TS-ORPHAN" verifies no requirement`, 51, 0},
		{"duplicate-id", "error", `duplicate ID "SEG-SREQ-006" (first defined at t.rst:1:1)`, 62, 1},
		{"refinement-cycle", "error", `refinement cycle among "A", "B"`, 73, 1},
		{"unresolved-link", "error", `unresolved link "NOPE"`, 103, 0},
	}
	if diff := cmp.Diff(want, diagsOf(tr.FileSet(), ds)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestUnresolvedLinkAddsNoEdge(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("R", "")
	tr.Test("T", "R, NOPE")
	tr.Impl("I", "T") // wrong kind: no edge
	g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	var got []string
	for e := range g.Edges() {
		got = append(got, fmt.Sprintf("%s -%s-> %s", g.From(e).ID(), e.Type(), g.To(e).ID()))
	}
	if diff := cmp.Diff([]string{"T -verifies-> R"}, got); diff != "" {
		t.Error(diff)
	}
}

func TestDuplicateIDKeepsTheFirstByPosition(t *testing.T) {
	fs := source.NewFileSet()
	// b.rst is added first: positions order by file name, not by index.
	fb := fs.Add("b.rst", 0, source.Docutils)
	fa := fs.Add("a.rst", 0, source.Docutils)
	fa.SetLines([]int32{0, 10, 20, 30, 40, 50, 60, 70, 80, 90})
	fb.SetLines([]int32{0})
	a := parser.Node{Kind: parser.Requirement, Directive: "sreq", ID: "R", Title: "first", Pos: fa.Pos(80), Parent: -1}
	b := parser.Node{Kind: parser.Test, Directive: "test", ID: "R", Title: "second", Pos: fb.Pos(0), Parent: -1}
	for _, files := range [][]*parser.File{
		{{Path: "a.rst", Source: fa, Nodes: []parser.Node{a}}, {Path: "b.rst", Source: fb, Nodes: []parser.Node{b}}},
		{{Path: "b.rst", Source: fb, Nodes: []parser.Node{b}}, {Path: "a.rst", Source: fa, Nodes: []parser.Node{a}}},
	} {
		g, ds := graph.Build(fs, files, nil, nil)
		n, _ := g.Lookup("R")
		if n.Title() != "first" || len(ds) != 1 || fs.Position(ds[0].Span.Start).Filename != "b.rst" {
			t.Errorf("kept %q, diagnostics %+v", n.Title(), ds)
		}
	}
}

func TestEdgeStatesAndNodeFacts(t *testing.T) {
	tr := &segtest.Tree{}
	tr.Req("R", "")
	tr.Test("T", "R (suspect)")
	tr.Impl("I", "R (retired)")
	tr.Outcome("O", "T", "I", "error")
	tr.Waiver("W", "O", "2026-02-30")
	g, _ := graph.Build(tr.FileSet(), tr.Files(), nil, nil)
	var got []string
	for e := range g.Edges() {
		got = append(got, fmt.Sprintf("%s %s %s %s", g.From(e).ID(), e.Type(), g.To(e).ID(), e.State()))
	}
	want := []string{"I implements R retired", "O confirms T active", "O witnesses I active", "T verifies R suspect", "W excuses O active"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	o, _ := g.Lookup("O")
	w, _ := g.Lookup("W")
	if o.Result() != graph.ResultError || !w.HasExpires() || w.ExpiresValid() {
		t.Errorf("result %v, expires %v/%v", o.Result(), w.HasExpires(), w.ExpiresValid())
	}
}
