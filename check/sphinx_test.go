package check

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/config"
)

// ids are the IDs of the nodes a parse of the tree found, by file.
func treeIDs(t *testing.T, root string) map[string][]string {
	t.Helper()
	files, _, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range files {
		for _, d := range f.Diagnostics {
			t.Errorf("%s: %s: %s", f.Path, d.Code.Name, d.Message)
		}
		for _, n := range f.Nodes {
			out[f.Path] = append(out[f.Path], n.ID)
		}
	}
	return out
}

// TestListSphinxProject: the source folder of docs/conf.py is read, less
// what templates_path, html_static_path and exclude_patterns name (with
// Sphinx's glob syntax), less the folders with a conf.py of their own and
// the files outside the source folder, and --list-files says why of each.
func TestListSphinxProject(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"docs/conf.py": "templates_path = ['_templates']\nhtml_static_path = ['_static']\n" +
			"exclude_patterns = ['_build', 'drafts/*', '**/skip.rst']\n",
		"docs/index.rst":             node("A"),
		"docs/skip.rst":              node("B"), // "**/skip.rst" needs a folder before it
		"docs/sub/skip.rst":          node("X1"),
		"docs/_templates/layout.rst": node("X2"),
		"docs/_static/s.rst":         node("X3"),
		"docs/drafts/d.rst":          node("X4"),
		"docs/drafts/deep/d.rst":     node("X8"), // Sphinx prunes the folder drafts/deep: "drafts/*" names it
		"docs/more/drafts/d.rst":     node("C"),  // patterns are anchored at the source folder
		"docs/inner/conf.py":         "",
		"docs/inner/i.rst":           node("X5"),
		"tests/doc_test/a/conf.py":   "",
		"tests/doc_test/a/index.rst": node("X6"),
		"README.rst":                 node("X7"),
	})
	want := map[string][]string{"docs/index.rst": {"A"}, "docs/skip.rst": {"B"}, "docs/more/drafts/d.rst": {"C"}}
	if diff := cmp.Diff(want, treeIDs(t, root)); diff != "" {
		t.Errorf("nodes read (-want +got):\n%s", diff)
	}
	l, err := List(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := l.Write(&b); err != nil {
		t.Fatal(err)
	}
	wantList := `# source folder: docs (the folder of docs/conf.py)
# conf.py: docs/conf.py
# document suffixes: .rst
read docs/index.rst: in the Sphinx source folder docs
read docs/more/drafts/d.rst: in the Sphinx source folder docs
read docs/skip.rst: in the Sphinx source folder docs
skip README.rst: outside the Sphinx source folder docs (Sphinx does not read it)
skip docs/_static/s.rst: excluded by "_static" (exclude_patterns, templates_path or html_static_path of docs/conf.py)
skip docs/_templates/layout.rst: excluded by "_templates" (exclude_patterns, templates_path or html_static_path of docs/conf.py)
skip docs/drafts/d.rst: excluded by "drafts/*" (exclude_patterns, templates_path or html_static_path of docs/conf.py)
skip docs/drafts/deep/d.rst: excluded by "drafts/*" (exclude_patterns, templates_path or html_static_path of docs/conf.py)
skip docs/inner/i.rst: in another Sphinx project, docs/inner (it has its own conf.py): seg check docs/inner reads it
skip docs/sub/skip.rst: excluded by "**/skip.rst" (exclude_patterns, templates_path or html_static_path of docs/conf.py)
skip tests/doc_test/a/index.rst: in another Sphinx project, tests/doc_test/a (it has its own conf.py): seg check tests/doc_test/a reads it
`
	if diff := cmp.Diff(wantList, b.String()); diff != "" {
		t.Errorf("--list-files (-want +got):\n%s", diff)
	}
	wantNote := "left out 3 documents: 2 in 2 other Sphinx projects with a conf.py of their own (docs/inner, tests/doc_test/a; seg check docs/inner reads one); " +
		"1 outside the Sphinx source folder docs, which Sphinx does not read (include them from a document, or check their folder as its own root); seg check --list-files lists them"
	if got := l.Note(); got != wantNote {
		t.Errorf("note:\n got %s\nwant %s", got, wantNote)
	}
	for rel, want := range map[string]bool{
		"docs/new.rst": true, "docs/_templates/new.rst": false, "docs/inner/new.rst": false,
		"new.rst": false, "docs/new.txt": false, "docs/drafts/x.rst": false,
	} {
		if got := l.InTree(rel); got != want {
			t.Errorf("InTree(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestListIncludePatterns: include_patterns keeps only the documents it
// names; an excluded folder stays excluded whatever it says.
func TestListIncludePatterns(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"conf.py":         "include_patterns = ['index.rst', 'reqs/**']\nexclude_patterns = ['reqs/old']\n",
		"index.rst":       node("A"),
		"other.rst":       node("X1"),
		"reqs/r.rst":      node("B"),
		"reqs/old/o.rst":  node("X2"),
		"reqs/sub/r2.rst": node("C"),
	})
	want := map[string][]string{"index.rst": {"A"}, "reqs/r.rst": {"B"}, "reqs/sub/r2.rst": {"C"}}
	if diff := cmp.Diff(want, treeIDs(t, root)); diff != "" {
		t.Errorf("nodes read (-want +got):\n%s", diff)
	}
}

// TestListNoConfPy: a tree without a conf.py is read whole, less the
// folders that are Sphinx projects of their own.
func TestListNoConfPy(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"reqs/a.rst":     node("A"),
		"b.rst":          node("B"),
		"proj/conf.py":   "",
		"proj/index.rst": node("X"),
	})
	want := map[string][]string{"reqs/a.rst": {"A"}, "b.rst": {"B"}}
	if diff := cmp.Diff(want, treeIDs(t, root)); diff != "" {
		t.Errorf("nodes read (-want +got):\n%s", diff)
	}
	// Named as the root, the nested project is read.
	if diff := cmp.Diff(map[string][]string{"index.rst": {"X"}}, treeIDs(t, root+"/proj")); diff != "" {
		t.Errorf("the nested project as the root (-want +got):\n%s", diff)
	}
}

