package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// testNode builds a test specification as the parser would: options on
// consecutive lines from line, each value at column 12 ("   :cases: " is
// 11 bytes wide for every option name here, by padding).
func testNode(file, id string, line int, opts ...[2]string) parser.Node {
	n := parser.Node{Kind: parser.Test, Directive: "test", ID: id, Title: id, Parent: -1,
		Pos: pos(file, line, 1)}
	for i, o := range opts {
		l := line + 1 + i
		n.Options = append(n.Options, parser.Option{Name: o[0], Value: o[1],
			Pos:      pos(file, l, 4),
			ValuePos: pos(file, l, 12)})
	}
	return n
}

func specFiles() []*parser.File {
	const f = "docs/tests.rst"
	multi := testNode(f, "TS-MULTI", 40, [2]string{"cases", "never.one, never.two"}, [2]string{"verifies", "R-1"})
	split := testNode(f, "TS-SPLIT", 50, [2]string{"cases", "ignored"})
	split.Options[0].Links = []parser.Link{{ID: "split.none", Span: source.Span{
		Start: pos(f, 52, 7), End: pos(f, 52, 17)}}}
	return []*parser.File{{
		Path: f,
		Nodes: []parser.Node{
			testNode(f, "TS-LEAF-1", 1,
				[2]string{"id", "TS-LEAF-1"},
				[2]string{"cases", "example.com/old/par.Test[AB], tests/test_leaf.py::test_*"},
				[2]string{"verifies", "R-1"}),
			testNode(f, "TS-GO", 10, [2]string{"cases", "example.com/old/par.TestA"}),
			testNode(f, "TS-BROKEN", 20, [2]string{"cases", "example.com/old/broken.TestX/*"}),
			testNode(f, "TS-NONE", 30, [2]string{"cases", "nothing.matches ;  also*none|"}),
			multi,
			split,
			testNode(f, "", 60, [2]string{"cases", "*"}), // no ID: not a specification
			{Kind: parser.Requirement, ID: "R-1", Options: []parser.Option{{Name: "cases", Value: "*"}}},
			{Kind: parser.Implementation, ID: "IMPL-A"},
			{Kind: parser.Implementation, ID: "IMPL-B"},
		},
	}}
}

func fixtureSources(t *testing.T) []Source {
	mixed := readFixture(t, "gotest-mixed.json")
	mixed.Witnesses = []string{"IMPL-B", "IMPL-A"}
	mixed.Config = "linux-amd64"
	nested := readFixture(t, "nested.xml")
	py := src("build/pytest.xml", []byte(`<testsuites><testsuite name="pytest">
<testcase classname="tests.test_leaf" name="test_clause_a"/>
<testcase classname="tests.test_leaf.TestClass" name="test_m"><skipped/></testcase>
<testcase classname="other" name="test_unrelated"/>
</testsuite></testsuites>`))
	again := mixed
	again.Witnesses = nil // the same path again: passed over
	return []Source{mixed, nested, py, again}
}

func renderOutcomes(outs []parser.Node, unmatched []Unmatched, diags diag.List) string {
	var b strings.Builder
	for _, n := range outs {
		fmt.Fprintf(&b, "%s %s %q @ %s\n", n.ID, n.Directive, n.Title, where(n.Pos))
		for _, o := range n.Options {
			fmt.Fprintf(&b, "    :%s: %s", o.Name, o.Value)
			for _, l := range o.Links {
				fmt.Fprintf(&b, " [%s @ %s]", l.ID, where(l.Span.Start))
			}
			b.WriteString("\n")
		}
		if n.Body != "" {
			fmt.Fprintf(&b, "    body %q\n", n.Body)
		}
	}
	b.WriteString("unmatched:\n")
	for _, u := range unmatched {
		fmt.Fprintf(&b, "%s %q @ %s\n", u.Result, u.Name, where(u.Pos))
	}
	b.WriteString(render(nil, diags))
	return b.String()
}

