package glob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"src/*.c", "src/a.c", true},
		{"src/*.c", "src/sub/a.c", false}, // * never crosses a /
		{"src/**/*.c", "src/a.c", true},   // ** may be no segment
		{"src/**/*.c", "src/x/y/a.c", true},
		{"src/**", "src/x/y/a.c", true},
		{"**/*.c", "a.c", true},
		{"src/?.c", "src/ab.c", false},
		{"src/[ab].c", "src/b.c", true},
		{"src/[", "src/[", false}, // malformed: matches nothing
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b", "a/x/c", false},
	} {
		if got := Match(tc.pattern, tc.name); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestValid(t *testing.T) {
	for p, want := range map[string]bool{"src/*.c": true, "src/**": true, "src/[a-": false, `src\`: false} {
		if got := Valid(p); got != want {
			t.Errorf("Valid(%q) = %v, want %v", p, got, want)
		}
	}
}

// files is the tree both implementations of Tree are given: the same
// patterns must list the same files from a folder and from an fs.FS.
var files = []string{
	"root/src/a.c", "root/src/b.h", "root/src/sub/c.c", "root/src/.hidden/d.c",
	"root/src/.e.c", "root/docs/index.rst", "lib/x.c",
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	mapfs := fstest.MapFS{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		mapfs[f] = &fstest.MapFile{Data: []byte(f)}
	}
	cases := []struct {
		pattern string
		want    []string
	}{
		{pattern: "src/a.c", want: []string{"src/a.c"}},
		{pattern: "src", want: []string{"src/a.c", "src/b.h", "src/sub/c.c"}},
		{pattern: "src/", want: []string{"src/a.c", "src/b.h", "src/sub/c.c"}},
		{pattern: "src/*.c", want: []string{"src/a.c"}},
		{pattern: "src/**/*.c", want: []string{"src/a.c", "src/sub/c.c"}},
		{pattern: "**/*.c", want: []string{"src/a.c", "src/sub/c.c"}},
		{pattern: "src/.hidden/*.c", want: []string{"src/.hidden/d.c"}},
		{pattern: "src/.*.c", want: []string{"src/.e.c"}},
		{pattern: "../lib/*.c", want: []string{"../lib/x.c"}},
		{pattern: "../lib", want: []string{"../lib/x.c"}},
		{pattern: "src/nope.c", want: nil},
		{pattern: "nope/*.c", want: nil},
	}
	for _, tc := range cases {
		got, err := Files(Dir(filepath.Join(dir, "root")), tc.pattern)
		if err != nil {
			t.Errorf("Dir: Files(%q): %v", tc.pattern, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Dir: Files(%q) (-want +got):\n%s", tc.pattern, diff)
		}
		got, err = Files(FS(mapfs, "root"), tc.pattern)
		if err != nil {
			t.Errorf("FS: Files(%q): %v", tc.pattern, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("FS: Files(%q) (-want +got):\n%s", tc.pattern, diff)
		}
	}
	// Climbing out of an fs.FS names nothing.
	if got, _ := Files(FS(mapfs, "root"), "../../x/*.c"); got != nil {
		t.Errorf("a pattern above the FS's top matched %q", got)
	}
}

// A link to a file counts; a link to a folder is not walked.
func TestFilesLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"src/a.c", "src/sub/b.c"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"src/link.c": "a.c", "src/linkdir": "sub", "src/dangling.c": "nope.c"} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(Dir(dir), "src")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"src/a.c", "src/link.c", "src/sub/b.c"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// brokenTree is a tree one of whose folders cannot be listed.
type brokenTree struct {
	Tree
	bad string
}

func (b brokenTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	return b.Tree.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if p == b.bad && d != nil && d.IsDir() {
			fn(p, d, nil)
			return fn(p, d, fs.ErrPermission) // as filepath.WalkDir reports a folder it cannot read
		}
		return fn(p, d, err)
	})
}

// A folder that cannot be listed is reported beside the files found
// elsewhere: its files may match, and a caller that takes the list as
// whole would record code that is not there.
func TestFilesUnreadableFolder(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"src/a.c", "src/locked/b.c"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	tr := brokenTree{Dir(root), "src/locked"}
	files, err := Files(tr, "src")
	var ue *UnreadableError
	if !errors.As(err, &ue) || len(ue.Paths) != 1 || ue.Paths[0] != "src/locked" {
		t.Fatalf("Files: err %v, want an UnreadableError for src/locked", err)
	}
	if len(files) == 0 || files[0] != "src/a.c" {
		t.Errorf("Files: %q, want src/a.c among the files found", files)
	}
	if _, err := Files(Dir(root), "src/*.c"); err != nil {
		t.Errorf("a readable tree: %v", err)
	}
}