// TestListScore: in an S-CORE repository (MODULE.bazel depends on
// score_docs_as_code) the source folder is the source_dir of the docs()
// call in BUILD, "docs" when the call does not give one.
func TestListScore(t *testing.T) {
	for _, c := range []struct{ build, dir string }{
		{"load(\"@score_docs_as_code//:docs.bzl\", \"docs\")\n\ndocs(\n    data = [\"@x//:y\"],\n    source_dir = \"documentation\",\n)\n", "documentation"},
		{"docs(data = [])\n", "docs"},
	} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{
			"MODULE.bazel":            "bazel_dep(name = \"score_docs_as_code\", version = \"1.0\")\n",
			"BUILD":                   c.build,
			c.dir + "/index.rst":      node("A"),
			"other/index.rst":         node("X"),
			"docs_other/x/skip.rst":   node("X2"),
			c.dir + "/conf.py":        "extensions = ['score_sphinx_bundle']\n",
			c.dir + "/conf.py.before": "",
		})
		want := map[string][]string{c.dir + "/index.rst": {"A"}}
		if diff := cmp.Diff(want, treeIDs(t, root)); diff != "" {
			t.Errorf("%s: nodes read (-want +got):\n%s", c.dir, diff)
		}
	}
}

// utf16File is text in UTF-16 with a byte order mark.
func utf16File(text string, bigEndian bool) string {
	var b []byte
	if bigEndian {
		b = []byte{0xFE, 0xFF}
	} else {
		b = []byte{0xFF, 0xFE}
	}
	for _, u := range utf16.Encode([]rune(text)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}

// TestEncodings: a UTF-16 file with a byte order mark (either order) and
// a UTF-8 one with a BOM are read; conf.py's source_encoding decodes the
// rest (Latin-1 here), with positions and titles in the decoded text.
func TestEncodings(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"conf.py":   "# -*- coding: utf-8 -*-\nsource_encoding = 'latin-1'\n",
		"latin.rst": "Caf\xe9\n====\n\n.. sreq:: Gr\xfc\xdfe\n   :id: L1\n",
		"le.rst":    utf16File("Tête\n\n.. sreq:: x\n   :id: U1\n", false),
		"be.rst":    utf16File(".. sreq:: y 😀\n   :id: U2\n", true),
	})
	files, _, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		for _, d := range f.Diagnostics {
			t.Errorf("%s: %s: %s", f.Path, d.Code.Name, d.Message)
		}
		for _, n := range f.Nodes {
			got[n.ID] = n.Title + "@" + strings.TrimPrefix(f.Position(n.Pos).String(), f.Path+":")
		}
	}
	want := map[string]string{"L1": "Grüße@4:1", "U1": "x@3:1", "U2": "y 😀@1:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	// Without the declared encoding, Latin-1 is not UTF-8: an error; a
	// UTF-8 file with a BOM is read.
	writeTree(t, root, map[string]string{"conf.py": "source_encoding = 'utf-8-sig'\n",
		"bom.rst": "\xef\xbb\xbf.. sreq:: z\n   :id: U3\n"})
	files, _, _ = ParseTree(root, nil)
	for _, f := range files {
		switch f.Path {
		case "latin.rst":
			if len(f.Diagnostics) != 1 || f.Diagnostics[0].Code.Name != "invalid-encoding" {
				t.Errorf("latin.rst read as UTF-8: %v, want invalid-encoding", f.Diagnostics)
			}
		case "bom.rst":
			if len(f.Diagnostics) != 0 || len(f.Nodes) != 1 || f.Nodes[0].ID != "U3" {
				t.Errorf("bom.rst: %v %v, want U3", f.Diagnostics, f.Nodes)
			}
		}
	}
}

