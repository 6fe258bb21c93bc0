package parser

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// Token types of the line lexer. They start at 1: participle's lexer.EOF is
// -1, and a custom type equal to it would silently be taken as the end.
const (
	// tDirective is a seg directive, at its "..": its title and option
	// fields stay with the lexer (scanner.nodes, scanner.opts). Text that
	// holds no seg node (paragraphs, comments, literal blocks, other
	// markup) makes no token at all: the lexer has decided it, and a
	// token the grammar only skips cost participle a branch each (a third
	// of its time).
	tDirective lexer.TokenType = iota + 1
	// tBody starts the content of a node that holds other seg nodes.
	tBody
	// tEnd closes it.
	tEnd
)

var symbols = map[string]lexer.TokenType{
	"EOF":       lexer.EOF,
	"Directive": tDirective,
	"Body":      tBody,
	"End":       tEnd,
}

// lineDef is the participle lexer.Definition for RST. participle's own
// lexers cannot express indentation, so the whole block structure of RST is
// decided here, line by line, and the grammar only sees seg nodes.
type lineDef struct{}

func (lineDef) Symbols() map[string]lexer.TokenType { return symbols }

func (d lineDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexBytes(filename, b)
}

// LexBytes lexes with the default configuration; ParseFile builds its own
// scanner instead, to pass the project's configuration and to keep the
// scanner's diagnostics and line table.
func (lineDef) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	s := newScanner(source.NewFileSet().Add(filename, len(b), source.Docutils), b, DefaultConfig())
	s.run()
	return s, nil
}

func (lineDef) LexString(filename string, src string) (lexer.Lexer, error) {
	return lineDef{}.LexBytes(filename, []byte(src))
}

// line is one physical line of the file.
type line struct {
	start int32 // first byte of the line
	end   int32 // end of the text: the line break and trailing white space excluded
	cs    int32 // first byte that is not white space (end when blank)
	ind   int32 // column of cs, tabs expanded to 8 columns; -1 when blank
}

// block is a run of lines docutils would hand to a nested parser: lines
// lo..hi-1, whose indentation is measured from column b. When first >= 0,
// line lo only counts from byte first (the rest of a marker line, such as
// a list item's first line), and that text is taken to sit at column b.
type block struct {
	lo, hi int
	b      int
	first  int
}

// nodeInfo is what the builder needs of a seg directive besides its
// tokens: the line of its "..", and its fields, opts[opt:opt+nopt].
type nodeInfo struct {
	head, opt, nopt int
	name            [2]int // the directive name's bytes
	title, body     string
	// content is a need's whole content, nested nodes included, kept
	// only for a need without an ID or a title (see scanner.content).
	content string
	// end is the line after the node's block; child and next link the
	// nodes nested in its body (the first child, the next sibling; 0 for
	// none, as node 0 is never anyone's child), whose lines its body
	// leaves out.
	end, child, last, next int
	// mis are the option lines around the node that are not its options.
	mis []misplaced
}

// rejectedInfo is an outcome directive docutils rejects (a repeated
// option, a malformed option block): no token, no node, but its fields
// (rejectedOpts[opt:opt+nopt]) are read into File.Rejected.
type rejectedInfo struct {
	head, pos, opt, nopt int
	name                 [2]int // the directive name's offsets
	title                string
}

// lexDiag is a problem the lexer finds in a seg directive's block.
type lexDiag struct {
	code       *diag.Code
	msg        string
	detail     string
	start, end int     // byte offsets
	related    *[2]int // the first occurrence, for a duplicate
}

// scanner splits a file into lines and walks RST's block structure,
// emitting tokens. It is also the lexer.Lexer handed to participle.
type scanner struct {
	sf  *source.File
	src []byte
	// spaced is set when src is a copy of the file with VT and FF made
	// spaces (splitLines).
	spaced bool
	str    string // src as a string: values are substrings of it
	cfg    *Config
	lines  []line
	hint   int // the line lineOf found last

	fieldBuf []field // reused between directive headers
	// rejected are the outcomes docutils rejects, with their fields.
	rejected     []rejectedInfo
	rejectedOpts []field
	// nMain is the number of physical lines; lines after them are the
	// lines of table cells, which point into the same source.
	nMain int
	// nodes and opts describe the seg directives emitted, in order: where
	// each starts and its option fields.
	nodes []nodeInfo
	opts  []field

	toks     []token
	next     int
	scr      *scratch // where lines, toks, nodes and opts come from
	diags    []lexDiag
	ignores  []Ignore // the suppression comments (ignore.go)
	lowerBuf [64]byte
	// open is the index of the innermost node whose body is being read,
	// -1 at the top.
	open int
	// incl, when set, collects the include directives (Includes).
	incl *[]Include
	// sawInclude: the file has an include directive where docutils runs
	// it (File.HasInclude).
	sawInclude bool
}

