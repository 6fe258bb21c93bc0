package lsp

import (
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Positions inside this package are byte offsets into a document's text.
// Two line tables turn them into line numbers, because two parties count
// lines differently:
//
//   - seg (and docutils) end a line at every break Python's
//     str.splitlines() knows but \v and \f (which docutils reads as
//     spaces): \n, \r\n, \r, \x1c-\x1e, U+0085, U+2028 and U+2029.
//     seg's positions are offsets in its file set (package source), which
//     knows those lines.
//   - LSP ends a line at \n, \r\n and \r only. Every position sent to or
//     read from a client uses lspLines.
//
// A document with a line separator in it therefore has different line
// numbers for seg and for the editor; offsets are what both agree on.

// span is a range of a document's text in byte offsets, end exclusive.
type span struct{ start, end int }

// lspLines returns the offset at which each of LSP's lines starts.
func lspLines(text []byte) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// encoding is the unit a Position's character counts: UTF-16 code units
// (LSP's default) or bytes (utf-8, when the client offers it).
type encoding uint8

const (
	utf16 encoding = iota
	utf8Enc
)

// text is a document's content with its LSP line table, built once.
type text struct {
	src   []byte
	lines []int // LSP line starts
}

func newText(src []byte) *text { return &text{src: src, lines: lspLines(src)} }

// lineEnd is the offset of the end of LSP line li, before its break.
func (t *text) lineEnd(li int) int {
	end := len(t.src)
	if li+1 < len(t.lines) {
		end = t.lines[li+1]
		if end > 0 && t.src[end-1] == '\n' {
			end--
		}
		if end > t.lines[li] && t.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// position converts a byte offset to an LSP position. An offset inside a
// character or a line break is moved back to its start; bytes that are
// not UTF-8 count as one character each (an editor shows U+FFFD).
func (t *text) position(off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	li := lineIndex(t.lines, off)
	start := t.lines[li]
	end := t.lineEnd(li)
	if off > end {
		off = end
	}
	if enc == utf8Enc {
		return protocol.Position{Line: uint32(li), Character: uint32(off - start)}
	}
	n := 0
	for i := start; i < off; {
		r, w := utf8.DecodeRune(t.src[i:])
		if i+w > off {
			break
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += w
	}
	return protocol.Position{Line: uint32(li), Character: uint32(n)}
}

// offset converts an LSP position to a byte offset. A character past the
// end of its line means the end of the line, and a line past the end of
// the text the end of the text, as the protocol asks.
func (t *text) offset(p protocol.Position, enc encoding) int {
	li := int(p.Line)
	if li >= len(t.lines) {
		return len(t.src)
	}
	start, end := t.lines[li], t.lineEnd(li)
	if enc == utf8Enc {
		off := start + int(p.Character)
		if off > end {
			return end
		}
		// Never split a character.
		for off > start && off < end && !utf8.RuneStart(t.src[off]) {
			off--
		}
		return off
	}
	n := 0
	i := start
	for i < end && n < int(p.Character) {
		r, w := utf8.DecodeRune(t.src[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		if n > int(p.Character) { // the middle of a surrogate pair
			break
		}
		i += w
	}
	return i
}

func (t *text) rangeOf(s span, enc encoding) protocol.Range {
	if s.end < s.start {
		s.end = s.start
	}
	return protocol.Range{Start: t.position(s.start, enc), End: t.position(s.end, enc)}
}

// lineIndex is the index of the line that holds off.
func lineIndex(starts []int, off int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// applyChange replaces the text between two offsets.
func applyChange(src []byte, s span, repl string) []byte {
	out := make([]byte, 0, len(src)-(s.end-s.start)+len(repl))
	out = append(out, src[:s.start]...)
	out = append(out, repl...)
	return append(out, src[s.end:]...)
}
