package cache

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The payload of an entry is a compact binary encoding of one
// *parser.File. Every integer is a varint; every string is a uvarint length
// and its bytes; every slice is a uvarint count plus one, 0 meaning nil (so
// nil and empty slices survive the trip: go-cmp tells them apart and so
// might a caller). Every position of a parse is in its own file, so a
// position is only its offset, written as the difference from the
// previous one (offsets mostly grow, so most take a byte or two).
//
//	payload  = uvarint(options) uvarint(links) uvarint(related)  totals, for slab allocation
//	           slice(node) slice(diag) lines
//
// The file's path is not in the payload: it is in the entry's key, and a
// decoded File takes it from the FileSet's file.
//	node     = byte(Kind) string(Directive) string(ID) string(Title) pos(Pos)
//	           slice(option) string(Body) varint(Parent) byte(Broken)
//	           uint64-LE(Revision)
//	option   = string(Name) string(Value) pos(Pos) pos(ValuePos) slice(link)
//	link     = string(ID) byte(State) string(StateText) span string(Part) string(Condition)
//	diag     = string(Code) string(Message) string(Detail) span slice(related)
//	related  = span string(Message)
//	span     = pos(Start) pos(End)
//	pos      = uvarint(0) no position | uvarint(2) the file as a whole |
//	           uvarint(zigzag(offset - previous offset)<<1 | 1)
//	lines    = slice of uvarint(line start - previous line start): the
//	           file's line table, which positions are resolved with
//
// Decoding allocates one slab each for nodes, options, links, diagnostics
// and related places, and no string at all: strings are views of the
// entry's bytes, which are never written to after they were read.

var errCorrupt = errors.New("cache: corrupt entry")

type encoder struct {
	b    []byte
	file source.Pos // the file's whole position: every position must be in it
	last int64
	err  error
}

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) byte(v uint8)     { e.b = append(e.b, v) }

func (e *encoder) string(s string) {
	e.uvarint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// count writes a slice's length plus one, 0 for nil.
func count[T any](e *encoder, s []T) {
	if s == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(len(s)) + 1)
}

func (e *encoder) pos(p source.Pos) {
	switch {
	case !p.IsValid():
		e.uvarint(0)
	case !p.SameFile(e.file):
		e.err = errors.New("cache: a position outside the file")
	case !p.HasOffset():
		e.uvarint(2)
	default:
		off := int64(p.Offset())
		delta := off - e.last
		e.last = off
		e.uvarint((uint64(delta)<<1^uint64(delta>>63))<<1 | 1)
	}
}

func (e *encoder) span(s source.Span) {
	e.pos(s.Start)
	e.pos(s.End)
}

// appendFile appends the encoding of f to dst.
func appendFile(dst []byte, f *parser.File) ([]byte, error) {
	e := &encoder{b: dst, file: f.Source.Whole()}
	var nOpt, nLink, nRel int
	for _, ns := range [][]parser.Node{f.Nodes, f.Rejected} {
		for i := range ns {
			nOpt += len(ns[i].Options)
			for j := range ns[i].Options {
				nLink += len(ns[i].Options[j].Links)
			}
		}
	}
	for i := range f.Diagnostics {
		nRel += len(f.Diagnostics[i].Related)
	}
	e.uvarint(uint64(nOpt))
	e.uvarint(uint64(nLink))
	e.uvarint(uint64(nRel))
	e.nodes(f.Nodes)
	e.nodes(f.Rejected)
	count(e, f.Diagnostics)
	for i := range f.Diagnostics {
		d := &f.Diagnostics[i]
		e.string(d.Code.Name)
		e.string(d.Message)
		e.string(d.Detail)
		e.span(d.Span)
		count(e, d.Related)
		for j := range d.Related {
			e.span(d.Related[j].Span)
			e.string(d.Related[j].Message)
		}
	}
	count(e, f.Ignores)
	for i := range f.Ignores {
		ig := &f.Ignores[i]
		count(e, ig.Codes)
		for _, c := range ig.Codes {
			e.string(c)
		}
		e.string(ig.Reason)
		e.varint(int64(ig.Line))
		e.span(ig.Span)
	}
	var incl uint8
	if f.HasInclude {
		incl = 1
	}
	e.byte(incl)
	lines := f.Source.Lines()
	count(e, lines)
	prev := int32(0)
	for _, l := range lines {
		e.uvarint(uint64(l - prev))
		prev = l
	}
	return e.b, e.err
}

