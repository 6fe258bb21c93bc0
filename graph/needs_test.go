package graph_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// needsCfg: types req (requirement), test (test), impl (implementation)
// and spec (no kind); link types links, parent_needs, satisfies (refines),
// tests (verifies), implements (implements), realizes (none) and jira
// (none, dead links allowed). seg's own sreq, outcome, ... stay. It
// returns the parser's configuration and the project.
func needsCfg() (*parser.Config, *needs.Project) {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "req", Kind: "requirement"})
	n.AddType(needs.NeedType{Directive: "test", Kind: "test"})
	n.AddType(needs.NeedType{Directive: "impl", Kind: "implementation"})
	n.AddType(needs.NeedType{Directive: "spec"})
	n.AddLink(needs.LinkType{Option: "satisfies", Edge: "refines"})
	n.AddLink(needs.LinkType{Option: "tests", Edge: "verifies"})
	n.AddLink(needs.LinkType{Option: "implements", Edge: "implements"})
	n.AddLink(needs.LinkType{Option: "realizes"})
	n.AddLink(needs.LinkType{Option: "jira", AllowDead: true})
	cfg.UseNeeds(&n.Tables)
	return cfg, n
}

func buildNeeds(t *testing.T, src string) (*graph.Graph, diag.List) {
	t.Helper()
	cfg, np := needsCfg()
	fs := source.NewFileSet()
	f := parser.ParseFile(fs.Add("n.rst", len(src), source.Docutils), []byte(src), cfg)
	if len(f.Diagnostics) > 0 {
		t.Fatalf("parse diagnostics: %v", f.Diagnostics)
	}
	return graph.Build(fs, []*parser.File{f}, nil, np)
}

func edgesOf(g *graph.Graph) []string {
	var out []string
	for e := range g.Edges() {
		s := fmt.Sprintf("%s -%s/%s-> %s", g.From(e).ID(), e.Type(), e.Option(), g.To(e).ID())
		if e.Part() != "" {
			s += " part=" + e.Part()
		}
		if e.Condition() != "" {
			s += " if " + e.Condition()
		}
		if !e.Active() {
			s += " (" + e.State().String() + ")"
		}
		out = append(out, s)
	}
	return out
}

func openOf(g *graph.Graph) []string {
	var out []string
	for o := range g.OpenLinks() {
		out = append(out, fmt.Sprintf("%s :%s: %s %s line %d", g.OpenFrom(o).ID(), o.Option(), o.Address(), o.Reason(), g.Files().Position(o.Pos()).Line))
	}
	return out
}

const needsTree = `.. req:: Parent
   :id: REQ_P

.. req:: Child
   :id: REQ_C
   :satisfies: REQ_P[type == "req"]
   :links: SPEC_1.part_a

   .. spec:: Nested spec
      :id: SPEC_1
      :satisfies: REQ_P
      :realizes: REQ_C, REQ_C
      :jira: WL-1234

      :np:` + "`(part_a)A part`" + ` of it.

.. test:: Its test
   :id: TEST_1
   :tests: REQ_C (suspect), SPEC_1

.. impl:: Its code
   :id: IMPL_1
   :implements: REQ_C
   :links: [[copy("links", "SPEC_1")]], NOPE_1

.. spec:: A dotted ID
   :id: SPEC.2
   :links: SPEC.2, SPEC_1.x.y

.. sreq:: seg's own requirement
   :id: SEG-1
   :refines: REQ_P

.. spec:: Without ID (sphinx-needs generates one)
`

