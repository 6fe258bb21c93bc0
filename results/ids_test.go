package results

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/parser"
)

// outcomeIDs maps each outcome's case and result to its ID.
func outcomeIDs(t *testing.T, data string) map[string]string {
	t.Helper()
	files := []*parser.File{{Path: "t.rst", Nodes: []parser.Node{
		testNode("t.rst", "TS", 1, [2]string{"cases", "*"}),
		{Kind: parser.Implementation, ID: "IMPL"},
	}}}
	outs, _, diags := Outcomes(files, []Source{withWitnesses(src("build/r.xml", []byte(data)), "IMPL")})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	ids := map[string]string{}
	for _, o := range outs {
		key := o.Title + " " + o.Option("result").Value + " " + o.Body
		if _, dup := ids[key]; dup {
			t.Fatalf("two outcomes for %q", key)
		}
		ids[key] = o.ID
	}
	return ids
}

func junitOf(cases ...string) string {
	return "<testsuite name=\"s\">\n" + strings.Join(cases, "\n") + "\n</testsuite>\n"
}

// An outcome's ID is its file and case: adding, removing or reordering
// other cases, or other runs of other cases, moves no ID.
func TestOutcomeIDsDoNotMove(t *testing.T) {
	a := `<testcase classname="t" name="a"/>`
	b := `<testcase classname="t" name="b[100%-x]"><failure message="b broke"/></testcase>`
	c := `<testcase classname="t" name="c"><failure message="c, run 1"/></testcase>`
	c2 := `<testcase classname="t" name="c"><failure message="c, run 2"/></testcase>`
	ins := `<testcase classname="t" name="inserted"><failure message="new"/></testcase>`
	want := map[string]string{
		"t.a passed ":                "build/r.xml::t.a",
		"t.b[100%-x] failed b broke": "build/r.xml::t.b[100%-x]",
		"t.c failed c, run 1":        "build/r.xml::t.c",
		"t.c failed c, run 2":        "build/r.xml::t.c#2",
		"t.inserted failed new":      "build/r.xml::t.inserted",
		"t.inserted2 failed new":     "build/r.xml::t.inserted2",
	}
	for _, order := range [][]string{
		{a, b, c, c2},
		{ins, a, b, c, c2},
		{a, ins, b, c, ins2(ins), c2},
		{c, b, a, c2},
		{b, c, c2},
	} {
		got := outcomeIDs(t, junitOf(order...))
		for k, id := range got {
			if want[k] != id {
				t.Errorf("%q is %q, want %q (in %q)", k, id, want[k], order)
			}
		}
	}
}

func ins2(s string) string { return strings.Replace(s, "inserted", "inserted2", 1) }

// A name that itself ends in '#' and digits gets "#1" on its first run,
// so it never takes the ID of another name's second run.
func TestOutcomeIDsNeverClash(t *testing.T) {
	got := outcomeIDs(t, junitOf(
		`<testcase name="a"/>`,
		`<testcase name="a"><skipped/></testcase>`,
		`<testcase name="a#2"><failure/></testcase>`,
		`<testcase name="a#2#1"><error/></testcase>`,
	))
	want := map[string]string{
		"a passed ":    "build/r.xml::a",
		"a skipped ":   "build/r.xml::a#2",
		"a#2 failed ":  "build/r.xml::a#2#1",
		"a#2#1 error ": "build/r.xml::a#2#1#1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IDs (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		k    int
		want string
	}{
		{"x", 1, "f::x"}, {"x", 2, "f::x#2"}, {"x#", 1, "f::x#"}, {"x#9", 1, "f::x#9#1"}, {"x#a", 3, "f::x#a#3"},
	} {
		if got := OutcomeID("f", tc.name, tc.k); got != tc.want {
			t.Errorf("OutcomeID(f, %q, %d) = %q, want %q", tc.name, tc.k, got, tc.want)
		}
	}
}

