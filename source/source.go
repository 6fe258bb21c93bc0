// Package source holds the files seg reads and the positions in them, in
// the manner of go/token: a FileSet lists the files (name, size, line
// table, and the text when a reporter needs it), and a Pos is a small value,
// a file and a byte offset, from which line and column are derived. Every
// reader that makes positions and every reporter that prints them goes
// through the same line table, so a line seg counts is the line a snippet
// shows.
package source

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"sync"
)

// MaxFileSize is the largest file a position can point into: offsets are
// 32-bit, so that a position costs eight bytes. Readers refuse larger files
// with a diagnostic (docs/limits.md).
const MaxFileSize = 1<<31 - 1

// Pos is a place in a file of a FileSet: the file, and a byte offset in
// it. The zero Pos means "no position"; a Pos may also name a file as a
// whole, with no line (Whole).
type Pos struct {
	file int32 // index in the FileSet + 1; 0 for no file
	off  int32 // byte offset; -1 for the file as a whole
}

// NoPos is the zero Pos.
var NoPos Pos

// IsValid reports whether p names a file.
func (p Pos) IsValid() bool { return p.file > 0 }

// HasOffset reports whether p names a place in its file, not only the file.
func (p Pos) HasOffset() bool { return p.file > 0 && p.off >= 0 }

// Offset is p's byte offset in its file (-1 when it names only the file).
func (p Pos) Offset() int { return int(p.off) }

// Add returns the position n bytes after p (p itself when p has no
// offset).
func (p Pos) Add(n int) Pos {
	if !p.HasOffset() {
		return p
	}
	return Pos{p.file, p.off + int32(n)}
}

// SameFile reports whether p and q are in one file.
func (p Pos) SameFile(q Pos) bool { return p.file == q.file }

// Span is a range of text in one file. End is exclusive; it is the zero Pos
// when only the start is known.
type Span struct {
	Start, End Pos
}

// At is the span that starts at p and has no known end.
func At(p Pos) Span { return Span{Start: p} }

// Len is the span's length in bytes, 0 when its end is unknown.
func (s Span) Len() int {
	if s.End.HasOffset() && s.Start.HasOffset() && s.End.file == s.Start.file && s.End.off > s.Start.off {
		return int(s.End.off - s.Start.off)
	}
	return 0
}

