// Differential test: seg's parser against docutils, the reference RST parser
// (spec/format.md: where seg and docutils disagree on RST structure,
// docutils is right).
//
// The tests:
//
//   - TestDifferentialCorpus parses every .rst file of testdata/corpus with
//     parser.ParseFile and parser.DefaultConfig() and compares the nodes
//     (file, directive, line, ID, parent line and ID) with what docutils
//     found, checked in as testdata/corpus/expected.jsonl. Its subtest
//     "fields" compares titles and the kinds' own options too. It needs no
//     docutils.
//   - TestDifferentialTree does the same through parser.ParseTree, which
//     also checks the walker's file selection.
//   - TestDifferentialExpectedIsCurrent re-runs testdata/docutils/dump.py on
//     the corpus and checks that its output equals expected.jsonl, so the
//     checked-in file cannot drift from what docutils says. (When this
//     machine's docutils is another version than the one expected.jsonl
//     names on its first line and their outputs differ, it skips, unless
//     SEG_REQUIRE_DOCUTILS=1.)
//   - TestDifferentialGenerated writes a tree of ~50 files composed of trap
//     snippets by a small deterministic random generator, has docutils dump
//     it, and compares seg with it node by node.
//
// The last two need a python3 with docutils. Without one they skip, saying
// what to install; with SEG_REQUIRE_DOCUTILS=1 they fail instead.
// Every disagreement is printed as file:line with both sides.
//
// How to run it with docutils, from the repository's root; .ci/docutils.sh
// should be exactly this:
//
//	#!/bin/sh
//	set -eu
//	apt-get update
//	apt-get install -y python3-docutils
//	SEG_REQUIRE_DOCUTILS=1 go test ./parser/ -run Differential -count=1 -v
//
// Without docutils, `go test ./parser/` runs the two corpus comparisons.
//
// Environment:
//
//	SEG_REQUIRE_DOCUTILS=1    fail, not skip, when no python3 with docutils is found
//	SEG_DOCUTILS_PYTHON=path  the only python to try (default: /usr/bin/python3, then python3 on PATH)
//	SEG_DIFF_SEED=n           seed of the generated tree (default 1)
//	SEG_DIFF_FILES=n          number of generated files (default 50)
//	SEG_DIFF_KEEP=dir         write the generated tree (and docutils' dump of it, docutils.jsonl) to dir, a new or empty folder
//
// After changing the corpus, regenerate expected.jsonl, then read the
// change: docutils is the authority, so check that each trap is what RST
// really says before checking it in (expected.jsonl was made with
// Debian bookworm's docutils 0.19, reading files as later docutils reads
// them for Sphinx: dump.py, "Reading files"):
//
//	python3 parser/testdata/corpus/make_special.py   # only if that script changed
//	/usr/bin/python3 parser/testdata/docutils/dump.py parser/testdata/corpus > parser/testdata/corpus/expected.jsonl
package parser_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/parser"
)

const (
	corpusRoot   = "testdata/corpus"
	expectedPath = "testdata/corpus/expected.jsonl"
	dumpScript   = "testdata/docutils/dump.py"
)

// dumpRecord is one line of dump.py's output.
type dumpRecord struct {
	// Docutils is set, alone, on the first line: docutils' version.
	Docutils   string      `json:"docutils"`
	File       string      `json:"file"`
	Directive  string      `json:"directive"`
	Line       int         `json:"line"`
	ID         string      `json:"id"`
	ParentLine int         `json:"parent_line"`
	ParentID   string      `json:"parent_id"`
	Title      string      `json:"title"`
	Options    [][2]string `json:"options"`
	// Error is set when docutils rejected the directive's header and made
	// no node of it.
	Error string `json:"error"`
	// InvalidEncoding is set for a file that is not UTF-8.
	InvalidEncoding bool `json:"invalid_encoding"`
	// LineTooLong is set (to the line's length) for a file docutils
	// refuses whole: a line longer than its line_length_limit (10000).
	LineTooLong int `json:"line_too_long"`
	// DocutilsLineno is docutils' own self.lineno when it differs from
	// the line of the "..": docutils is one line late in table cells.
	DocutilsLineno int `json:"docutils_lineno"`
}

// found is what both sides must agree on for every node.
type found struct {
	Directive  string
	Line       int
	ID         string
	ParentLine int // 0: none
	ParentID   string
}