// nodes writes a list of nodes.
func (e *encoder) nodes(ns []parser.Node) {
	count(e, ns)
	for i := range ns {
		n := &ns[i]
		e.byte(uint8(n.Kind))
		e.string(n.Directive)
		e.string(n.ID)
		e.string(n.Title)
		e.pos(n.Pos)
		count(e, n.Options)
		for j := range n.Options {
			o := &n.Options[j]
			e.string(o.Name)
			e.string(o.Value)
			e.pos(o.Pos)
			e.pos(o.ValuePos)
			count(e, o.Links)
			for k := range o.Links {
				l := &o.Links[k]
				e.string(l.ID)
				e.byte(uint8(l.State))
				e.string(l.StateText)
				e.span(l.Span)
				e.string(l.Part)
				e.string(l.Condition)
			}
		}
		e.string(n.Body)
		e.varint(int64(n.Parent))
		if n.Broken {
			e.byte(1)
		} else {
			e.byte(0)
		}
		e.b = binary.LittleEndian.AppendUint64(e.b, n.Revision)
	}
}

type decoder struct {
	s    string // the payload, as a string sharing its bytes
	i    int
	sf   *source.File
	last int64
	bad  bool
	ar   *arena // where the slices come from
}

func (d *decoder) uvarint() uint64 {
	// Inline fast path for one- and two-byte varints, the common case.
	if d.i < len(d.s) {
		c := d.s[d.i]
		if c < 0x80 {
			d.i++
			return uint64(c)
		}
		if d.i+1 < len(d.s) && d.s[d.i+1] < 0x80 {
			d.i += 2
			return uint64(c&0x7f) | uint64(d.s[d.i-1])<<7
		}
	}
	var x uint64
	var shift uint
	for k := 0; k < binary.MaxVarintLen64; k++ {
		if d.i >= len(d.s) {
			break
		}
		c := d.s[d.i]
		d.i++
		if c < 0x80 {
			if k == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	d.bad = true
	d.i = len(d.s)
	return 0
}

func (d *decoder) uint64() uint64 {
	if len(d.s)-d.i < 8 {
		d.bad = true
		d.i = len(d.s)
		return 0
	}
	v := binary.LittleEndian.Uint64([]byte(d.s[d.i : d.i+8]))
	d.i += 8
	return v
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// int decodes a varint that must fit an int.
func (d *decoder) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.bad = true
	}
	return int(v)
}

func (d *decoder) byte() uint8 {
	if d.i >= len(d.s) {
		d.bad = true
		return 0
	}
	c := d.s[d.i]
	d.i++
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.i) {
		d.bad = true
		d.i = len(d.s)
		return ""
	}
	s := d.s[d.i : d.i+int(n)]
	d.i += int(n)
	return s
}

// count reads a slice count; ok false means nil. A count larger than the
// bytes left is corrupt (every element takes at least one byte), which
// also keeps a corrupt count from allocating much.
func (d *decoder) count() (n int, ok bool) {
	v := d.uvarint()
	if v == 0 {
		return 0, false
	}
	v--
	if v > uint64(len(d.s)-d.i) {
		d.bad = true
		d.i = len(d.s)
		return 0, false
	}
	return int(v), true
}

func (d *decoder) pos() source.Pos {
	v := d.uvarint()
	switch {
	case v == 0:
		return source.NoPos
	case v == 2:
		return d.sf.Whole()
	case v&1 == 0:
		d.bad = true
		return source.NoPos
	}
	u := v >> 1
	off := d.last + (int64(u>>1) ^ -int64(u&1))
	if off < 0 || off > source.MaxFileSize {
		d.bad = true
		return source.NoPos
	}
	d.last = off
	return d.sf.Pos(int(off))
}

func (d *decoder) span() source.Span {
	return source.Span{Start: d.pos(), End: d.pos()}
}

// slab hands out consecutive sub-slices of one allocation, each capped so
// that an append by a caller reallocates instead of writing over the
// next one.
type slab[T any] struct {
	s    []T
	next int
	bad  *bool
}

func (s *slab[T]) take(n int, ok bool) []T {
	if !ok {
		return nil
	}
	if n > len(s.s)-s.next {
		*s.bad = true
		return nil
	}
	out := s.s[s.next : s.next+n : s.next+n]
	s.next += n
	return out
}

