package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
)

// Run with -update (go test ./report -run Golden -update) to rewrite the
// golden files after a deliberate change; review the diff.
var update = flag.Bool("update", false, "rewrite golden files")

var testAt = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// checkOfFiles reads, builds and evaluates an in-memory tree (path ->
// content), the way the cli pipeline does, and adds extra diagnostics.
func checkOfFiles(t *testing.T, tree map[string]string, extra ...parser.Diagnostic) *Check {
	t.Helper()
	paths := make([]string, 0, len(tree))
	for p := range tree {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var files []*parser.File
	for _, p := range paths {
		files = append(files, parser.ParseFile(p, []byte(tree[p]), parser.DefaultConfig()))
	}
	return checkOf(files, func(p string) []byte {
		if s, ok := tree[p]; ok {
			return []byte(s)
		}
		return nil
	}, extra...)
}

// checkOfDir does the same for a tree on disk.
func checkOfDir(t *testing.T, root string) *Check {
	t.Helper()
	files, err := parser.ParseTree(root, parser.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return checkOf(files, func(p string) []byte {
		data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return data
	})
}

func checkOf(files []*parser.File, source func(string) []byte, extra ...parser.Diagnostic) *Check {
	var diags parser.Diagnostics
	for _, f := range files {
		diags = append(diags, f.Diagnostics...)
	}
	g, gdiags := graph.Build(files, nil)
	diags = append(diags, gdiags...)
	res := evaluate.Evaluate(g, testAt)
	diags = append(diags, res.Diagnostics...)
	diags = append(diags, extra...)
	diags.Sort()
	return &Check{At: testAt, Graph: g, Result: res, Diagnostics: diags, Source: source}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./report -update rewrites it; -want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// oddTree has file names and text that need every escape: a comma, a colon
// and a percent sign in a path, non-ASCII text before a finding on the same
// line (columns count code points), and a title with a colon and a comma.
var oddTree = map[string]string{
	"docs/a, b: c.rst": "" +
		".. sreq:: Brakes, always: 100% of the time\n" +
		"   :id: REQ-1\n" +
		"\n" +
		".. test:: Ünïcödé\n" +
		"   :id: TS-1\n" +
		"   :verifies: REQ-Ü, REQ-NOPE\n",
	"100%.rst": "" +
		".. test:: Orphan\n" +
		"   :id: TS-2\n",
}

// oddDiagnostics carry %, CR, LF, : and , in messages, codes (the title
// property) and related notes, and the position shapes a finding can have.
var oddDiagnostics = []parser.Diagnostic{
	{Severity: parser.Error, Code: "internal-error", Message: "50% done\r\nthen: a, b and c",
		Span:    parser.Span{Start: parser.Pos{File: "docs/a, b: c.rst", Line: 2, Col: 4}, End: parser.Pos{File: "docs/a, b: c.rst", Line: 3, Col: 1}},
		Related: []parser.Related{{Span: parser.Span{Start: parser.Pos{File: "100%.rst", Line: 1, Col: 1}}, Message: "see: here, 100%"}}},
	{Severity: parser.Warning, Code: "odd,code:%\r\nx", Message: "no position at all"},
	{Severity: parser.Error, Code: "unreadable-file", Message: "cannot read x:y,z.rst: permission denied",
		Span: parser.Span{Start: parser.Pos{File: "x:y,z.rst"}}},
}

func TestGitHubGolden(t *testing.T) {
	cases := []struct {
		name string
		c    func(t *testing.T) *Check
	}{
		{"brake", func(t *testing.T) *Check { return checkOfDir(t, "../examples/brake") }},
		{"broken", func(t *testing.T) *Check { return checkOfDir(t, "../examples/broken") }},
		{"escaping", func(t *testing.T) *Check { return checkOfFiles(t, oddTree, oddDiagnostics...) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteGitHub(&buf, tc.c(t), true); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "github", tc.name+".golden"), buf.Bytes())
			checkCommands(t, buf.String())
		})
	}
}

// checkCommands parses every line the way the Actions runner does and
// checks that it is a well-formed command (or the closing summary line):
// no raw CR, LF, or unescaped separator inside a value.
func checkCommands(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		if strings.Contains(line, "\r") {
			t.Errorf("line %d has a raw CR: %q", i+1, line)
		}
		if i == len(lines)-1 {
			if !strings.HasPrefix(line, "seg: ") || !strings.Contains(line, "(evaluated at 2026-11-29)") {
				t.Errorf("last line is not the summary: %q", line)
			}
			continue
		}
		cmd, props, msg, ok := parseCommand(line)
		if !ok || (cmd != "error" && cmd != "warning") {
			t.Errorf("line %d is not a workflow command: %q", i+1, line)
			continue
		}
		if _, ok := props["title"]; !ok {
			t.Errorf("line %d has no title: %q", i+1, line)
		}
		if msg == "" {
			t.Errorf("line %d has no message: %q", i+1, line)
		}
	}
}

