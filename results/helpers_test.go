package results

import (
	"github.com/seg-trace/seg/source"
)

// tfs holds every file the tests make positions in: made-up RST files
// whose lines are 100 bytes wide, and the results files they read.
var tfs = source.NewFileSet()

var rstFiles = map[string]*source.File{}

// pos is line and column of a made-up RST file.
func pos(file string, line, col int) source.Pos {
	f := rstFiles[file]
	if f == nil {
		f = tfs.Add(file, 0, source.Docutils)
		starts := make([]int32, 1000)
		for i := range starts {
			starts[i] = int32(i * 100)
		}
		f.SetLines(starts)
		rstFiles[file] = f
	}
	return f.Pos((line-1)*100 + col - 1)
}

// src is a results source whose file is in tfs.
func src(path string, data []byte) Source {
	s := BytesSource(path, data)
	s.File = tfs.Add(path, len(data), source.Newlines)
	return s
}

// where renders a position of tfs.
func where(p source.Pos) string { return tfs.Position(p).String() }

func withWitnesses(s Source, ids ...string) Source {
	s.Witnesses = ids
	return s
}
