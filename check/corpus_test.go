package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// corpus is a generated set of trees in the shapes real-world RST takes,
// each of which Sphinx builds without a word: seg must report no error
// and no warning on any of them, and read the nodes each holds (wantIDs),
// so that a tree read as empty is no pass.
var corpus = []struct {
	name    string
	files   map[string]string
	wantIDs []string
}{
	{
		name: "comments",
		files: map[string]string{
			"index.rst": "..\n   A comment block, with text\n   on two lines.\n\n" +
				".. This is a comment too.\n\n" +
				".. |sub| replace:: a substitution\n\n" +
				"Title\n=====\n\n" + node("C1") + "\n" +
				".. _label:\n\nText with |sub|.\n",
		},
		wantIDs: []string{"C1"},
	},
	{
		name: "templates-and-static",
		files: map[string]string{
			"docs/conf.py": "project = 'x'\ntemplates_path = ['_templates']\nhtml_static_path = ['_static']\n" +
				"exclude_patterns = ['_build', 'Thumbs.db', '.DS_Store', 'drafts/**']\n",
			"docs/index.rst": node("T1"),
			// Jinja in a template is no RST: Sphinx never reads it.
			"docs/_templates/autosummary/class.rst": "{{ fullname | escape | underline }}\n\n.. autoclass:: {{ objname }}\n   :members:\n\n" +
				".. sreq:: {{ x }}\n   :id: {{ id }}\n   :refines: {{ parent }}\n",
			"docs/_static/copied.rst": ".. sreq:: y\n   :id: bad id\n",
			"docs/drafts/wip.rst":     ".. sreq:: z\n   :id: T1\n", // a duplicate ID, excluded
		},
		wantIDs: []string{"T1"},
	},
	{
		name: "separate-projects",
		files: map[string]string{
			"docs/conf.py":    "extensions = []\n",
			"docs/index.rst":  node("P1"),
			"docs/other.rst":  ".. sreq:: x\n   :id: P2\n   :refines: P1\n",
			"README.rst":      ".. sreq:: x\n   :id: P1\n", // outside the source folder
			"tests/a/conf.py": "extensions = []\n",
			// Test projects that reuse the IDs and link to what is not
			// theirs: each is built on its own.
			"tests/a/index.rst": ".. sreq:: x\n   :id: P1\n   :refines: NOPE\n",
			"tests/b/conf.py":   "",
			"tests/b/index.rst": ".. sreq:: x\n   :id: P2\n",
		},
		wantIDs: []string{"P1", "P2"},
	},
	{
		name: "encodings",
		files: map[string]string{
			"conf.py":   "source_encoding = 'iso-8859-1'\n",
			"latin.rst": "Spr\xfcnge\n=======\n\n.. sreq:: \xdcbersicht\n   :id: E1\n",
			"le.rst":    utf16File("Überblick\n=========\n\n.. sreq:: x\n   :id: E2\n   :refines: E1\n", false),
			"be.rst":    utf16File(".. sreq:: y\n   :id: E3\n", true),
		},
		wantIDs: []string{"E1", "E2", "E3"},
	},
	{
		name: "source-suffix",
		files: map[string]string{
			"conf.py":   "source_suffix = {'.rst': 'restructuredtext', '.txt': 'restructuredtext', '.md': 'markdown'}\n",
			"index.rst": node("S1"),
			"notes.txt": ".. sreq:: x\n   :id: S2\n",
			"page.md":   "# Markdown\n\n.. sreq:: x\n   :id: bad id\n",
		},
		wantIDs: []string{"S1", "S2"},
	},
	{
		name: "sourcelink-copy",
		files: map[string]string{
			"seg.toml":         "sourcelink_suffix = \".txt\"\n",
			"index.rst.txt":    node("L1"),
			"sub/page.rst.txt": ".. sreq:: x\n   :id: L2\n   :refines: L1\n",
			"searchindex.txt":  ".. sreq:: x\n   :id: bad id\n",
		},
		wantIDs: []string{"L1", "L2"},
	},
	{
		name: "includes",
		files: map[string]string{
			"docs/conf.py":              "exclude_patterns = ['_includes/*', 'snippets']\n",
			"docs/index.rst":            ".. include:: _includes/reqs.inc\n\n.. include:: /snippets/part.rst\n   :start-after: .. cut-here\n\n.. include:: ../README.rst\n\n.. include:: <isonum.txt>\n\n.. include:: _includes/example.py\n   :code: python\n\n.. sreq:: top\n   :id: N1\n   :refines: N2, N3, N4\n",
			"docs/_includes/reqs.inc":   ".. sreq:: included\n   :id: N2\n",
			"docs/snippets/part.rst":    "Not read: before the cut.\n\n.. sreq:: x\n   :id: bad id\n\n.. cut-here\n\n.. sreq:: part\n   :id: N3\n",
			"docs/_includes/example.py": "# .. sreq:: x\n#    :id: bad id\n",
			"README.rst":                ".. sreq:: readme\n   :id: N4\n",
		},
		wantIDs: []string{"N1", "N2", "N3", "N4"},
	},
	{
		name: "include-patterns",
		files: map[string]string{
			"conf.py":       "include_patterns = ['index.rst', 'spec/**']\n",
			"index.rst":     node("I1"),
			"spec/a.rst":    ".. sreq:: x\n   :id: I2\n",
			"scratch/x.rst": ".. sreq:: x\n   :id: bad id\n",
		},
		wantIDs: []string{"I1", "I2"},
	},
	{
		// A ubproject.toml at the top and the Sphinx project in docs/,
		// whose conf.py reads it: docs/ is what Sphinx builds, not the
		// toml's folder (and not "another project").
		name: "ubproject-beside-docs",
		files: map[string]string{
			"ubproject.toml": "[needs]\ntypes = [{ directive = \"req\", title = \"Requirement\", prefix = \"R_\" }]\n",
			"docs/conf.py":   "extensions = [\"sphinx_needs\"]\nneeds_from_toml = \"../ubproject.toml\"\n",
			"docs/index.rst": ".. req:: A need\n   :id: R_UB1\n",
			"README.rst":     ".. req:: Not in the Sphinx project\n   :id: bad id\n",
		},
		wantIDs: []string{"R_UB1"},
	},
}