func newScanner(sf *source.File, src []byte, cfg *Config) *scanner {
	s := &scanner{sf: sf, src: src, cfg: cfg, open: -1, scr: scratchPool.Get().(*scratch)}
	s.splitLines()
	return s
}

// scratch is the scanner's working memory that no parse result keeps:
// its line table, tokens, nodes and fields. A cold start parses thousands
// of files; reusing these from file to file (about a sixth of what a
// parse allocated) spares the collector and the fresh memory's page
// faults.
type scratch struct {
	lines []line
	toks  []token
	nodes []nodeInfo
	opts  []field
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// release gives the scanner's scratch back for the next file; the
// scanner is not used after.
func (s *scanner) release() {
	if s.scr == nil {
		return
	}
	clear(s.nodes) // their strings belong to the file's nodes
	*s.scr = scratch{lines: s.lines[:0], toks: s.toks[:0], nodes: s.nodes[:0], opts: s.opts[:0]}
	scratchPool.Put(s.scr)
	s.scr, s.lines, s.toks, s.nodes, s.opts = nil, nil, nil, nil, nil
}

// token is a token as the scanner keeps it: participle's lexer.Token
// (64 bytes, with a file name, line and column) is made only when
// participle reads it, as participle keeps its own copy of every token.
type token struct {
	typ lexer.TokenType
	off int32
}

// Next implements lexer.Lexer.
func (s *scanner) Next() (lexer.Token, error) {
	if s.next < len(s.toks) {
		t := s.toks[s.next]
		s.next++
		return lexer.Token{Type: t.typ, Pos: s.position(int(t.off))}, nil
	}
	return lexer.Token{Type: lexer.EOF, Pos: s.position(len(s.src))}, nil
}

// isWS is white space inside a line: docutils expands tabs to spaces, and
// every other ASCII white space character ends a line, but VT and FF,
// which splitLines has made spaces.
func isWS(c byte) bool { return c == ' ' || c == '\t' }

// trailingSpace is the length of the white space (Python's str.isspace,
// as docutils strips it) that ends t.
func trailingSpace(t []byte) int {
	n := len(t)
	for n > 0 {
		c := t[n-1]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == 0x1f {
				n--
				continue
			}
			break
		}
		r, w := utf8.DecodeLastRune(t[:n])
		if !unicode.IsSpace(r) && r != 0x1680 && !(r >= 0x2000 && r <= 0x200a) && r != 0x202f && r != 0x205f && r != 0x3000 {
			break
		}
		n -= w
	}
	return len(t) - n
}

// lineLimit is docutils' default line_length_limit (Sphinx keeps it): a
// file with a longer line is not parsed at all.
const lineLimit = 10000

