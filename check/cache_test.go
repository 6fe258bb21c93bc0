package check

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
)

const sampleNode = ".. sreq:: Title\n   :id: %s\n   :refines: P\n\n   Body.\n"

func sampleTree() map[string]string {
	node := func(id string) string { return strings.Replace(sampleNode, "%s", id, 1) }
	return map[string]string{
		"a.rst":                        node("A-1"),
		"docs/b.rst":                   node("B-1") + "\n" + node("B 2"),
		"docs/deep/c.rst":              ".. test:: T\n   :id: T-1\n   :verifies: A-1 (suspect), B-1 (bogus)\n   :unknown: x\n",
		"docs/bad.rst":                 "\xff\xfe not UTF-8\n",
		"docs/empty.rst":               "",
		"docs/bom.rst":                 "\xef\xbb\xbf.. impl:: I\n   :id: I-1\r\n   :implements: A-1\r\n",
		".hidden/x.rst":                node("H-1"),
		"docs/.x.rst":                  node("H-2"),
		"_build/x.rst":                 node("H-3"),
		"docs/node_modules/x.rst":      node("H-4"),
		"vendor/x.rst":                 node("H-5"),
		"drafts/one/x.rst":             node("X-1"),
		"docs/gen/deep/er/x.rst":       node("X-2"),
		"notes.txt":                    "not rst",
		"docs/x.rst.bak":               "not rst",
		"docs/sub/same-name-dir.rst/y": "a folder named like a file",
	}
}

// specials adds what only a real file system has: links to a file and to
// a folder, a FIFO, a dangling link, a link loop.
func specials(t *testing.T, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // links need a privilege there
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("a.rst", filepath.Join(dir, "link-to-file.rst")))
	must(os.Symlink("docs", filepath.Join(dir, "link-to-dir")))
	must(os.Symlink("docs", filepath.Join(dir, "link-to-dir.rst")))
	must(os.Symlink("nowhere.rst", filepath.Join(dir, "dangling.rst")))
	must(os.Symlink("loop.rst", filepath.Join(dir, "loop.rst")))
	if mkfifo(filepath.Join(dir, "docs", "fifo.rst")) == nil {
		must(os.Symlink("docs/fifo.rst", filepath.Join(dir, "link-to-fifo.rst")))
	}
}

func sampleDir(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, sampleTree())
	return root
}

// openTree opens root with seg.toml's exclude set, or none.
func openTree(t *testing.T, root string, exclude bool) *Tree {
	t.Helper()
	cfg := parser.DefaultConfig()
	if exclude {
		cfg.Exclude = []string{"drafts/**", "docs/**/er"}
	}
	return &Tree{Root: root, Config: &config.Config{Parser: cfg}}
}

var at = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// everything renders a check: its files, nodes, diagnostics and verdicts,
// every position resolved.
func everything(c *Check) []string {
	out := summarize(c.Parsed)
	for _, d := range c.Diagnostics {
		out = append(out, fmt.Sprintf("diag %s %s %s", c.Files.Position(d.Span.Start), d.Code, d.Message))
	}
	for _, v := range c.Result.Verdicts {
		out = append(out, fmt.Sprintf("verdict %s %v %d", v.ID, v.Satisfied, len(v.Reasons)))
	}
	return out
}

// A run through the cache gives exactly what a run without it gives,
// cold and warm, whatever the configuration.
func TestCachedRunMatchesPlain(t *testing.T) {
	dir := sampleDir(t)
	specials(t, dir)
	for _, exclude := range []bool{false, true} {
		tr := openTree(t, dir, exclude)
		want, _, err := tr.Run(Options{At: at})
		if err != nil {
			t.Fatal(err)
		}
		base := t.TempDir()
		for run := range 3 {
			c := cache.Open(base, "test", tr.Config.Parser)
			got, st, err := tr.Run(Options{At: at, Cache: c})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(everything(want), everything(got)); diff != "" {
				t.Fatalf("run %d: the cache changed the result (-plain +cached):\n%s", run, diff)
			}
			if run > 0 && (st.Hits == 0 || st.Misses != 0) {
				t.Fatalf("run %d: a warm run parsed: %+v", run, st)
			}
		}
	}
}

// A cache inside the tree (or a tree inside the cache) is not used: the
// cache is never kept in the tree it checks.
func TestCacheInsideTreeIsNotUsed(t *testing.T) {
	dir := sampleDir(t)
	tr := openTree(t, dir, false)
	c := cache.Open(filepath.Join(dir, "cache"), "test", tr.Config.Parser)
	if _, st, err := tr.Run(Options{At: at, Cache: c}); err != nil || st.Written != 0 {
		t.Fatalf("%v %+v", err, st)
	}
	code, st, err := tr.RunReport(Options{At: at, Cache: c}, nil, io.Discard, func(*Check, io.Writer) (int, error) { return 0, nil })
	if err != nil || code != 0 || st.Written != 0 {
		t.Fatalf("%v %+v", err, st)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache")); err == nil {
		t.Fatal("the cache folder was made inside the tree")
	}
}

