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

func TestParseTree(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"b.rst":                   node("B"),
		"a.rst":                   node("A"),
		"sub/deep/c.rst":          node("C"),
		"sub/notes.txt":           node("TXT"),
		".hidden/h.rst":           node("H1"),
		".h.rst":                  node("H2"),
		"_build/x.rst":            node("X1"),
		"node_modules/x.rst":      node("X2"),
		"vendor/x.rst":            node("X3"),
		"sub/vendor/x.rst":        node("X4"),
		"drafts/d.rst":            node("D1"),
		"sub/deep/skip.draft.rst": node("D2"),
		"outside/o.rst":           node("O"),
	})
	// A link to a folder is not followed; a link to a file is read.
	if err := os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a.rst"), filepath.Join(root, "link-to-a.rst")); err != nil {
		t.Fatal(err)
	}
	// Unreadable files: a dangling link and a FIFO (reading it would block).
	if err := os.Symlink(filepath.Join(root, "nowhere.rst"), filepath.Join(root, "dangling.rst")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(root, "fifo.rst")); err != nil {
		t.Skip(err)
	}
	cfg := DefaultConfig()
	cfg.Exclude = []string{"drafts", "**/*.draft.rst", "outside/**"}
	files, err := ParseTree(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		s := f.Path
		for _, n := range f.Nodes {
			s += " " + n.ID
			if n.Pos.File != f.Path {
				t.Errorf("%s: node position names %q", f.Path, n.Pos.File)
			}
		}
		for _, d := range f.Diagnostics {
			s += " !" + d.Code
		}
		got = append(got, s)
	}
	want := []string{
		"a.rst A",
		"b.rst B",
		"dangling.rst !unreadable-file",
		"fifo.rst !unreadable-file",
		"link-to-a.rst A",
		"sub/deep/c.rst C",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseTreeDeterministic(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, n := range []string{"z", "m", "a", "q/b", "q/a", "Z", "é"} {
		files[n+".rst"] = node("N-" + n)
	}
	writeTree(t, root, files)
	first, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, _ := ParseTree(root, nil)
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("run %d differs:\n%s", i, diff)
		}
	}
	for i := 1; i < len(first); i++ {
		if first[i-1].Path >= first[i].Path {
			t.Errorf("not sorted: %s before %s", first[i-1].Path, first[i].Path)
		}
	}
}

// A root given as a link to a folder is that folder: the same files with
// the same paths (WalkDir alone does not follow the link it starts at, and
// such a root read no file and passed).
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

func TestParseTreeBadRoot(t *testing.T) {
	if _, err := ParseTree(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Error("no error for a missing root")
	}
	f := filepath.Join(t.TempDir(), "file.rst")
	os.WriteFile(f, nil, 0o644)
	if _, err := ParseTree(f, nil); err == nil {
		t.Error("no error for a root that is a file")
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