// Position is a Pos resolved against its FileSet. Line is 0 when only the
// file is known; Filename is "" for no position.
type Position struct {
	Filename string
	Offset   int // byte offset, -1 when unknown
	Line     int // 1-based
	Column   int // 1-based byte column in the line
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String renders file:line:col, dropping the parts that are unknown, so a
// missing position never prints as 0:0; "-" stands for no position at all.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Column > 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Breaks names the rule that cuts a file into lines.
type Breaks uint8

const (
	// Docutils cuts where docutils (and so Sphinx) counts lines: where
	// Python's str.splitlines does, but at VT and FF, which docutils'
	// parser turns into spaces first: LF, CR, CRLF, FS, GS, RS, NEL, LS,
	// PS. (An editor cuts at LF, CR and CRLF only; a line after a form
	// feed has the same number in both.)
	Docutils Breaks = iota
	// Newlines cuts at LF only (a CR before it stays in the line), as XML,
	// JSON and TOML readers count lines.
	Newlines
)

// File is one file of a FileSet.
type File struct {
	index int32
	name  string
	size  int
	rule  Breaks

	// lines holds the offset of every line's first byte, once known.
	lines []int32
	// marks are the positions of a file read as a stream, whose line
	// table is never built (results files): in such a file a Pos's
	// offset is an index into marks.
	marks []mark

	mu   sync.Mutex
	src  []byte
	read func() ([]byte, error) // reads the text again, for snippets
	done bool
}

type mark struct{ line, col int32 }

// Name is the file's path as positions print it: relative to the tree's
// root with forward slashes for the files of the tree.
func (f *File) Name() string { return f.name }

// Index is the file's place in its FileSet.
func (f *File) Index() int { return int(f.index) }

// Size is the file's size in bytes, as given to Add or SetSource.
func (f *File) Size() int { return f.size }

// Pos is the position of byte offset off in f.
func (f *File) Pos(off int) Pos { return Pos{f.index + 1, int32(off)} }

// Whole is the position that names f without a line.
func (f *File) Whole() Pos { return Pos{f.index + 1, -1} }

// Span covers f's bytes [start, end); end < 0 means only the start is known.
func (f *File) Span(start, end int) Span {
	s := Span{Start: f.Pos(start)}
	if end >= 0 {
		s.End = f.Pos(end)
	}
	return s
}

// SetLines records the line table: the offset of every line's first byte,
// starting with 0. Whoever cuts the file into lines sets it once.
func (f *File) SetLines(starts []int32) { f.lines = starts }

// Lines is the line table (nil when not known); callers must not change it.
func (f *File) Lines() []int32 { return f.lines }

// Mark is the position of line and column (1-based) in a file read as a
// stream, whose line table is never built (a results file): such a
// file's positions are the marks its reader made, and nothing else.
func (f *File) Mark(line, col int) Pos {
	m := mark{int32(line), int32(col)}
	if n := len(f.marks); n > 0 && f.marks[n-1] == m {
		return Pos{f.index + 1, int32(n - 1)}
	}
	f.marks = append(f.marks, m)
	return Pos{f.index + 1, int32(len(f.marks) - 1)}
}

// marked reports whether f's positions are marks.
func (f *File) marked() bool { return f.lines == nil && f.marks != nil }

// SetSource gives f its text, kept for snippets; when lines is false the
// line table is cut from it by f's rule.
func (f *File) SetSource(src []byte, lines bool) {
	f.mu.Lock()
	f.src, f.done = src, true
	f.mu.Unlock()
	f.size = len(src)
	if lines {
		f.lines = LineStarts(src, f.rule)
	}
}

// SetReader tells f how to read its text again when a reporter asks for a
// line (the text is not kept after parsing).
func (f *File) SetReader(read func() ([]byte, error)) { f.read = read }

// Source is f's text, read again when it was not kept; nil when it cannot
// be had.
func (f *File) Source() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.done {
		f.done = true
		if f.read != nil {
			if b, err := f.read(); err == nil {
				f.src = b
			}
		}
	}
	return f.src
}

// Text is f's text as Source has it, except that a text read again is
// not kept: for a long-lived reader (the language server's view of a
// file) that holds it only as long as it needs it, where Source would
// keep every file it was asked for in memory for good.
func (f *File) Text() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done || f.read == nil {
		return f.src
	}
	if b, err := f.read(); err == nil {
		return b
	}
	return nil
}

// Position resolves byte offset off of f.
func (f *File) Position(off int) Position {
	p := Position{Filename: f.name, Offset: off}
	if off < 0 {
		p.Offset = -1
		return p
	}
	if f.lines != nil {
		i, _ := slices.BinarySearch(f.lines, int32(off)+1)
		// lines[i-1] <= off < lines[i]
		if i > 0 {
			p.Line = i
			p.Column = off - int(f.lines[i-1]) + 1
		}
		return p
	}
	if off < len(f.marks) {
		p.Line, p.Column = int(f.marks[off].line), int(f.marks[off].col)
		p.Offset = -1
	}
	return p
}

// LineText is the text of line n (1-based) without its line break, and
// whether the file's text and that line could be had.
func (f *File) LineText(n int) ([]byte, bool) {
	src := f.Source()
	if src == nil || n < 1 {
		return nil, false
	}
	lines := f.lines
	if lines == nil || f.rule == Newlines {
		// A streamed file: its lines are counted as its reader counts them.
		lines = LineStarts(src, f.rule)
	}
	if n > len(lines) {
		return nil, false
	}
	start := int(lines[n-1])
	end := len(src)
	if n < len(lines) {
		end = int(lines[n])
	}
	t := src[start:end]
	// Drop the line break the next line starts after.
	for i := range t {
		if k := LineBreak(t, i, f.rule); k > 0 {
			return t[:i], true
		}
	}
	return t, true
}

// FileSet is the set of files one run reads: the tree's files and every
// other file a diagnostic can point into (results files, seg.lock).
// Adding files is not safe for concurrent use; reading positions is.
type FileSet struct {
	files []*File
}

// NewFileSet returns an empty FileSet.
func NewFileSet() *FileSet { return &FileSet{} }

