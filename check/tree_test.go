package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seg-trace/seg/parser"
)

// inTree, asked of a path, says what the walk of the tree lists: the
// language server asks it of a buffer not saved yet.
func TestInTreeIsTheWalk(t *testing.T) {
	root := t.TempDir()
	paths := []string{"a.rst", "docs/b.rst", "docs/c.txt", ".hidden/d.rst", "docs/.e.rst", "_build/f.rst",
		"x/node_modules/g.rst", "vendor/h.rst", "drafts/i.rst", "docs/drafts/j.rst", "docs/k.rst.bak", "deep/er/l.rst",
		"docs/x_build/m.rst", "notes/n.rst"}
	files := map[string]string{}
	for _, p := range paths {
		files[p] = ""
	}
	writeTree(t, root, files)
	cfg := parser.DefaultConfig()
	cfg.Exclude = []string{"drafts/**", "**/k.rst.bak", "notes"}
	listed, _, _, err := walkTree(root, cfg, func(p string) bool { return strings.HasSuffix(p, ".rst") })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, l := range listed {
		want[l.Path] = true
	}
	for _, p := range paths {
		if got := inTree(p, cfg); got != want[p] {
			t.Errorf("inTree(%q) = %v, the walk lists it: %v", p, got, want[p])
		}
	}
	if !want["a.rst"] || !want["deep/er/l.rst"] || !want["docs/x_build/m.rst"] || want["drafts/i.rst"] || want["notes/n.rst"] {
		t.Errorf("the listing is not what the test expects: %v", want)
	}
}

// A root given as a link to a folder lists what the folder holds: a walk
// that does not follow the link it starts at would list nothing, and pass.
func TestWalkLinkedRoot(t *testing.T) {
	real := t.TempDir()
	writeTree(t, real, map[string]string{"a.rst": "", "docs/b.rst": ""})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	isDoc := func(p string) bool { return strings.HasSuffix(p, ".rst") }
	want, _, _, err := walkTree(real, parser.DefaultConfig(), isDoc)
	if err != nil {
		t.Fatal(err)
	}
	got, _, _, err := walkTree(link, parser.DefaultConfig(), isDoc)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 2 || len(got) != len(want) || got[0].Path != want[0].Path || got[1].Path != want[1].Path {
		t.Errorf("through the link %v, the folder itself %v", got, want)
	}
}