func TestOutcomes(t *testing.T) {
	outs, unmatched, diags := Outcomes(specFiles(), fixtureSources(t))
	golden(t, "outcomes", renderOutcomes(outs, unmatched, diags))

	// One node in full, as graph code will read it.
	var got *parser.Node
	for i := range outs {
		if outs[i].ID == "results/gotest-mixed.json::example.com/old/par.TestA" {
			got = &outs[i]
		}
	}
	if got == nil {
		t.Fatal("no outcome results/gotest-mixed.json::example.com/old/par.TestA")
	}
	at := got.Pos
	if where(at) != "results/gotest-mixed.json:22:1" {
		t.Errorf("outcome at %s", where(at))
	}
	sp := source.At(at)
	want := parser.Node{
		Kind: parser.Outcome, Directive: "outcome", ID: "results/gotest-mixed.json::example.com/old/par.TestA",
		Title: "example.com/old/par.TestA", Pos: at, Parent: -1,
		Options: []parser.Option{
			{Name: "id", Value: "results/gotest-mixed.json::example.com/old/par.TestA", Pos: at, ValuePos: at},
			{Name: "confirms", Value: "TS-GO, TS-LEAF-1", Pos: at, ValuePos: at,
				Links: []parser.Link{{ID: "TS-GO", Span: sp}, {ID: "TS-LEAF-1", Span: sp}}},
			{Name: "witnesses", Value: "IMPL-B, IMPL-A", Pos: at, ValuePos: at,
				Links: []parser.Link{{ID: "IMPL-B", Span: sp}, {ID: "IMPL-A", Span: sp}}},
			{Name: "result", Value: "passed", Pos: at, ValuePos: at},
			{Name: "config", Value: "linux-amd64", Pos: at, ValuePos: at},
			{Name: "date", Value: "2024-01-02", Pos: at, ValuePos: at},
		},
		FromResults: true, CaseNames: []string{"example.com/old/par.TestA"},
	}
	want.Revision = revision.Of(parser.Canonical(&want, parser.LinkOptions(parser.Outcome)))
	if diff := cmp.Diff(want, *got, cmp.AllowUnexported(source.Pos{})); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
	if got.IDPos() != at {
		t.Errorf("IDPos = %s, want %s", where(got.IDPos()), where(at))
	}

	// The no-results warnings point at the pattern inside the option value.
	var warned []string
	for _, d := range diags {
		if d.Code == CodeNoResults {
			warned = append(warned, fmt.Sprintf("%s-%d", where(d.Span.Start), tfs.Position(d.Span.End).Column))
		}
	}
	wantWarned := []string{
		"docs/tests.rst:31:12-27", // nothing.matches
		"docs/tests.rst:31:31-40", // also*none, after " ;  "
		"docs/tests.rst:41:12-21", // never.one
		"docs/tests.rst:41:23-32", // never.two
		"docs/tests.rst:52:7-17",  // the parser's own span
	}
	if diff := cmp.Diff(wantWarned, warned); diff != "" {
		t.Errorf("no-results warnings (-want +got):\n%s", diff)
	}
}

func TestOutcomesWithoutSourcesWarnNothing(t *testing.T) {
	outs, unmatched, diags := Outcomes(specFiles(), nil)
	if len(outs)+len(unmatched)+len(diags) != 0 {
		t.Errorf("got %d outcomes, %d unmatched, diagnostics %v; want nothing", len(outs), len(unmatched), diags)
	}
}

