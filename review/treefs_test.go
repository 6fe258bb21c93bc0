package review

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/internal/glob"
)

// A commit's tree is a valid file system, and the :source: globs match in
// it what they match in the same files held by testing/fstest.
func TestCommitTree(t *testing.T) {
	names := []string{"src/a.c", "src/a-b.c", "src/a/b.c", "src/gen/x/y.c", "src/gen/z.h", "docs/i.rst", "top.c", ".hidden/h.c", "src/.dot.c"}
	blobs := map[string]string{}
	mfs := fstest.MapFS{}
	for i, n := range names {
		blobs[n] = string(rune('a' + i))
		mfs[n] = &fstest.MapFile{Mode: 0o644, Sys: blobs[n]}
	}
	ct := newCommitTree(blobs)
	if err := fstest.TestFS(ct, names...); err != nil {
		t.Fatal(err)
	}
	for _, pat := range []string{"src/*.c", "src/**/*.c", "src", "**/*.h", "*.c", "src/gen", "src/a?b.c", "src/[ab]/*.c", "nothing/*.c"} {
		for _, dir := range []string{".", "src"} {
			want, werr := glob.Files(glob.FS(mfs, dir), pat)
			got, gerr := glob.Files(glob.FS(ct, dir), pat)
			if d := cmp.Diff(want, got); d != "" || (werr == nil) != (gerr == nil) {
				t.Errorf("%s under %s: (-fstest +commitTree):\n%s\nerrors %v, %v", pat, dir, d, werr, gerr)
			}
		}
	}
	if fi, err := fs.Stat(ct, "src/gen/z.h"); err != nil || fi.Sys() != blobs["src/gen/z.h"] {
		t.Errorf("Stat: %v, %v; want the blob name as Sys", fi, err)
	}
}