// nodes reads a list of nodes, taking their options and
// links from the slabs; on bad input it sets d.bad.
func (d *decoder) nodes(opts *slab[parser.Option], links *slab[parser.Link]) []parser.Node {
	n, ok := d.count()
	if !ok {
		return nil
	}
	ns := carve(d.ar, &d.ar.nodes, n, 2048)
	for i := range ns {
		if d.bad {
			return nil
		}
		nd := &ns[i]
		nd.Kind = parser.Kind(d.byte())
		nd.Directive = d.string()
		nd.ID = d.string()
		nd.Title = d.string()
		nd.Pos = d.pos()
		nd.Options = opts.take(d.count())
		for j := range nd.Options {
			if d.bad {
				return nil
			}
			o := &nd.Options[j]
			o.Name = d.string()
			o.Value = d.string()
			o.Pos = d.pos()
			o.ValuePos = d.pos()
			o.Links = links.take(d.count())
			for k := range o.Links {
				if d.bad {
					return nil
				}
				l := &o.Links[k]
				l.ID = d.string()
				l.State = parser.State(d.byte())
				l.StateText = d.string()
				l.Span = d.span()
				l.Part = d.string()
				l.Condition = d.string()
			}
		}
		nd.Body = d.string()
		nd.Parent = d.int()
		switch d.byte() {
		case 0:
		case 1:
			nd.Broken = true
		default:
			d.bad = true
		}
		nd.Revision = d.uint64()
	}
	return ns
}

// decodeFile decodes a payload written by appendFile for the file sf of
// this run's FileSet, and sets sf's line table. The returned File's
// strings share b's memory: b must not be changed afterwards. Any
// inconsistency, including bytes left over, is an error; it never panics.
func decodeFile(b []byte, sf *source.File) (*parser.File, error) {
	return decodeFileIn(b, sf, noArena)
}

// decodeFileIn is decodeFile with the File's slices carved from ar's
// chunks.
func decodeFileIn(b []byte, sf *source.File, ar *arena) (*parser.File, error) {
	if len(b) == 0 {
		return nil, errCorrupt
	}
	d := &decoder{s: unsafe.String(&b[0], len(b)), sf: sf, ar: ar}
	bad := &d.bad
	total := func() int {
		v := d.uvarint()
		if v > uint64(len(b)) {
			d.bad = true
			return 0
		}
		return int(v)
	}
	opts := slab[parser.Option]{bad: bad}
	links := slab[parser.Link]{bad: bad}
	rels := slab[diag.Related]{bad: bad}
	nOpt, nLink, nRel := total(), total(), total()
	if d.bad {
		return nil, errCorrupt
	}
	opts.s = carve(ar, &ar.opts, nOpt, 4096)
	links.s = carve(ar, &ar.links, nLink, 4096)
	rels.s = carve(ar, &ar.rels, nRel, 1024)

	f := &parser.File{Path: sf.Name(), Source: sf}
	f.Nodes = d.nodes(&opts, &links)
	if f.Rejected = d.nodes(&opts, &links); len(f.Rejected) == 0 {
		f.Rejected = nil // as the parser leaves it
	}
	if d.bad {
		return nil, errCorrupt
	}
	if n, ok := d.count(); ok && !d.bad {
		f.Diagnostics = carve(ar, (*[]diag.Diagnostic)(&ar.diags), n, 1024)
		for i := range f.Diagnostics {
			if d.bad {
				return nil, errCorrupt
			}
			dg := &f.Diagnostics[i]
			code, ok := diag.Lookup(d.string())
			if !ok {
				return nil, errCorrupt
			}
			dg.Code = code
			dg.Message = d.string()
			dg.Detail = d.string()
			dg.Span = d.span()
			dg.Related = rels.take(d.count())
			for j := range dg.Related {
				dg.Related[j].Span = d.span()
				dg.Related[j].Message = d.string()
			}
		}
	}
	if n, ok := d.count(); ok && n > 0 && !d.bad {
		f.Ignores = make([]parser.Ignore, n)
		for i := range f.Ignores {
			ig := &f.Ignores[i]
			if nc, ok := d.count(); ok && !d.bad {
				ig.Codes = make([]string, nc)
				for j := range ig.Codes {
					ig.Codes[j] = d.string()
				}
			}
			ig.Reason = d.string()
			ig.Line = d.int()
			ig.Span = d.span()
			if d.bad {
				return nil, errCorrupt
			}
		}
	}
	switch d.byte() {
	case 0:
	case 1:
		f.HasInclude = true
	default:
		return nil, errCorrupt
	}
	var lines []int32
	if n, ok := d.count(); ok && !d.bad {
		lines = carve(ar, &ar.lines, n, 1<<16)
		prev := uint64(0)
		for i := range lines {
			prev += d.uvarint()
			if prev > source.MaxFileSize || i > 0 && prev <= uint64(lines[i-1]) {
				return nil, errCorrupt
			}
			lines[i] = int32(prev)
		}
	}
	if d.bad || d.i != len(d.s) || opts.next != nOpt || links.next != nLink || rels.next != nRel {
		return nil, errCorrupt
	}
	sf.SetLines(lines)
	return f, nil
}