// TestOutcomesDamagedSource: a damaged file gives its error and the
// outcomes of its complete cases only.
func TestOutcomesDamagedSource(t *testing.T) {
	files := []*parser.File{{Path: "t.rst", Nodes: []parser.Node{
		testNode("t.rst", "TS-T", 1, [2]string{"cases", "t.*"}),
	}}}
	outs, _, diags := Outcomes(files, []Source{readFixture(t, "truncated.xml")})
	diags = without(diags, CodeUnwitnessedResults)
	var ids []string
	for _, o := range outs {
		ids = append(ids, o.ID+" "+o.Option("result").Value)
	}
	want := []string{"results/truncated.xml::t.complete passed", "results/truncated.xml::t.also_complete failed"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if len(diags) != 1 || diags[0].Code != CodeInvalidResults {
		t.Errorf("diagnostics = %v, want one invalid-results", diags)
	}
}

func TestImport(t *testing.T) {
	outs, _, _ := Outcomes(specFiles(), fixtureSources(t))
	var a, b bytes.Buffer
	if err := Import(&a, outs, ImportOptions{Files: tfs}); err != nil {
		t.Fatal(err)
	}
	if err := Import(&b, outs, ImportOptions{Files: tfs}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two imports of the same outcomes differ")
	}
	golden(t, "import.rst", a.String())

	// Every written ID fits the default pattern.
	rx := regexp.MustCompile(parser.DefaultIDPattern)
	for _, m := range regexp.MustCompile(`(?m)^   :id: (.*)$`).FindAllStringSubmatch(a.String(), -1) {
		if !rx.MatchString(m[1]) {
			t.Errorf("imported ID %q does not fit %s", m[1], rx)
		}
	}
}

func TestImportID(t *testing.T) {
	def := regexp.MustCompile(parser.DefaultIDPattern)
	strict := regexp.MustCompile(`^[A-Z][A-Z0-9-]*$`)
	for _, tc := range []struct {
		id   string
		rx   *regexp.Regexp
		want string
	}{
		{"build/junit.xml::pkg.TestA/sub", def, "RUN-build-junit.xml--pkg.TestA-sub-" + hash8("build/junit.xml::pkg.TestA/sub")},
		{"build/junit.xml::pkg.TestA/sub#3", def, "RUN-build-junit.xml--pkg.TestA-sub-3-" + hash8("build/junit.xml::pkg.TestA/sub#3")},
		{"build/test results/ü.json::t[x y]", def, "RUN-build-test-results--.json--t-x-y--" + hash8("build/test results/ü.json::t[x y]")},
		{"build/junit.xml::pkg.TestA/sub#3", strict, "RUN-BUILD-JUNIT-XML--PKG-TESTA-SUB-3-" + strings.ToUpper(hash8("build/junit.xml::pkg.TestA/sub#3"))},
		{"OUT-1", def, "OUT-1"},
	} {
		got, err := ImportID(tc.id, tc.rx)
		if err != nil || got != tc.want {
			t.Errorf("ImportID(%q, %s) = %q, %v; want %q", tc.id, tc.rx, got, err, tc.want)
		}
	}
	if _, err := ImportID("a.xml::t", regexp.MustCompile(`^X$`)); err == nil {
		t.Error("an ID that fits no pattern form gave no error")
	}
	// Names that simplify to the same text keep apart by their hash.
	a, _ := ImportID("a/b.xml::t[1 2]", def)
	b, _ := ImportID("a-b.xml::t[1-2]", def)
	if a == b {
		t.Errorf("two outcomes written with one ID %q", a)
	}
	clash := []parser.Node{{ID: "OUT-1"}, {ID: "OUT-1"}}
	if err := Import(&bytes.Buffer{}, clash, ImportOptions{}); err == nil {
		t.Error("two outcomes written with one ID gave no error")
	}
}

// without is diags less those of code c.
func without(diags diag.List, c *diag.Code) diag.List {
	var out diag.List
	for _, d := range diags {
		if d.Code != c {
			out = append(out, d)
		}
	}
	return out
}

func hash8(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:4])
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"build/a.xml", "build/b.json", "build/deep/er/c.xml", "other/d.xml"} {
		full := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("<testsuite/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := func(srcs []Source) []string {
		var out []string
		for _, s := range srcs {
			out = append(out, s.Path)
		}
		return out
	}

	srcs, diags, err := Load(root, []string{"other/d.xml", "build/*.xml", "build/**/*.xml", "build/a.xml"},
		Source{Witnesses: []string{"IMPL-1"}, Config: "cfg", Flaky: FlakyPassed})
	if err != nil || len(diags) != 0 {
		t.Fatalf("Load: %v %v", err, diags)
	}
	if diff := cmp.Diff([]string{"build/a.xml", "build/deep/er/c.xml", "other/d.xml"}, paths(srcs)); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if srcs[0].Config != "cfg" || !cmp.Equal(srcs[0].Witnesses, []string{"IMPL-1"}) || srcs[0].Flaky != FlakyPassed {
		t.Errorf("source = %+v", srcs[0])
	}
	if rc, err := srcs[0].Open(); err != nil {
		t.Error(err)
	} else {
		data, _ := io.ReadAll(rc)
		rc.Close()
		if string(data) != "<testsuite/>" {
			t.Errorf("source reads %q", data)
		}
	}

	abs := filepath.Join(root, "build", "b.json")
	srcs, _, err = Load(root, []string{abs}, Source{})
	if err != nil || !cmp.Equal(paths(srcs), []string{"build/b.json"}) {
		t.Errorf("absolute path: %v %v", paths(srcs), err)
	}

	srcs, diags, err = Load(root, []string{"nowhere/*.xml", "nowhere/**/*.xml"}, Source{})
	if err != nil || len(srcs) != 0 || len(diags) != 2 || diags[0].Code != CodeNoResultsFile || diags[0].Severity() != diag.Warning {
		t.Errorf("glob matching nothing: %v %v %v", srcs, diags, err)
	}
	if _, _, err := Load(root, []string{"build/missing.xml"}, Source{}); err == nil {
		t.Error("a missing file gave no error")
	}
	if _, _, err := Load(root, []string{"build"}, Source{}); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("a folder: %v", err)
	}
}