// splitLines cuts the file where docutils does and measures indentation
// the way it does: only spaces and tabs indent, tabs to the next multiple
// of 8 columns, and trailing white space (Unicode's) does not count.
func (s *scanner) splitLines() {
	src := s.src
	n := bytes.Count(src, []byte{'\n'}) + 1
	if n < 16 {
		n = 16
	}
	s.lines = slices.Grow(s.scr.lines[:0], n)
	i := 0
	for {
		start := i
		j := i
		brk := 0
		for j < len(src) {
			// Eight bytes at a time while they are all printable ASCII
			// (0x20 to 0x7f): none can end the line. Subtracting 0x20
			// from each sets the top bit of the lowest byte under it.
			for j+8 <= len(src) {
				x := binary.LittleEndian.Uint64(src[j:])
				if ((x-0x2020202020202020)|x)&0x8080808080808080 != 0 {
					break
				}
				j += 8
			}
			if j >= len(src) {
				break
			}
			c := src[j]
			if c >= ' ' && c < utf8.RuneSelf || c == '\t' {
				j++
				continue
			}
			if c == '\v' || c == '\f' {
				// docutils' parser reads both as a space: the scanner
				// reads a copy of the file with spaces there (same
				// offsets), so every rule sees what docutils sees.
				if !s.spaced {
					s.src, s.spaced = bytes.Clone(s.src), true
					src = s.src
				}
				src[j] = ' '
				j++
				continue
			}
			if w := source.LineBreak(src, j, source.Docutils); w > 0 {
				brk = w
				break
			}
			j++
		}
		end := j - trailingSpace(src[start:j])
		col := 0
		cs := start
		for cs < end && isWS(src[cs]) {
			if src[cs] == '\t' {
				col = col/8*8 + 8
			} else {
				col++
			}
			cs++
		}
		ln := line{start: int32(start), end: int32(end), cs: int32(cs), ind: int32(col)}
		if cs == end {
			ln.ind = -1
		}
		s.lines = append(s.lines, ln)
		if brk == 0 {
			break
		}
		i = j + brk
		if i >= len(src) {
			break
		}
	}
	s.nMain = len(s.lines)
	starts := make([]int32, len(s.lines))
	for i, ln := range s.lines {
		starts[i] = ln.start
	}
	s.sf.SetLines(starts)
}

// tooLong returns the first line longer than docutils' limit, or -1.
func (s *scanner) tooLong() (int, int) {
	for li, ln := range s.lines[:s.nMain] {
		if 8*int(ln.end-ln.start) > lineLimit {
			if n := s.vcol(li, int(ln.end)); n > lineLimit {
				return li, n
			}
		}
	}
	return -1, 0
}

// position converts a byte offset to participle's position, with a 1-based
// byte column.
func (s *scanner) position(off int) lexer.Position {
	li := s.lineOf(off)
	return lexer.Position{Filename: s.sf.Name(), Offset: off, Line: li + 1, Column: off - int(s.lines[li].start) + 1}
}

// lineOf is the index of the line holding byte off. Offsets are mostly
// asked for in increasing order, so the last answer and the next lines are
// tried before a binary search.
func (s *scanner) lineOf(off int) int {
	for li := s.hint; li < s.hint+3 && li < s.nMain; li++ {
		if int(s.lines[li].start) <= off && (li+1 == s.nMain || off < int(s.lines[li+1].start)) {
			s.hint = li
			return li
		}
	}
	li := s.searchLine(off)
	s.hint = li
	return li
}

