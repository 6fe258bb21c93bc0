package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// condCfg: need types req (requirement), test (test), spec (no kind);
// link types satisfies (refines), tests (verifies), links; the extra
// option version. It returns the parser's configuration and the project.
func condCfg() (*parser.Config, *needs.Project) {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "req", Kind: "requirement"})
	n.AddType(needs.NeedType{Directive: "test", Kind: "test"})
	n.AddType(needs.NeedType{Directive: "spec"})
	n.AddLink(needs.LinkType{Option: "satisfies", Edge: "refines"})
	n.AddLink(needs.LinkType{Option: "tests", Edge: "verifies"})
	n.AddOption("version")
	cfg.UseNeeds(&n.Tables)
	return cfg, n
}

func buildCond(t *testing.T, src string) (*Graph, diag.List) {
	t.Helper()
	cfg, np := condCfg()
	fs := source.NewFileSet()
	f := parser.ParseFile(fs.Add("c.rst", len(src), source.Docutils), []byte(src), cfg)
	if len(f.Diagnostics) > 0 {
		t.Fatalf("parse diagnostics: %v", f.Diagnostics)
	}
	return Build(fs, []*parser.File{f}, nil, np)
}

// conditionsOf lists every edge with a condition: its ends, condition,
// state and what it read.
func conditionsOf(g *Graph) []string {
	var out []string
	for e := range g.Edges() {
		c := g.Condition(e)
		if c.State == NoCondition {
			continue
		}
		s := fmt.Sprintf("%s -> %s [%s] %s", g.From(e).ID(), g.To(e).ID(), c.Text, c.State)
		if !c.Holds() {
			s += ": " + c.Values()
		}
		if c.Holds() != g.ConditionHolds(e) {
			s += " (ConditionHolds disagrees)"
		}
		out = append(out, s)
	}
	return out
}

const condTree = `.. req:: Parent
   :id: R_P
   :version: 1
   :status: open
   :tags: safety, brakes

.. req:: Parent 2
   :id: R_Q
   :version: 2

.. req:: Child
   :id: R_C
   :satisfies: R_P[version==1], R_Q[version==1]
   :links: R_P[version=="1"], R_Q[version >= 2], R_P[[ "safety" in tags ]]

.. spec:: Spec
   :id: S_1
   :links: R_P[status == "open" and version == 1], R_Q[status == "open"], R_P[tags == "x"], R_P
   :satisfies: R_P[title.startswith("Par")]

.. test:: Test
   :id: T_1
   :tests: R_C[version===1], R_C[nope == 1], R_C[len(satisfies_back) > 0], R_C[version]
`

// A condition is evaluated against its target's fields, Python's way
// except that a text that reads as a number compares with a number as
// that number; one that cannot be evaluated never holds. Each that does
// not hold is a warning at its entry.
func TestConditions(t *testing.T) {
	g, ds := buildCond(t, condTree)
	want := []string{
		`R_C -> R_P [version==1] holds`,
		`R_C -> R_Q [version==1] fails: version is '2'`,
		`R_C -> R_P [version=="1"] holds`,
		`R_C -> R_P ["safety" in tags] holds`,
		`R_C -> R_Q [version >= 2] holds`,
		`S_1 -> R_P [status == "open" and version == 1] holds`,
		`S_1 -> R_P [tags == "x"] fails: tags is ['safety', 'brakes']`,
		`S_1 -> R_P [title.startswith("Par")] holds`,
		`S_1 -> R_Q [status == "open"] fails: status is None`,
		`T_1 -> R_C [version===1] invalid: unexpected "="`,
		`T_1 -> R_C [nope == 1] invalid: name "nope" is not defined (no need field of that name)`,
		`T_1 -> R_C [len(satisfies_back) > 0] invalid: the field "satisfies_back", which sphinx-needs computes while it renders and seg does not (Python that seg does not evaluate)`,
		`T_1 -> R_C [version] invalid: the filter gives '', not True or False`,
	}
	if d := cmp.Diff(want, conditionsOf(g)); d != "" {
		t.Errorf("conditions (-want +got):\n%s", d)
	}
	var got []string
	for _, d := range ds {
		if d.Code == CodeDuplicateLink {
			continue // the tree names targets twice, with other conditions
		}
		p := g.Files().Position(d.Span.Start)
		got = append(got, fmt.Sprintf("%d:%d-%d %s %s: %s", p.Line, p.Column, g.Files().Position(d.Span.End).Column, d.Code.Severity, d.Code.Name, d.Message))
	}
	wantDiags := []string{
		`13:33-48 warning link-condition-failed: the condition [version==1] of :satisfies: does not hold for "R_Q": its version is '2'`,
		`18:52-73 warning link-condition-failed: the condition [status == "open"] of :links: does not hold for "R_Q": its status is None`,
		`18:75-91 warning link-condition-failed: the condition [tags == "x"] of :links: does not hold for "R_P": its tags is ['safety', 'brakes']`,
		`23:12-28 warning link-condition-invalid: the condition [version===1] of :tests: cannot be evaluated on "R_C": unexpected "="`,
		`23:30-44 warning link-condition-invalid: the condition [nope == 1] of :tests: cannot be evaluated on "R_C": name "nope" is not defined (no need field of that name)`,
		`23:46-74 warning link-condition-invalid: the condition [len(satisfies_back) > 0] of :tests: cannot be evaluated on "R_C": the field "satisfies_back", which sphinx-needs computes while it renders and seg does not (Python that seg does not evaluate)`,
		`23:76-88 warning link-condition-invalid: the condition [version] of :tests: cannot be evaluated on "R_C": the filter gives '', not True or False`,
	}
	if d := cmp.Diff(wantDiags, got); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
	for e := range g.Edges() {
		if c := g.Condition(e); c.State == ConditionFails && c.Code() != CodeLinkConditionFailed ||
			c.State == ConditionInvalid && c.Code() != CodeLinkConditionInvalid || c.Holds() && c.Code() != nil {
			t.Errorf("%s -> %s: condition %s has code %v", g.From(e).ID(), g.To(e).ID(), c.State, c.Code())
		}
	}
}

