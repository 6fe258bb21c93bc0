package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/parser"
)

var matrixAt = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

func matrixCheckDir(t *testing.T, root string) *check.Check {
	t.Helper()
	return checkOfDir(t, root)
}

func matrixCheckFiles(t *testing.T, tree map[string]string) *check.Check {
	t.Helper()
	return checkOfFiles(t, tree)
}

func matrixGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden(t, filepath.Join("testdata", "matrix", name), got)
}

func render(t *testing.T, c *check.Check, format string, opt MatrixOptions) []byte {
	t.Helper()
	m := BuildMatrix(c, opt)
	var buf bytes.Buffer
	var err error
	switch format {
	case "md":
		err = WriteMatrixMarkdown(&buf, m)
	case "csv":
		err = WriteMatrixCSV(&buf, m)
	case "json":
		err = WriteMatrixJSON(&buf, m)
	case "html":
		err = WriteMatrixHTML(&buf, c, m, opt)
	default:
		t.Fatalf("no format %q", format)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const testLinkTemplate = "https://git.example.com/brakes/blob/main/{file}#L{line}"

func TestMatrixGolden(t *testing.T) {
	for _, tree := range []string{"brake", "broken"} {
		c := matrixCheckDir(t, filepath.Join("..", "examples", tree))
		for _, format := range []string{"md", "csv", "json"} {
			t.Run(tree+"."+format, func(t *testing.T) {
				matrixGolden(t, tree+"."+format, render(t, c, format, MatrixOptions{}))
			})
			t.Run(tree+"-links."+format, func(t *testing.T) {
				matrixGolden(t, tree+"-links."+format, render(t, c, format, MatrixOptions{LinkTemplate: testLinkTemplate}))
			})
		}
	}
}

// The JSON golden reads back into the same Matrix: every key is one the
// structs define, and nothing is lost.
func TestMatrixJSONRoundTrip(t *testing.T) {
	for _, tree := range []string{"brake", "broken"} {
		c := matrixCheckDir(t, filepath.Join("..", "examples", tree))
		want := BuildMatrix(c, MatrixOptions{LinkTemplate: testLinkTemplate})
		data := render(t, c, "json", MatrixOptions{LinkTemplate: testLinkTemplate})
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var got Matrix
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(*want, got, cmpopts.IgnoreUnexported(MatrixRow{})); d != "" {
			t.Errorf("%s: JSON does not read back (-built +read):\n%s", tree, d)
		}
	}
}

// The JSON validates against the published seg-matrix/1 JSON Schema
// (report/matrix/seg-matrix-1.schema.json, documented in docs/matrix.md),
// which allows no other keys.
func TestMatrixJSONSchema(t *testing.T) {
	f, err := os.Open(filepath.Join("matrix", "seg-matrix-1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const id = "https://github.com/seg-trace/seg/report/matrix/seg-matrix-1.schema.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]*check.Check{
		"brake":  matrixCheckDir(t, filepath.Join("..", "examples", "brake")),
		"broken": matrixCheckDir(t, filepath.Join("..", "examples", "broken")),
		"nasty":  matrixCheckFiles(t, nastyTree),
		"empty":  matrixCheckFiles(t, map[string]string{"a.rst": "Nothing here.\n"}),
	}
	for name, chk := range checks {
		for _, opt := range []MatrixOptions{{}, {LinkTemplate: testLinkTemplate}} {
			out := render(t, chk, "json", opt)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s (template %q): %v", name, opt.LinkTemplate, err)
			}
		}
	}
	bad := bytes.Replace(render(t, checks["brake"], "json", MatrixOptions{}), []byte(`"leaf": true`), []byte(`"leaf": true, "extra": 1`), 1)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if sch.Validate(inst) == nil {
		t.Error("the schema accepts an unknown key")
	}
}

func ptrPercent(p float64) *float64 { return &p }

// The rows and figures of the brake example, structurally: the tests
// with their outcomes per configuration, the waiver in force, the
// coverage by kind.
func TestMatrixBrakeStructure(t *testing.T) {
	c := matrixCheckDir(t, filepath.Join("..", "examples", "brake"))
	m := BuildMatrix(c, MatrixOptions{})
	wantCoverage := Coverage{
		Satisfied:         Ratio{6, 6, ptrPercent(100)},
		LeavesVerified:    Ratio{4, 4, ptrPercent(100)},
		LeavesImplemented: Ratio{4, 4, ptrPercent(100)},
		// The sys requirements are refined, not linked: S-CORE's
		// figures count them as without code or test.
		Code: Ratio{4, 6, ptrPercent(66.6)}, Test: Ratio{4, 6, ptrPercent(66.6)}, FullyLinked: Ratio{4, 6, ptrPercent(66.6)},
		TestsLinked: Ratio{4, 4, ptrPercent(100)},
		ByKind: []KindCoverage{
			{Kind: "sreq", Satisfied: Ratio{4, 4, ptrPercent(100)}, LeavesVerified: Ratio{4, 4, ptrPercent(100)}, LeavesImplemented: Ratio{4, 4, ptrPercent(100)},
				Code: Ratio{4, 4, ptrPercent(100)}, Test: Ratio{4, 4, ptrPercent(100)}, FullyLinked: Ratio{4, 4, ptrPercent(100)}, TestsLinked: Ratio{4, 4, ptrPercent(100)}},
			{Kind: "sys", Satisfied: Ratio{2, 2, ptrPercent(100)}, LeavesVerified: Ratio{0, 0, nil}, LeavesImplemented: Ratio{0, 0, nil},
				Code: Ratio{0, 2, ptrPercent(0)}, Test: Ratio{0, 2, ptrPercent(0)}, FullyLinked: Ratio{0, 2, ptrPercent(0)}, TestsLinked: Ratio{0, 4, ptrPercent(0)}},
		},
	}
	if d := cmp.Diff(wantCoverage, m.Coverage); d != "" {
		t.Errorf("coverage (-want +got):\n%s", d)
	}
	var ids []string
	for _, r := range m.Rows {
		ids = append(ids, r.ID)
	}
	if d := cmp.Diff([]string{"BRK-SREQ-010", "BRK-SREQ-011", "BRK-SREQ-020", "BRK-SREQ-021", "BRK-SYS-001", "BRK-SYS-002"}, ids); d != "" {
		t.Errorf("rows not in ID order (-want +got):\n%s", d)
	}
	row := m.Rows[3]
	want := MatrixRow{
		ID: "BRK-SREQ-021", Kind: "sreq", Title: "Fault report on the bus", File: "docs/requirements/software.rst", Line: 39, Column: 1,
		Leaf: true, Verdict: "satisfied", Status: "satisfied",
		Refines:   []MatrixLink{{ID: "BRK-SYS-002", Title: "Faults are detected and reported", State: "active", Verdict: "satisfied", File: "docs/requirements/system.rst", Line: 15}},
		RefinedBy: []MatrixLink{},
		Tests: []MatrixTest{
			{MatrixLink: MatrixLink{ID: "BRK-TS-020", Title: "Channel disagreement", State: "suspect", File: "docs/tests/tests.rst", Line: 18},
				Outcomes: []MatrixOutcome{{ID: "BRK-OUT-004", Result: "passed", Config: "hil-bench-a", Status: "counted", File: "docs/results/hil-2026-11.rst", Line: 28}}},
			{MatrixLink: MatrixLink{ID: "BRK-TS-021", Title: "Fault frame timing", State: "active", File: "docs/tests/tests.rst", Line: 25},
				Outcomes: []MatrixOutcome{
					{ID: "BRK-OUT-005", Result: "passed", Config: "hil-bench-a", Status: "counted", File: "docs/results/hil-2026-11.rst", Line: 36},
					{ID: "BRK-OUT-006", Result: "failed", Config: "hil-bench-b", Status: "excused", Waiver: "BRK-WVR-001", File: "docs/results/hil-2026-11.rst", Line: 44},
				}},
		},
		Implementations: []MatrixLink{{ID: "BRK-IMPL-MON", Title: "Sensor monitor", State: "active", File: "docs/impl/impl.rst", Line: 13}},
		Waivers:         []MatrixWaiver{{ID: "BRK-WVR-001", Title: "Bench B bus analyser fault", Expires: "2027-03-31", Excuses: []string{"BRK-OUT-006"}, File: "docs/results/hil-2026-11.rst", Line: 55}},
		Reasons:         []MatrixReason{},
	}
	if d := cmp.Diff(want, row, cmpopts.IgnoreUnexported(MatrixRow{})); d != "" {
		t.Errorf("BRK-SREQ-021 (-want +got):\n%s", d)
	}
	if got := testText(row.Tests[1]); got != "BRK-TS-021: passed[hil-bench-a], failed[hil-bench-b] (excused by BRK-WVR-001)" {
		t.Errorf("test cell: %q", got)
	}
	if got := testText(m.Rows[1].Tests[0]); got != "BRK-TS-011: passed[hil-bench-a], skipped[sim]" {
		t.Errorf("test cell: %q", got)
	}
}

// The matrix's verdicts and reasons are seg check's, row by row.
func TestMatrixVerdictsAreCheckVerdicts(t *testing.T) {
	for _, tree := range []string{"brake", "broken"} {
		c := matrixCheckDir(t, filepath.Join("..", "examples", tree))
		var check struct {
			Requirements []struct {
				ID, Kind, Title, File, Verdict string
				Line                           int
				Leaf                           bool
				Reasons                        []MatrixReason
			}
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, c); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(buf.Bytes(), &check); err != nil {
			t.Fatal(err)
		}
		m := BuildMatrix(c, MatrixOptions{})
		if len(m.Rows) != len(check.Requirements) {
			t.Fatalf("%s: %d rows, %d requirements", tree, len(m.Rows), len(check.Requirements))
		}
		for i, r := range m.Rows {
			q := check.Requirements[i]
			got := []any{r.ID, r.Kind, r.Title, r.File, r.Line, r.Leaf, r.Verdict, r.Reasons}
			want := []any{q.ID, q.Kind, q.Title, q.File, q.Line, q.Leaf, q.Verdict, q.Reasons}
			if q.Reasons == nil {
				want[7] = []MatrixReason{}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s row %d (-check +matrix):\n%s", tree, i, d)
			}
		}
	}
}

// nastyTree has text that every format must escape.
var nastyTree = map[string]string{
	"docs/a b(1).rst": "" +
		".. sreq:: <script>alert(1)</script> & | *bold* _it_ [x](y) `code` \"q\", 'a'\n" +
		"   :id: NASTY-1\n" +
		"\n" +
		".. test:: T <img src=x onerror=alert(2)>\n" +
		"   :id: TS-NASTY\n" +
		"   :verifies: NASTY-1\n" +
		"\n" +
		".. impl:: I\n" +
		"   :id: IMPL-NASTY\n" +
		"   :implements: NASTY-1\n" +
		"\n" +
		".. outcome:: O\n" +
		"   :id: OUT-NASTY\n" +
		"   :confirms: TS-NASTY\n" +
		"   :witnesses: IMPL-NASTY\n" +
		"   :result: failed\n" +
		"   :config: a|b <c>\n",
}

func TestMatrixEscaping(t *testing.T) {
	c := matrixCheckFiles(t, nastyTree)
	title := "<script>alert(1)</script> & | *bold* _it_ [x](y) `code` \"q\", 'a'"
	if n, _ := c.Graph.Lookup("NASTY-1"); n == nil || n.Title() != title {
		t.Fatalf("the parser read another title: %v", n)
	}

	html := string(render(t, c, "html", MatrixOptions{}))
	for _, bad := range []string{"<script>alert", "<img src=x", "a|b <c>"} {
		if strings.Contains(html, bad) {
			t.Errorf("HTML contains %q unescaped", bad)
		}
	}
	if !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; |") {
		t.Errorf("HTML lacks the escaped title")
	}
	if !strings.Contains(html, `href="docs/a%20b%281%29.rst#L1"`) {
		t.Errorf("HTML lacks the relative link to the escaped path")
	}

	md := string(render(t, c, "md", MatrixOptions{LinkTemplate: testLinkTemplate}))
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(line, -1)) - 1
		if !strings.HasPrefix(line, "| Kind") && !strings.HasPrefix(line, "| **all**") && !strings.HasPrefix(line, "| sreq") && cells != 11 {
			t.Errorf("markdown row has %d cells, want 11: %s", cells, line)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\| \\*bold\\* \\_it\\_ \\[x\\](y) \\`code\\`",
		"[NASTY-1](https://git.example.com/brakes/blob/main/docs/a%20b%281%29.rst#L1)",
		`failed](https://git.example.com/brakes/blob/main/docs/a%20b%281%29.rst#L12)\[a\|b &lt;c&gt;\]`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %s\n%s", want, md)
		}
	}

	records, err := csv.NewReader(bytes.NewReader(render(t, c, "csv", MatrixOptions{LinkTemplate: testLinkTemplate}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := records[1][2]; got != title {
		t.Errorf("CSV title %q, want %q", got, title)
	}
	if got := records[1][5]; got != "https://git.example.com/brakes/blob/main/docs/a%20b%281%29.rst#L1" {
		t.Errorf("CSV url %q", got)
	}
	if got := records[1][11]; got != "TS-NASTY: failed[a|b <c>]" {
		t.Errorf("CSV tests %q", got)
	}

	var m Matrix
	if err := json.Unmarshal(render(t, c, "json", MatrixOptions{}), &m); err != nil {
		t.Fatal(err)
	}
	if m.Rows[0].Title != title {
		t.Errorf("JSON title %q", m.Rows[0].Title)
	}
}

// A template that is not a safe URL does not make a link that runs code.
func TestMatrixHTMLUnsafeTemplate(t *testing.T) {
	c := matrixCheckFiles(t, nastyTree)
	html := string(render(t, c, "html", MatrixOptions{LinkTemplate: "javascript:alert('{file}')"}))
	if strings.Contains(html, `javascript:`) {
		t.Error("javascript: link in the page (table or explanation data)")
	}
	if !strings.Contains(html, "#ZgotmplZ") {
		t.Error("html/template did not replace the unsafe URL")
	}
}

// The page is self-contained: no external scripts, styles, images, fonts
// or frames.
func TestMatrixHTMLSelfContained(t *testing.T) {
	c := matrixCheckDir(t, filepath.Join("..", "examples", "broken"))
	html := render(t, c, "html", MatrixOptions{LinkTemplate: testLinkTemplate})
	for _, re := range []string{`<script[^>]+src=`, `<link\b`, `<img\b`, `<iframe\b`, `@import`, `url\(`, `<object\b`, `<embed\b`} {
		if regexp.MustCompile(re).Match(html) {
			t.Errorf("page matches %s", re)
		}
	}
	for _, want := range []string{"--ok: " + colorSatisfied, "--bad: " + colorUnsatisfied, `<span class="b unproven">unproven</span>`, `<span class="b failing">failing</span>`, `<script type="application/json" id="_data">`, `<tr id="SEG-SREQ-006"><td>SEG-SREQ-006<td>sreq<td>Leaf satisfaction rule<td>`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Relative links by default, prefixed by the base.
	html = render(t, c, "html", MatrixOptions{LinkBase: "../examples/broken/"})
	if !bytes.Contains(html, []byte(`<a href="../examples/broken/docs/requirements.rst#L4">docs/requirements.rst:4</a>`)) {
		t.Error("no relative link under the base")
	}
}

// Every format gives the same bytes twice, and the same bytes for the
// same tree read from files in another order.
func TestMatrixDeterministic(t *testing.T) {
	read := checkOfDir(t, filepath.Join("..", "examples", "broken"))
	reversed := make([]*parser.File, len(read.Parsed))
	for i, f := range read.Parsed {
		reversed[len(read.Parsed)-1-i] = f
	}
	a, b := checkOf(read.Files, read.Parsed, nil), checkOf(read.Files, reversed, nil)
	for _, format := range []string{"md", "csv", "json", "html"} {
		x, y := render(t, a, format, MatrixOptions{}), render(t, b, format, MatrixOptions{})
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs with the files in another order", format)
		}
		if z := render(t, a, format, MatrixOptions{}); !bytes.Equal(x, z) {
			t.Errorf("%s differs between two renderings", format)
		}
	}
}

func TestRatio(t *testing.T) {
	cases := []struct {
		count, total int
		text         string
		below        float64
		isBelow      bool
	}{
		{2, 3, "2/3 (66.6%)", 66.7, true},
		{2, 3, "2/3 (66.6%)", 66.6, false},
		{1999, 2000, "1999/2000 (99.9%)", 100, true},
		{9999, 10000, "9999/10000 (99.9%)", 99.99, false},
		{0, 0, "0/0", 100, false},
		{0, 5, "0/5 (0.0%)", 0, false},
		{5, 5, "5/5 (100.0%)", 100, false},
	}
	for _, c := range cases {
		r := Ratio{Count: c.count, Total: c.total}
		r.finish()
		if r.String() != c.text {
			t.Errorf("%d/%d: %q, want %q", c.count, c.total, r.String(), c.text)
		}
		if r.Below(c.below) != c.isBelow {
			t.Errorf("%d/%d below %v: %v", c.count, c.total, c.below, !c.isBelow)
		}
	}
}

// Columns are the page's own or options the config allows, each once.
func TestCheckColumns(t *testing.T) {
	opt := func(n string) bool { return n == "status" || n == "tags" }
	for cols, want := range map[string]string{
		"":                     "",
		"id,title,verdict":     "",
		"id,tags,status,level": "",
		"id,id":                "listed twice",
		"id,owner":             `unknown column "owner"`,
		"id,,title":            "empty column",
	} {
		var list []string
		if cols != "" {
			list = strings.Split(cols, ",")
		}
		err := CheckColumns(list, opt)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", cols, err, want)
		}
	}
}

// Levels and the tree: a requirement that refines nothing is level 1, its
// children level 2; one with two parents sits under the first reached; a
// cycle with nothing above it starts at its smallest ID.
func TestRowLevels(t *testing.T) {
	c := matrixCheckDir(t, filepath.Join("..", "examples", "broken"))
	m := BuildMatrix(c, MatrixOptions{})
	li := rowLevels(m)
	got := map[string]string{}
	for i, r := range m.Rows {
		p := "-"
		if li.parent[i] >= 0 {
			p = m.Rows[li.parent[i]].ID
		}
		got[r.ID] = fmt.Sprintf("%d %s", li.level[i], p)
	}
	want := map[string]string{"SEG-SYS-001": "1 -", "SEG-REQ-A": "2 SEG-SYS-001", "SEG-REQ-B": "3 SEG-REQ-A",
		"SEG-SREQ-006": "1 -", "SEG-SREQ-007": "1 -", "SEG-SREQ-008": "1 -"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("levels (-want +got):\n%s", d)
	}
	cyc := matrixCheckFiles(t, map[string]string{"a.rst": ".. req:: B\n   :id: B\n   :refines: A\n\n.. req:: A\n   :id: A\n   :refines: B\n"})
	m = BuildMatrix(cyc, MatrixOptions{})
	li = rowLevels(m)
	if li.level[0] != 1 || li.parent[0] != -1 || li.level[1] != 2 || li.parent[1] != 0 {
		t.Errorf("a bare cycle: %+v", li)
	}
}

// The page's data carries what a review reads in the evidence: an
// outcome made from a results file has its case name as its title and
// its failure message as its text; a waiver's justification is its text;
// a requirement's text and extra options are there.
func TestMatrixHTMLEvidenceText(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"seg.toml": "extra_options = [\"status\"]\n",
		"docs/r.rst": ".. sreq:: Adds\n   :id: R-1\n   :status: approved\n\n   The sum of two numbers.\n\n   Overflow wraps.\n\n" +
			".. test:: Add test\n   :id: TS-1\n   :verifies: R-1\n   :cases: example.com/m.TestAdd*\n\n" +
			".. impl:: Adder\n   :id: IM-1\n   :implements: R-1\n\n" +
			".. waiver:: Known overflow\n   :id: W-1\n   :excuses: fail.json::example.com/m.TestAdd\n\n   Fixed in release 2; the field never sees values that large.\n",
		"fail.json": `{"Action":"run","Package":"example.com/m","Test":"TestAdd"}` + "\n" +
			`{"Action":"output","Package":"example.com/m","Test":"TestAdd","Output":"    add_test.go:9: got 3, want 4\n"}` + "\n" +
			`{"Action":"fail","Package":"example.com/m","Test":"TestAdd","Elapsed":0}` + "\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: matrixAt, Results: []string{filepath.Join(root, "fail.json")}, Witnesses: []string{"IM-1"}})
	if err != nil {
		t.Fatal(err)
	}
	m := BuildMatrix(c, MatrixOptions{})
	d := pageData(c, m, linker{}, rowLevels(m), nil, nil)
	byID := map[string]int{}
	for i, id := range d.ID {
		byID[id] = i
	}
	r := byID["R-1"]
	if !strings.Contains(d.Body[r], "The sum of two numbers.\n\nOverflow wraps.") || !cmp.Equal(d.Attrs[r], []string{"status", "approved"}) {
		t.Errorf("requirement: body %q, attrs %q", d.Body[r], d.Attrs[r])
	}
	var outcome string
	for id := range byID {
		if strings.HasSuffix(id, "fail.json::example.com/m.TestAdd") {
			outcome = id
		}
	}
	o := byID[outcome]
	if outcome == "" || d.Title[o] != "example.com/m.TestAdd" || !strings.Contains(d.Body[o], "got 3, want 4") {
		t.Errorf("results outcome %q: title %q, body %q", outcome, d.Title[o], d.Body[o])
	}
	if w, ok := byID["W-1"]; !ok || d.Body[w] != "Fixed in release 2; the field never sees values that large." {
		t.Errorf("waiver justification: %q", d.Body[byID["W-1"]])
	}
	if tst := byID["TS-1"]; d.Body[tst] != "" || d.Title[tst] != "Add test" {
		t.Errorf("test: title %q body %q", d.Title[tst], d.Body[tst])
	}
}

// The matrix's coverage is the check's: a leaf is verified (implemented)
// exactly when its verdict has no no-active-verifies (no-active-implements)
// reason. In examples/stale both links are pinned to an earlier revision
// of the requirement, so neither counts: the matrix once counted the
// written state of the edges and said 1/1.
func TestMatrixCoverageIsCheckCoverage(t *testing.T) {
	for _, tree := range []string{"brake", "broken", "needs", "stale"} {
		c := matrixCheckDir(t, filepath.Join("..", "examples", tree))
		var verified, implemented, leaves int
		for _, r := range c.Requirements() {
			if !r.Verdict.Leaf {
				continue
			}
			leaves++
			if !hasBlocking(r.Verdict.Reasons, "no-active-verifies") {
				verified++
			}
			if !hasBlocking(r.Verdict.Reasons, "no-active-implements") {
				implemented++
			}
		}
		m := BuildMatrix(c, MatrixOptions{})
		got := [4]int{m.Coverage.LeavesVerified.Count, m.Coverage.LeavesVerified.Total, m.Coverage.LeavesImplemented.Count, m.Coverage.LeavesImplemented.Total}
		if want := [4]int{verified, leaves, implemented, leaves}; got != want {
			t.Errorf("%s: matrix coverage (verified, of, implemented, of) %v, check's verdicts say %v", tree, got, want)
		}
		if tree == "stale" && got != [4]int{0, 1, 0, 1} {
			t.Errorf("stale: coverage %v, want no leaf verified or implemented", got)
		}
	}
}

func hasBlocking(rs []evaluate.Reason, code string) bool {
	for _, r := range rs {
		if r.Blocking && r.Code.Name == code {
			return true
		}
	}
	return false
}
