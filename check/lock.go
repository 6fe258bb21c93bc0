package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// readLock reads seg.lock at the root (none: no pins). A seg.lock that is
// not a regular file is an error (exit 2), as a config file is.
func (t *Tree) readLock(fset *source.FileSet) (*pins.Lock, error) {
	name := filepath.Join(t.Root, pins.FileName)
	if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		return &pins.Lock{}, nil
	}
	data, err := cfgfile.Read(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, err)
	}
	sf := fset.Add(pins.FileName, len(data), source.Newlines)
	sf.SetSource(data, false)
	return pins.Read(sf, data, t.IsLink), nil
}

// IsLink reports whether name is a link option of the tree: one of seg's,
// or a link type of its sphinx-needs project. seg.lock's LINK field takes
// these.
func (t *Tree) IsLink(name string) bool {
	switch name {
	case "refines", "verifies", "implements", "confirms", "witnesses", "excuses":
		return true
	}
	return t.Config.Parser.Needs.Link(name) != nil
}