// TestCorpus holds seg to no error and no warning on every tree of the
// corpus, and on the sphinx-needs example the project ships.
func TestCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, c.files)
			checkClean(t, root, "", c.wantIDs, 0)
		})
	}
	t.Run("sphinx-needs-example", func(t *testing.T) {
		checkClean(t, filepath.Join("..", "examples", "needs"), "", nil, 5)
	})
}

// checkClean runs a check of root (with the config file explicit, when
// not "") and fails on any diagnostic, on a wanted ID the tree does not
// have, and on fewer than minFiles files read.
func checkClean(t *testing.T, root, explicit string, wantIDs []string, minFiles int) {
	t.Helper()
	tr, err := Open(root, explicit)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := tr.Run(Options{At: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), AllowEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Diagnostics {
		p := c.Files.Position(d.Span.Start)
		t.Errorf("%s: %s: %s [%s]", p, d.Code.Severity, d.Message, d.Code.Name)
	}
	var ids []string
	for _, f := range c.Parsed {
		for _, n := range f.Nodes {
			ids = append(ids, n.ID)
		}
	}
	for _, id := range wantIDs {
		if !slices.Contains(ids, id) {
			t.Errorf("node %s not read (read: %v)", id, ids)
		}
	}
	if n := len(tr.Listed().Files); n < minFiles {
		t.Errorf("%d files read, want at least %d", n, minFiles)
	}
}

// publicTrees are large public RST trees that are not traceability
// trees, as Debian's documentation packages ship them (Sphinx HTML
// builds' _sources copies), with the fewest documents each holds.
// exclude are the documents whose includes name files the package does
// not ship (a _sources copy holds documents only: CPython's .inc
// fragments, Sphinx's CHANGES and AUTHORS at its repository's root):
// seg rightly reports include-not-found on them.
var publicTrees = []struct {
	pkg, dir string
	min      int
	exclude  []string
}{
	{"python3.11-doc", "/usr/share/doc/python3.11/html/_sources", 450,
		[]string{"library/token.rst.txt", "library/venv.rst.txt"}},
	{"sphinx-doc", "/usr/share/doc/sphinx-doc/html/_sources", 80,
		[]string{"changes.rst.txt", "examples.rst.txt", "internals/authors.rst.txt", "internals/code-of-conduct.rst.txt"}},
}

// TestPublicRSTTrees: seg reports no error and no warning on CPython's
// and Sphinx's documentation, includes followed. The packages are
// installed by CI, which sets SEG_REQUIRE_RSTDOCS=1; without them the
// test skips.
func TestPublicRSTTrees(t *testing.T) {
	for _, p := range publicTrees {
		t.Run(p.pkg, func(t *testing.T) {
			if _, err := os.Stat(p.dir); err != nil {
				if os.Getenv("SEG_REQUIRE_RSTDOCS") != "" {
					t.Fatalf("%s is not installed (%v), and SEG_REQUIRE_RSTDOCS is set", p.pkg, err)
				}
				t.Skipf("%s is not installed", p.pkg)
			}
			conf := filepath.Join(t.TempDir(), "seg.toml")
			toml := "allow_empty = true\nsourcelink_suffix = \".txt\"\nexclude = [\"" + strings.Join(p.exclude, "\", \"") + "\"]\n"
			if err := os.WriteFile(conf, []byte(toml), 0o644); err != nil {
				t.Fatal(err)
			}
			checkClean(t, p.dir, conf, nil, p.min)
		})
	}
}