// parseCommand splits "::cmd k=v,k=v::msg" as the runner's ActionCommand
// does and unescapes the values.
func parseCommand(line string) (cmd string, props map[string]string, msg string, ok bool) {
	if !strings.HasPrefix(line, "::") {
		return "", nil, "", false
	}
	rest := line[2:]
	end := strings.Index(rest, "::")
	if end < 0 {
		return "", nil, "", false
	}
	head, data := rest[:end], rest[end+2:]
	props = map[string]string{}
	cmd, list, _ := strings.Cut(head, " ")
	if list != "" {
		for _, kv := range strings.Split(list, ",") {
			k, v, found := strings.Cut(kv, "=")
			if !found || k == "" {
				return "", nil, "", false
			}
			props[k] = unescapeProperty(v)
		}
	}
	return cmd, props, unescapeData(data), true
}

func unescapeData(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

func unescapeProperty(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"%0A", "%250A", "%250A"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"a:b,c", "a:b,c", "a%3Ab%2Cc"},
		{"docs/a, b: c.rst", "docs/a, b: c.rst", "docs/a%2C b%3A c.rst"},
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
	} {
		if got := EscapeGitHubData(tc.in); got != tc.data {
			t.Errorf("EscapeGitHubData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := EscapeGitHubProperty(tc.in); got != tc.prop {
			t.Errorf("EscapeGitHubProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
		if got := unescapeData(EscapeGitHubData(tc.in)); got != tc.in {
			t.Errorf("data round trip of %q gives %q", tc.in, got)
		}
		if got := unescapeProperty(EscapeGitHubProperty(tc.in)); got != tc.in {
			t.Errorf("property round trip of %q gives %q", tc.in, got)
		}
	}
}

// The odd tree's commands, read back as the runner reads them, give back
// the exact file names, positions and texts.
func TestGitHubRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, checkOfFiles(t, oddTree, oddDiagnostics...), false); err != nil {
		t.Fatal(err)
	}
	type want struct {
		cmd   string
		props map[string]string
		msg   string
	}
	byTitle := map[string]want{}
	for _, line := range strings.Split(buf.String(), "\n") {
		if cmd, props, msg, ok := parseCommand(line); ok {
			byTitle[props["title"]+"@"+props["file"]+":"+props["line"]+":"+props["col"]] = want{cmd, props, msg}
		}
	}
	check := func(key, cmd string, props map[string]string, msg string) {
		t.Helper()
		got, ok := byTitle[key]
		if !ok {
			t.Errorf("no command %s; have %v", key, keys(byTitle))
			return
		}
		if got.cmd != cmd || got.msg != msg {
			t.Errorf("%s: got %s %q, want %s %q", key, got.cmd, got.msg, cmd, msg)
		}
		for k, v := range props {
			if got.props[k] != v {
				t.Errorf("%s: property %s = %q, want %q", key, k, got.props[k], v)
			}
		}
	}
	// REQ-NOPE sits after "REQ-Ü, " on line 6: byte column 23, code point 22.
	check("unresolved-link@docs/a, b: c.rst:6:22", "error", map[string]string{"endLine": "6", "endColumn": "30"},
		`unresolved link "REQ-NOPE" [unresolved-link]`)
	check("internal-error@docs/a, b: c.rst:2:4", "error", map[string]string{"endLine": "3", "endColumn": ""},
		"50% done\r\nthen: a, b and c [internal-error]\n100%.rst:1:1: note: see: here, 100%")
	check("odd,code:%\r\nx@::", "warning", map[string]string{"file": ""}, "no position at all [odd,code:%\r\nx]")
	check("unreadable-file@x:y,z.rst::", "error", map[string]string{"line": ""},
		"cannot read x:y,z.rst: permission denied [unreadable-file]")
	check("unsatisfied requirement REQ-1@docs/a, b: c.rst:1:1", "error", nil,
		`REQ-1 "Brakes, always: 100% of the time" is unsatisfied: no active verifies edge: no test specification verifies it [no-active-verifies] (and 1 more reason: seg explain REQ-1)`)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
