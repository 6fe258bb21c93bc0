package parser

import (
	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/source"
)

// parseString parses src as the file name of a new FileSet.
func parseString(name, src string, cfg *Config) *File {
	return parseBytes(name, []byte(src), cfg)
}

func parseBytes(name string, src []byte, cfg *Config) *File {
	sf := source.NewFileSet().Add(name, len(src), source.Docutils)
	return ParseFile(sf, src, cfg)
}

// at is the position of line and column (1-based) of f.
func at(f *File, line, col int) source.Pos {
	return f.Source.Pos(int(f.Source.Lines()[line-1]) + col - 1)
}

// spanAt is the span from l1:c1 to l2:c2 of f.
func spanAt(f *File, l1, c1, l2, c2 int) source.Span {
	return source.Span{Start: at(f, l1, c1), End: at(f, l2, c2)}
}

// posText makes cmp compare positions of f as file:line:col.
func posText(f *File) cmp.Option {
	return cmp.Transformer("Pos", func(p source.Pos) string { return f.Position(p).String() })
}