// Mapped link types make seg's edges between nodes of the right kinds,
// and Link edges otherwise; unmapped ones always make Link edges.
func TestNeedEdges(t *testing.T) {
	g, ds := buildNeeds(t, needsTree)
	want := []string{
		"IMPL_1 -implements/implements-> REQ_C",
		"REQ_C -refines/satisfies-> REQ_P if type == \"req\"",
		"REQ_C -link/links-> SPEC_1 part=part_a",
		"SEG-1 -refines/refines-> REQ_P",
		"SPEC.2 -link/links-> SPEC.2",
		"SPEC_1 -link/realizes-> REQ_C",
		"SPEC_1 -link/realizes-> REQ_C",
		"SPEC_1 -link/satisfies-> REQ_P", // a spec is no requirement: a plain link
		"TEST_1 -verifies/tests-> REQ_C (suspect)",
		"TEST_1 -link/tests-> SPEC_1",
	}
	if d := cmp.Diff(want, edgesOf(g)); d != "" {
		t.Errorf("edges (-want +got):\n%s", d)
	}
	wantOpen := []string{
		`IMPL_1 :links: [[copy("links", "SPEC_1")]] dynamic line 24`,
		"IMPL_1 :links: NOPE_1 unresolved line 24",
		// A part the need does not define (sphinx-needs' own parts are
		// [\w-]+, so "x.y" is none): unresolved, as in sphinx-needs.
		"SPEC.2 :links: SPEC_1.x.y unresolved line 28",
		"SPEC_1 :jira: WL-1234 dangling line 13",
	}
	if d := cmp.Diff(wantOpen, openOf(g)); d != "" {
		t.Errorf("open links (-want +got):\n%s", d)
	}
	want2 := []diagLine{
		{"duplicate-link", "warning", `"REQ_C" is listed twice in :realizes:`, 12, 0},
		{"unresolved-link", "error", `unresolved link "NOPE_1"`, 24, 0},
		{"unresolved-link", "error", `unresolved link "SPEC_1.x.y": need "SPEC_1" has no part "x.y"`, 28, 0},
	}
	if d := cmp.Diff(want2, diagsOf(g.Files(), ds)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

func TestNeedNodes(t *testing.T) {
	g, _ := buildNeeds(t, needsTree)
	var got []string
	for n := range g.Nodes() {
		got = append(got, fmt.Sprintf("%s %s need=%v parent=%q", n.ID(), n.Kind(), n.IsNeed(), n.Parent()))
	}
	want := []string{
		// sphinx-needs' ID for a need without one: the type's prefix (none
		// here) and the SHA-1 of the title.
		`AAF9C need need=true parent=""`,
		`IMPL_1 implementation need=true parent=""`,
		`REQ_C requirement need=true parent=""`,
		`REQ_P requirement need=true parent=""`,
		`SEG-1 requirement need=false parent=""`,
		`SPEC.2 need need=true parent=""`,
		`SPEC_1 need need=true parent="REQ_C"`,
		`TEST_1 test need=true parent=""`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	if g.Needs() == nil {
		t.Error("the graph does not keep its project")
	}
	n, _ := g.Lookup("REQ_C")
	if len(n.Attrs()) != 0 {
		t.Errorf("link options kept as attributes: %v", n.Attrs())
	}
}

// The rules read only seg's edges: a requirement whose evidence comes
// through Link edges alone is unsatisfied, and a suspect verifies edge
// written in a mapped option is not active.
func TestNeedEvaluation(t *testing.T) {
	g, _ := buildNeeds(t, needsTree)
	res := evaluate.Evaluate(g, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	c, _ := g.Lookup("REQ_C")
	v, ok := res.Verdict(c)
	if !ok || v.Satisfied {
		t.Fatalf("REQ_C: %+v", v)
	}
	var codes []string
	for _, r := range v.Blocking() {
		codes = append(codes, r.Code.Name)
	}
	if d := cmp.Diff([]string{"no-active-verifies"}, codes[:1]); d != "" {
		t.Errorf("reasons %v", codes)
	}
}

// Without a project, a nil config is the default one.
func TestBuildConfigWithoutNeeds(t *testing.T) {
	src := ".. sreq:: S\n   :id: S-1\n   :refines: S-2[x]\n\n.. sreq:: T\n   :id: S-2\n"
	fs := source.NewFileSet()
	f := parser.ParseFile(fs.Add("a.rst", len(src), source.Docutils), []byte(src), nil)
	g1, d1 := graph.Build(fs, []*parser.File{f}, nil, nil)
	fs2 := source.NewFileSet()
	f2 := parser.ParseFile(fs2.Add("a.rst", len(src), source.Docutils), []byte(src), parser.DefaultConfig())
	g2, d2 := graph.Build(fs2, []*parser.File{f2}, nil, nil)
	if d := cmp.Diff(edgesOf(g1), edgesOf(g2)); d != "" || len(d1) != len(d2) || len(d1) != 1 {
		t.Errorf("differ: %s %v %v", d, d1, d2)
	}
	if g2.Needs() != nil || len(openOf(g2)) != 1 {
		t.Errorf("needs %v open %v", g2.Needs(), openOf(g2))
	}
}

// A sphinx-needs tree's links resolved on every core give what one core
// gives: the same edges with their options, parts and conditions, the
// same open links and the same diagnostics.
func TestNeedLinksInParallel(t *testing.T) {
	var src strings.Builder
	for i := range 60 {
		src.WriteString(strings.NewReplacer("REQ_P", fmt.Sprintf("REQ_P%d", i), "REQ_C", fmt.Sprintf("REQ_C%d", i),
			"SPEC_1", fmt.Sprintf("SPEC_%d", i/2), "SPEC.2", fmt.Sprintf("SPEC.%d", i), "SEG-1", fmt.Sprintf("SEG-%d", i),
			"TEST_1", fmt.Sprintf("TEST_%d", i), "IMPL_1", fmt.Sprintf("IMPL_%d", i), "NOPE_1", fmt.Sprintf("NOPE_%d", i)).Replace(needsTree))
		src.WriteString("\n")
	}
	build := func() ([]string, []string, []string) {
		cfg, np := needsCfg()
		fs := source.NewFileSet()
		f := parser.ParseFile(fs.Add("n.rst", src.Len(), source.Docutils), []byte(src.String()), cfg)
		g, diags := graph.Build(fs, []*parser.File{f}, nil, np)
		diags.Sort(fs)
		var ds []string
		for _, d := range diags {
			ds = append(ds, fmt.Sprintf("%s %v %s", d.Code.Name, fs.Position(d.Span.Start), d.Message))
		}
		return edgesOf(g), openOf(g), ds
	}
	restore := graph.SetParallelChunk(1 << 30)
	e1, o1, d1 := build()
	graph.SetParallelChunk(8)
	e2, o2, d2 := build()
	restore()
	if len(o1) == 0 || len(d1) == 0 {
		t.Fatal("the tree has no open links or no diagnostics")
	}
	for _, c := range []struct {
		what       string
		seq, every []string
	}{{"edges", e1, e2}, {"open links", o1, o2}, {"diagnostics", d1, d2}} {
		if diff := cmp.Diff(c.seq, c.every); diff != "" {
			t.Errorf("%s differ (-one core +every core):\n%s", c.what, diff)
		}
	}
}