// Results outcomes are dated by the file: a JUnit suite's timestamp (UTC
// when it names no zone; a nested suite without one takes its parent's),
// the Time of a go test case's last event; the day in UTC.
func TestOutcomeDates(t *testing.T) {
	junit := `<testsuites timestamp="2026-11-20T10:00:00">
  <testsuite name="zoned" timestamp="2026-11-28T22:30:00-05:00">
    <testcase name="late-in-new-york"/>
  </testsuite>
  <testsuite name="plain" timestamp="2026-11-28T23:59:59.999">
    <testcase name="no-zone"/>
  </testsuite>
  <testsuite name="inherits">
    <testcase name="from-root"/>
    <testsuite name="inner" timestamp="2026-11-27 08:00:00Z"><testcase name="spaced"/></testsuite>
  </testsuite>
</testsuites>`
	cases, diags := ReadCases(src("dates.xml", []byte(junit)))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	got := map[string]string{}
	for _, c := range cases {
		got[c.Name] = c.Date
	}
	want := map[string]string{"late-in-new-york": "2026-11-29", "no-zone": "2026-11-28", "from-root": "2026-11-20", "spaced": "2026-11-27"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JUnit dates (-want +got):\n%s", diff)
	}

	stream := `{"Time":"2026-11-28T23:59:00+01:00","Action":"run","Package":"p","Test":"TestA"}
{"Time":"2026-11-29T00:30:00+01:00","Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestUndated"}
{"Action":"pass","Package":"p","Test":"TestUndated"}
{"Time":"2026-11-29T09:00:00Z","Action":"pass","Package":"p"}
`
	cases, diags = ReadCases(src("dates.json", []byte(stream)))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	got = map[string]string{}
	for _, c := range cases {
		got[c.Name] = c.Date
	}
	want = map[string]string{"p.TestA": "2026-11-28", "p.TestUndated": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("go test dates (-want +got):\n%s", diff)
	}

	// The date is the outcome's :date: option; a file without time gives
	// none.
	files := []*parser.File{{Path: "t.rst", Nodes: []parser.Node{
		testNode("t.rst", "TS", 1, [2]string{"cases", "*"}), {Kind: parser.Implementation, ID: "I"}}}}
	outs, _, _ := Outcomes(files, []Source{withWitnesses(src("dates2.json", []byte(stream)), "I")})
	dates := map[string]string{}
	for _, o := range outs {
		if d := o.Option("date"); d != nil {
			dates[o.ID] = d.Value
		} else {
			dates[o.ID] = "none"
		}
	}
	if diff := cmp.Diff(map[string]string{"dates2.json::p.TestA": "2026-11-28", "dates2.json::p.TestUndated": "none"}, dates); diff != "" {
		t.Errorf("date options (-want +got):\n%s", diff)
	}
}

// A time that cannot be read is an invalid-timestamp error where it is
// written, and the outcomes it would date count only against.
func TestOutcomeBadTimestamp(t *testing.T) {
	files := []*parser.File{{Path: "t.rst", Nodes: []parser.Node{
		testNode("t.rst", "TS", 1, [2]string{"cases", "*"}), {Kind: parser.Implementation, ID: "I"}}}}
	for _, tc := range []struct {
		name, data string
		at         string
	}{
		{"bad.xml", "<testsuite name=\"s\">\n  <testsuite name=\"x\" timestamp=\"last Tuesday\">\n    <testcase name=\"a\"/>\n  </testsuite>\n</testsuite>\n", "bad.xml:2:3"},
		{"bad.json", "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Time\":\"yesterday\",\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestA\"}\n", "bad.json:2:1"},
	} {
		outs, _, diags := Outcomes(files, []Source{withWitnesses(src(tc.name, []byte(tc.data)), "I")})
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%s %s", where(d.Span.Start), d.Code))
		}
		if diff := cmp.Diff([]string{tc.at + " invalid-timestamp"}, got); diff != "" {
			t.Errorf("%s: diagnostics (-want +got):\n%s", tc.name, diff)
		}
		if len(outs) != 1 || !outs[0].Broken || outs[0].Option("date") != nil {
			t.Errorf("%s: outcomes %+v, want one, broken and undated", tc.name, outs)
		}
	}
}