// runReport runs RunReport with a render that writes the check's summary,
// and says whether it rendered (false: the report was a stored one).
func runReport(t *testing.T, tr *Tree, c *cache.Cache, parts ...string) (string, bool) {
	t.Helper()
	var out bytes.Buffer
	rendered := false
	_, _, err := tr.RunReport(Options{At: at, Cache: c}, parts, &out, func(c *Check, w io.Writer) (int, error) {
		rendered = true
		_, err := io.WriteString(w, strings.Join(everything(c), "\n"))
		return 1, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), rendered
}

// A report is stored and served again for the same tree and parts, and
// any change to the tree (a file's bytes or name, a file added or made
// unreadable) or to the parts makes a new run.
func TestRunReportKey(t *testing.T) {
	dir := sampleDir(t)
	tr := openTree(t, dir, false)
	c := cache.Open(t.TempDir(), "test", tr.Config.Parser)
	first, rendered := runReport(t, tr, c, "check", "text")
	if !rendered {
		t.Fatal("a first run served a report")
	}
	again, rendered := runReport(t, tr, c, "check", "text")
	if rendered || again != first {
		t.Fatalf("an unchanged tree was run again (%v) or its stored report differs", rendered)
	}
	if _, rendered := runReport(t, tr, c, "check", "json"); !rendered {
		t.Fatal("other parts served the stored report")
	}
	step := func(what string) {
		t.Helper()
		if _, rendered := runReport(t, tr, c, "check", "text"); !rendered {
			t.Fatalf("%s: served the stored report", what)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(sampleNode, "%s", "A-2", 1)), 0o644)
	step("a file's bytes")
	os.Rename(filepath.Join(dir, "a.rst"), filepath.Join(dir, "a2.rst"))
	step("a file's name")
	os.WriteFile(filepath.Join(dir, "docs", "new.rst"), nil, 0o644)
	step("a file added")
	if runtime.GOOS != "windows" {
		os.Symlink("nowhere.rst", filepath.Join(dir, "dangling.rst"))
		step("an unreadable file")
	}
	tr2 := openTree(t, dir, true)
	if _, rendered := runReport(t, tr2, cache.Open(filepath.Dir(c.Dir()), "test", tr2.Config.Parser), "check", "text"); !rendered {
		t.Fatal("another configuration served the stored report")
	}
}

// A file that changes between the scan and its parse is parsed as it is
// now, and the run is marked changed, so no report of it is stored.
func TestFileChangedDuringRun(t *testing.T) {
	dir := sampleDir(t)
	tr := openTree(t, dir, false)
	c := cache.Open(t.TempDir(), "test", tr.Config.Parser)
	load := func(change func()) (*cached, []*parser.File) {
		sc, err := tr.scan()
		if err != nil {
			t.Fatal(err)
		}
		change()
		cp := &cached{c: c, cfg: tr.Config.Parser}
		return cp, loadTree(sc.files, sc.unlisted, cp, sc.sums)
	}
	write := func(id string) func() {
		return func() {
			os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(sampleNode, "%s", id, 1)), 0o644)
		}
	}
	// Cold: a.rst has no entry, so it is read for its parse, and is not
	// what the scan hashed.
	cp, files := load(write("A-9"))
	if !cp.changed.Load() || !hasID(files, "A-9") {
		t.Fatalf("cold: changed %v, A-9 parsed %v", cp.changed.Load(), hasID(files, "A-9"))
	}
	// Unchanged since the scan: nothing is marked.
	if cp, _ := load(func() {}); cp.changed.Load() {
		t.Fatal("an unchanged tree was seen to change")
	}
	// Warm: a.rst as the scan saw it has an entry, so the change made
	// after the scan is not seen in this run, which is then as good as a
	// run just before the change; the next run sees it.
	write("A-1")()
	load(func() {})
	cp, files = load(write("A-7"))
	if cp.changed.Load() || !hasID(files, "A-1") {
		t.Fatalf("warm: changed %v, A-1 served %v", cp.changed.Load(), hasID(files, "A-1"))
	}
	if cp, files := load(func() {}); cp.changed.Load() || !hasID(files, "A-7") {
		t.Fatal("the next run did not see the change")
	}
}

func hasID(files []*parser.File, id string) bool {
	for _, f := range files {
		for _, n := range f.Nodes {
			if n.ID == id {
				return true
			}
		}
	}
	return false
}