func (f found) String() string {
	s := fmt.Sprintf("%s id=%q", f.Directive, f.ID)
	if f.ParentLine > 0 {
		s += fmt.Sprintf(" parent=%q@%d", f.ParentID, f.ParentLine)
	} else {
		s += " parent=-"
	}
	return s
}

func readDump(data []byte) ([]dumpRecord, error) {
	var recs []dumpRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r dumpRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

func byFile(recs []dumpRecord) map[string][]dumpRecord {
	m := map[string][]dumpRecord{}
	for _, r := range recs {
		m[r.File] = append(m[r.File], r)
	}
	return m
}

// rstFiles lists the files of spec/format.md's "Which files" (without a
// config): every *.rst under root, except hidden names and the folders
// _build, node_modules and vendor; symbolic links are not followed.
func rstFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "_build" || name == "node_modules" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				return nil
			}
		}
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".rst") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out, err
}

// segFound lists the nodes of f as the comparison sees them.
func segFound(f *parser.File) []found {
	if f == nil {
		return nil
	}
	out := make([]found, 0, len(f.Nodes))
	// The IDs as written: docutils knows nothing of the IDs sphinx-needs
	// generates for needs without one (needs/ids_test.go checks those).
	written := func(n *parser.Node) string {
		if o := n.Option("id"); o != nil {
			return n.ID
		}
		return ""
	}
	for i := range f.Nodes {
		n := &f.Nodes[i]
		x := found{Directive: n.Directive, Line: line(f, n.Pos), ID: written(n)}
		if n.Parent >= 0 && n.Parent < len(f.Nodes) {
			p := &f.Nodes[n.Parent]
			x.ParentLine, x.ParentID = line(f, p.Pos), written(p)
		}
		out = append(out, x)
	}
	return out
}

func dumpFound(recs []dumpRecord) []found {
	var out []found
	for _, r := range recs {
		if r.Error != "" || r.InvalidEncoding || r.LineTooLong > 0 {
			continue
		}
		out = append(out, found{r.Directive, r.Line, r.ID, r.ParentLine, r.ParentID})
	}
	return out
}

func sortFound(xs []found) {
	sort.SliceStable(xs, func(i, j int) bool {
		if xs[i].Line != xs[j].Line {
			return xs[i].Line < xs[j].Line
		}
		return xs[i].ID < xs[j].ID
	})
}

// compareNodes returns one line per disagreement between docutils' records
// of one file and seg's parse of it.
func compareNodes(file string, recs []dumpRecord, f *parser.File) []string {
	var out []string
	if f == nil {
		return []string{fmt.Sprintf("%s: seg: ParseFile returned nil", file)}
	}
	for _, r := range recs {
		if r.InvalidEncoding {
			if len(f.Nodes) > 0 {
				out = append(out, fmt.Sprintf("%s: docutils: not UTF-8, no nodes | seg: %d nodes", file, len(f.Nodes)))
			}
			if !hasCode(f, "invalid-encoding") {
				out = append(out, fmt.Sprintf("%s: docutils: not UTF-8 | seg: no invalid-encoding diagnostic", file))
			}
			return out
		}
	}
	for _, n := range f.Nodes {
		if p := f.Position(n.Pos); p.Filename != file {
			out = append(out, fmt.Sprintf("%s:%d: seg: node position names file %q", file, p.Line, p.Filename))
		}
	}
	out = append(out, hiddenWhereFound(file, recs, f)...)
	want, got := dumpFound(recs), segFound(f)
	sortFound(want)
	sortFound(got)
	if cmp.Equal(want, got) {
		return out
	}
	rejected := map[int]string{}
	notParsed := ""
	for _, r := range recs {
		if r.Error != "" {
			rejected[r.Line] = r.Error
		}
		if r.LineTooLong > 0 {
			notParsed = fmt.Sprintf(" (docutils parses nothing of this file: line %d has %d characters, over its line_length_limit of 10000)", r.Line, r.LineTooLong)
		}
	}
	// Merge by line; lines with several nodes (table rows) pair in order.
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || (i < len(want) && want[i].Line < got[j].Line):
			out = append(out, fmt.Sprintf("%s:%d: docutils: %v | seg: no node", file, want[i].Line, want[i]))
			i++
		case i == len(want) || got[j].Line < want[i].Line:
			what := "no node" + notParsed
			if e, ok := rejected[got[j].Line]; ok {
				what = "no node (" + e + ")"
			}
			out = append(out, fmt.Sprintf("%s:%d: docutils: %s | seg: %v", file, got[j].Line, what, got[j]))
			j++
		default:
			if want[i] != got[j] {
				out = append(out, fmt.Sprintf("%s:%d: docutils: %v | seg: %v", file, want[i].Line, want[i], got[j]))
			}
			i++
			j++
		}
	}
	return out
}

