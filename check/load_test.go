package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/parser"
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
	cfg := parser.DefaultConfig()
	cfg.Exclude = []string{"drafts", "**/*.draft.rst", "outside/**"}
	files, _, err := ParseTree(root, &config.Config{Parser: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		s := f.Path
		for _, n := range f.Nodes {
			s += " " + n.ID
			if p := f.Position(n.Pos); p.Filename != f.Path {
				t.Errorf("%s: node position names %q", f.Path, p.Filename)
			}
		}
		for _, d := range f.Diagnostics {
			s += " !" + d.Code.Name
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
	first, _, err := ParseTree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, _, _ := ParseTree(root, nil)
		if diff := cmp.Diff(summarize(first), summarize(again)); diff != "" {
			t.Fatalf("run %d differs:\n%s", i, diff)
		}
	}
	for i := 1; i < len(first); i++ {
		if first[i-1].Path >= first[i].Path {
			t.Errorf("not sorted: %s before %s", first[i-1].Path, first[i].Path)
		}
	}
}

func TestParseTreeBadRoot(t *testing.T) {
	if _, _, err := ParseTree(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Error("no error for a missing root")
	}
	f := filepath.Join(t.TempDir(), "file.rst")
	os.WriteFile(f, nil, 0o644)
	if _, _, err := ParseTree(f, nil); err == nil {
		t.Error("no error for a root that is a file")
	}
}

// summarize renders files as their paths, node IDs with line and column,
// and diagnostics, for comparing two runs.
func summarize(files []*parser.File) []string {
	var out []string
	for _, f := range files {
		for _, n := range f.Nodes {
			out = append(out, f.Position(n.Pos).String()+" "+n.ID)
		}
		for _, d := range f.Diagnostics {
			out = append(out, f.Position(d.Span.Start).String()+" "+d.Code.Name+" "+d.Message)
		}
	}
	return out
}
