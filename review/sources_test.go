package review

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/parser"
)

// lockedTree cannot list its folder bad.
type lockedTree struct {
	glob.Tree
	bad string
}

func (b lockedTree) WalkDir(name string, fn fs.WalkDirFunc) error {
	return b.Tree.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if p == b.bad && d != nil && d.IsDir() {
			fn(p, d, nil)
			return fn(p, d, fs.ErrPermission)
		}
		return fn(p, d, err)
	})
}

// Review resolves :source: entries with the check's resolver
// (check.SourceFiles), and a folder it cannot list is an error, not a
// revision worked out without the folder's files.
func TestReadSourcesUnreadableFolder(t *testing.T) {
	mfs := fstest.MapFS{"src/a.c": {Data: []byte("a")}, "src/locked/b.c": {Data: []byte("b")}}
	read := func(p string) ([]byte, string, error) { return mfs[p].Data, sha256Hex(mfs[p].Data), nil }
	entries := []parser.Link{{ID: "src"}}
	se, _, err := readSources(glob.FS(mfs, "."), entries, read)
	if err != nil || len(se) != 1 || len(se[0].Files) != 2 {
		t.Fatalf("a readable tree: %+v, %v", se, err)
	}
	_, _, err = readSources(lockedTree{glob.FS(mfs, "."), "src/locked"}, entries, read)
	var ue *glob.UnreadableError
	if !errors.As(err, &ue) {
		t.Errorf("a folder that cannot be listed: %v, want an *glob.UnreadableError", err)
	}
}
