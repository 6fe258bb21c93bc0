package cli

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
)

func run(args ...string) (code int, stdout, stderr string) {
	code, _, stdout, stderr = runStats(args...)
	return code, stdout, stderr
}

// runStats is run, with what the parse cache did.
func runStats(args ...string) (code int, st check.Stats, stdout, stderr string) {
	var out, errb bytes.Buffer
	code, st = execute(args, &out, &errb)
	return code, st, out.String(), errb.String()
}

func writeTree(t *testing.T, dir string, files map[string]string, order []string) {
	t.Helper()
	for _, name := range order {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"satisfied tree", []string{"check", "--at", "2026-11-29", "../examples/brake"}, 0},
		{"problems", []string{"check", "--at", "2026-11-29", "../examples/broken"}, 1},
		{"problems as json", []string{"check", "--format", "json", "../examples/broken"}, 1},
		// Only check is a gate: graph, explain and matrix exit 0 when they
		// did their job, whatever the verdicts.
		{"graph of a broken tree", []string{"graph", "../examples/broken"}, 0},
		{"matrix of a broken tree", []string{"matrix", "../examples/broken"}, 0},
		{"graph dot", []string{"graph", "--format", "dot", "../examples/brake", "--at", "2026-11-29"}, 0},
		{"explain satisfied", []string{"explain", "BRK-SREQ-010", "../examples/brake", "--at", "2026-11-29"}, 0},
		{"explain unsatisfied", []string{"explain", "SEG-SREQ-007", "../examples/broken"}, 0},
		{"bad --fail-on", []string{"check", "--fail-on", "failng", "../examples/brake"}, 2},
		{"missing root", []string{"check", "does/not/exist"}, 2},
		{"bad flag", []string{"check", "--nope"}, 2},
		{"bad format", []string{"graph", "--format", "png", "."}, 2},
		{"no command", nil, 2},
		{"help", []string{"help"}, 0},
		{"version", []string{"version"}, 0},
		{"explain unknown id", []string{"explain", "NOPE", "../examples/brake"}, 2},
		// The other gates: matrix below --min-coverage, review with a
		// link to review (diff: TestDiffGitRevisions).
		{"matrix below --min-coverage", []string{"matrix", "--min-coverage", "100", "../examples/broken"}, 1},
		{"review with stale pins", []string{"review", "--at", "2026-11-29", "../examples/stale"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _, stderr := run(c.args...); got != c.want {
				t.Errorf("seg %s: exit %d, want %d\nstderr: %s", strings.Join(c.args, " "), got, c.want, stderr)
			}
		})
	}
}

// The help says which commands exit 1, and only those do: a command whose
// help says 0 whatever the verdicts is never a gate.
func TestHelpSaysWhichCommandsExit1(t *testing.T) {
	gates := map[string]bool{"check": true, "matrix": true, "diff": true, "review": true, "lsp": true}
	for name := range commands {
		help := exitCodesHelp(name)
		if says := strings.Contains(help, ", 1 ") || strings.Contains(help, "(1 "); says != gates[name] {
			t.Errorf("seg help %s says %q: exit 1 there is %v, want %v", name, help, says, gates[name])
		}
	}
	for name := range gates {
		if _, ok := commands[name]; !ok {
			t.Errorf("no command %q", name)
		}
	}
	if u := strings.Join(strings.Fields(usage), " "); !strings.Contains(u, "seg diff on") || !strings.Contains(u, "seg review on") || !strings.Contains(u, "seg matrix below") {
		t.Errorf("seg help does not name every gate:\n%s", usage)
	}
}

// seg import is no gate: 0 when it wrote the outcomes, 2 when it could
// not (a results file it cannot read whole, or no case any test claims),
// never 1.
func TestImportExitCodes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"docs/a.rst": ".. sreq:: R\n   :id: R-1\n\n.. test:: T\n   :id: T-1\n   :verifies: R-1\n   :cases: *TestA\n",
		"ok.xml":     `<testsuite name="s"><testcase classname="k" name="TestA"/></testsuite>`,
		"other.xml":  `<testsuite name="s"><testcase classname="k" name="TestB"/></testsuite>`,
		"bad.xml":    `<testsuite name="s"><testcase`,
	}
	writeTree(t, dir, files, slices.Sorted(maps.Keys(files)))
	docs := filepath.Join(dir, "docs")
	for name, want := range map[string]int{"ok.xml": 0, "other.xml": 2, "bad.xml": 2} {
		code, _, stderr := run("import", "--at", "2026-11-29", "--results", filepath.Join(dir, name), docs)
		if code != want {
			t.Errorf("seg import --results %s: exit %d, want %d\n%s", name, code, want, stderr)
		}
	}
}

