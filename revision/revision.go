// Package revision defines a node's revision (docs/revisions.md): the
// canonical document of what the node says, and its fingerprint, the
// first 64 bits of the document's SHA-256, written as 16 lower-case hex
// digits in seg.lock and every report. A pin records the revision a
// link's target had when the link was reviewed, so the revision must
// change with every word of the node's text and with nothing else.
//
// The package knows no RST and no directive: a reader that makes nodes
// (the parser, the results and code tag readers) says which of a node's
// options are links and hands the rest to a Writer; the check lists the
// files an implementation's :source: names and hands their sums to
// Implementation. The canonical form is written once, here: changing it
// marks every pinned link of every user stale.
package revision

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"
)

// The canonical document of a node, as a Writer writes it:
//
//	seg-revision 1
//	kind <kind>
//	id <id>
//	title <title>
//	option <name> <value>     one line per option that is not a link
//	...                       option (nor :id:), sorted by name then value
//	body
//	<body lines>
//
// The kind is seg's (requirement, test, ...), not the directive's name.
// Values are as the node holds them: continuation lines joined with single
// spaces. The body is the node's content without the nodes nested in it,
// its indentation measured with tabs expanded (the parser writes it as
// spaces) and the common indentation removed, trailing white space and
// leading and trailing blank lines dropped, and each run of blank lines
// taken as one; a tab inside a line stays. So moving a node, re-indenting
// it, nesting it, reordering its options or changing its links leaves the
// revision alone.
//
// An implementation's revision adds the files its :source: names, in a
// second document that Implementation writes:
//
//	seg-revision 1 implementation
//	text <the revision of the canonical document above>
//	source <path> <sha256 hex>   one line per file the entries match, by path
//	source <entry> missing       an entry that matches no file, as written

// A Writer writes canonical documents, one at a time: Start, Option for
// each option that is not a link nor :id:, then Body. Its zero value is
// ready, and it keeps its memory from one document to the next (every
// node of a tree is hashed on every cold run, and a document costs about
// as much to build as to hash).
type Writer struct {
	buf  []byte
	opts [][2]string // name, value, each on one line
}

// Start begins the document of a node of kind (seg's kind name), id and
// title, dropping what the Writer held.
func (w *Writer) Start(kind, id, title string) {
	w.buf = append(w.buf[:0], "seg-revision 1\nkind "...)
	w.buf = append(w.buf, kind...)
	w.buf = append(w.buf, "\nid "...)
	w.buf = append(w.buf, oneLine(id)...)
	w.buf = append(w.buf, "\ntitle "...)
	w.buf = append(w.buf, oneLine(title)...)
	w.buf = append(w.buf, '\n')
	clear(w.opts)
	w.opts = w.opts[:0]
}

// Option adds an option of the node, in any order.
func (w *Writer) Option(name, value string) {
	w.opts = append(w.opts, [2]string{oneLine(name), oneLine(value)})
}

// Body ends the document with the node's body (its content without the
// nodes nested in it, indented with spaces).
func (w *Writer) Body(body string) {
	// The option lines in the byte order of "option NAME VALUE\n".
	slices.SortFunc(w.opts, func(a, b [2]string) int { return compareLines(a[0], a[1], b[0], b[1]) })
	for _, o := range w.opts {
		w.buf = append(w.buf, "option "...)
		w.buf = append(w.buf, o[0]...)
		w.buf = append(w.buf, ' ')
		w.buf = append(w.buf, o[1]...)
		w.buf = append(w.buf, '\n')
	}
	w.buf = appendBody(append(w.buf, "body\n"...), body)
}

// String is the document written.
func (w *Writer) String() string { return string(w.buf) }

// Revision is the revision of the document written.
func (w *Writer) Revision() uint64 { return sum(w.buf) }

