package results

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// render lists cases and diagnostics one per line, for golden files.
func render(cases []Case, diags diag.List) string {
	var b strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&b, "run %d %s %q @ %s\n", c.Run, c.Result, c.Name, where(c.Pos))
		for _, a := range c.AltNames {
			fmt.Fprintf(&b, "    alt %q\n", a)
		}
		if c.Covers != "" {
			fmt.Fprintf(&b, "    covers %q\n", c.Covers)
		}
		keys := make([]string, 0, len(c.Properties))
		for k := range c.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "    property %s = %q\n", k, c.Properties[k])
		}
		if c.Message != "" {
			fmt.Fprintf(&b, "    message %q\n", c.Message)
		}
		if c.Date != "" || c.BadDate {
			fmt.Fprintf(&b, "    date %q bad=%v\n", c.Date, c.BadDate)
		}
	}
	for _, d := range diags {
		fmt.Fprintf(&b, "%s: %s: %s [%s]\n", where(d.Span.Start), d.Severity(), d.Message, d.Code)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "    related %s: %s\n", where(r.Span.Start), r.Message)
		}
	}
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./results -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", file, diff)
	}
}

func readFixture(t *testing.T, name string) Source {
	t.Helper()
	return src("results/"+name, fixtureData(t, name))
}

func fixtureData(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFixtures reads every hand-written results file and compares the
// cases and diagnostics with the golden files.
func TestFixtures(t *testing.T) {
	for _, name := range []string{
		"surefire-flaky.xml", "ctest.xml", "jest-junit.xml", "nested.xml",
		"latin1.xml", "bom.xml",
		"truncated.xml", "trailing.xml", "malformed.xml", "not-junit.xml", "plain.txt", "blank.txt",
		"gotest-mixed.json", "gotest-truncated.json", "gotest-cut.json",
		"gotest-badline.json", "not-gotest.json",
	} {
		t.Run(name, func(t *testing.T) {
			cases, diags := ReadCases(readFixture(t, name))
			golden(t, name, render(cases, diags))
		})
	}
}

// TestDamageKeepsOnlyCompleteCases states the rule for damaged files
// directly, beside the golden files: the error is there, at a line, and no
// case read after it or cut by it is kept.
func TestDamageKeepsOnlyCompleteCases(t *testing.T) {
	for _, tc := range []struct {
		file  string
		names []string
		line  int
	}{
		{"truncated.xml", []string{"t.complete", "t.also_complete"}, 8},
		{"malformed.xml", []string{"m.before"}, 3},
		{"trailing.xml", []string{"t.before", "t.also_before"}, 11},
		{"gotest-truncated.json", []string{"example.com/t.TestDone"}, 6},
		{"gotest-cut.json", []string{"example.com/t.TestDone"}, 5},
		{"not-junit.xml", nil, 1},
		{"plain.txt", nil, 1},
		{"blank.txt", nil, 1},
		{"not-gotest.json", nil, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			cases, diags := ReadCases(readFixture(t, tc.file))
			var names []string
			for _, c := range cases {
				names = append(names, c.Name)
			}
			if diff := cmp.Diff(tc.names, names); diff != "" {
				t.Errorf("cases (-want +got):\n%s", diff)
			}
			if len(diags) != 1 || diags[0].Code != CodeInvalidResults || diags[0].Severity() != diag.Error {
				t.Fatalf("diagnostics = %v, want one invalid-results error", diags)
			}
			if got := tfs.Position(diags[0].Span.Start); got.Filename != "results/"+tc.file || got.Line != tc.line {
				t.Errorf("diagnostic at %s, want results/%s:%d", got, tc.file, tc.line)
			}
		})
	}
}

// After the root element's end tag only white space, comments and
// processing instructions may come: anything else is invalid-results at
// its first character, and the cases read before still count.
func TestJUnitAfterRoot(t *testing.T) {
	const doc = "<testsuite name=\"s\">\n  <testcase classname=\"s\" name=\"a\"/>\n</testsuite>"
	for _, tc := range []struct {
		after     string
		line, col int // of the error; 0 for none
		msg       string
	}{
		{"\n", 0, 0, ""},
		{"\n\n  \t\n", 0, 0, ""},
		{"<!-- done -->\n<?pi x?>\n", 0, 0, ""},
		{"x", 3, 13, "text after the end of the root element <testsuite>"},
		{"\n  \n   trailing", 5, 4, "text after the end of the root element <testsuite>"},
		{"<!-- c -->junk", 3, 23, "text after the end of the root element <testsuite>"},
		{"\n<![CDATA[hidden]]>", 4, 1, "text after the end of the root element <testsuite>"},
		{"\n<!DOCTYPE testsuite>", 4, 1, "a <!DOCTYPE> declaration after the end of the root element <testsuite>"},
		{"\n<testsuite/>", 4, 1, "a second root element <testsuite>"},
	} {
		cases, diags := ReadCases(src("r.xml", []byte(doc+tc.after)))
		if len(cases) != 1 || cases[0].Name != "s.a" {
			t.Errorf("%q: cases %v, want s.a alone", tc.after, cases)
		}
		if tc.line == 0 {
			if len(diags) != 0 {
				t.Errorf("%q: %v, want no diagnostic", tc.after, diags)
			}
			continue
		}
		if len(diags) != 1 {
			t.Errorf("%q: diagnostics %v, want one", tc.after, diags)
			continue
		}
		d := diags[0]
		p := tfs.Position(d.Span.Start)
		if d.Code != CodeInvalidResults || p.Line != tc.line || p.Column != tc.col || !strings.Contains(d.Message, tc.msg) {
			t.Errorf("%q: %s: %s [%s], want %d:%d %q", tc.after, p, d.Message, d.Code, tc.line, tc.col, tc.msg)
		}
	}
}