func (s *scanner) searchLine(off int) int {
	lo, hi := 0, s.nMain-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if int(s.lines[m].start) <= off {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// vcol is the column (tabs expanded, one column per character) of byte off
// in line li, as docutils counts after str.expandtabs.
func (s *scanner) vcol(li, off int) int {
	ln := s.lines[li]
	if ln.ind >= 0 && off == int(ln.cs) {
		return int(ln.ind)
	}
	col := 0
	p := int(ln.start)
	if ln.ind >= 0 && off >= int(ln.cs) {
		col, p = int(ln.ind), int(ln.cs)
	}
	for p < off {
		c := s.src[p]
		switch {
		case c == '\t':
			col = col/8*8 + 8
			p++
		case c < utf8.RuneSelf:
			col++
			p++
		default:
			_, w := utf8.DecodeRune(s.src[p:])
			col++
			p += w
		}
	}
	return col
}

// --- block views ---

func (s *scanner) virtual(bl block, i int) bool { return i == bl.lo && bl.first >= 0 }

func (s *scanner) blankAt(bl block, i int) bool {
	if s.virtual(bl, i) {
		return bl.first >= int(s.lines[i].end)
	}
	return s.lines[i].ind < 0
}

// rel is the indentation of line i inside bl; -1 for a blank line.
func (s *scanner) rel(bl block, i int) int {
	if s.blankAt(bl, i) {
		return -1
	}
	if s.virtual(bl, i) {
		return 0
	}
	return int(s.lines[i].ind) - bl.b
}

// textAt is the first byte of line i's text inside bl.
func (s *scanner) textAt(bl block, i int) int {
	if s.virtual(bl, i) {
		return bl.first
	}
	return int(s.lines[i].cs)
}

// acol is the column of byte off of line i in bl's own coordinates, which
// for the first line of a marker block is not its physical column.
func (s *scanner) acol(bl block, i, off int) int {
	if s.virtual(bl, i) {
		return bl.b + s.vcol(i, off) - s.vcol(i, bl.first)
	}
	return s.vcol(i, off)
}

func (s *scanner) lineText(bl block, i int) []byte {
	return s.src[s.textAt(bl, i):s.lines[i].end]
}

// firstKnown is docutils' get_first_known_indented: line i (already given
// as the rest of a marker line at offset first) plus the following lines
// that are blank or indented deeper than bl. The block's indentation is the
// least of those lines; untilBlank stops at the first blank line.
func (s *scanner) firstKnown(bl block, i, first int, untilBlank bool) block {
	end := i + 1
	b := -1
	for end < bl.hi {
		ln := s.lines[end]
		if ln.ind < 0 {
			if untilBlank {
				break
			}
			end++
			continue
		}
		if int(ln.ind) <= bl.b {
			break
		}
		if b < 0 || int(ln.ind) < b {
			b = int(ln.ind)
		}
		end++
	}
	if b < 0 {
		b = s.acol(bl, i, first)
	}
	return block{lo: i, hi: end, b: b, first: first}
}

// known is docutils' get_known_indented: a list item whose text starts at
// column col; following lines belong while blank or indented to col.
func (s *scanner) known(bl block, i, first, col int) block {
	end := i + 1
	for end < bl.hi {
		ln := s.lines[end]
		if ln.ind >= 0 && int(ln.ind) < col {
			break
		}
		end++
	}
	return block{lo: i, hi: end, b: col, first: first}
}

// indented is docutils' get_indented from line i: the lines that are blank
// or indented deeper than bl, measured from the least indentation.
func (s *scanner) indented(bl block, i int) block {
	end := i
	b := -1
	for end < bl.hi {
		r := s.rel(bl, end)
		if r == 0 {
			break
		}
		if r > 0 {
			ind := int(s.lines[end].ind)
			if b < 0 || ind < b {
				b = ind
			}
		}
		end++
	}
	if b < 0 {
		b = bl.b + 1
	}
	return block{lo: i, hi: end, b: b, first: -1}
}

// hasText reports whether a block holds any non-blank line.
func (s *scanner) hasText(bl block) bool {
	for i := bl.lo; i < bl.hi; i++ {
		if !s.blankAt(bl, i) {
			return true
		}
	}
	return false
}

// --- the body state machine ---

func (s *scanner) run() {
	s.str = string(s.src)
	// Tokens and nodes start at "..": size for them.
	n := bytes.Count(s.src, []byte(".. "))
	s.toks = slices.Grow(s.scr.toks[:0], 16+n)
	s.nodes = slices.Grow(s.scr.nodes[:0], n)
	s.opts = slices.Grow(s.scr.opts[:0], 2*n)
	top := block{lo: 0, hi: len(s.lines), b: 0, first: -1}
	s.body(top, true)
}

// body parses a block as a sequence of body elements, as docutils' Body
// state does. titles is docutils' match_titles: true only outside any
// nested construct.
func (s *scanner) body(bl block, titles bool) {
	i := bl.lo
	for i < bl.hi {
		r := s.rel(bl, i)
		if r < 0 {
			i++
			continue
		}
		if r > 0 { // block quote
			q := s.indented(bl, i)
			s.body(q, false)
			i = q.hi
			continue
		}
		n := s.element(bl, i, titles)
		if n <= i { // never loop forever, whatever the input
			n = i + 1
		}
		i = n
	}
}

// element parses the body element starting at line i (indentation 0 in bl)
// and returns the line after it. The order of the checks is docutils'.
func (s *scanner) element(bl block, i int, titles bool) int {
	p := s.textAt(bl, i)
	t := s.lineText(bl, i)
	if n, ok := bulletLen(t); ok {
		return s.listItem(bl, i, p+n)
	}
	if n, ok := s.enumerator(bl, i, t); ok {
		return s.listItem(bl, i, p+n)
	}
	if _, vs, ok := fieldMarker(t); ok {
		f := s.firstKnown(bl, i, p+vs, false)
		s.body(f, false)
		return f.hi
	}
	if n, ok := optionMarker(t); ok {
		f := s.firstKnown(bl, i, p+n, false)
		if s.hasText(f) {
			s.body(f, false)
			return f.hi
		}
	}
	if _, ok := prefixWS(t, ">>>"); ok { // doctest block
		e := s.textBlock(bl, i, false)
		s.hiddenInDoctest(bl, i, e)
		return e
	}
	if n, ok := prefixWS(t, "|"); ok { // line block
		f := s.firstKnown(bl, i, p+n, true)
		return f.hi
	}
	if gridTop(t) {
		return s.gridTable(bl, i)
	}
	if simpleTop(t) {
		return s.simpleTable(bl, i)
	}
	if n, ok := prefixWS(t, ".."); ok {
		return s.explicit(bl, i, p, n, titles)
	}
	if n, ok := prefixWS(t, "__"); ok { // anonymous target
		f := s.firstKnown(bl, i, p+n, true)
		return f.hi
	}
	if isLine(t) {
		if n := s.line(bl, i, titles); n > i {
			return n
		}
	}
	return s.text(bl, i, titles)
}

// prefixWS matches pre followed by spaces or the end of the text, and
// returns where the text after the spaces starts.
func prefixWS(t []byte, pre string) (int, bool) {
	if !bytes.HasPrefix(t, []byte(pre)) {
		return 0, false
	}
	n := len(pre)
	if n == len(t) {
		return n, true
	}
	if !isWS(t[n]) {
		return 0, false
	}
	for n < len(t) && isWS(t[n]) {
		n++
	}
	return n, true
}

func bulletLen(t []byte) (int, bool) {
	switch t[0] {
	case '-', '+', '*':
		return prefixWS(t, string(t[:1]))
	case 0xE2: // the first byte of each of the others
	default:
		return 0, false
	}
	for _, b := range []string{"\u2022", "\u2023", "\u2043"} {
		if n, ok := prefixWS(t, b); ok {
			return n, true
		}
	}
	return 0, false
}

// listItem is docutils' list_item: the item's text starts after the
// marker, and its indentation is fixed there unless the marker line holds
// nothing else.
func (s *scanner) listItem(bl block, i, after int) int {
	var it block
	if after < int(s.lines[i].end) {
		it = s.known(bl, i, after, s.acol(bl, i, after))
	} else {
		it = s.firstKnown(bl, i, after, false)
	}
	s.body(it, false)
	return it.hi
}

// textBlock is docutils' get_text_block: lines up to the first blank one;
// with flushLeft it also stops at an indented line.
func (s *scanner) textBlock(bl block, i int, flushLeft bool) int {
	j := i
	for j < bl.hi {
		r := s.rel(bl, j)
		if r < 0 || (flushLeft && r > 0) {
			break
		}
		j++
	}
	return j
}

// explicit handles a line starting with ".. ": footnotes, citations,
// targets, substitution definitions, directives, and otherwise comments.
// n is where the text after ".. " starts.
func (s *scanner) explicit(bl block, i, p, n int, titles bool) int {
	t := s.lineText(bl, i)
	rest := t[n:]
	if n > 2 && len(rest) > 0 {
		switch rest[0] {
		case '[':
			if m, ok := footnoteLabel(rest); ok {
				f := s.firstKnown(bl, i, p+n+m, false)
				s.body(f, false)
				return f.hi
			}
		case '_':
			if len(rest) > 1 && !isWS(rest[1]) {
				f := s.firstKnown(bl, i, p+n+1, true)
				return f.hi
			}
		case '|':
			if len(rest) > 1 && !isWS(rest[1]) {
				return s.substitution(bl, i, p+n+1)
			}
		}
		if ns, ne, after, ok := directiveName(rest); ok {
			return s.directive(bl, i, p, p+n+ns, p+n+ne, p+n+after, titles, false)
		}
	}
	// A comment. An empty one followed by a blank line holds nothing.
	if len(rest) == 0 && (i+1 >= bl.hi || s.blankAt(bl, i+1)) {
		return i + 1
	}
	f := s.firstKnown(bl, i, p+n, false)
	s.hiddenInComment(bl, i, p+n, i+1, f.hi)
	if n > 2 {
		s.ignoreComment(i, p+n, f.hi)
	}
	return f.hi
}

// footnoteLabel matches "[label]" of a footnote or citation followed by
// spaces or the end, returning where the text after it starts.
func footnoteLabel(t []byte) (int, bool) {
	j := bytes.IndexByte(t, ']')
	if j < 2 {
		return 0, false
	}
	label := t[1:j]
	ok := false
	switch {
	case allDigits(label), string(label) == "#", string(label) == "*":
		ok = true
	case label[0] == '#':
		ok = simpleName(label[1:]) == len(label)-1
	default:
		ok = simpleName(label) == len(label)
	}
	if !ok {
		return 0, false
	}
	n, ok := prefixWS(t[j:], "]")
	return j + n, ok
}

func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isWord is Python's \w without the underscore, as docutils' simplename
// uses it.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// simpleName returns the length of the longest docutils simplename at the
// start of t: words joined by single '-', '.', '_', '+' or ':'.
func simpleName(t []byte) int {
	n := 0
	i := 0
	for {
		start := i
		for i < len(t) {
			r, w := utf8.DecodeRune(t[i:])
			if !isWord(r) {
				break
			}
			i += w
		}
		if i == start {
			return n
		}
		n = i
		if i+1 < len(t) && bytes.IndexByte([]byte("-._+:"), t[i]) >= 0 {
			r, _ := utf8.DecodeRune(t[i+1:])
			if isWord(r) {
				i++
				continue
			}
		}
		return n
	}
}

// directiveName matches "name::" (one optional space before "::") followed
// by spaces or the end, in the text after ".. ".
func directiveName(t []byte) (ns, ne, after int, ok bool) {
	ne = simpleName(t)
	if ne == 0 {
		return 0, 0, 0, false
	}
	j := ne
	if j < len(t) && t[j] == ' ' {
		j++
	}
	m, ok := prefixWS(t[j:], "::")
	if !ok {
		return 0, 0, 0, false
	}
	return 0, ne, j + m, true
}

// fieldMarker matches docutils' field marker ":name: " and returns the end
// of the name (the closing colon) and where the value starts.
func fieldMarker(t []byte) (nameEnd, valueStart int, ok bool) {
	if len(t) < 3 || t[0] != ':' || t[1] == ':' || isWS(t[1]) {
		return 0, 0, false
	}
	i := 1
	for i < len(t) {
		switch c := t[i]; c {
		case '\\':
			if i+1 >= len(t) {
				return 0, 0, false
			}
			i += 2
			continue
		case ':':
			if i+1 == len(t) || isWS(t[i+1]) {
				if isWS(t[i-1]) {
					return 0, 0, false
				}
				n, _ := prefixWS(t[i:], ":")
				return i, i + n, true
			}
			if t[i+1] == '`' {
				return 0, 0, false
			}
		}
		i++
	}
	return 0, 0, false
}

// optionMarker matches the start of an option list item ("-a  text",
// "--long=ARG  text", "/V  text"), returning where its description starts.
func optionMarker(t []byte) (int, bool) {
	c := t[0]
	if c != '-' && c != '+' && c != '/' {
		return 0, false
	}
	var failed map[int]bool
	return optionList(t, 0, &failed)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
func isAlpha(c byte) bool     { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnumPlus(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// optArg returns the end of an option argument at i, or -1.
func optArg(t []byte, i int) int {
	if i >= len(t) {
		return -1
	}
	if isAlpha(t[i]) {
		i++
		for i < len(t) && isAlnumPlus(t[i]) {
			i++
		}
		return i
	}
	if t[i] == '<' {
		j := i + 1
		for j < len(t) && t[j] != '<' && t[j] != '>' {
			j++
		}
		if j < len(t) && t[j] == '>' && j > i+1 {
			return j + 1
		}
	}
	return -1
}

// option returns the possible ends of one option at i, longest first, as
// the regular expression's backtracking would try them.
func option(t []byte, i int) []int {
	var ends []int
	if i+1 < len(t) && (t[i] == '-' || t[i] == '+') && isAlnum(t[i+1]) {
		e := i + 2
		if j := optArg(t, e); j > 0 {
			ends = append(ends, j)
		}
		if e < len(t) && t[e] == ' ' {
			if j := optArg(t, e+1); j > 0 {
				ends = append(ends, j)
			}
		}
		ends = append(ends, e)
	}
	if i < len(t) && (t[i] == '/' || (t[i] == '-' && i+1 < len(t) && t[i+1] == '-')) {
		j := i + 1
		if t[i] == '-' {
			j++
		}
		if j < len(t) && isAlnum(t[j]) {
			j++
			for j < len(t) && isAlnumPlus(t[j]) {
				j++
			}
			if j < len(t) && (t[j] == ' ' || t[j] == '=') {
				if k := optArg(t, j+1); k > 0 {
					ends = append(ends, k)
				}
			}
			ends = append(ends, j)
		}
	}
	return ends
}

// optionList matches options separated by ", " from i, then the gap
// before the description. failed memoizes the positions from which no
// match exists, so backtracking stays linear.
func optionList(t []byte, i int, failed *map[int]bool) (int, bool) {
	if (*failed)[i] {
		return 0, false
	}
	for _, e := range option(t, i) {
		if e+1 < len(t) && t[e] == ',' && t[e+1] == ' ' {
			if n, ok := optionList(t, e+2, failed); ok {
				return n, true
			}
		}
		rest := t[e:]
		if len(rest) == 0 {
			return e, true
		}
		if len(rest) >= 2 && isWS(rest[0]) && isWS(rest[1]) || rest[0] == '\t' {
			n, _ := prefixWS(rest, "")
			return e + n, true
		}
	}
	if *failed == nil {
		*failed = map[int]bool{}
	}
	(*failed)[i] = true
	return 0, false
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// isLine matches a line made of one repeated punctuation character (a
// section adornment or a transition).
func isLine(t []byte) bool {
	if len(t) == 0 || !isPunct(t[0]) {
		return false
	}
	for _, c := range t {
		if c != t[0] {
			return false
		}
	}
	return true
}

func gridTop(t []byte) bool {
	if len(t) < 4 || t[0] != '+' || t[1] != '-' || t[len(t)-1] != '+' || t[len(t)-2] != '-' {
		return false
	}
	for _, c := range t {
		if c != '-' && c != '+' {
			return false
		}
	}
	return true
}

func simpleTop(t []byte) bool {
	if len(t) == 0 || t[0] != '=' {
		return false
	}
	gap := false
	for i, c := range t {
		switch c {
		case '=':
			if i > 0 && t[i-1] == ' ' {
				gap = true
			}
		case ' ':
		default:
			return false
		}
	}
	return gap
}

func simpleBorder(t []byte) bool {
	if len(t) == 0 || t[0] != '=' {
		return false
	}
	for _, c := range t {
		if c != '=' && c != ' ' {
			return false
		}
	}
	return true
}

// line handles a punctuation line at the start of an element: a section
// overline or a transition. It returns i when the line is ordinary text.
func (s *scanner) line(bl block, i int, titles bool) int {
	t := s.lineText(bl, i)
	n := len(t)
	if !titles {
		if string(t) == "::" || n < 4 {
			return i
		}
		return i + 1
	}
	j := i + 1
	if j >= bl.hi || s.blankAt(bl, j) {
		if n < 4 {
			return i
		}
		return j
	}
	if s.rel(bl, j) == 0 && isLine(s.lineText(bl, j)) {
		if n < 4 {
			return i
		}
		return j + 1
	}
	// An overlined title: overline, title, underline.
	k := j + 1
	if k >= bl.hi {
		if n < 4 {
			return i
		}
		return k
	}
	if n < 4 {
		under := s.lineText(bl, k)
		if s.blankAt(bl, k) || s.rel(bl, k) != 0 || !bytes.Equal(under, t) {
			return i
		}
		title := s.lineText(bl, j)
		if s.rel(bl, j)+utf8.RuneCount(title) > n {
			return i
		}
	}
	return k + 1
}

// text is docutils' Text state: a definition list item, a section title,
// or a paragraph (which may announce a literal block).
func (s *scanner) text(bl block, i int, titles bool) int {
	j := i + 1
	if j < bl.hi {
		r := s.rel(bl, j)
		if r > 0 { // definition list item
			s.hiddenInParagraph(bl, i, i, j)
			s.garbled(bl, i, j)
			d := s.indented(bl, j)
			s.body(d, false)
			return d.hi
		}
		if r == 0 && isLine(s.lineText(bl, j)) {
			title := s.lineText(bl, i)
			u := len(s.lineText(bl, j))
			if !(utf8.RuneCount(title) > u && u < 4) {
				return j + 1
			}
		}
	}
	// A paragraph runs to a blank or an indented line.
	k := i + 1
	for k < bl.hi && s.rel(bl, k) == 0 {
		k++
	}
	s.hiddenInParagraph(bl, i, i, k)
	if !literalNext(s.lineText(bl, k-1)) {
		return k
	}
	// The literal block: indented lines, possibly after blank lines.
	q := s.indented(bl, k)
	if s.hasText(q) {
		s.hiddenInLiteral(k-1, q.lo, q.hi, false)
		return q.hi
	}
	// Otherwise a quoted literal block: unindented lines starting with one
	// and the same punctuation character.
	m := q.hi
	if m >= bl.hi || s.rel(bl, m) != 0 {
		return m
	}
	c := s.lineText(bl, m)[0]
	if !isPunct(c) {
		return m
	}
	for m < bl.hi && s.rel(bl, m) == 0 && s.lineText(bl, m)[0] == c {
		m++
	}
	s.hiddenInLiteral(k-1, q.hi, m, true)
	return m
}

// literalNext reports whether a paragraph's last line ends with an
// unescaped "::".
func literalNext(t []byte) bool {
	if !bytes.HasSuffix(t, []byte("::")) {
		return false
	}
	bs := 0
	for k := len(t) - 3; k >= 0 && t[k] == '\\'; k-- {
		bs++
	}
	return bs%2 == 0
}

// closingBar finds, from from, the "|" that closes a substitution name:
// one after text that is not white space nor a backslash, followed by
// spaces or the end of the line. It returns its index, or -1.
func closingBar(t []byte, from int) int {
	for k := max(from, 1); k < len(t); k++ {
		if t[k] != '|' || isWS(t[k-1]) || t[k-1] == '\\' {
			continue
		}
		if _, ok := prefixWS(t[k:], "|"); ok {
			return k
		}
	}
	return -1
}

// substitution is docutils' substitution_def: "|name|" (the name may run
// over several lines), then, in docutils' SubstitutionDef state, either
// "directive::" (one directive, run there) or text. name is the byte
// after the opening "|". A seg directive there is a node, and so is one
// in the content of a directive that docutils parses there (replace's,
// whose content is RST only inside a substitution definition).
func (s *scanner) substitution(bl block, i, name int) int {
	f := s.firstKnown(bl, i, name, false)
	// Find the closing bar, line by line; a continuation line's first
	// character follows the space docutils joins lines with, so it cannot
	// close the name.
	at := -1 // where the text after the name starts
	j := i
	for ; j < f.hi && at < 0; j++ {
		from := name
		if j > i {
			if s.lines[j].ind < 0 {
				continue
			}
			from = int(s.lines[j].cs)
		}
		t := s.src[from:s.lines[j].end]
		if k := closingBar(t, 1); k > 0 {
			n, _ := prefixWS(t[k:], "|")
			at = from + k + n
		}
	}
	if at < 0 {
		return f.hi // not a substitution definition: a comment
	}
	j-- // the name's last line
	// The definition starts after the name, or on the next line when
	// nothing follows it there (a blank line there leaves it empty).
	if at >= int(s.lines[j].end) {
		j++
		if j >= f.hi || s.lines[j].ind < 0 {
			return f.hi
		}
		at = int(s.lines[j].cs)
	}
	t := s.src[at:s.lines[j].end]
	ne := simpleName(t)
	if ne == 0 {
		return f.hi
	}
	// docutils' embedded_directive: no space before the "::" here.
	after, ok := prefixWS(t[ne:], "::")
	if !ok {
		return f.hi // text: no directive
	}
	// A node's position is its "..", on the same line, else its name.
	p := s.textAt(bl, i)
	if j > i {
		p = at
	}
	s.directive(bl, j, p, at, at+ne, at+ne+after, false, true)
	return f.hi
}
