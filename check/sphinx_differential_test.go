package check

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sphinxDiscover is Sphinx's own discovery of a project's documents
// (sphinx.project.Project.discover, with the exclusions Sphinx's build
// environment hands it: exclude_patterns, templates_path and the HTML
// builder's html_static_path and html_extra_path), printed as the sorted
// file names of the documents found.
const sphinxDiscover = `
import json, os, sys
from sphinx.project import Project
srcdir = sys.argv[1]
ns = {}
exec(open(os.path.join(srcdir, "conf.py")).read(), ns)
suffix = ns.get("source_suffix", {".rst": "restructuredtext"})
if isinstance(suffix, str):
    suffix = {suffix: "restructuredtext"}
elif isinstance(suffix, (list, tuple)):
    suffix = {s: "restructuredtext" for s in suffix}
p = Project(srcdir, suffix)
exclude = ns.get("exclude_patterns", []) + ns.get("templates_path", []) + ns.get("html_static_path", []) + ns.get("html_extra_path", [])
docs = p.discover(exclude, ns.get("include_patterns", ["**"]))
print(json.dumps(sorted(p.doc2path(d, False) for d in docs)))
`

// sphinxPython is a python3 that imports Sphinx, "" when there is none
// (the test skips; SEG_REQUIRE_SPHINX=1 fails it instead, as CI sets).
func sphinxPython(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if err := exec.Command(p, "-c", "import sphinx.project").Run(); err == nil {
			return p
		}
	}
	if os.Getenv("SEG_REQUIRE_SPHINX") != "" {
		t.Fatal("no python3 with Sphinx (apt-get install python3-sphinx), and SEG_REQUIRE_SPHINX is set")
	}
	t.Skip("no python3 with Sphinx: apt-get install python3-sphinx")
	return ""
}

// TestSphinxDiscoveryDifferential holds the documents seg reads of a
// Sphinx project to those Sphinx itself finds, for conf.py settings that
// exercise its glob syntax, folder pruning, include_patterns and
// source_suffix.
func TestSphinxDiscoveryDifferential(t *testing.T) {
	py := sphinxPython(t)
	files := []string{
		"index.rst", "a.rst", "abc.rst", "axc.rst", "skip.rst", "x.draft.rst", "notes.txt", "page.md",
		"_build/b.rst", "_templates/t.rst", "_static/s.rst", "extra/e.rst",
		"drafts/d.rst", "drafts/deep/d.rst", "drafts.rst",
		"sub/skip.rst", "sub/a.rst", "sub/x.draft.rst", "sub/deep/z.rst", "sub/_sources/s.rst",
		"reqs/r.rst", "reqs/old/o.rst", "reqs/new/n.rst", "[lit].rst", "more/drafts/m.rst",
	}
	confs := []string{
		"exclude_patterns = ['_build', 'drafts/*', '**/skip.rst', '**.draft.rst']\ntemplates_path = ['_templates']\nhtml_static_path = ['_static']\n",
		"exclude_patterns = ['a?c.rst', 'sub/**', '[!r]*/old', 'reqs/old']\n",
		"include_patterns = ['index.rst', 'reqs/**', '**/a.rst']\nexclude_patterns = ['reqs/old']\n",
		"exclude_patterns = ['drafts', '*.rst']\n",
		"source_suffix = {'.rst': 'restructuredtext', '.txt': 'restructuredtext'}\nexclude_patterns = ['[[]lit].rst']\n",
		"source_suffix = ['.rst', '.md']\nexclude_patterns = ['sub/*']\n",
	}
	for i, conf := range confs {
		root := t.TempDir()
		tree := map[string]string{"conf.py": conf}
		for _, f := range files {
			tree[f] = "Text\n"
		}
		writeTree(t, root, tree)
		cmd := exec.Command(py, "-W", "ignore", "-c", sphinxDiscover, root)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("conf %d: sphinx: %v\n%s", i, err, stderr.String())
		}
		var want []string
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatalf("conf %d: sphinx printed %q", i, out)
		}
		l, err := List(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := l.Paths()
		// seg reads .md only as Sphinx's RST: MyST's are not seg's.
		var sphinxRST []string
		for _, w := range want {
			if !strings.HasSuffix(w, ".md") {
				sphinxRST = append(sphinxRST, w)
			}
		}
		// seg never reads _build (docs/format.md), whatever conf.py says.
		var segView []string
		for _, w := range sphinxRST {
			if !strings.HasPrefix(w, "_build/") {
				segView = append(segView, w)
			}
		}
		if diff := cmp.Diff(segView, got); diff != "" {
			t.Errorf("conf %d %q: documents (-sphinx +seg):\n%s", i, conf, diff)
		}
	}
}