// Add adds a file called name, of size bytes, whose lines are cut by rule.
func (s *FileSet) Add(name string, size int, rule Breaks) *File {
	f := &File{index: int32(len(s.files)), name: name, size: size, rule: rule}
	s.files = append(s.files, f)
	return f
}

// Files lists the files in the order they were added.
func (s *FileSet) Files() []*File { return s.files }

// Fork returns a set that holds s's files: a position into one of them
// resolves alike in both, and a file added to (or replaced in) either set
// afterwards is that set's alone. A client that checks a tree again after
// every edit (the language server) keeps the tree's files in one set and
// forks it for each run, so that what a run adds (seg.lock, results
// files) does not pile up.
func (s *FileSet) Fork() *FileSet { return &FileSet{files: slices.Clone(s.files)} }

// Keep adds f, a file another set added at the index s would give the
// next file, to s as it is: its text, line table and marks, so that the
// positions made into it in the other set resolve alike in s. A client
// that checks a tree again after every edit forks its set for each run
// and keeps, from one run's set to the next, a file it need not read
// again (a results file that did not change).
func (s *FileSet) Keep(f *File) {
	if f == nil || int(f.index) != len(s.files) {
		panic("source: Keep of a file not at the set's next index")
	}
	s.files = append(s.files, f)
}

// Replace puts a new file in the place of f, which must be in s: it has
// f's name, index and rule, and positions made from f resolve to it in s
// from now on (a set forked from s earlier keeps f). It is how a file
// read again (an edit) gets a new text and line table without the set
// growing.
func (s *FileSet) Replace(f *File, size int) *File {
	if f == nil || int(f.index) >= len(s.files) || s.files[f.index] != f {
		panic("source: Replace of a file that is not in the set")
	}
	nf := &File{index: f.index, name: f.name, size: size, rule: f.rule}
	s.files[f.index] = nf
	return nf
}

// File is the file p is in, nil for no position.
func (s *FileSet) File(p Pos) *File {
	if s == nil || p.file <= 0 || int(p.file) > len(s.files) {
		return nil
	}
	return s.files[p.file-1]
}

// Position resolves p; the zero Position for no position.
func (s *FileSet) Position(p Pos) Position {
	f := s.File(p)
	if f == nil {
		return Position{Offset: -1}
	}
	return f.Position(int(p.off))
}

// Compare orders positions by file name, then offset (so by line and
// column); no position comes first, and a file as a whole before any place
// in it.
func (s *FileSet) Compare(p, q Pos) int {
	if p.file != q.file {
		var a, b string
		if f := s.File(p); f != nil {
			a = f.name
		}
		if f := s.File(q); f != nil {
			b = f.name
		}
		if c := cmp.Compare(a, b); c != 0 {
			return c
		}
		// Two files of one name (never in practice): by index.
		return cmp.Compare(p.file, q.file)
	}
	if f := s.File(p); f != nil && f.marked() && p.off >= 0 && q.off >= 0 {
		a, b := f.Position(int(p.off)), f.Position(int(q.off))
		if a.Line != b.Line {
			return cmp.Compare(a.Line, b.Line)
		}
		return cmp.Compare(a.Column, b.Column)
	}
	return cmp.Compare(p.off, q.off)
}

// LineBreak is the length of the line break that starts at src[i] under
// rule, 0 when there is none.
func LineBreak(src []byte, i int, rule Breaks) int {
	c := src[i]
	if rule == Newlines {
		if c == '\n' {
			return 1
		}
		return 0
	}
	switch c {
	case '\n', 0x1c, 0x1d, 0x1e:
		return 1
	case '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2: // U+0085
		if i+1 < len(src) && src[i+1] == 0x85 {
			return 2
		}
	case 0xE2: // U+2028, U+2029
		if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

// LineStarts cuts src into lines by rule and returns the offset of each
// line's first byte. A file always has a first line, even when empty; a
// break at the very end starts no further line.
func LineStarts(src []byte, rule Breaks) []int32 {
	starts := make([]int32, 1, bytes.Count(src, []byte{'\n'})+2)
	for i := 0; i < len(src); {
		c := src[i]
		if c >= ' ' && c < 0x80 || c == '\t' {
			i++
			continue
		}
		if k := LineBreak(src, i, rule); k > 0 {
			i += k
			if i < len(src) {
				starts = append(starts, int32(i))
			}
			continue
		}
		i++
	}
	return starts
}