// A :version: bump of a target, in another file, evaluates the
// conditions of the links into it again when the graph is patched: the
// patched graph is the graph built afresh, and the links go stale and
// current again as the version moves.
func TestPatchConditions(t *testing.T) {
	text := map[string]string{
		"a.rst": `.. req:: A
   :id: R_A
   :satisfies: R_B[version==1]

.. test:: T
   :id: T_1
   :tests: R_B[version == 1], R_A
`,
		"b.rst": `.. req:: B
   :id: R_B
   :version: 1
`,
	}
	replace := func(path, old, new string) func(map[string]string) string {
		return func(m map[string]string) string {
			if !strings.Contains(m[path], old) {
				t.Fatalf("%s has no %q", path, old)
			}
			m[path] = strings.Replace(m[path], old, new, 1)
			return path
		}
	}
	edits := []func(map[string]string) string{
		replace("b.rst", ":version: 1", ":version: 2"),
		func(m map[string]string) string { m["b.rst"] = "\n\n" + m["b.rst"]; return "b.rst" },
		replace("b.rst", ":version: 2", ":version: 1"),
		replace("a.rst", "R_B[version==1]", "R_B[version==2]"),
		replace("b.rst", ":version: 1", ":version: two"),
	}
	// The conditions that do not hold after each step.
	want := []string{
		"",
		"R_A -> R_B [version==1]: version is '2', T_1 -> R_B [version == 1]: version is '2'",
		"R_A -> R_B [version==1]: version is '2', T_1 -> R_B [version == 1]: version is '2'",
		"",
		"R_A -> R_B [version==2]: version is '1'",
		"R_A -> R_B [version==2]: version is 'two', T_1 -> R_B [version == 1]: version is 'two'",
	}
	var got []string
	k := 0
	cfg, np := condCfg()
	n := checkPatchesWith(t, cfg, np, text, len(edits)+1, func(m map[string]string) string { k++; return edits[k-1](m) }, nil,
		func(step int, g *Graph, ds diag.List) {
			var stale []string
			for e := range g.Edges() {
				if c := g.Condition(e); !c.Holds() {
					stale = append(stale, fmt.Sprintf("%s -> %s [%s]: %s", g.From(e).ID(), g.To(e).ID(), c.Text, c.Values()))
				}
			}
			got = append(got, strings.Join(stale, ", "))
			failed := 0
			for _, d := range ds {
				if d.Code == CodeLinkConditionFailed {
					failed++
				}
			}
			if failed != len(stale) {
				t.Errorf("step %d: %d link-condition-failed findings for %d conditions that fail", step, failed, len(stale))
			}
		})
	if n.patched != n.builds-1 {
		t.Errorf("%d of %d builds patched, want every one after the first", n.patched, n.builds)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("conditions that fail after each step (-want +got):\n%s", d)
	}
}