// A tree with something of everything, for the determinism and
// no-writing tests.
var mixedTree = map[string]string{
	"seg.toml":          "extra_options = [\"status\"]\n",
	"a/reqs.rst":        ".. sys:: Top\n   :id: SYS-1\n\n.. sreq:: Leaf\n   :id: SREQ-1\n   :refines: SYS-1\n   :status: draft\n\n.. sreq:: Other\n   :id: SREQ-2\n   :refines: SYS-1\n",
	"a/b/tests.rst":     ".. test:: T\n   :id: TS-1\n   :verifies: SREQ-1, SREQ-2 (suspect), NOPE\n\n.. impl:: I\n   :id: IM-1\n   :implements: SREQ-1, SREQ-2\n",
	"c/outcomes.rst":    ".. outcome:: O\n   :id: O-1\n   :confirms: TS-1\n   :witnesses: IM-1\n   :result: failed\n\n.. waiver:: W\n   :id: W-1\n   :excuses: O-1\n   :expires: 2026-12-01\n",
	"c/more.rst":        ".. outcome:: O2\n   :id: O-2\n   :confirms: TS-1\n   :result: passed\n\n.. sreq:: Dup\n   :id: SREQ-2\n",
	"z/crlf.rst":        ".. req:: CRLF\r\n   :id: R-CRLF\r\n   :refines: R-CRLF\r\n",
	"z/latin1.rst":      "caf\xe9\n",
	"z/deep/d/e/f.rst":  ".. note::\n\n   .. sreq:: Nested\n      :id: NEST-1\n      :verfies: X\n",
	"z/deep/d/e/g.rst":  "Title\n=====\n\n::\n\n   .. sreq:: In a literal block\n      :id: NOT-1\n",
	"_build/skip.rst":   ".. sreq:: Build output\n   :id: NOT-2\n",
	".hidden/skip.rst":  ".. sreq:: Hidden\n   :id: NOT-3\n",
	"notes.txt":         "not rst\n",
	"z/deep/h.rst":      ".. sreq:: Orphan leaf\n   :id: SREQ-3\n\n.. test:: Orphan test\n   :id: TS-9\n",
	"c/bad-outcome.rst": ".. outcome:: Bad\n   :id: O-3\n   :confirms: TS-1\n   :witnesses: IM-1\n   :result: pased\n",
}

var allFormats = [][]string{
	{"check", "--format", "text", "--color", "always"},
	{"check", "--format", "json"},
	{"graph", "--format", "json"},
	{"graph", "--format", "dot"},
	{"graph", "--format", "mermaid"},
	{"explain", "SREQ-1"},
	{"explain", "--format", "json", "TS-1"},
}

// The same tree, created in different orders, gives the same bytes in
// every format (SEG-SREQ-009).
func TestOutputIsDeterministic(t *testing.T) {
	names := make([]string, 0, len(mixedTree))
	for n := range mixedTree {
		names = append(names, n)
	}
	sort.Strings(names)
	var first map[string]string
	for i := range 4 {
		order := append([]string(nil), names...)
		r := rand.New(rand.NewPCG(uint64(i), 1))
		r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		if i == 1 {
			sort.Sort(sort.Reverse(sort.StringSlice(order)))
		}
		dir := t.TempDir()
		writeTree(t, dir, mixedTree, order)
		got := map[string]string{}
		for _, f := range allFormats {
			args := append(append([]string(nil), f...), "--at", "2026-11-29", dir)
			_, out, stderr := run(args...)
			if stderr != "" {
				t.Fatalf("seg %v: %s", args, stderr)
			}
			got[strings.Join(f, " ")] = strings.ReplaceAll(out, dir, "ROOT")
		}
		if first == nil {
			first = got
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Fatalf("creation order %d changed the output:\n%s", i, diff)
		}
	}
	if !strings.Contains(first["check --format json"], `"invalid-encoding"`) {
		t.Errorf("the mixed tree should exercise invalid-encoding:\n%s", first["check --format json"])
	}
}

func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		entry := fmt.Sprintf("%v %v", info.Mode(), info.ModTime().UnixNano())
		if !d.IsDir() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		sums[p] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// No command but import writes into the tree (SEG-SREQ-010).
func TestNothingIsWrittenIntoTheTree(t *testing.T) {
	dir := t.TempDir()
	names := make([]string, 0, len(mixedTree))
	for n := range mixedTree {
		names = append(names, n)
	}
	writeTree(t, dir, mixedTree, names)
	before := hashTree(t, dir)
	for _, f := range allFormats {
		run(append(append([]string(nil), f...), dir)...)
	}
	if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
		t.Errorf("the tree changed:\n%s", diff)
	}
}

func TestOutputFlagWritesTheReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	code, stdout, _ := run("check", "--format", "json", "--output", out, "--color", "always", "--at", "2026-11-29", "../examples/brake")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("{\n  \"schema\": \"seg-check/1\"")) || bytes.Contains(data, []byte("\x1b[")) {
		t.Errorf("unexpected report:\n%s", data)
	}
}

// Every diagnostic seg emits carries a documented code.
func TestEveryEmittedCodeIsRegistered(t *testing.T) {
	dir := t.TempDir()
	names := make([]string, 0, len(mixedTree))
	for n := range mixedTree {
		names = append(names, n)
	}
	writeTree(t, dir, mixedTree, names)
	for _, root := range []string{dir, "../examples/broken", "../examples/brake"} {
		_, out, _ := run("check", "--format", "json", root)
		for _, line := range strings.Split(out, "\n") {
			code, ok := strings.CutPrefix(strings.TrimSpace(line), `"code": "`)
			if !ok {
				continue
			}
			code = strings.TrimSuffix(code, `",`)
			if _, known := diag.Lookup(code); !known {
				t.Errorf("%s: code %q is not in the registry", root, code)
			}
		}
	}
}
