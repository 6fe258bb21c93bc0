package parser

import (
	"fmt"
	"strconv"
)

// Pos is a place in a source file: the file's path relative to the root
// (forward slashes), a 1-based line and a 1-based byte column in the
// original line. The zero value means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders file:line:col, dropping the parts that are unknown, so a
// missing position never prints as 0:0.
func (p Pos) String() string {
	s := p.File
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Before orders positions by file, line and column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Span is a range of source text. End is exclusive; it is the zero Pos when
// only the start is known.
type Span struct {
	Start Pos
	End   Pos
}

// Len is the width of a single-line span in bytes, or 0 when unknown.
func (s Span) Len() int {
	if s.End.IsValid() && s.End.Line == s.Start.Line && s.End.Col > s.Start.Col {
		return s.End.Col - s.Start.Col
	}
	return 0
}

func (s Span) String() string { return fmt.Sprint(s.Start) }