// Witnesses are checked once per origin: an entry that names no
// implementation is one error, and the outcomes leave it out and are
// broken; no witness at all is one warning for the whole run.
func TestWitnessesCheckedOnce(t *testing.T) {
	files := []*parser.File{{Path: "t.rst", Nodes: []parser.Node{
		testNode("t.rst", "TS", 1, [2]string{"cases", "*"}),
		{Kind: parser.Implementation, ID: "IMPL-SEG"},
		{Kind: parser.Requirement, ID: "R-1"},
	}}}
	run := junitOf(`<testcase name="a"/>`, `<testcase name="b"/>`, `<testcase name="c"/>`)
	table := Origin{Name: `the [[results]] table for "b.xml"`, Entry: `witnesses entry %q of the [[results]] table for "b.xml"`,
		Short: "add witnesses", Pos: pos("seg.toml", 4, 1)}

	a := withWitnesses(src("a.xml", []byte(run)), "IMPL-SEG", "IMPL-SEGG", "R-1", "IMPL-SEGG")
	b := withWitnesses(src("b.xml", []byte(run)), "IMPL-seg")
	b.Origin = table
	c := src("c.xml", []byte(run))
	d := src("d.xml", []byte(run))
	outs, _, diags := Outcomes(files, []Source{a, b, c, d})
	var got []string
	for _, dg := range diags {
		got = append(got, fmt.Sprintf("%s %s: %s", where(dg.Span.Start), dg.Code, dg.Message))
	}
	want := []string{
		`- invalid-witness: --witness "IMPL-SEGG" names no implementation (did you mean "IMPL-SEG"?)`,
		`- invalid-witness: --witness "R-1" names a requirement, not an implementation`,
		`seg.toml:4:1 invalid-witness: witnesses entry "IMPL-seg" of the [[results]] table for "b.xml" names no implementation (did you mean "IMPL-SEG"?)`,
		`c.xml unwitnessed-results: 6 outcomes from c.xml and 1 more results files witness no implementation, so none of them counts (name the implementations the tests ran against with --witness ID[,ID...])`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, o := range outs {
		file := o.ID[:strings.Index(o.ID, "::")]
		w := o.Option("witnesses")
		switch file {
		case "a.xml":
			if !o.Broken || w == nil || w.Value != "IMPL-SEG" || len(w.Links) != 1 {
				t.Errorf("%s: broken %v, witnesses %+v; want broken with IMPL-SEG alone", o.ID, o.Broken, w)
			}
		case "b.xml":
			if !o.Broken || w != nil {
				t.Errorf("%s: broken %v, witnesses %+v; want broken, without witnesses", o.ID, o.Broken, w)
			}
		default:
			if o.Broken || w != nil {
				t.Errorf("%s: broken %v, witnesses %+v; want neither", o.ID, o.Broken, w)
			}
		}
	}
}

// A go test -json line longer than the reader's buffer is read whole, up
// to maxEventLine; a longer one is invalid-results, passed over without
// being held, and the lines after it still count.
func TestGoTestLongLines(t *testing.T) {
	long := strings.Repeat("y", 3<<20) // three times the reader's buffer
	stream := `{"Action":"run","Package":"p","Test":"TestLong"}
{"Action":"output","Package":"p","Test":"TestLong","Output":"` + long + `\n"}
{"Action":"fail","Package":"p","Test":"TestLong"}
{"Action":"run","Package":"p","Test":"TestAfter"}
{"Action":"pass","Package":"p","Test":"TestAfter"}
`
	cases, diags := ReadCases(src("long.json", []byte(stream)))
	if len(diags) != 0 || len(cases) != 2 || cases[0].Result != Failed || !strings.HasSuffix(cases[0].Message, "…") ||
		len(cases[0].Message) > MessageWidth {
		t.Fatalf("cases %d, diagnostics %v", len(cases), diags)
	}

	defer func(n int) { maxEventLine = n }(maxEventLine)
	maxEventLine = 2 << 20
	cases, diags = ReadCases(src("long2.json", []byte(stream)))
	var got []string
	for _, c := range cases {
		got = append(got, c.Name+" "+c.Result)
	}
	// The test whose output was lost still fails, with no message.
	if diff := cmp.Diff([]string{"p.TestLong failed", "p.TestAfter passed"}, got); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	if len(diags) != 1 || diags[0].Code != CodeInvalidResults || where(diags[0].Span.Start) != "long2.json:2:1" {
		t.Errorf("diagnostics %v, want invalid-results at line 2", diags)
	}
}
