package check

import (
	"bytes"
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
// not a regular file is an error (exit 2), as a config file is. last,
// when not nil, is what the last run of a live check read (and what this
// one read, once it returns).
func (t *Tree) readLock(fset *source.FileSet, last *lockMemo) (*pins.Lock, error) {
	name := filepath.Join(t.Root, pins.FileName)
	if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
		if last != nil {
			*last = lockMemo{}
		}
		return &pins.Lock{}, nil
	}
	data, err := cfgfile.Read(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, err)
	}
	sf := fset.Add(pins.FileName, len(data), source.Newlines)
	sf.SetSource(data, false)
	if last != nil && last.lock != nil && last.index == sf.Index() && bytes.Equal(last.data, data) {
		sf.SetLines(last.lines)
		return last.lock, nil
	}
	lock := pins.Read(sf, data, t.IsLink)
	if last != nil {
		*last = lockMemo{data: data, index: sf.Index(), lines: sf.Lines(), lock: lock}
	}
	return lock, nil
}

// lockMemo is the seg.lock a live check's last run read. A large tree
// pins hundreds of thousands of links, and reading them was most of what
// a run after an edit cost: a run whose seg.lock holds the same bytes,
// at the same place in its file set (so that every position in it is
// the same), takes the last run's pins, the very slice, which also tells
// the graph build at a glance that the pins are the last build's. The
// bytes are read and compared every run: an identity (size and times)
// would spare that, but not exactly.
type lockMemo struct {
	data  []byte
	index int
	lines []int32
	lock  *pins.Lock
}

// IsLink reports whether name is a link option of the tree: one of seg's,
// or a link type of its sphinx-needs project. seg.lock's LINK field takes
// these.
func (t *Tree) IsLink(name string) bool {
	switch name {
	case "refines", "verifies", "implements", "confirms", "witnesses", "excuses":
		return true
	}
	return t.Config.Needs.Link(name) != nil
}