// TestSourcelinkSuffix: sourcelink_suffix reads a Sphinx HTML build's
// _sources folder, whose documents are NAME.rst.txt.
func TestSourcelinkSuffix(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"seg.toml":         "sourcelink_suffix = \".txt\"\n",
		"index.rst.txt":    node("A"),
		"sub/page.rst.txt": node("B"),
		"notes.txt":        node("X"),
		"plain.rst":        node("Y"),
	})
	cfg, err := config.Load(root, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := List(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"index.rst.txt", "sub/page.rst.txt"}, l.Paths()); diff != "" {
		t.Errorf("read (-want +got):\n%s", diff)
	}
	if _, err := config.Parse("seg.toml", []byte("sourcelink_suffix = \"txt\"\n")); err == nil || !strings.Contains(err.Error(), "not a file name suffix") {
		t.Errorf("sourcelink_suffix without its dot: %v", err)
	}
}

// TestListEnclosingProject: a root inside a repository's Sphinx source
// folder is read with that folder's exclusions, relative to it; outside
// a repository, nothing above the root is looked at.
func TestListEnclosingProject(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		"docs/conf.py":             "exclude_patterns = ['reqs/old', 'reqs/*.draft.rst']\n",
		"docs/reqs/a.rst":          node("A"),
		"docs/reqs/b.draft.rst":    node("X1"),
		"docs/reqs/old/o.rst":      node("X2"),
		"docs/reqs/sub/c.rst":      node("C"),
		"docs/reqs/sub/d.draft.rs": node("X3"),
	})
	want := map[string][]string{"a.rst": {"A"}, "sub/c.rst": {"C"}}
	if diff := cmp.Diff(want, treeIDs(t, repo+"/docs/reqs")); diff != "" {
		t.Errorf("nodes read (-want +got):\n%s", diff)
	}
	l, err := List(repo+"/docs/reqs", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Project; p == nil || p.Conf != "../conf.py" || p.Within != "reqs" {
		t.Errorf("project %+v, want ../conf.py with the root at reqs", p)
	}
	// The same tree outside a repository: read whole.
	if err := os.RemoveAll(repo + "/.git"); err != nil {
		t.Fatal(err)
	}
	want = map[string][]string{"a.rst": {"A"}, "b.draft.rst": {"X1"}, "old/o.rst": {"X2"}, "sub/c.rst": {"C"}}
	if diff := cmp.Diff(want, treeIDs(t, repo+"/docs/reqs")); diff != "" {
		t.Errorf("outside a repository (-want +got):\n%s", diff)
	}
}