// hiddenWhereFound lists every hidden-directive or misspelled-directive on a line where
// docutils saw a seg directive (a node, or one whose header it rejected):
// the warning says docutils sees none there, so it must never fire where
// docutils does.
func hiddenWhereFound(file string, recs []dumpRecord, f *parser.File) []string {
	seen := map[int]bool{}
	for _, r := range recs {
		if r.Directive != "" && r.Line > 0 {
			seen[r.Line] = true
		}
	}
	var out []string
	for _, d := range f.Diagnostics {
		if d.Code.Name != "hidden-directive" && d.Code.Name != "misspelled-directive" {
			continue
		}
		if l := f.Position(d.Span.Start).Line; seen[l] {
			out = append(out, fmt.Sprintf("%s:%d: docutils: a %s directive | seg: hidden-directive %q", file, l, directiveOn(recs, l), d.Message))
		}
	}
	return out
}

func directiveOn(recs []dumpRecord, line int) string {
	for _, r := range recs {
		if r.Line == line {
			return r.Directive
		}
	}
	return ""
}

// countCode counts the diagnostics of one code in f.
func countCode(f *parser.File, code string) int {
	n := 0
	for _, d := range f.Diagnostics {
		if d.Code.Name == code {
			n++
		}
	}
	return n
}

func hasCode(f *parser.File, code string) bool {
	for _, d := range f.Diagnostics {
		if d.Code.Name == code {
			return true
		}
	}
	return false
}

func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// compareFields compares, for every node both sides found on the same line,
// the title and the options seg knows for the node's kind (":id:" and the
// kind's own), white space runs collapsed.
func compareFields(file string, recs []dumpRecord, f *parser.File, cfg *parser.Config) []string {
	if f == nil {
		return nil
	}
	byLine := map[int][]parser.Node{}
	for _, n := range f.Nodes {
		byLine[line(f, n.Pos)] = append(byLine[line(f, n.Pos)], n)
	}
	var out []string
	for _, r := range recs {
		if r.Error != "" || r.InvalidEncoding || r.LineTooLong > 0 {
			continue
		}
		var n *parser.Node
		for k := range byLine[r.Line] {
			if byLine[r.Line][k].Directive == r.Directive {
				n = &byLine[r.Line][k]
				break
			}
		}
		if n == nil {
			continue // reported by compareNodes
		}
		if got := normSpace(n.Title); got != r.Title {
			out = append(out, fmt.Sprintf("%s:%d: title: docutils %q | seg %q", file, r.Line, r.Title, got))
		}
		known := map[string]bool{"id": true}
		for o := range parser.OptionsOf(cfg.Directives[r.Directive]) {
			known[o] = true
		}
		var want, got [][2]string
		for _, o := range r.Options {
			if known[o[0]] {
				want = append(want, o)
			}
		}
		for _, o := range n.Options {
			if known[strings.ToLower(o.Name)] {
				got = append(got, [2]string{strings.ToLower(o.Name), normSpace(o.Value)})
			}
		}
		if d := cmp.Diff(want, got); d != "" {
			out = append(out, fmt.Sprintf("%s:%d: options (-docutils +seg):\n%s", file, r.Line, d))
		}
	}
	return out
}

func report(t *testing.T, what string, lines []string) {
	t.Helper()
	if len(lines) == 0 {
		return
	}
	const max = 300
	shown := lines
	if len(shown) > max {
		shown = shown[:max]
	}
	t.Errorf("%s: %d disagreement(s) with docutils:\n%s", what, len(lines), strings.Join(shown, "\n"))
	if len(lines) > max {
		t.Errorf("... and %d more", len(lines)-max)
	}
}

func loadExpected(t *testing.T) []dumpRecord {
	t.Helper()
	data, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := readDump(data)
	if err != nil {
		t.Fatalf("%s: %v", expectedPath, err)
	}
	return recs
}

