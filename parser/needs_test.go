package parser_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// needsConfig is a small sphinx-needs project: types req (mapped onto
// requirement), spec and test (mapped onto test), link types links,
// parent_needs, satisfies (onto refines), tests (onto verifies) and
// blocks (dead links allowed), extra options asil and verification.
func needsConfig(idRequired bool) *parser.Config {
	cfg := parser.DefaultConfig()
	n := needs.NewProject()
	n.AddType(needs.NeedType{Directive: "req", Title: "Requirement", Kind: "requirement"})
	n.AddType(needs.NeedType{Directive: "spec", Title: "Specification"})
	n.AddType(needs.NeedType{Directive: "test", Title: "Test Case", Kind: "test"})
	n.AddLink(needs.LinkType{Option: "satisfies", Edge: "refines"})
	n.AddLink(needs.LinkType{Option: "tests", Edge: "verifies"})
	n.AddLink(needs.LinkType{Option: "blocks", AllowDead: true})
	n.AddOption("asil")
	n.AddOption("verification")
	n.IDRequired = idRequired
	n.IDPattern = regexp.MustCompile(`^[A-Z0-9_]{3,}`)
	cfg.UseNeeds(&n.Tables)
	return cfg
}

type linkGot struct {
	ID, Part, Condition, State string
	Col, EndCol                int
}

func linksOf(f *parser.File, o *parser.Option) []linkGot {
	var out []linkGot
	for _, l := range o.Links {
		st := ""
		if l.StateText != "" {
			st = l.State.String()
		}
		out = append(out, linkGot{l.ID, l.Part, l.Condition, st, f.Position(l.Span.Start).Column, f.Position(l.Span.End).Column})
	}
	return out
}

func diagCodes(f *parser.File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		p := f.Position(d.Span.Start)
		out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column, d.Code))
	}
	return out
}

