package check

import (
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// compactPlain is Plain for Options.Compact: every parse is held as the
// parse cache holds it.
type compactPlain struct{ Config *parser.Config }

func (p compactPlain) Parse(sf *source.File, sum *[32]byte, read func() ([]byte, error)) *parser.File {
	return cache.Compact(Plain(p).Parse(sf, sum, read), sf)
}