func TestDifferentialCorpus(t *testing.T) {
	recs := loadExpected(t)
	want := byFile(recs)
	files, err := rstFiles(corpusRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("corpus has %d files, want at least 30", len(files))
	}
	for f := range want {
		if f == "" {
			continue // the version line
		}
		if i := sort.SearchStrings(files, f); i == len(files) || files[i] != f {
			t.Errorf("expected.jsonl names %s, which is not a corpus file: regenerate it", f)
		}
	}
	cfg := parser.DefaultConfig()
	parsed := map[string]*parser.File{}
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join(corpusRoot, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		parsed[rel] = parseFile(rel, src, cfg)
	}
	t.Run("nodes", func(t *testing.T) {
		var dis []string
		for _, rel := range files {
			dis = append(dis, compareNodes(rel, want[rel], parsed[rel])...)
		}
		report(t, "corpus", dis)
	})
	t.Run("fields", func(t *testing.T) {
		var dis []string
		for _, rel := range files {
			dis = append(dis, compareFields(rel, want[rel], parsed[rel], cfg)...)
		}
		report(t, "corpus titles and options", dis)
	})
}

func TestDifferentialTree(t *testing.T) {
	recs := loadExpected(t)
	want := byFile(recs)
	files, err := rstFiles(corpusRoot)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := check.ParseTree(corpusRoot, nil)
	if err != nil {
		t.Fatalf("ParseTree: %v", err)
	}
	var paths []string
	byPath := map[string]*parser.File{}
	for _, f := range got {
		if f == nil {
			t.Fatal("ParseTree returned a nil file")
		}
		paths = append(paths, f.Path)
		byPath[f.Path] = f
	}
	if d := cmp.Diff(files, paths); d != "" {
		t.Errorf("ParseTree's files (in order) differ from spec/format.md's \"Which files\" (-want +got):\n%s", d)
	}
	var dis []string
	for _, rel := range files {
		if f, ok := byPath[rel]; ok {
			dis = append(dis, compareNodes(rel, want[rel], f)...)
		}
	}
	report(t, "ParseTree on the corpus", dis)
}

var (
	pythonOnce sync.Once
	pythonPath string
	pythonVer  string
)

// docutilsPython finds a python3 that imports docutils, or skips the test
// (fails it when SEG_REQUIRE_DOCUTILS=1).
func docutilsPython(t *testing.T) string {
	t.Helper()
	pythonOnce.Do(func() {
		cands := []string{"/usr/bin/python3", "python3"}
		if p := os.Getenv("SEG_DOCUTILS_PYTHON"); p != "" {
			cands = []string{p}
		}
		for _, c := range cands {
			p, err := exec.LookPath(c)
			if err != nil {
				continue
			}
			out, err := exec.Command(p, "-c", "import docutils; print(docutils.__version__)").Output()
			if err == nil {
				pythonPath, pythonVer = p, strings.TrimSpace(string(out))
				return
			}
		}
	})
	if pythonPath == "" {
		msg := "no python3 with docutils found: apt-get install python3-docutils (or set SEG_DOCUTILS_PYTHON)"
		if os.Getenv("SEG_REQUIRE_DOCUTILS") == "1" {
			t.Fatal(msg + "; SEG_REQUIRE_DOCUTILS=1 makes this a failure")
		}
		t.Skip(msg)
	}
	t.Logf("docutils %s via %s", pythonVer, pythonPath)
	return pythonPath
}

// runDump runs dump.py on root and returns its records and raw output.
func runDump(t *testing.T, root string) ([]dumpRecord, []byte) {
	t.Helper()
	py := docutilsPython(t)
	cmd := exec.Command(py, dumpScript, root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s %s: %v\n%s", py, dumpScript, root, err, stderr.String())
	}
	recs, err := readDump(out)
	if err != nil {
		t.Fatalf("dump.py output: %v", err)
	}
	return recs, out
}

