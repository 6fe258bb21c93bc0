package graph_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// mappedCfg: types req, test, impl (seg kinds) and spec (none); the
// generic links option mapped as given, satisfied_by mapped in reverse
// onto implements, refined_by in reverse onto refines, and traces as a
// list chosen by the target's kind.
func mappedCfg(links needs.LinkType) (*parser.Config, *needs.Project) {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "req", Kind: "requirement"})
	n.AddType(needs.NeedType{Directive: "test", Kind: "test"})
	n.AddType(needs.NeedType{Directive: "impl", Kind: "implementation"})
	n.AddType(needs.NeedType{Directive: "spec"})
	links.Option = "links"
	n.AddLink(links)
	n.AddLink(needs.LinkType{Option: "satisfied_by", Edge: "implements", Reverse: true})
	n.AddLink(needs.LinkType{Option: "refined_by", Edge: "refines", Reverse: true})
	n.AddLink(needs.LinkType{Option: "traces", Edges: []string{"implements", "refines"}})
	cfg.UseNeeds(&n.Tables)
	return cfg, n
}

const mappedTree = `.. req:: Top
   :id: R_TOP
   :refined_by: R_MID

.. req:: Middle
   :id: R_MID

.. req:: Leaf
   :id: R_LEAF
   :links: R_MID
   :satisfied_by: I_ONE (suspect), I_TWO
   :traces: R_TOP

.. test:: Test of leaf
   :id: T_LEAF
   :links: R_LEAF, I_ONE, S_1

.. impl:: One
   :id: I_ONE
   :traces: R_MID, T_LEAF

.. impl:: Two
   :id: I_TWO

.. spec:: Unmapped
   :id: S_1
   :links: R_TOP
`

func buildMapped(t *testing.T, links needs.LinkType, src string) (*graph.Graph, []diagLine) {
	t.Helper()
	cfg, np := mappedCfg(links)
	fs := source.NewFileSet()
	f := parser.ParseFile(fs.Add("m.rst", len(src), source.Docutils), []byte(src), cfg)
	if len(f.Diagnostics) > 0 {
		t.Fatalf("parse diagnostics: %v", f.Diagnostics)
	}
	g, ds := graph.Build(fs, []*parser.File{f}, nil, np)
	for _, d := range ds {
		if d.Severity() == diag.Error {
			t.Fatalf("build diagnostics: %v", ds)
		}
	}
	return g, diagsOf(fs, graph.LinkMappingWarnings(g))
}

// "auto" maps each entry by the kinds at its ends; a reverse mapping
// makes the edge from the need named; a list picks the edge that fits.
func TestLinkMapping(t *testing.T) {
	g, warns := buildMapped(t, needs.LinkType{Auto: true}, mappedTree)
	want := []string{
		"I_ONE -implements/satisfied_by-> R_LEAF (suspect)",
		"I_ONE -implements/traces-> R_MID",
		"I_ONE -link/traces-> T_LEAF",
		"I_TWO -implements/satisfied_by-> R_LEAF",
		"R_LEAF -refines/links-> R_MID",
		"R_LEAF -refines/traces-> R_TOP",
		"R_MID -refines/refined_by-> R_TOP",
		"S_1 -link/links-> R_TOP",
		"T_LEAF -verifies/links-> R_LEAF",
		"T_LEAF -link/links-> I_ONE",
		"T_LEAF -link/links-> S_1",
	}
	if d := cmp.Diff(want, edgesOf(g)); d != "" {
		t.Errorf("edges (-want +got):\n%s", d)
	}
	// The reversed edges are the named needs' own: they count where a
	// written one would.
	leaf, _ := g.Lookup("R_LEAF")
	var impls []string
	for e := range g.In(leaf, graph.Implements) {
		impls = append(impls, g.From(e).ID()+" at line "+strconv.Itoa(g.Files().Position(e.Pos()).Line))
	}
	if d := cmp.Diff([]string{"I_ONE at line 11", "I_TWO at line 11"}, impls); d != "" {
		t.Errorf("implements into R_LEAF (-want +got):\n%s", d)
	}
	one, _ := g.Lookup("I_ONE")
	var outs []string
	for e := range g.Out(one, graph.Implements) {
		outs = append(outs, g.To(e).ID())
	}
	if d := cmp.Diff([]string{"R_LEAF", "R_MID"}, outs); d != "" {
		t.Errorf("implements out of I_ONE (-want +got):\n%s", d)
	}
	// Under auto, a test naming an implementation is listed; a need of
	// an unmapped type is not. The list's test entry is.
	wantWarns := []diagLine{
		{"link-mapping-unused", "warning", `[needs.links] links = "auto": 1 of its 5 entries make no edge (test→implementation 1)`, 16, 0},
		{"link-mapping-unused", "warning", `[needs.links] traces = ["implements", "refines"]: 1 of its 3 entries make no edge (implementation→test 1)`, 20, 0},
	}
	if d := cmp.Diff(wantWarns, warns); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
}

// One warning per mapping that makes no edge, with the count and the
// likely fix.
func TestLinkMappingUnused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		links needs.LinkType
		want  string
		fix   string
	}{
		{"verifies between requirements", needs.LinkType{Edge: "verifies"},
			`[needs.links] links = "verifies": 4 of its 5 entries make no edge (need→requirement 1, requirement→requirement 1, test→implementation 1, test→need 1)`,
			`Likely fix: links = "refines" (or "auto", which maps each entry by the kinds at its ends).`},
		{"implements the wrong way", needs.LinkType{Edge: "implements"},
			`[needs.links] links = "implements" makes no edge: none of its 5 entries joins kinds it takes (need→requirement 1, requirement→requirement 1, test→implementation 1, test→need 1, test→requirement 1)`,
			`Likely fix: links = "refines"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := buildMapped(t, tc.links, mappedTree)
			ws := graph.LinkMappingWarnings(g)
			var got []string
			for _, w := range ws {
				if w.Code == graph.CodeLinkMappingUnused && strings.HasPrefix(w.Message, "[needs.links] links ") {
					got = append(got, w.Message)
					if !strings.Contains(w.Detail, tc.fix) {
						t.Errorf("detail %q lacks %q", w.Detail, tc.fix)
					}
				}
			}
			if d := cmp.Diff([]string{tc.want}, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// A requirement naming what implements it, mapped forward: the fix
	// is the reverse mapping.
	src := ".. req:: R\n   :id: R_1\n   :links: I_1\n\n.. impl:: I\n   :id: I_1\n"
	g, warns := buildMapped(t, needs.LinkType{Edge: "implements"}, src)
	_ = g
	if len(warns) != 1 || warns[0].Line != 3 {
		t.Fatalf("warnings %v", warns)
	}
	ws := graph.LinkMappingWarnings(g)
	if !strings.Contains(ws[0].Detail, `likely fix: links = { edge = "implements", reverse = true }`) {
		t.Errorf("detail %q", ws[0].Detail)
	}
}
