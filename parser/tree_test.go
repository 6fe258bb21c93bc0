package parser

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func node(id string) string { return ".. sreq:: x\n   :id: " + id + "\n" }

func TestListFilesLinkedRoot(t *testing.T) {
	real := t.TempDir()
	writeTree(t, real, map[string]string{"a.rst": node("A"), "sub/b.rst": node("B"), ".hidden/h.rst": node("H")})
	link := filepath.Join(t.TempDir(), "root-link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	want, _, err := ListFiles(real, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{link, link + string(filepath.Separator)} {
		got, _, err := ListFiles(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" || len(got) != 2 {
			t.Errorf("ListFiles(%q) (-real +link):\n%s", root, d)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"drafts", "drafts", true},
		{"drafts", "sub/drafts", false},
		{"**/drafts", "sub/drafts", true},
		{"**/drafts", "drafts", true},
		{"**/*.rst", "a/b/c.rst", true},
		{"a/**/c.rst", "a/c.rst", true},
		{"a/**/c.rst", "a/x/y/c.rst", true},
		{"a/*/c.rst", "a/x/y/c.rst", false},
		{"a/**", "a/x/y", true},
		{"[", "[", false},
	}
	for _, tt := range tests {
		if got := excluded([]string{tt.glob}, tt.path); got != tt.want {
			t.Errorf("excluded(%q, %q) = %v", tt.glob, tt.path, got)
		}
	}
}

// InTree says of every path what ListFiles says of the file there.
func TestInTreeIsListFiles(t *testing.T) {
	root := t.TempDir()
	paths := []string{"a.rst", "docs/b.rst", "docs/c.txt", ".hidden/d.rst", "docs/.e.rst", "_build/f.rst",
		"x/node_modules/g.rst", "vendor/h.rst", "drafts/i.rst", "docs/drafts/j.rst", "docs/k.rst.bak", "deep/er/l.rst",
		"docs/x_build/m.rst", "notes/n.rst"}
	files := map[string]string{}
	for _, p := range paths {
		files[p] = ""
	}
	writeTree(t, root, files)
	cfg := DefaultConfig()
	cfg.Exclude = []string{"drafts/**", "**/k.rst.bak", "notes"}
	listed, _, err := ListFiles(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, l := range listed {
		want[l.Path] = true
	}
	for _, p := range paths {
		if got := InTree(p, cfg); got != want[p] {
			t.Errorf("InTree(%q) = %v, ListFiles lists it: %v", p, got, want[p])
		}
	}
	if !want["a.rst"] || !want["deep/er/l.rst"] || !want["docs/x_build/m.rst"] || want["drafts/i.rst"] || want["notes/n.rst"] {
		t.Errorf("the listing is not what the test expects: %v", want)
	}
}
