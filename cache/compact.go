package cache

import (
	"sync"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// A parse points into the text it was parsed from: its IDs, titles and
// option values are substrings of the whole file, its bodies copies of
// their lines, its link entries carved from chunks with room to spare.
// A run that ends soon does not mind; a process that keeps every parse
// for as long as it runs (the language server) holds the whole tree's
// text that way. An entry of the cache holds a parse in one block of
// bytes, with every slice exactly as long as it needs to be: on a
// generated tree of 61,105 requirements, the parses decoded from the
// cache take 100 MB less than the parses they were made from.

// Compact returns f, the parse of sf, held as a cache entry holds it:
// equal to f, sharing no memory with the text f was parsed from. It
// returns f itself when f cannot be encoded (a position outside sf).
// It sets sf's line table again, to what it is.
func Compact(f *parser.File, sf *source.File) *parser.File {
	b, err := appendFile(nil, f)
	if err != nil || len(b) == 0 {
		return f
	}
	g, err := decodeFileIn(exact(b), sf, &compactArena)
	if err != nil {
		return f
	}
	return g
}

// StoreCompact is Store, and returns f as Compact does, from the entry
// it wrote (f itself when it could not be encoded).
func (c *Cache) StoreCompact(sum *[32]byte, f *parser.File, sf *source.File) *parser.File {
	k := c.key(f.Path, sum)
	data, err := encodeEntry(&k, f)
	if err != nil {
		return f
	}
	c.storeEntry(&k, data)
	g, err := decodeFileIn(exact(data[headerLen:len(data)-4]), sf, &compactArena)
	if err != nil {
		return f
	}
	return g
}

// exact is a copy of b with no room to spare (b grew by appending, with
// up to as much again unused, and what is decoded from it keeps it),
// from compactArena's chunks.
func exact(b []byte) []byte {
	c := carve(&compactArena, &compactArena.bytes, len(b), 1<<20)
	copy(c, b)
	return c
}

// arena hands out the memory of compacted parses from large chunks, one
// for each type, so that what a long-lived process keeps does not lie
// scattered among the garbage of the parses it was made from: parsed
// into spans shared with that garbage, a cold start of the language
// server on the 61,105-requirement tree left 50 MB of its heap unusable
// (against 18 MB when decoded from the cache) and its collector running
// at every edit under its memory limit. A chunk lives as long as one
// file carved from it does: a file parsed again leaves its earlier copy
// in the chunk until every file there has gone, at most one copy of
// each file of the tree. The arena with each set allocates every slice
// on its own.
type arena struct {
	each  bool
	mu    sync.Mutex
	bytes []byte
	nodes []parser.Node
	opts  []parser.Option
	links []parser.Link
	rels  []diag.Related
	diags []diag.Diagnostic
	lines []int32
}

// compactArena is where Compact and StoreCompact put their copies; a
// decoded cache entry's slices are each their own (noArena).
var (
	compactArena arena
	noArena      = &arena{each: true}
)

// carve returns n zero elements from the chunk *c of ar (a new chunk of
// size elements when it has no room), capped so that an append by the
// caller reallocates; a request over a quarter of a chunk, or one of an
// arena with each set, gets an allocation of its own.
func carve[T any](ar *arena, c *[]T, n, size int) []T {
	if ar.each || n > size/4 {
		return make([]T, n)
	}
	ar.mu.Lock()
	defer ar.mu.Unlock()
	if cap(*c)-len(*c) < n {
		*c = make([]T, 0, size)
	}
	l := len(*c)
	*c = (*c)[:l+n]
	return (*c)[l : l+n : l+n]
}
