//go:build unix

package results

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	pathglob "github.com/seg-trace/seg/internal/glob"
)

// Results globs are internal/glob's, as :source: entries and code paths
// are (docs/results.md, "Finding the files"): a hidden folder is walked
// only when the pattern names it, a link to a file is a file, a link to
// a folder is not followed (so a link loop cannot make the walk endless),
// a FIFO is no results file, and a folder the pattern reaches that
// cannot be listed is an error, not a shorter list.
func TestLoadGlobsAsEveryPattern(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"build/a.xml", "build/.tox/h.xml", "build/sub/s.xml", "out/o.xml"} {
		full := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("<testsuite/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"build/link.xml": "a.xml",            // a link to a file
		"build/outdir":   "../out",           // a link to a folder
		"build/up":       "..",               // a link loop through folders
		"build/loop.xml": "loop.xml",         // a link to itself
		"build/gone.xml": "nowhere/gone.xml", // a dangling link
	} {
		if err := os.Symlink(to, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "build", "fifo.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := func(patterns ...string) []string {
		t.Helper()
		srcs, _, err := Load(root, patterns, Source{})
		if err != nil {
			t.Fatalf("Load %q: %v", patterns, err)
		}
		var out []string
		for _, s := range srcs {
			out = append(out, s.Path)
		}
		return out
	}
	want := []string{"build/a.xml", "build/link.xml", "build/sub/s.xml"}
	if diff := cmp.Diff(want, paths("build/**/*.xml")); diff != "" {
		t.Errorf("build/**/*.xml (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"build/a.xml", "build/link.xml"}, paths("build/*.xml")); diff != "" {
		t.Errorf("build/*.xml (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"build/.tox/h.xml"}, paths("build/.tox/*.xml")); diff != "" {
		t.Errorf("a hidden folder the pattern names (-want +got):\n%s", diff)
	}
	// A FIFO named by its path is refused, not opened: it would block.
	if _, _, err := Load(root, []string{"build/fifo.xml"}, Source{}); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("a FIFO: %v, want an error that names it", err)
	}

	old := resultsTree
	resultsTree = func(dir string) pathglob.Tree { return lockedTree{pathglob.Dir(dir), "sub"} }
	defer func() { resultsTree = old }()
	_, _, err := Load(root, []string{"build/**/*.xml"}, Source{})
	var ue *pathglob.UnreadableError
	if !errors.As(err, &ue) {
		t.Errorf("a folder that cannot be listed: %v, want an error", err)
	}
}

// lockedTree cannot list the folders named bad.
type lockedTree struct {
	pathglob.Tree
	bad string
}

func (b lockedTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	return b.Tree.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() && d.Name() == b.bad {
			fn(p, d, nil)
			return fn(p, d, fs.ErrPermission)
		}
		return fn(p, d, err)
	})
}
