package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/rules/metamodel"
)

var codeTree = map[string]string{
	"seg.toml": "[code]\npaths = [\"src/**\"]\n",
	"docs/r.rst": ".. sreq:: Brakes\n   :id: R-1\n\n.. sreq:: Stops\n   :id: R-2\n\n" +
		".. test:: Brake test\n   :id: TS-1\n   :verifies: R-1, R-2\n\n" +
		".. outcome:: Run\n   :id: OUT-1\n   :confirms: TS-1\n   :witnesses: src/a.c::R-1\n   :result: passed\n",
	"src/a.c":  "// req-Id: R-1\nint a;\n",
	"src/b.py": "# lobster-trace: R-2\n",
}

// A live check sees the implementations at code tags, and the text of an
// open buffer of a code file counts in place of the disk; what it gives
// is what a fresh check of the same text gives.
func TestLiveCodeTags(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, codeTree)
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l := tr.Live(check.Options{})
	c, err := l.Run(liveAt)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := c.Graph.Lookup("src/a.c::R-1"); !ok || n.Kind().String() != "implementation" {
		t.Fatalf("no implementation at the tag: %v", n)
	}
	r1, _ := c.Graph.Lookup("R-1")
	if v, _ := c.Result.Verdict(r1); v.Status.String() != "satisfied" {
		t.Errorf("R-1 is %s", v.Status)
	}
	_, want := fresh(t, root)
	if got := reports(t, c); got != want {
		t.Errorf("the live run differs from a fresh one:\n%s\nwant\n%s", got, want)
	}
	// Again with nothing changed: the same nodes, the graph patched.
	if c, err = l.Run(liveAt); err != nil {
		t.Fatal(err)
	}
	if got := reports(t, c); got != want {
		t.Errorf("the second live run differs")
	}
	if !check.Patched(l) {
		t.Error("the second run built the graph anew: the code tags' nodes were not handed on")
	}
	// A buffer that names R-2 instead: the implementation of R-1 is gone.
	l.SetText("src/a.c", []byte("// req-Id: R-2\nint a;\n"))
	if c, err = l.Run(liveAt); err != nil {
		t.Fatal(err)
	}
	_, had := c.Graph.Lookup("src/a.c::R-1")
	if _, has := c.Graph.Lookup("src/a.c::R-2"); had || !has {
		t.Error("the buffer's tag does not count")
	}
	writeFiles(t, root, map[string]string{"src/a.c": "// req-Id: R-2\nint a;\n"})
	if _, want = fresh(t, root); reports(t, c) != want {
		t.Error("the live run with the buffer differs from a fresh run of the saved file")
	}
}

// Through the cache, a code file whose identity is unchanged is not read
// again, and a changed one is.
func TestCodeTagsCached(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, codeTree)
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"src/a.c", "src/b.py"} {
		if err := os.Chtimes(filepath.Join(root, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	c := cache.Open(t.TempDir(), "test", nil)
	if c == nil {
		t.Skip("no cache for this build")
	}
	tr, err := check.Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	run := func() string {
		ck, _, err := tr.Run(check.Options{At: liveAt, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		return reports(t, ck)
	}
	first := run()
	// The memory answers: a file replaced behind the cache's back with
	// the same size and times would not be seen, so the memory is read.
	if second := run(); second != first {
		t.Errorf("a cached run differs:\n%s\nwant\n%s", second, first)
	}
	writeFiles(t, root, map[string]string{"src/a.c": "// req-Id: R-2 \nint a;\n"})
	if got := run(); !strings.Contains(got, "src/a.c::R-2") {
		t.Errorf("a changed file was not read again:\n%s", got)
	}
}

// An S-CORE tree is scanned whole by default, as S-CORE's linker scans
// it: not the documentation, not folders starting with "_" or "bazel-".
func TestCodeTagsSCORE(t *testing.T) {
	for _, tc := range []struct {
		marker map[string]string
		want   string
	}{
		// The folder of conf.py is the documentation tree.
		{map[string]string{"docs/conf.py": "extensions = [\"score_sphinx_bundle\"]\n"}, "src/a.cpp::R-1 tools/b.py::R-2"},
		// Without one, only the documents are left out.
		{map[string]string{"MODULE.bazel": "bazel_dep(name = \"score_docs_as_code\", version = \"1.0.0\")\n"}, "docs/more/e.py::R-3 src/a.cpp::R-1 tools/b.py::R-2"},
	} {
		marker := tc.marker
		root := t.TempDir()
		files := map[string]string{
			"docs/r.rst":          ".. sreq:: Brakes\n   :id: R-1\n\n.. sreq:: Stops\n   :id: R-2\n\n.. sreq:: Other\n   :id: R-3\n",
			"src/a.cpp":           "// req-Id: R-1\n",
			"tools/b.py":          "# req-traceability: R-2\n",
			"_build/c.py":         "# req-Id: R-3\n",
			"bazel-out/d.py":      "# req-Id: R-3\n",
			"notes.md":            "# req-Id: R-3\n",
			"docs/more/e.py":      "# req-Id: R-3\n",
			".github/workflow.sh": "# req-Id: R-3\n",
			// An S-CORE tree is checked against its metamodel, which
			// seg must find (metamodel-not-found otherwise).
			"seg.toml":          "[needs]\nmetamodel = \"mm/metamodel.yaml\"\n",
			"mm/metamodel.yaml": "needs_types:\n  feat_req:\n    title: Feature requirement\n    tags:\n      - requirement\n",
		}
		for k, v := range marker {
			files[k] = v
		}
		writeFiles(t, root, files)
		tr, err := check.Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		if !tr.ScansCode() {
			t.Fatalf("%v: not an S-CORE tree", marker)
		}
		c, _, err := tr.Run(check.Options{At: liveAt})
		if err != nil {
			t.Fatal(err)
		}
		var impls []string
		for n := range c.Graph.Nodes() {
			if n.Kind().String() == "implementation" {
				impls = append(impls, n.ID())
			}
		}
		if strings.Join(impls, " ") != tc.want {
			t.Errorf("%v: implementations %v", marker, impls)
		}
	}
}

// A MODULE.bazel that names score_docs_as_code only in a comment, or
// depends on another module whose name starts so, makes no S-CORE tree:
// its code is not scanned for S-CORE's tags (their comments would be
// evidence nobody wrote as such), as its metamodel is not looked for.
// One test decides both (metamodel.DependsOnDocsAsCode).
func TestCodeTagsNotSCORE(t *testing.T) {
	for _, module := range []string{
		"# bazel_dep(name = \"score_docs_as_code\", version = \"1.0.0\")\n",
		"bazel_dep(name = \"score_docs_as_code_tools\", version = \"1.0.0\")\n",
	} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"MODULE.bazel": module,
			"docs/r.rst":   ".. sreq:: Brakes\n   :id: R-1\n",
			"src/a.cpp":    "// req-Id: R-1\n",
		})
		tr, err := check.Open(root, "")
		if err != nil {
			t.Fatal(err)
		}
		if tr.ScansCode() || metamodel.Wanted(root, nil) {
			t.Errorf("%q: an S-CORE tree (scans code %v, metamodel wanted %v)", module, tr.ScansCode(), metamodel.Wanted(root, nil))
		}
	}
}
