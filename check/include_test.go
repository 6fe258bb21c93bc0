package check

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// includeTree is a tree without a conf.py (so docutils' rules apply):
// includes of a .inc file, of a file in another folder that includes
// one beside it, slices by lines and by texts, a literal include, and an
// include docutils never runs (in a code block).
var includeTree = map[string]string{
	"index.rst": "Index\n=====\n\n.. include:: parts/a.inc\n\n" +
		".. note::\n\n   .. include:: ../other/b.txt\n      :start-after: .. begin\n      :end-before: .. stop\n\n" +
		".. include:: lines.txt\n   :start-line: 3\n   :end-line: -2\n\n" +
		".. include:: parts/code.py\n   :literal:\n\n" +
		".. code-block:: rst\n\n   .. include:: nowhere.inc\n\n" +
		".. sreq:: top\n   :id: TOP\n   :refines: A1, A2, B1, L1\n",
	"parts/a.inc":      ".. sreq:: a1\n   :id: A1\n\n.. include:: nested.inc\n\n.. include:: latin.inc\n   :encoding: latin-1\n",
	"parts/latin.inc":  ".. sreq:: Gr\xfc\xdfe\n   :id: A3\n",
	"parts/nested.inc": ".. sreq:: a2\n   :id: A2\n",
	"parts/code.py":    ".. sreq:: not rst\n   :id: bad id\n",
	"../other/b.txt":   ".. sreq:: cut\n   :id: bad id\n\n.. begin\n\n.. sreq:: b1\n   :id: B1\n\n.. stop\n\n.. sreq:: cut\n   :id: X2\n",
	"lines.txt":        ".. sreq:: x\n   :id: X3\n\n.. sreq:: l1\n   :id: L1\n\n.. sreq:: y\n   :id: X4\n",
}

// nodesAt are the IDs of a parse with the file and line each is at.
func nodesAt(t *testing.T, root string) []string {
	t.Helper()
	files, _, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		for _, d := range f.Diagnostics {
			t.Errorf("%s: %s: %s", f.Position(d.Span.Start), d.Code.Name, d.Message)
		}
		for _, n := range f.Nodes {
			p := f.Position(n.Pos)
			out = append(out, n.ID+" "+filepath.ToSlash(p.Filename)+":"+itoa(p.Line))
		}
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestIncludes: the nodes of included files are read, at their place in
// the included file, with the parts the options cut; what docutils does
// not parse as RST is not read.
func TestIncludes(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "docs")
	writeTree(t, root, includeTree)
	want := []string{"A1 parts/a.inc:1", "A2 parts/nested.inc:1", "A3 parts/latin.inc:1", "B1 ../other/b.txt:6", "L1 lines.txt:4", "TOP index.rst:23"}
	if diff := cmp.Diff(want, nodesAt(t, root)); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	// docutils, driven on the same tree, finds the same nodes in the same
	// files. Its lines in a cut include count from the cut (line 1 is the
	// line :start-after:'s text ends on, or :start-line:'s line): seg's
	// are the file's, which an editor opens at.
	docutilsView := []string{"A1 parts/a.inc:1", "A2 parts/nested.inc:1", "A3 parts/latin.inc:1", "B1 ../other/b.txt:3", "L1 lines.txt:1", "TOP index.rst:23"}
	if py := docutilsPython(t); py != "" {
		if diff := cmp.Diff(docutilsView, docutilsNodes(t, py, root)); diff != "" {
			t.Errorf("docutils (-want +got):\n%s", diff)
		}
	}
}

// TestIncludeDiagnostics: a missing file, a loop and a text not found are
// errors of the file that holds the include, with stable codes.
func TestIncludeDiagnostics(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"index.rst": ".. include:: missing.inc\n\n.. include:: loop.inc\n\n.. include:: text.inc\n   :start-after: nowhere\n",
		"loop.inc":  ".. sreq:: l\n   :id: LOOP\n\n.. include:: loop2.inc\n",
		"loop2.inc": ".. include:: loop.inc\n",
		"text.inc":  ".. sreq:: t\n   :id: T\n",
	})
	files, _, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		for _, d := range f.Diagnostics {
			got = append(got, f.Position(d.Span.Start).String()+" "+d.Code.Name+": "+d.Message)
		}
	}
	want := []string{
		"index.rst:1:14 include-not-found: cannot include missing.inc: no such file or directory",
		`index.rst:5:14 include-option: include of text.inc: :start-after: text "nowhere" not found`,
		"loop2.inc:1:14 include-cycle: include of loop.inc loops: index.rst → loop.inc → loop2.inc → loop.inc",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestIncludeSphinx: in a Sphinx project, an include path is relative to
// the document being built (also in an included file) or, from "/", to
// the source folder; a file the exclusions leave out is still included.
func TestIncludeSphinx(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"docs/conf.py":          "exclude_patterns = ['includes/*']\n",
		"docs/guide/page.rst":   ".. include:: /includes/a.rst\n\n.. sreq:: p\n   :id: P\n   :refines: A, B\n",
		"docs/includes/a.rst":   ".. sreq:: a\n   :id: A\n\n.. include:: b.rst\n",
		"docs/guide/b.rst":      ".. sreq:: b\n   :id: B\n",
		"docs/includes/b.rst":   ".. sreq:: wrong b\n   :id: bad id\n",
		"docs/guide/unused.inc": "",
	})
	// guide/b.rst is a document too: it is read once.
	want := []string{"A docs/includes/a.rst:1", "B docs/guide/b.rst:1", "P docs/guide/page.rst:3"}
	if diff := cmp.Diff(want, nodesAt(t, root)); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

// docutilsPython is a python3 with docutils, "" (the test skips that
// part) when there is none and SEG_REQUIRE_DOCUTILS is not set.
func docutilsPython(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if err := exec.Command(p, "-c", "import docutils").Run(); err == nil {
			return p
		}
	}
	if os.Getenv("SEG_REQUIRE_DOCUTILS") != "" {
		t.Fatal("no python3 with docutils, and SEG_REQUIRE_DOCUTILS is set")
	}
	t.Log("no python3 with docutils: the comparison with docutils is skipped")
	return ""
}

// docutilsScript registers sreq as a directive that records its :id:
// and where docutils says it is, and parses index.rst.
const docutilsScript = `
import json, os, sys
from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives
found = []
class Sreq(Directive):
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"id": directives.unchanged, "refines": directives.unchanged}
    def run(self):
        src, line = self.state_machine.get_source_and_line(self.lineno)
        found.append("%s %s:%d" % (self.options.get("id", ""), os.path.relpath(src, sys.argv[1]).replace(os.sep, "/"), line))
        return []
directives.register_directive("sreq", Sreq)
os.chdir(sys.argv[1])
publish_doctree(open("index.rst").read(), source_path=os.path.join(sys.argv[1], "index.rst"),
                settings_overrides={"report_level": 5, "halt_level": 5})
print(json.dumps(sorted(found)))
`

func docutilsNodes(t *testing.T, py, root string) []string {
	out, err := exec.Command(py, "-c", docutilsScript, root).Output()
	if err != nil {
		t.Fatalf("docutils: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("docutils output %q: %v", out, err)
	}
	return got
}