func TestDifferentialExpectedIsCurrent(t *testing.T) {
	liveRecs, live := runDump(t, corpusRoot)
	checked, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatal(err)
	}
	checkedRecs, err := readDump(checked)
	if err != nil {
		t.Fatal(err)
	}
	d := cmp.Diff(strings.Split(string(checked), "\n"), strings.Split(string(live), "\n"))
	if d == "" {
		return
	}
	if was, now := version(checkedRecs), version(liveRecs); was != now && os.Getenv("SEG_REQUIRE_DOCUTILS") != "1" {
		t.Skipf("%s was made with docutils %s, this machine has %s; their output differs (-checked in +live):\n%s", expectedPath, was, now, d)
	}
	t.Errorf("%s is not what docutils %s says now (-checked in +live); regenerate it as the top of this file says, and read the change:\n%s",
		expectedPath, pythonVer, d)
}

// version is the docutils version named on a dump's first line.
func version(recs []dumpRecord) string {
	for _, r := range recs {
		if r.Docutils != "" {
			return r.Docutils
		}
	}
	return "(unknown)"
}

func TestDifferentialGenerated(t *testing.T) {
	docutilsPython(t) // skip before writing anything
	seed := envInt(t, "SEG_DIFF_SEED", 1)
	nfiles := envInt(t, "SEG_DIFF_FILES", 50)
	root := t.TempDir()
	if keep := os.Getenv("SEG_DIFF_KEEP"); keep != "" {
		if ents, err := os.ReadDir(keep); err == nil && len(ents) > 0 {
			t.Fatalf("SEG_DIFF_KEEP=%s must name a new or empty folder", keep)
		}
		root = keep
	}
	files := generateTree(uint64(seed), nfiles)
	names := make([]string, 0, len(files))
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	recs, raw := runDump(t, root)
	if os.Getenv("SEG_DIFF_KEEP") != "" {
		if err := os.WriteFile(filepath.Join(root, "docutils.jsonl"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := byFile(recs)
	cfg := parser.DefaultConfig()
	var dis []string
	nodes, hidden := 0, 0
	for _, name := range names {
		nodes += len(dumpFound(want[name]))
		f := parseFile(name, files[name], cfg)
		hidden += countCode(f, "hidden-directive")
		dis = append(dis, compareNodes(name, want[name], f)...)
	}
	t.Logf("seed %d: %d files, %d nodes found by docutils, %d hidden-directive warnings", seed, len(names), nodes, hidden)
	if nodes < 10*len(names) {
		t.Errorf("the generator made only %d nodes in %d files", nodes, len(names))
	}
	// The traps put seg directives in paragraphs, comments and literal
	// blocks: the check that hidden-directive never fires where docutils
	// sees a directive must not be vacuous.
	if hidden < len(names) {
		t.Errorf("only %d hidden-directive warnings in %d generated files", hidden, len(names))
	}
	if len(dis) > 0 {
		report(t, fmt.Sprintf("generated tree (seed %d; SEG_DIFF_KEEP=dir writes it out)", seed), dis)
	}
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// ---------------------------------------------------------------------------
// The generator: trap snippets composed at random (but deterministically)
// into RST files. It does not predict what docutils makes of them: docutils
// is the oracle, the generator only has to be varied.

var (
	genWords = strings.Fields(`the system shall apply brake within request value
		sensor fault log cycle task budget monitor pedal signal timer reset
		mode state input output limit level alarm record`)
	genSegNames     = []string{"req", "sys", "sreq", "test", "impl", "outcome", "waiver"}
	genLiteralNames = []string{"code-block", "code", "sourcecode", "literalinclude",
		"parsed-literal", "math", "raw", "csv-table", "graphviz", "plantuml",
		"uml", "mermaid", "testcode", "testoutput", "doctest", "needtable",
		"needflow", "needuml", "needlist", "needextract", "list2need"}
	genLinkOption = map[string]string{"req": "refines", "sys": "refines", "sreq": "refines",
		"test": "verifies", "impl": "implements", "outcome": "confirms", "waiver": "excuses"}
)

type genFile struct {
	r    *rand.Rand
	tag  string
	n    int
	ids  []string
	out  []string
	trap int
}

func (g *genFile) emit(ind, s string) {
	if s == "" {
		g.out = append(g.out, "")
		return
	}
	g.out = append(g.out, ind+s)
}

func (g *genFile) blank()                { g.out = append(g.out, "") }
func (g *genFile) chance(p float64) bool { return g.r.Float64() < p }
func (g *genFile) pick(xs []string) string {
	return xs[g.r.IntN(len(xs))]
}

func (g *genFile) words(lo, hi int) string {
	n := lo + g.r.IntN(hi-lo+1)
	w := make([]string, n)
	for i := range w {
		w[i] = g.pick(genWords)
	}
	if n > 0 && g.chance(0.2) {
		w[g.r.IntN(n)] = g.pick([]string{"*emphasis*", "``literal``", ":ref:`label`", "`text`_", "**strong**", ":need:`X-1`"})
	}
	return strings.Join(w, " ")
}

func (g *genFile) step() string {
	return strings.Repeat(" ", []int{2, 3, 3, 3, 3, 4, 4, 5, 8}[g.r.IntN(9)])
}

func (g *genFile) newID() string {
	g.n++
	id := fmt.Sprintf("%s-%d", g.tag, g.n)
	g.ids = append(g.ids, id)
	return id
}

func (g *genFile) oldID() string {
	if len(g.ids) == 0 || g.chance(0.1) {
		return "EXT-1"
	}
	return g.pick(g.ids)
}

// trapNode writes a seg directive that must not become a node when it sits
// where the caller puts it (literal text, a comment, ...).
func (g *genFile) trapNode(ind string) {
	g.trap++
	g.emit(ind, fmt.Sprintf(".. %s:: trap %d", g.pick(genSegNames), g.trap))
	g.emit(ind, fmt.Sprintf("   :id: %s-TRAP-%d", g.tag, g.trap))
}

func (g *genFile) blocks(ind string, d, n int) {
	for i := 0; i < n; i++ {
		if i > 0 && !g.chance(0.04) {
			g.blank()
		}
		g.block(ind, d)
	}
}

func (g *genFile) block(ind string, d int) {
	if d >= 4 {
		switch g.r.IntN(3) {
		case 0:
			g.para(ind)
		default:
			g.node(ind, d)
		}
		return
	}
	switch k := g.r.IntN(100); {
	case k < 30:
		g.node(ind, d)
	case k < 38:
		g.para(ind)
	case k < 46:
		g.container(ind, d)
	case k < 51:
		g.literalDirective(ind)
	case k < 56:
		g.literalBlock(ind)
	case k < 61:
		g.comment(ind, d)
	case k < 66:
		g.list(ind, d)
	case k < 71:
		g.defList(ind, d)
	case k < 74:
		g.fieldList(ind, d)
	case k < 79:
		g.blockQuote(ind, d)
	case k < 83:
		// A directive line right after a paragraph line is text.
		g.emit(ind, g.words(3, 8))
		g.trapNode(ind)
	case k < 87:
		g.gridTable(ind, d)
	case k < 90:
		g.emit(ind, ".. [#] "+g.words(2, 5))
		g.blank()
		g.blocks(ind+"   ", d+1, 1+g.r.IntN(2))
	case k < 93:
		// A quoted literal block: "::" then unindented lines.
		g.emit(ind, g.words(2, 6)+"::")
		g.blank()
		g.trapNode(ind)
	case k < 96:
		g.emit(ind, ".. _"+g.pick(genWords)+fmt.Sprint(g.r.IntN(100))+":")
		if g.chance(0.5) {
			g.blank()
		}
		g.node(ind, d)
	case k < 98:
		g.emit(ind, ">>> "+g.words(1, 3))
		g.emit(ind, g.words(1, 3))
	default:
		// A substitution definition: replace parses its content as RST
		// there, and a seg directive may be the one it names.
		name := fmt.Sprintf("|s%d|", g.r.IntN(1000))
		switch g.r.IntN(3) {
		case 0:
			g.emit(ind, ".. "+name+" replace::")
			g.blank()
			g.blocks(ind+g.step(), d+1, 1+g.r.IntN(2))
		case 1:
			g.emit(ind, ".. "+name+" replace:: "+g.words(1, 3))
			g.trapNode(ind + g.step())
		default:
			mark := len(g.out)
			g.node(ind+"   ", d)
			g.out[mark] = ind + ".. " + name + " " + strings.TrimPrefix(strings.TrimPrefix(g.out[mark], ind+"   "), ".. ")
		}
	}
}

func (g *genFile) para(ind string) {
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		g.emit(ind, g.words(3, 10))
	}
}

func (g *genFile) node(ind string, d int) {
	name := g.pick(genSegNames)
	if g.chance(0.08) {
		name = strings.ToUpper(name)
	} else if g.chance(0.05) {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	sep := "::"
	if g.chance(0.05) {
		sep = " ::"
	}
	head := ".. " + name + sep
	if g.chance(0.9) {
		head += " " + g.words(1, 6)
	}
	g.emit(ind, head)
	opt := ind + g.step()
	if g.chance(0.08) {
		g.emit(opt, g.words(1, 4)) // title continuation
	}
	if g.chance(0.92) {
		g.emit(opt, ":id: "+g.newID())
	}
	lname := strings.ToLower(name)
	if g.chance(0.6) {
		link := genLinkOption[lname]
		if g.chance(0.2) {
			g.emit(opt, ":"+link+": "+g.oldID()+",")
			g.emit(opt+strings.Repeat(" ", 2+g.r.IntN(6)), g.oldID())
		} else {
			g.emit(opt, ":"+link+": "+g.oldID())
		}
	}
	if lname == "outcome" && g.chance(0.5) {
		g.emit(opt, ":result: "+g.pick([]string{"passed", "failed", "skipped", "error"}))
	}
	if g.chance(0.05) {
		// A field list after the blank line is body text, not options.
		g.blank()
		g.emit(opt, ":"+genLinkOption[lname]+": "+g.oldID())
	}
	if d < 4 && g.chance(0.6) {
		body := opt
		if g.chance(0.1) {
			body = ind + g.step()
		}
		g.blank()
		g.blocks(body, d+1, 1+g.r.IntN(3))
	}
}

func (g *genFile) container(ind string, d int) {
	var head string
	switch k := g.r.IntN(10); k {
	case 0, 1:
		head = ".. note::"
	case 2:
		head = ".. warning::"
	case 3:
		head = ".. container:: box"
	case 4:
		head = ".. only:: html"
	case 5:
		head = ".. tab:: " + g.words(1, 2)
	case 6:
		head = ".. dropdown:: " + g.words(1, 3)
	case 7:
		head = ".. admonition:: " + g.words(1, 3)
	case 8:
		head = ".. needextend:: " + g.oldID()
	default:
		head = ".. custom-thing:: " + g.words(1, 2)
	}
	g.emit(ind, head)
	step := ind + g.step()
	if strings.Contains(head, "dropdown") || strings.Contains(head, "custom") {
		if g.chance(0.4) {
			g.emit(step, ":open:")
		}
	}
	if !g.chance(0.1) {
		g.blank()
	}
	g.blocks(step, d+1, 1+g.r.IntN(3))
}

func (g *genFile) literalDirective(ind string) {
	name := g.pick(genLiteralNames)
	head := ".. " + name + "::"
	if g.chance(0.5) {
		head += " " + g.pick(genWords)
	}
	g.emit(ind, head)
	step := ind + g.step()
	if !g.chance(0.1) {
		g.blank()
	}
	g.trapNode(step)
	if g.chance(0.5) {
		g.blank()
		g.emit(step, g.words(2, 5))
	}
}

func (g *genFile) literalBlock(ind string) {
	switch g.r.IntN(4) {
	case 0:
		g.emit(ind, g.words(2, 6)+"::")
	case 1:
		g.emit(ind, g.words(2, 6)+" ::")
	case 2:
		g.emit(ind, g.words(2, 6)+": ::")
	default:
		g.emit(ind, "::")
	}
	g.blank()
	step := ind + g.step()
	g.trapNode(step)
	if g.chance(0.3) {
		g.blank()
		g.trapNode(step + g.step())
	}
}

func (g *genFile) comment(ind string, d int) {
	step := ind + g.step()
	switch g.r.IntN(4) {
	case 0:
		g.emit(ind, ".. "+g.words(1, 5))
		g.trapNode(step)
	case 1:
		g.emit(ind, "..")
		g.trapNode(step)
	case 2:
		g.emit(ind, ".. "+g.words(1, 5))
		g.blank()
		g.trapNode(step)
	default:
		// An empty comment swallows nothing: the indented block after the
		// blank line is a block quote.
		g.emit(ind, "..")
		g.blank()
		g.blocks(step, d+1, 1+g.r.IntN(2))
	}
}

func (g *genFile) list(ind string, d int) {
	bullet := g.pick([]string{"- ", "* ", "+ ", "#. ", "1. ", "(a) "})
	sub := ind + strings.Repeat(" ", len(bullet))
	for i, n := 0, 1+g.r.IntN(3); i < n; i++ {
		if i > 0 {
			g.blank()
		}
		if g.chance(0.5) {
			// The item starts with a node on the bullet's line.
			mark := len(g.out)
			g.node(sub, d+1)
			g.out[mark] = ind + bullet + strings.TrimPrefix(g.out[mark], sub)
			continue
		}
		g.emit(ind, bullet+g.words(2, 6))
		g.blank()
		g.blocks(sub, d+1, 1+g.r.IntN(2))
	}
}

func (g *genFile) defList(ind string, d int) {
	for i, n := 0, 1+g.r.IntN(2); i < n; i++ {
		if i > 0 {
			g.blank()
		}
		g.emit(ind, g.words(1, 3))
		g.blocks(ind+g.step(), d+1, 1+g.r.IntN(2))
	}
}

func (g *genFile) fieldList(ind string, d int) {
	g.emit(ind, ":"+g.pick(genWords)+": "+g.words(1, 3))
	g.blank()
	g.blocks(ind+g.step(), d+1, 1+g.r.IntN(2))
}

func (g *genFile) blockQuote(ind string, d int) {
	g.para(ind)
	g.blank()
	g.blocks(ind+strings.Repeat(" ", 1+g.r.IntN(6)), d+1, 1+g.r.IntN(2))
}

func (g *genFile) gridTable(ind string, d int) {
	sub := &genFile{r: g.r, tag: g.tag, n: g.n, ids: g.ids, trap: g.trap}
	sub.node("", 4) // no body: keeps the cell small
	if g.chance(0.5) {
		sub.blank()
		sub.para("")
	}
	g.n, g.ids, g.trap = sub.n, sub.ids, sub.trap
	w := 0
	for _, l := range sub.out {
		w = max(w, len(l))
	}
	rule := "+" + strings.Repeat("-", w+2) + "+"
	g.emit(ind, rule)
	for _, l := range sub.out {
		g.emit(ind, "| "+l+strings.Repeat(" ", w-len(l))+" |")
	}
	g.emit(ind, rule)
}

// generateTree returns n files (path -> bytes) made from seed.
func generateTree(seed uint64, n int) map[string][]byte {
	r := rand.New(rand.NewPCG(seed, 0x5e6d1ff))
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		g := &genFile{r: r, tag: fmt.Sprintf("G%d", i)}
		if g.chance(0.5) {
			t := g.words(2, 4)
			g.emit("", t)
			g.emit("", strings.Repeat("=", len(t)))
			g.blank()
		}
		g.blocks("", 0, 6+g.r.IntN(8))
		lines := g.out
		if g.chance(0.15) {
			// Leading runs of 8 spaces become tabs: the same columns.
			for k, l := range lines {
				sp := len(l) - len(strings.TrimLeft(l, " "))
				lines[k] = strings.Repeat("\t", sp/8) + l[sp/8*8:]
			}
		}
		eol := "\n"
		switch k := g.r.IntN(10); {
		case k < 2:
			eol = "\r\n"
		case k < 3:
			eol = "\r"
		}
		text := strings.Join(lines, eol) + eol
		if g.chance(0.1) {
			text = "\ufeff" + text
		}
		name := fmt.Sprintf("f%02d.rst", i)
		if i%5 == 4 {
			name = path.Join(fmt.Sprintf("d%d", i%3), name)
		}
		files[name] = []byte(text)
	}
	return files
}

// TestDifferentialDir compares seg with docutils on any tree, node by node:
// SEG_DIFF_DIR=path go test ./parser -run DifferentialDir. It skips
// without SEG_DIFF_DIR. A way to check seg against your own documentation
// (parser/testdata/docutils/seed.py plants seg directives in a copy of a
// tree that has none).
func TestDifferentialDir(t *testing.T) {
	root := os.Getenv("SEG_DIFF_DIR")
	if root == "" {
		t.Skip("SEG_DIFF_DIR is not set")
	}
	recs, _ := runDump(t, root)
	want := byFile(recs)
	got, _, err := check.ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var dis []string
	nodes := 0
	for _, f := range got {
		nodes += len(f.Nodes)
		dis = append(dis, compareNodes(f.Path, want[f.Path], f)...)
	}
	t.Logf("%d files, %d nodes", len(got), nodes)
	report(t, "ParseTree on "+root, dis)
}
