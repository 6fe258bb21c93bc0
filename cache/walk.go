package cache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/seg-trace/seg/parser"
)

// ListFiles returns the slash paths, relative to root and sorted, of the
// files parser.ParseTree would parse, and the Files of the folders it
// could not list. It is parser.ListFiles with only the paths.
func ListFiles(root string, cfg *parser.Config) (paths []string, early []*parser.File, err error) {
	list, early, err := parser.ListFiles(root, cfg)
	for _, l := range list {
		paths = append(paths, l.Path)
	}
	return paths, early, err
}

// errNotRegular is the parser's reason for not reading a FIFO, a device or
// a socket.
var errNotRegular = errors.New("not a regular file")

// readSource reads one listed file as parser.ParseTree does, with the same
// diagnostic when it cannot: a file that is not regular is not read
// (reading a FIFO could block the run). The bytes go into buf, grown as
// needed and returned for reuse: a warm run keeps no source, and fresh
// memory is what costs most on a busy machine.
func readSource(root string, l parser.Listed, buf []byte) ([]byte, *parser.File) {
	full := filepath.Join(root, filepath.FromSlash(l.Path))
	switch {
	case l.Type&fs.ModeSymlink != 0:
		st, err := os.Stat(full)
		if err == nil && !st.Mode().IsRegular() {
			err = errNotRegular
		}
		if err != nil {
			return buf, parser.Unreadable(l.Path, err)
		}
	case !l.Type.IsRegular():
		return buf, parser.Unreadable(l.Path, errNotRegular)
	}
	data, _, err := readFile(full, buf)
	if err != nil {
		return data, parser.Unreadable(l.Path, err)
	}
	return data, nil
}
