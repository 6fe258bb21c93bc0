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
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Run with -update (go test ./report -run Golden -update) to rewrite the
// golden files after a deliberate change; review the diff.
var update = flag.Bool("update", false, "rewrite golden files")

var testAt = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// checkOfFiles writes an in-memory tree (path -> content) to disk, runs
// seg on it, and adds extra diagnostics (made with the run's file set).
func checkOfFiles(t *testing.T, tree map[string]string, extra ...func(*check.Check) diag.Diagnostic) *check.Check {
	t.Helper()
	root := t.TempDir()
	for p, text := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := checkOfDir(t, root)
	for _, x := range extra {
		c.Diagnostics = append(c.Diagnostics, x(c))
	}
	c.Diagnostics.Sort(c.Files)
	return c
}

// checkOfDir runs seg on a tree on disk, without a cache.
func checkOfDir(t *testing.T, root string) *check.Check {
	t.Helper()
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(check.Options{At: testAt})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fileAt is line:col of the file called name in c's file set, which gets
// such a file, made up, when it has none (line 0: the file as a whole).
func fileAt(c *check.Check, name string, line, col int) source.Pos {
	var f *source.File
	for _, g := range c.Files.Files() {
		if g.Name() == name {
			f = g
		}
	}
	if f == nil {
		f = c.Files.Add(name, 0, source.Docutils)
		f.SetLines([]int32{0, 100, 200, 300})
	}
	if line == 0 {
		return f.Whole()
	}
	return f.Pos(int(f.Lines()[line-1]) + col - 1)
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
var oddDiagnostics = []func(*check.Check) diag.Diagnostic{
	func(c *check.Check) diag.Diagnostic {
		return diag.Diagnostic{Code: parser.CodeInternal, Message: "50% done\r\nthen: a, b and c",
			Span:    source.Span{Start: fileAt(c, "docs/a, b: c.rst", 2, 4), End: fileAt(c, "docs/a, b: c.rst", 3, 1)},
			Related: []diag.Related{{Span: source.At(fileAt(c, "100%.rst", 1, 1)), Message: "see: here, 100%"}}}
	},
	func(*check.Check) diag.Diagnostic {
		return diag.Diagnostic{Code: &diag.Code{Name: "odd,code:%\r\nx", Severity: diag.Warning}, Message: "no position at all"}
	},
	func(c *check.Check) diag.Diagnostic {
		return diag.Diagnostic{Code: parser.CodeUnreadable, Message: "cannot read x:y,z.rst: permission denied",
			Span: source.At(fileAt(c, "x:y,z.rst", 0, 0))}
	},
}

func TestGitHubGolden(t *testing.T) {
	cases := []struct {
		name string
		c    func(t *testing.T) *check.Check
	}{
		{"brake", func(t *testing.T) *check.Check { return checkOfDir(t, "../examples/brake") }},
		{"broken", func(t *testing.T) *check.Check { return checkOfDir(t, "../examples/broken") }},
		{"escaping", func(t *testing.T) *check.Check { return checkOfFiles(t, oddTree, oddDiagnostics...) }},
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
// the exact file names and positions, and the texts as Printable escapes
// them (a line break inside a message is shown, not made; the notes of a
// diagnostic are lines of their own).
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
	expect := func(key, cmd string, props map[string]string, msg string) {
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
	expect("unresolved-link@docs/a, b: c.rst:6:22", "error", map[string]string{"endLine": "6", "endColumn": "30"},
		`unresolved link "REQ-NOPE" [unresolved-link]`)
	expect("internal-error@docs/a, b: c.rst:2:4", "error", map[string]string{"endLine": "3", "endColumn": ""},
		`50% done\x0d\x0athen: a, b and c [internal-error]`+"\n100%.rst:1:1: note: see: here, 100%")
	expect("odd,code:%\r\nx@::", "warning", map[string]string{"file": ""}, "no position at all [odd,code:%\r\nx]")
	expect("unreadable-file@x:y,z.rst::", "error", map[string]string{"line": ""},
		"cannot read x:y,z.rst: permission denied [unreadable-file]")
	expect("unsatisfied requirement REQ-1@docs/a, b: c.rst:1:1", "error", nil,
		`REQ-1 "Brakes, always: 100% of the time" is unproven: no active verifies edge: no test specification verifies it [no-active-verifies] (and 1 more reason: seg explain REQ-1)`)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
