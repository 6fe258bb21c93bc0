package parser_test

import (
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// parseFile parses src as the file name of a new FileSet.
func parseFile(name string, src []byte, cfg *parser.Config) *parser.File {
	sf := source.NewFileSet().Add(name, len(src), source.Docutils)
	return parser.ParseFile(sf, src, cfg)
}

// line is the line of p in f.
func line(f *parser.File, p source.Pos) int { return f.Position(p).Line }
