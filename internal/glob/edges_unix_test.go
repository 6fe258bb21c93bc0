//go:build unix

package glob

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The edges every caller of Files shares (:source: entries, results
// globs, code paths): hidden names are walked only when the pattern names
// them, a link loop (through a folder or to itself) ends nothing and adds
// nothing, and a FIFO is not a file to read. The fixed part of a pattern
// (before its first wildcard) is a path, whose links are followed as any
// path's are; the walk below it follows none.
func TestFilesEdges(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/a.c", "src/.gen/h.c", "src/.x.c"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"src/up": "..", "src/self.c": "self.c"} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "src", "pipe.c"), 0o644); err != nil {
		t.Fatal(err)
	}
	for pattern, want := range map[string][]string{
		"src":            {"src/a.c"},
		"src/**/*.c":     {"src/a.c"},
		"src/*.c":        {"src/a.c"},
		"src/.gen/*.c":   {"src/.gen/h.c"},
		"src/**/.x.c":    {"src/.x.c"},
		"src/pipe.c":     nil,
		"src/self.c":     nil,
		"src/up":         nil,                // a link to a folder is not walked
		"src/up/src/*.c": {"src/up/src/a.c"}, // the fixed part is a path: its links are followed
	} {
		got, err := Files(Dir(dir), pattern)
		if err != nil {
			t.Errorf("%s: %v", pattern, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", pattern, diff)
		}
	}
}