// TestGarbageNeverPanics feeds every prefix of every fixture to ReadCases:
// a file cut anywhere is a diagnostic or fewer cases, never a crash, and a
// prefix never has a case the whole file lacks.
func TestGarbageNeverPanics(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		s := readFixture(t, e.Name())
		data := fixtureData(t, e.Name())
		whole, _ := ReadCases(s)
		known := map[string]bool{}
		for _, c := range whole {
			known[c.Name+"\x00"+where(c.Pos)] = true
		}
		for n := 0; n < len(data); n++ {
			cases, diags := ReadCases(src(s.Path, data[:n]))
			for _, c := range cases {
				if !known[c.Name+"\x00"+where(c.Pos)] && c.Result != Error {
					t.Fatalf("%s cut at %d: case %q %s at %s is not in the whole file", e.Name(), n, c.Name, c.Result, where(c.Pos))
				}
			}
			if len(cases) == 0 && len(diags) == 0 && n > 0 && strings.TrimSpace(string(data[:n])) != "" &&
				!strings.HasSuffix(e.Name(), ".json") {
				t.Fatalf("%s cut at %d: no case and no diagnostic", e.Name(), n)
			}
		}
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]format{
		"":                         formatEmpty,
		"  \n\t":                   formatEmpty,
		"\n  <testsuite/>":         formatJUnit,
		`{"Action":"start"}`:       formatGoTest,
		"# pkg\nx.go:1: e\n{\"A\"": formatGoTest,
		"PASS\nok\n":               formatUnknown,
		"junit.xml":                formatUnknown,
	} {
		if got := sniffBytes([]byte(in), true); got != want {
			t.Errorf("sniff(%q) = %v, want %v", in, got, want)
		}
	}
}