// TestImportReparses reads Import's output back with the parser: the same
// outcomes, under their written IDs, and no diagnostic.
func TestImportReparses(t *testing.T) {
	outs, _, _ := Outcomes(specFiles(), fixtureSources(t))
	var b bytes.Buffer
	if err := Import(&b, outs, ImportOptions{Files: tfs}); err != nil {
		t.Fatal(err)
	}
	f := parser.ParseFile(tfs.Add("docs/outcomes/run.rst", b.Len(), source.Docutils), b.Bytes(), nil)
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", f.Diagnostics)
	}
	summary := func(n *parser.Node, id string) string {
		s := id + " " + n.Title
		for _, name := range []string{"confirms", "witnesses", "result", "config"} {
			if o := n.Option(name); o != nil {
				s += fmt.Sprintf(" %s=%s", name, o.Value)
				for _, l := range o.Links {
					s += "," + l.ID
				}
			}
		}
		return s
	}
	var want, got []string
	for i := range outs {
		id, _ := ImportID(outs[i].ID, regexp.MustCompile(parser.DefaultIDPattern))
		want = append(want, summary(&outs[i], id))
	}
	for i := range f.Nodes {
		if f.Nodes[i].Kind != parser.Outcome {
			t.Errorf("node %d is a %s", i, f.Nodes[i].Kind)
		}
		got = append(got, summary(&f.Nodes[i], f.Nodes[i].ID))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reparsed outcomes (-want +got):\n%s", diff)
	}
}

// TestParsedCases takes the :cases: patterns from RST read by the parser.
func TestParsedCases(t *testing.T) {
	text := ".. test:: Leaf rule\n   :id: TS-LEAF-1\n   :cases: example.com/old/par.TestA, none.here ;  tests/x.py::*\n   :verifies: R-1\n" +
		"\n.. test:: Over two lines, last option\n   :id: TS-2\n   :verifies: R-1\n   :cases: example.com/old/par.TestA,\n      also.none (1)\n"
	f := parser.ParseFile(tfs.Add("docs/t.rst", len(text), source.Docutils), []byte(text), nil)
	outs, _, diags := Outcomes([]*parser.File{f}, []Source{readFixture(t, "gotest-mixed.json")})
	diags = without(diags, CodeUnwitnessedResults)
	if len(outs) != 2 {
		t.Errorf("%d outcomes, want the two runs of TestA (each confirming both tests)", len(outs))
	}
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s %s", where(d.Span.Start), d.Code))
	}
	want := []string{"docs/t.rst:3:39 no-results", "docs/t.rst:3:52 no-results", "docs/t.rst:10:7 no-results"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