// Link values are split as sphinx-needs 8 splits them.
func TestNeedLinkValues(t *testing.T) {
	cases := []struct {
		name, opt, value string
		want             []linkGot
		diags            []string
	}{
		{"plain", "links", "REQ_1", []linkGot{{"REQ_1", "", "", "", 13, 18}}, nil},
		{"separators", "links", "REQ_1, REQ_2;REQ_3 | REQ_4", []linkGot{
			{"REQ_1", "", "", "", 13, 18}, {"REQ_2", "", "", "", 20, 25}, {"REQ_3", "", "", "", 26, 31}, {"REQ_4", "", "", "", 34, 39}}, nil},
		{"empty entries", "links", ",REQ_1,, ;|", []linkGot{{"REQ_1", "", "", "", 14, 19}}, nil},
		{"empty value", "links", "", nil, nil},
		{"part", "links", "REQ_1.part_a", []linkGot{{"REQ_1", "part_a", "", "", 13, 25}}, nil},
		{"condition", "links", `REQ_1[status == "open"]`, []linkGot{{"REQ_1", "", `status == "open"`, "", 13, 36}}, nil},
		{"condition with separators", "links", `REQ_1[a in ("x", "y"); b | c], REQ_2`, []linkGot{
			{"REQ_1", "", `a in ("x", "y"); b | c`, "", 13, 42}, {"REQ_2", "", "", "", 44, 49}}, nil},
		{"part and condition", "links", `REQ_1.p2[x]`, []linkGot{{"REQ_1", "p2", "x", "", 13, 24}}, nil},
		{"deeper brackets", "links", `REQ_1[[a[0] > 1]]`, []linkGot{{"REQ_1", "", "a[0] > 1", "", 13, 30}}, nil},
		{"condition ending in a bracket", "links", `REQ_1[[a[0]]]`, []linkGot{{"REQ_1", "", "a[0]", "", 13, 26}}, nil},
		{"nested at depth one", "links", `REQ_1 [a[b]]`, []linkGot{{"REQ_1", "", "a[b]", "", 13, 25}}, nil},
		{"dynamic function", "links", `[[copy("links", "REQ_2")]], REQ_1`, []linkGot{
			{`[[copy("links", "REQ_2")]]`, "", "", "", 13, 39}, {"REQ_1", "", "", "", 41, 46}}, nil},
		{"variant function", "links", `<<var_a:REQ_1, REQ_2>>`, []linkGot{{"<<var_a:REQ_1, REQ_2>>", "", "", "", 13, 35}}, nil},
		{"unclosed condition", "links", `REQ_1[status == "open", REQ_2`, []linkGot{{"REQ_1", "", `status == "open", REQ_2`, "", 13, 42}},
			[]string{"3:13 malformed-link"}},
		{"text after condition", "links", `REQ_1[x] tail, REQ_2`, []linkGot{{"REQ_1", "", "x", "", 13, 26}, {"REQ_2", "", "", "", 28, 33}},
			[]string{"3:13 malformed-link"}},
		{"unclosed dynamic function", "links", `[[copy("id")`, []linkGot{{`[[copy("id")`, "", "", "", 13, 25}},
			[]string{"3:13 malformed-link"}},
		{"no ID", "links", `[x], REQ_1`, []linkGot{{"REQ_1", "", "", "", 18, 23}}, []string{"3:13 malformed-link"}},
		// seg's state suffix: read on an option mapped onto verifies ...
		{"state on a mapped verifies", "tests", "REQ_1 (suspect), REQ_2[x] (retired)", []linkGot{
			{"REQ_1", "", "", "suspect", 13, 28}, {"REQ_2", "", "x", "retired", 30, 48}}, nil},
		{"bad state on a mapped verifies", "tests", "REQ_1 (maybe)", []linkGot{{"REQ_1", "", "", "invalid", 13, 26}},
			[]string{"3:19 invalid-state"}},
		// ... and not elsewhere, where sphinx-needs reads it as part of the ID.
		{"no state elsewhere", "satisfies", "REQ_1 (suspect)", []linkGot{{"REQ_1 (suspect)", "", "", "", 13, 28}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fmt.Sprintf(".. req:: A requirement\n   :id: REQ_0\n   :%s: %s\n", c.opt, c.value)
			// The value starts at column 17 whatever the option; the
			// table counts from 13.
			src = strings.Replace(src, ":"+c.opt+": ", ":"+c.opt+": "+strings.Repeat(" ", 10-len(c.opt)), 1)
			for i := range c.want {
				c.want[i].Col += 4
				c.want[i].EndCol += 4
			}
			for i, d := range c.diags {
				var line, col int
				var code string
				fmt.Sscanf(d, "%d:%d %s", &line, &col, &code)
				c.diags[i] = fmt.Sprintf("%d:%d %s", line, col+4, code)
			}
			f := parseFile("a.rst", []byte(src), needsConfig(true))
			if len(f.Nodes) != 1 {
				t.Fatalf("%d nodes, want 1; diagnostics %v", len(f.Nodes), diagCodes(f))
			}
			o := f.Nodes[0].Option(c.opt)
			if o == nil {
				t.Fatalf("no :%s:", c.opt)
			}
			if o.Links == nil {
				t.Error("a link option's Links is nil")
			}
			if d := cmp.Diff(c.want, linksOf(f, o)); d != "" {
				t.Errorf("links (-want +got):\n%s", d)
			}
			if d := cmp.Diff(c.diags, diagCodes(f)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}

// A link value may run over several lines; positions stay exact.
func TestNeedLinkMultiLine(t *testing.T) {
	src := ".. spec:: S\n   :id: SPEC_1\n   :links: REQ_1,\n           REQ_2[status\n           == \"x\"],\n     REQ_3.p\n"
	f := parseFile("a.rst", []byte(src), needsConfig(true))
	if len(f.Nodes) != 1 || len(f.Diagnostics) != 0 {
		t.Fatalf("nodes %d, diagnostics %v", len(f.Nodes), diagCodes(f))
	}
	var got []string
	for _, l := range f.Nodes[0].Option("links").Links {
		a, z := f.Position(l.Span.Start), f.Position(l.Span.End)
		got = append(got, fmt.Sprintf("%s|%s|%s %d:%d-%d:%d", l.ID, l.Part, l.Condition, a.Line, a.Column, z.Line, z.Column))
	}
	want := []string{
		"REQ_1|| 3:12-3:17",
		`REQ_2||status == "x" 4:12-5:19`,
		"REQ_3|p| 6:6-6:13",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// A need takes sphinx-needs' options, the project's extra options and
// link types, and nothing of its seg kind's; a seg node is unchanged.
func TestNeedOptions(t *testing.T) {
	src := `.. req:: R
   :id: REQ_1
   :status: open
   :tags: a; b
   :asil: B
   :collapse: true
   :hide:
   :satisfies: REQ_2
   :refines: REQ_2
   :verifcation: x

.. sreq:: A seg requirement
   :id: SEG-1
   :refines: SEG-2
   :satisfies: SEG-2
`
	f := parseFile("a.rst", []byte(src), needsConfig(true))
	want := []string{
		"9:5 unknown-option",  // :refines: is seg's, not sphinx-needs'
		"10:5 unknown-option", // a typo, with a hint
		"15:5 unknown-option", // :satisfies: is no option of a seg node
	}
	if d := cmp.Diff(want, diagCodes(f)); d != "" {
		t.Fatalf("diagnostics (-want +got):\n%s", d)
	}
	if m := f.Diagnostics[1].Message; !strings.Contains(m, `did you mean ":verification:"?`) {
		t.Errorf("message %q has no hint", m)
	}
	if f.Nodes[0].Kind != parser.Requirement || f.Nodes[1].Kind != parser.Requirement {
		t.Errorf("kinds %v %v", f.Nodes[0].Kind, f.Nodes[1].Kind)
	}
	if o := f.Nodes[0].Option("status"); o.Links != nil {
		t.Error(":status: has links")
	}
	if o := f.Nodes[1].Option("refines"); len(o.Links) != 1 {
		t.Error("a seg node's :refines: lost its link")
	}
}

// id_required false: a need without an ID is no error (sphinx-needs
// generates one); with true it is missing-id. The need's ID pattern is
// the project's; a seg node keeps seg's.
func TestNeedIDs(t *testing.T) {
	src := `.. spec:: No ID

.. spec:: Empty ID
   :id:

.. spec:: Lower case
   :id: spec_1

.. sreq:: seg's own pattern
   :id: seg-1
`
	for _, required := range []bool{false, true} {
		f := parseFile("a.rst", []byte(src), needsConfig(required))
		want := []string{"6:1 invalid-id"}
		if required {
			want = []string{"1:4 missing-id", "4:5 missing-id", "6:1 invalid-id"}
		}
		// invalid-id points at the value
		got := diagCodes(f)
		for i, g := range got {
			if strings.HasSuffix(g, "invalid-id") {
				got[i] = "6:1 invalid-id"
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("id_required=%v (-want +got):\n%s", required, d)
		}
	}
}

// Without a sphinx-needs project nothing changes: the same text parses as
// before, brackets included.
func TestNoNeedsNoChange(t *testing.T) {
	src := ".. sreq:: S\n   :id: S-1\n   :refines: S-2[status == \"open\"], S-3.part\n"
	f := parseFile("a.rst", []byte(src), parser.DefaultConfig())
	var ids []string
	for _, l := range f.Nodes[0].Option("refines").Links {
		ids = append(ids, l.ID+"|"+l.Part+"|"+l.Condition)
	}
	if d := cmp.Diff([]string{`S-2[status == "open"]||`, "S-3.part||"}, ids); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
