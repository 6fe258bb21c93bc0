package review

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// commitTree is the files of one commit as a file system for the :source:
// globs (glob.FS): names only, each file's blob name as its Sys, the
// folders made from the names. Its files read as empty: the blobs are
// read from git (catFile).
type commitTree struct {
	blobs map[string]string        // file name -> blob name
	dirs  map[string][]fs.DirEntry // folder name ("." for the top) -> entries, by name
}

func newCommitTree(blobs map[string]string) *commitTree {
	t := &commitTree{blobs: blobs, dirs: map[string][]fs.DirEntry{".": nil}}
	for name, blob := range blobs {
		dir := path.Dir(name)
		t.dirs[dir] = append(t.dirs[dir], entry{name: path.Base(name), sys: blob})
		// Each folder on the way up is listed in its parent once.
		for dir != "." {
			if _, listed := t.listed(dir); listed {
				break
			}
			parent := path.Dir(dir)
			t.dirs[parent] = append(t.dirs[parent], entry{name: path.Base(dir), dir: true})
			dir = parent
		}
	}
	for _, es := range t.dirs {
		slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return t
}

// listed reports whether the folder dir is listed in its parent (and
// makes its own list).
func (t *commitTree) listed(dir string) ([]fs.DirEntry, bool) {
	parent := path.Dir(dir)
	base := path.Base(dir)
	for _, e := range t.dirs[parent] {
		if e.IsDir() && e.Name() == base {
			return t.dirs[dir], true
		}
	}
	if _, ok := t.dirs[dir]; !ok {
		t.dirs[dir] = nil
	}
	return nil, false
}

func (t *commitTree) info(name string) (entry, bool) {
	if blob, ok := t.blobs[name]; ok {
		return entry{name: path.Base(name), sys: blob}, true
	}
	if _, ok := t.dirs[name]; ok {
		return entry{name: path.Base(name), dir: true}, true
	}
	return entry{}, false
}

func (t *commitTree) Open(name string) (fs.File, error) {
	e, ok := t.info(name)
	if !fs.ValidPath(name) || !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if e.dir {
		return &treeDir{treeFile: treeFile{e}, entries: t.dirs[name]}, nil
	}
	return &treeFile{e}, nil
}

func (t *commitTree) Stat(name string) (fs.FileInfo, error) {
	e, ok := t.info(name)
	if !fs.ValidPath(name) || !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return e, nil
}

func (t *commitTree) ReadDir(name string) ([]fs.DirEntry, error) {
	es, ok := t.dirs[name]
	if !fs.ValidPath(name) || !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return slices.Clone(es), nil
}

// entry is a file or folder of a commitTree, as fs.FileInfo and
// fs.DirEntry.
type entry struct {
	name string
	dir  bool
	sys  string
}

func (e entry) Name() string { return e.name }
func (e entry) Size() int64  { return 0 }
func (e entry) Mode() fs.FileMode {
	if e.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (e entry) ModTime() time.Time         { return time.Time{} }
func (e entry) IsDir() bool                { return e.dir }
func (e entry) Sys() any                   { return e.sys }
func (e entry) Type() fs.FileMode          { return e.Mode().Type() }
func (e entry) Info() (fs.FileInfo, error) { return e, nil }

type treeFile struct{ e entry }

func (f *treeFile) Stat() (fs.FileInfo, error) { return f.e, nil }
func (f *treeFile) Read([]byte) (int, error)   { return 0, io.EOF }
func (f *treeFile) Close() error               { return nil }

// treeDir is an open folder of a commitTree.
type treeDir struct {
	treeFile
	entries []fs.DirEntry
	read    int
}

func (d *treeDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.e.name, Err: fs.ErrInvalid}
}

func (d *treeDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.read:]
	if n <= 0 {
		d.read = len(d.entries)
		return slices.Clone(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.read += len(rest)
	return slices.Clone(rest), nil
}
