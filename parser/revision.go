package parser

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"
)

// A node's revision is a fingerprint of what it says (docs/revisions.md,
// "The canonical form"): a pin in seg.lock records the revision a link's
// target had when the link was reviewed, so the revision must change with
// every word of the node's text and with nothing else. It is the first 64
// bits of the SHA-256 of the node's canonical document, which Canonical
// writes:
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
// its indentation measured with tabs expanded and the common indentation
// removed, trailing white space and leading and trailing blank lines
// dropped, and each run of blank lines taken as one; a tab inside a line
// stays. So moving a node, re-indenting it, nesting it, reordering its
// options or changing its links leaves the revision alone.
//
// An implementation's revision adds the files its :source: names; that
// needs the file system (or, for seg review --diff, a commit of the
// repository), so the caller lists the files and hashes them, and
// ImplementationCanonical writes the document:
//
//	seg-revision 1 implementation
//	text <the revision of the canonical document above>
//	source <path> <sha256 hex>   one line per file the entries match, by path
//	source <entry> missing       an entry that matches no file, as written

// Canonical writes n's canonical document. isLink says which of its
// options hold links (they are reviewed on the link, not in the target).
func Canonical(n *Node, isLink func(name string) bool) string {
	return string(appendCanonical(nil, n, isLink))
}

// appendCanonical appends n's canonical document to dst. It is written
// byte by byte rather than with fmt and strings.Split: every node of a
// tree is hashed on every cold run, and a document costs about as much
// to build as to hash.
func appendCanonical(dst []byte, n *Node, isLink func(name string) bool) []byte {
	dst = append(dst, "seg-revision 1\nkind "...)
	dst = append(dst, n.Kind.String()...)
	dst = append(dst, "\nid "...)
	dst = append(dst, oneLine(n.ID)...)
	dst = append(dst, "\ntitle "...)
	dst = append(dst, oneLine(n.Title)...)
	dst = append(dst, '\n')
	var keep [8]int
	opts := keep[:0]
	for i, o := range n.Options {
		if o.Name != "id" && !isLink(o.Name) {
			opts = append(opts, i)
		}
	}
	// The option lines in the byte order of "option NAME VALUE\n".
	slices.SortFunc(opts, func(i, j int) int {
		a, b := &n.Options[i], &n.Options[j]
		return compareLines(oneLine(a.Name), oneLine(a.Value), oneLine(b.Name), oneLine(b.Value))
	})
	for _, i := range opts {
		dst = append(dst, "option "...)
		dst = append(dst, oneLine(n.Options[i].Name)...)
		dst = append(dst, ' ')
		dst = append(dst, oneLine(n.Options[i].Value)...)
		dst = append(dst, '\n')
	}
	dst = append(dst, "body\n"...)
	// The body's own common indentation goes, not only the directive
	// block's: a body indented further than the options is the same text.
	// (The parser writes indentation as spaces, tabs expanded.)
	common := -1
	for rest := n.Body; ; {
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
	for rest := n.Body; ; {
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

// Document is n's canonical document under the configuration c: a
// need's link options are its project's link types.
func (c *Config) Document(n *Node) string { return string(c.appendDocument(nil, n)) }

func (c *Config) appendDocument(dst []byte, n *Node) []byte {
	isLink := LinkOptions(n.Kind)
	if c.Needs.Type(n.Directive) != nil {
		isLink = func(name string) bool { return c.Needs.Link(name) != nil }
	}
	return appendCanonical(dst, n, isLink)
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

// SourceEntry is one entry of an implementation's :source: and the files
// it matched (none: the entry is missing).
type SourceEntry struct {
	Entry string
	Files []SourceFile
}

// SourceFile is a file a :source: entry matched: its slash path relative
// to the root and the hex SHA-256 of its bytes.
type SourceFile struct{ Path, Sum string }

// ImplementationCanonical writes the canonical document of an
// implementation whose text revision is text and whose :source: entries,
// in the order written, matched what entries holds: every file matched,
// once, sorted by path, then each entry that matched nothing, in the
// order written.
func ImplementationCanonical(text uint64, entries []SourceEntry) string {
	return string(appendImplementation(nil, text, entries))
}

// ImplementationRevision is the revision of that document.
func ImplementationRevision(text uint64, entries []SourceEntry) uint64 {
	var buf [512]byte
	return docRevision(appendImplementation(buf[:0], text, entries))
}

func appendImplementation(dst []byte, text uint64, entries []SourceEntry) []byte {
	dst = append(dst, "seg-revision 1 implementation\ntext "...)
	dst = appendRevision(dst, text)
	dst = append(dst, '\n')
	var files []SourceFile
	for _, e := range entries {
		files = append(files, e.Files...)
	}
	if len(entries) > 1 {
		slices.SortFunc(files, func(x, y SourceFile) int { return strings.Compare(x.Path, y.Path) })
		files = slices.CompactFunc(files, func(x, y SourceFile) bool { return x.Path == y.Path })
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

// appendRevision appends r as RevisionString writes it.
func appendRevision(dst []byte, r uint64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		dst = append(dst, digits[r>>uint(shift)&0xf])
	}
	return dst
}

// docRevision is the revision of a canonical document.
func docRevision(doc []byte) uint64 {
	sum := sha256.Sum256(doc)
	return binary.BigEndian.Uint64(sum[:8])
}

// Revision is the revision of canonical document doc.
func Revision(doc string) uint64 {
	sum := sha256.Sum256([]byte(doc))
	return binary.BigEndian.Uint64(sum[:8])
}

// RevisionString writes a revision as seg.lock and every report do: 16
// lower-case hex digits.
func RevisionString(r uint64) string { return string(appendRevision(make([]byte, 0, 16), r)) }

// LinkOptions is isLink for a node of the default configuration (no
// sphinx-needs project): the link options of its kind.
func LinkOptions(k Kind) func(string) bool {
	opts := OptionsOf(k)
	return func(name string) bool { return opts[name] }
}