// sniff reads no more than it needs, in steps from 512 bytes up to the
// window, and hands back every byte it read: go test -json output after
// 700 KB of compiler text is found, after more than the window it is not,
// and a byte-order mark does not hide the format.
func TestSniffReadsInSteps(t *testing.T) {
	plain := strings.Repeat("x.go:1:2: undefined: y\n", 700<<10/23)
	for _, tc := range []struct {
		in       string
		want     format
		readUpTo int // the most sniff may read
	}{
		{"", formatEmpty, 0},
		{"\xef\xbb\xbf<testsuite/>", formatJUnit, 512},
		{"<testsuite>" + strings.Repeat(" ", 5000) + "</testsuite>", formatJUnit, 512},
		{plain + `{"Action":"start"}` + "\n", formatGoTest, 1 << 20},
		{plain + plain + `{"Action":"start"}` + "\n", formatUnknown, 1 << 20},
	} {
		head, got, err := sniff(iotest.OneByteReader(strings.NewReader(tc.in)))
		if err != nil || got != tc.want {
			t.Errorf("sniff(%.20q…) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if !strings.HasPrefix(tc.in, string(head)) || len(head) > tc.readUpTo {
			t.Errorf("sniff(%.20q…) read %d bytes (at most %d), not a prefix of the file", tc.in, len(head), tc.readUpTo)
		}
	}
	// A stream whose first event comes after 700 KB of compiler text
	// reads whole.
	src := Source{Path: "go.json", Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(plain + `{"Action":"pass","Package":"p","Test":"TestA"}` + "\n")), nil
	}}
	cases, diags := ReadCases(src)
	if len(diags) != 0 || len(cases) != 1 || cases[0].Name != "p.TestA" {
		t.Errorf("cases %+v, diagnostics %v", cases, diags)
	}
	// A small file costs a small buffer (it was the whole window once:
	// a megabyte cleared for every results file of a run).
	small := Source{Path: "j.xml", Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(`<testsuite><testcase name="a"/></testsuite>`)), nil
	}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		ReadCases(small)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 64<<10 {
		t.Errorf("reading a 44-byte JUnit file allocates %d bytes", per)
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"example.com/seg/evaluate.TestLeafRule/*", "example.com/seg/evaluate.TestLeafRule/clause_a", true},
		{"example.com/seg/evaluate.TestLeafRule/*", "example.com/seg/evaluate.TestLeafRule", false},
		{"example.com/seg/evaluate.TestLeafRule*", "example.com/seg/evaluate.TestLeafRule", true},
		{"*.TestLeafRule", "example.com/seg/evaluate.TestLeafRule", true},
		{"example.com/*", "example.com/a/b/c.TestX/y/z", true}, // '*' crosses '/' and '.'
		{"tests/test_leaf.py::test_clause_*", "tests/test_leaf.py::test_clause_a", true},
		{"tests/test_leaf.py::test_clause_?", "tests/test_leaf.py::test_clause_ab", false},
		{"t.test_[ab]", "t.test_b", true},
		{"t.test_[!ab]", "t.test_b", false},
		{"t.test_[^ab]", "t.test_c", true},
		{"t.test_[a-c]x", "t.test_bx", true},
		{"t.test_[a-c]x", "t.test_dx", false},
		{"t.test_[]]", "t.test_]", true},
		{`t.test_\*`, "t.test_*", true},
		{`t.test_\*`, "t.test_x", false},
		{"t.test_[unclosed", "t.test_[unclosed", true},
		{"t.test_[unclosed*", "t.test_[unclosed_more", true},
		{"tests/test_x.py::test_p[1-2]", "tests/test_x.py::test_p[1-2]", true}, // equality first
		{"tests/test_x.py::test_p[1-2]", "tests/test_x.py::test_p1", true},
		{"é?", "éü", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"", "", true},
		{"*", "", true},
		{"?", "", false},
	} {
		if got := Match(tc.pattern, tc.name); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestMatchPrefix(t *testing.T) {
	for _, tc := range []struct {
		pattern, prefix string
		want            bool
	}{
		{"example.com/p.TestX", "example.com/p.", true},
		{"example.com/p.TestX/*", "example.com/p.", true},
		{"example.com/*", "example.com/p.", true},
		{"*.TestX", "example.com/p.", true},
		{"example.com/p/sub.TestX", "example.com/p.", false},
		{"example.com/q.TestX", "example.com/p.", false},
		{"example.com/p", "example.com/p.", false},
		{"example.com/[op].T*", "example.com/p.", true},
		{"tests/test_x.py::t", "example.com/p.", false},
	} {
		if got := matchPrefix(tc.pattern, tc.prefix); got != tc.want {
			t.Errorf("matchPrefix(%q, %q) = %v, want %v", tc.pattern, tc.prefix, got, tc.want)
		}
	}
}

func TestPytestIDs(t *testing.T) {
	name, alt := junitNames("tests.unit.test_x.TestClass", "test_m")
	if name != "tests.unit.test_x.TestClass.test_m" {
		t.Errorf("name = %q", name)
	}
	want := []string{
		"tests/unit/test_x/TestClass.py::test_m",
		"tests/unit/test_x.py::TestClass::test_m",
		"tests/unit.py::test_x::TestClass::test_m",
		"tests.py::unit::test_x::TestClass::test_m",
	}
	if diff := cmp.Diff(want, alt); diff != "" {
		t.Errorf("alt names (-want +got):\n%s", diff)
	}
	if _, alt := junitNames("example.com/tm/leaf", "TestX"); alt != nil {
		t.Errorf("a Go package classname got pytest names %q", alt)
	}
	if name, alt := junitNames("leaf_rule", "leaf_rule"); name != "leaf_rule.leaf_rule" || !cmp.Equal(alt, []string{"leaf_rule"}) {
		t.Errorf("ctest-style names = %q, %q", name, alt)
	}
}

// A benchmark's result line can come in two output events (a long name,
// then its figures); a benchmark cut short in the middle of its line, or
// whose package died under it, did not pass.
func TestGoTestBenchmarkLines(t *testing.T) {
	stream := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"BenchmarkSubs"}
{"Action":"run","Package":"p","Test":"BenchmarkSubs/b-2"}
{"Action":"output","Package":"p","Test":"BenchmarkSubs/b-2","Output":"BenchmarkSubs/b-2-2         \t"}
{"Action":"output","Package":"p","Test":"BenchmarkSubs/b-2","Output":"       1\t       360.0 ns/op\n"}
{"Action":"run","Package":"p","Test":"BenchmarkNamedLikeResult"}
{"Action":"output","Package":"p","Test":"BenchmarkNamedLikeResult","Output":"BenchmarkNamedLikeResult-x \t 1\t 2 ns/op\n"}
{"Action":"run","Package":"p","Test":"BenchmarkHalf"}
{"Action":"output","Package":"p","Test":"BenchmarkHalf","Output":"BenchmarkHalf-2         \t"}
{"Action":"run","Package":"p","Test":"TestNotABenchmark"}
{"Action":"output","Package":"p","Test":"TestNotABenchmark","Output":"TestNotABenchmark 1 2 ns/op\n"}
{"Action":"output","Package":"p","Output":"panic: x\n"}
{"Action":"fail","Package":"p"}
`
	cases, diags := ReadCases(src("b.json", []byte(stream)))
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	want := map[string][]string{
		"p.BenchmarkSubs":            {Passed},
		"p.BenchmarkSubs/b-2":        {Passed},
		"p.BenchmarkNamedLikeResult": {Error},
		"p.BenchmarkHalf":            {Error},
		"p.TestNotABenchmark":        {Error},
	}
	if diff := cmp.Diff(want, byName(cases)); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
}