// appendBody appends the body's lines: its own common indentation goes,
// not only the directive block's (a body indented further than the
// options is the same text).
func appendBody(dst []byte, body string) []byte {
	common := -1
	for rest := body; ; {
		line, more := nextLine(&rest)
		if line = strings.TrimRight(line, " \t"); line != "" {
			if ind := len(line) - len(strings.TrimLeft(line, " ")); common < 0 || ind < common {
				common = ind
			}
		}
		if !more {
			break
		}
	}
	wrote, blank := false, false
	for rest := body; ; {
		line, more := nextLine(&rest)
		if line = strings.TrimRight(line, " \t"); line == "" {
			blank = wrote
		} else {
			if blank {
				dst = append(dst, '\n')
				blank = false
			}
			dst = append(dst, line[common:]...)
			dst = append(dst, '\n')
			wrote = true
		}
		if !more {
			return dst
		}
	}
}

// nextLine cuts the first line off *rest; more is false for the last.
func nextLine(rest *string) (line string, more bool) {
	if j := strings.IndexByte(*rest, '\n'); j >= 0 {
		line, *rest = (*rest)[:j], (*rest)[j+1:]
		return line, true
	}
	return *rest, false
}

// compareLines compares the lines a1+" "+a2+"\n" and b1+" "+b2+"\n"
// without making them.
func compareLines(a1, a2, b1, b2 string) int {
	at := func(s1, s2 string, i int) byte {
		switch {
		case i < len(s1):
			return s1[i]
		case i == len(s1):
			return ' '
		case i-len(s1)-1 < len(s2):
			return s2[i-len(s1)-1]
		}
		return '\n'
	}
	la, lb := len(a1)+len(a2)+2, len(b1)+len(b2)+2
	for i := 0; i < la && i < lb; i++ {
		if x, y := at(a1, a2, i), at(b1, b2, i); x != y {
			return cmp.Compare(x, y)
		}
	}
	return cmp.Compare(la, lb)
}

// oneLine keeps a field on its line of the document: a line break in it
// (no node the parser reads has one; nodes made in memory might) is
// written as \n.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace(s)
}

// Source is one entry of an implementation's :source: and the files it
// matched (none: the entry is missing).
type Source struct {
	Entry string
	Files []File
}

// File is a file a :source: entry matched: its slash path relative to the
// root and the hex SHA-256 of its bytes.
type File struct{ Path, Sum string }

// Implementation writes the canonical document of the sources of an
// implementation whose text revision is text and whose :source: entries,
// in the order written, matched what entries holds: every file matched,
// once, sorted by path, then each entry that matched nothing, in the
// order written.
func Implementation(text uint64, entries []Source) string {
	return string(appendImplementation(nil, text, entries))
}

// OfImplementation is the revision of that document: the whole revision
// of the implementation.
func OfImplementation(text uint64, entries []Source) uint64 {
	var buf [512]byte
	return sum(appendImplementation(buf[:0], text, entries))
}

func appendImplementation(dst []byte, text uint64, entries []Source) []byte {
	dst = append(dst, "seg-revision 1 implementation\ntext "...)
	dst = appendHex(dst, text)
	dst = append(dst, '\n')
	var files []File
	for _, e := range entries {
		files = append(files, e.Files...)
	}
	if len(entries) > 1 {
		slices.SortFunc(files, func(x, y File) int { return strings.Compare(x.Path, y.Path) })
		files = slices.CompactFunc(files, func(x, y File) bool { return x.Path == y.Path })
	}
	for _, f := range files {
		dst = append(dst, "source "...)
		dst = append(dst, oneLine(f.Path)...)
		dst = append(dst, ' ')
		dst = append(dst, f.Sum...)
		dst = append(dst, '\n')
	}
	for _, e := range entries {
		if len(e.Files) == 0 {
			dst = append(dst, "source "...)
			dst = append(dst, oneLine(e.Entry)...)
			dst = append(dst, " missing\n"...)
		}
	}
	return dst
}

// appendHex appends r as String writes it.
func appendHex(dst []byte, r uint64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		dst = append(dst, digits[r>>uint(shift)&0xf])
	}
	return dst
}

func sum(doc []byte) uint64 {
	s := sha256.Sum256(doc)
	return binary.BigEndian.Uint64(s[:8])
}

// Of is the revision of canonical document doc.
func Of(doc string) uint64 {
	s := sha256.Sum256([]byte(doc))
	return binary.BigEndian.Uint64(s[:8])
}

// String writes a revision as seg.lock and every report do: 16
// lower-case hex digits.
func String(r uint64) string { return string(appendHex(make([]byte, 0, 16), r)) }
