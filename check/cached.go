package check

import (
	"crypto/sha256"
	"sync/atomic"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// cached is the Parser through the parse cache: a file whose bytes hash
// to an entry's key is decoded, not parsed; a file parsed is stored.
type cached struct {
	c   *cache.Cache
	cfg *parser.Config
	// changed is set when a file's bytes are not what a scan of the tree
	// read: then a report of this run belongs to no version of the tree.
	changed atomic.Bool
	// compact: a file parsed is returned as its entry holds it
	// (Options.Compact).
	compact bool
}

func (p *cached) Parse(sf *source.File, sum *[32]byte, read func() ([]byte, error)) *parser.File {
	if sum != nil {
		if f := p.c.Lookup(sf, sum); f != nil {
			return f
		}
	}
	src, err := read()
	if err != nil {
		if sum != nil {
			p.changed.Store(true)
		}
		return ReadFailure(sf, err)
	}
	s := sha256.Sum256(src)
	switch {
	case sum == nil:
		if f := p.c.Lookup(sf, &s); f != nil {
			return f
		}
	case s != *sum:
		p.changed.Store(true)
	}
	f := parser.ParseFile(sf, src, p.cfg)
	if p.compact {
		return p.c.StoreCompact(&s, f, sf)
	}
	p.c.Store(&s, f)
	return f
}
