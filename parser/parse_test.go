package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// summary renders a file's nodes as "line directive id <parent-id" lines.
func summary(f *File) []string {
	var out []string
	for _, n := range f.Nodes {
		s := fmt.Sprintf("%d %s %s", f.Position(n.Pos).Line, n.Directive, n.ID)
		if n.Parent >= 0 {
			s += " <" + f.Nodes[n.Parent].ID
		}
		out = append(out, s)
	}
	return out
}

func TestStructure(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"basic", `
.. sreq:: Leaf
   :id: R-1

   Body.
`, []string{"2 sreq R-1"}},
		{"upper-case name", ".. SREQ:: Up\n   :id: R-1\n\n.. Test:: T\n   :id: T-1\n", []string{"1 sreq R-1", "4 test T-1"}},
		{"space before ::", ".. sreq :: x\n   :id: R-1\n", []string{"1 sreq R-1"}},
		{"two spaces before :: is a comment", ".. sreq  :: x\n   :id: R-1\n", nil},
		{"no space after :: is a comment", ".. sreq::x\n   :id: R-1\n", nil},
		{"after a paragraph line", "Some text\n.. sreq:: x\n   :id: R-1\n", nil},
		{"after a paragraph and a blank line", "Some text\n\n.. sreq:: x\n   :id: R-1\n", []string{"3 sreq R-1"}},
		{"consecutive directives", ".. sreq:: a\n   :id: A\n.. sreq:: b\n   :id: B\n", []string{"1 sreq A", "3 sreq B"}},
		{"comment swallows its block", ".. a comment\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"comment swallows past blank lines", ".. a comment\n\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"bare .. swallows what follows", "..\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"empty comment swallows nothing", "..\n\n   .. sreq:: x\n      :id: R-1\n", []string{"3 sreq R-1"}},
		{"literal block", "Example::\n\n   .. sreq:: x\n      :id: R-1\n\n.. sreq:: y\n   :id: R-2\n", []string{"6 sreq R-2"}},
		{"lone ::", "::\n\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"quoted literal block", "Example::\n\n.. sreq:: x\n   :id: R-1\n", nil},
		{"paragraph and :: then an indented line", "one\ntwo::\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"term:: then indented is a definition", "term::\n   .. sreq:: x\n      :id: R-1\n", []string{"2 sreq R-1"}},
		{"escaped :: is no literal", "Example\\::\n\n   .. sreq:: x\n      :id: R-1\n", []string{"3 sreq R-1"}},
		{"code-block", ".. code-block:: rst\n\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"literal directive from the config", ".. mermaid::\n\n   .. sreq:: x\n      :id: R-1\n", nil},
		{"definition list", "term\n   .. sreq:: x\n      :id: R-1\n", []string{"2 sreq R-1"}},
		{"bullet list", "- .. sreq:: x\n     :id: R-1\n- item\n\n  .. sreq:: y\n     :id: R-2\n", []string{"1 sreq R-1", "5 sreq R-2"}},
		{"enumerated lists", "1. .. sreq:: a\n      :id: A\n#. .. sreq:: b\n      :id: B\n\n(a) .. sreq:: c\n       :id: C\n", []string{"1 sreq A", "3 sreq B", "6 sreq C"}},
		{"not an enumerated list", "1. text\n.. sreq:: x\n   :id: R-1\n", nil},
		{"field list", ":field: .. sreq:: x\n\n   .. sreq:: y\n      :id: R-2\n", []string{"1 sreq ", "3 sreq R-2"}},
		{"block quote", "Text.\n\n   .. sreq:: x\n      :id: R-1\n", []string{"3 sreq R-1"}},
		{"note and unknown directives", ".. note::\n   .. sreq:: a\n      :id: A\n\n.. only:: html\n\n   .. sreq:: b\n      :id: B\n", []string{"2 sreq A", "7 sreq B"}},
		{"unknown directive argument swallows", ".. only:: html\n   .. sreq:: a\n      :id: A\n", nil},
		{"image holds no nodes", ".. image:: x.png\n\n   .. sreq:: a\n      :id: A\n", nil},
		{"footnote and citation bodies", ".. [1] .. sreq:: a\n\n.. [CIT] Text.\n\n   .. sreq:: b\n      :id: B\n", []string{"1 sreq ", "5 sreq B"}},
		{"target swallows to the blank line", ".. _t:\n   .. sreq:: a\n      :id: A\n\n   .. sreq:: b\n      :id: B\n", []string{"5 sreq B"}},
		{"substitution definition", ".. |x| image:: a.png\n   .. sreq:: a\n      :id: A\n", nil},
		{"seg directive in a substitution", ".. |x| sreq:: a\n   :id: A\n", []string{"1 sreq A"}},
		{"options after the blank line are body", ".. sreq:: x\n\n   :id: R-1\n", []string{"1 sreq "}},
		{"nesting three deep", `
.. sys:: top
   :id: S-1

   - item

     .. sreq:: middle
        :id: R-1

        term
           .. test:: bottom
              :id: T-1

   .. note::

      .. impl:: sibling
         :id: I-1
`, []string{"2 sys S-1", "7 sreq R-1 <S-1", "11 test T-1 <R-1", "16 impl I-1 <S-1"}},
		{"grid table cell", `
+--------------------+-----+
| .. sreq:: in cell  | b   |
|    :id: R-1        |     |
+--------------------+-----+
`, []string{"3 sreq R-1"}},
		{"simple table cell", `
=====  ==================
a      .. sreq:: in cell
          :id: R-1
=====  ==================
`, []string{"3 sreq R-1"}},
		{"section titles", "Title\n=====\n.. sreq:: x\n   :id: R-1\n", []string{"3 sreq R-1"}},
		{"short underline is text", "Title\n===\n.. sreq:: x\n   :id: R-1\n", nil},
		{"tabs", ".. sreq:: x\n\t:id: R-1\n\n\t.. test:: y\n\t   :id: T-1\n", []string{"1 sreq R-1", "4 test T-1 <R-1"}},
		{"less indented body line turns options into title", ".. sreq:: x\n     :id: R-1\n\n   body\n", []string{"1 sreq "}},
		{"line too long", strings.Repeat("x", 10001) + "\n\n.. sreq:: x\n   :id: R-1\n", nil},
		{"NBSP-led line is text", "\u00a0.. sreq:: x\n   :id: R-1\n", nil},
		// docutils' parser reads VT and FF as spaces (32-formfeed.rst).
		{"form feed is a space", "text\f\n.. sreq:: x\n   :id: R-1\n", nil},
		{"form-feed line is blank", "text\n\f\n.. sreq:: x\n   :id: R-1\n", []string{"3 sreq R-1"}},
		{"form feed indents", "text\n\n\f\v.. sreq:: x\n     :id: R-1\n", []string{"3 sreq R-1"}},
		{"empty file", "", nil},
		{"only dots", "..", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseString("t.rst", tt.src, DefaultConfig())
			if diff := cmp.Diff(tt.want, summary(f)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s\ndiagnostics: %v", diff, f.Diagnostics)
			}
			for _, d := range f.Diagnostics {
				if d.Code == CodeInternal {
					t.Errorf("internal error: %v", d)
				}
			}
		})
	}
}

// TestPositions checks every position of a node, its options and its link
// entries, whatever the line ends, tabs or BOM.
func TestPositions(t *testing.T) {
	want := func(col0 int) func(f *File) []Node {
		return func(f *File) []Node {
			p := func(line, col int) source.Pos { return at(f, line, col) }
			sp := func(l1, c1, l2, c2 int) source.Span { return spanAt(f, l1, c1, l2, c2) }
			// col0 is the column of the text after indent; ":" of options.
			c := col0
			return []Node{{
				Kind: Test, Directive: "test", ID: "T-1", Title: "A title on two lines",
				Pos: p(1, 1), Parent: -1,
				Options: []Option{
					{Name: "id", Value: "T-1", Pos: p(3, c), ValuePos: p(3, c+5)},
					{Name: "verifies", Value: "R-1, R-2 (suspect),", Pos: p(4, c), ValuePos: p(4, c+11),
						Links: []Link{
							{ID: "R-1", Span: sp(4, c+11, 4, c+14)},
							{ID: "R-2", State: Suspect, StateText: "suspect", Span: sp(5, c+2, 5, c+15)},
						}},
				},
				Body: "Body\n\n  indented",
			}}
		}
	}
	// Every variant says the same, so has the same revision.
	withRevision := func(nodes []Node) []Node {
		nodes[0].Revision = revision.Of(Canonical(&nodes[0], LinkOptions(Test)))
		return nodes
	}
	tests := []struct {
		name, src string
		want      func(*File) []Node
	}{
		{"LF", ".. test:: A title\n   on two lines\n   :id: T-1\n   :verifies: R-1,\n     R-2 (suspect),\n\n   Body\n\n     indented\n", want(4)},
		{"CRLF", ".. test:: A title\r\n   on two lines\r\n   :id: T-1\r\n   :verifies: R-1,\r\n     R-2 (suspect),\r\n\r\n   Body\r\n\r\n     indented\r\n", want(4)},
		{"CR", ".. test:: A title\r   on two lines\r   :id: T-1\r   :verifies: R-1,\r     R-2 (suspect),\r\r   Body\r\r     indented\r", want(4)},
		{"BOM", "\ufeff.. test:: A title\n   on two lines\n   :id: T-1\n   :verifies: R-1,\n     R-2 (suspect),\n\n   Body\n\n     indented\n", want(4)},
		// A tab is one byte: columns count bytes of the original line.
		{"tabs", ".. test:: A title\n\ton two lines\n\t:id: T-1\n\t:verifies: R-1,\n\t  R-2 (suspect),\n\n\tBody\n\n\t  indented\n", want(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseString("t.rst", tt.src, DefaultConfig())
			if len(f.Diagnostics) > 0 {
				t.Errorf("diagnostics: %v", f.Diagnostics)
			}
			if diff := cmp.Diff(withRevision(tt.want(f)), f.Nodes, posText(f)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInvalidEncoding(t *testing.T) {
	src := []byte(".. sreq:: ok\n   :id: R-1\n\nbad \xff byte\n")
	f := parseBytes("bad.rst", src, DefaultConfig())
	if len(f.Nodes) != 0 {
		t.Errorf("nodes from a file that is not UTF-8: %v", f.Nodes)
	}
	want := diag.List{{Code: CodeInvalidEncoding, Span: spanAt(f, 4, 5, 4, 6)}}
	if diff := cmp.Diff(want, f.Diagnostics, cmpIgnoreText, posText(f)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

var cmpIgnoreText = cmp.FilterPath(func(p cmp.Path) bool {
	s := p.Last().String()
	return s == ".Message" || s == ".Detail"
}, cmp.Ignore())

func TestLineTooLong(t *testing.T) {
	src := ".. sreq:: x\n   :id: R-1\n" + strings.Repeat("\t", 1251) + "x\n"
	f := parseString("t.rst", src, DefaultConfig())
	if len(f.Nodes) != 0 || len(f.Diagnostics) != 1 || f.Diagnostics[0].Code != CodeLineTooLong || f.Position(f.Diagnostics[0].Span.Start).Line != 3 {
		t.Errorf("got nodes %v, diagnostics %v", f.Nodes, f.Diagnostics)
	}
}

func TestConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Directives["need"] = Requirement
	cfg.ExtraOptions["status"] = true
	cfg.Literal["mycode"] = true
	src := ".. need:: x\n   :id: R-1\n   :status: open\n\n.. mycode::\n\n   .. need:: y\n      :id: R-2\n"
	f := parseString("t.rst", src, cfg)
	if diff := cmp.Diff([]string{"1 need R-1"}, summary(f)); diff != "" {
		t.Error(diff)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", f.Diagnostics)
	}
	if o := f.Nodes[0].Option("status"); o == nil || o.Value != "open" || o.Links != nil {
		t.Errorf("status option: %+v", o)
	}
}

// TestPlainLists checks that :cases: is split into entries with exact
// places, over continuation lines, with "(...)" kept as part of a name
// and no state; that :source: is split into paths likewise; and that link lists skip
// empty entries.
func TestPlainLists(t *testing.T) {
	src := ".. test:: x\n   :id: T-1\n   :cases: TestA, TestB,\n      TestC/sub_(1) ;\n   :verifies: R-1,, ; R-2 |\n" +
		"\n.. impl:: y\n   :id: I-1\n   :source: a.go, b.go\n   :cases: TestZ\n"
	f := parseString("t.rst", src, DefaultConfig())
	n := f.Nodes[0]
	o := n.Option("cases")
	if o.Value != "TestA, TestB, TestC/sub_(1) ;" {
		t.Errorf("cases value: %q", o.Value)
	}
	var cases []string
	for _, l := range o.Links {
		cases = append(cases, fmt.Sprintf("%s %s-%d %q", l.ID, f.Position(l.Span.Start), f.Position(l.Span.End).Column, l.StateText))
	}
	want := []string{`TestA t.rst:3:12-17 ""`, `TestB t.rst:3:19-24 ""`, `TestC/sub_(1) t.rst:4:7-20 ""`}
	if diff := cmp.Diff(want, cases); diff != "" {
		t.Errorf("cases entries (-want +got):\n%s", diff)
	}
	if len(f.Diagnostics) != 1 || f.Diagnostics[0].Code != CodeUnknownOption ||
		f.Diagnostics[0].Detail != "An implementation takes :id:, :implements: and :source:. To allow another option (kept as an attribute), list it under extra_options in seg.toml." {
		t.Errorf("diagnostics: %v", f.Diagnostics)
	}
	var sources []string
	for _, l := range f.Nodes[1].Option("source").Links {
		sources = append(sources, fmt.Sprintf("%s %s", l.ID, f.Position(l.Span.Start)))
	}
	if diff := cmp.Diff([]string{"a.go t.rst:9:13", "b.go t.rst:9:19"}, sources); diff != "" {
		t.Errorf(":source: entries (-want +got):\n%s", diff)
	}
	if o := f.Nodes[1].Option("cases"); o == nil || o.Links != nil {
		t.Errorf(":cases: on an implementation (an unknown option there): %+v", o)
	}
	var ids []string
	for _, l := range n.Option("verifies").Links {
		ids = append(ids, l.ID)
	}
	if diff := cmp.Diff([]string{"R-1", "R-2"}, ids); diff != "" {
		t.Error(diff)
	}
}

func TestValidID(t *testing.T) {
	b := &builder{cfg: DefaultConfig()}
	for _, id := range []string{"", "a", "A-1", "a_b.c-d", "-a", "_a", ".a", "a b", "a/b", "é", "1", "a\n"} {
		if got, want := b.validID(id), b.cfg.IDPattern.MatchString(id); got != want {
			t.Errorf("validID(%q) = %v, the pattern says %v", id, got, want)
		}
	}
}
