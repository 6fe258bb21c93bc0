package parser

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
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
//	source <path> <sha256 hex>   one line per file an entry matches, by path
//	source <entry> missing       an entry that matches no file

// Canonical writes n's canonical document. isLink says which of its
// options hold links (they are reviewed on the link, not in the target).
func Canonical(n *Node, isLink func(name string) bool) string {
	var b strings.Builder
	b.WriteString("seg-revision 1\n")
	fmt.Fprintf(&b, "kind %s\nid %s\ntitle %s\n", n.Kind, oneLine(n.ID), oneLine(n.Title))
	var opts []string
	for _, o := range n.Options {
		if o.Name == "id" || isLink(o.Name) {
			continue
		}
		opts = append(opts, "option "+oneLine(o.Name)+" "+oneLine(o.Value)+"\n")
	}
	slices.Sort(opts)
	for _, o := range opts {
		b.WriteString(o)
	}
	b.WriteString("body\n")
	// The body's own common indentation goes, not only the directive
	// block's: a body indented further than the options is the same text.
	// (The parser writes indentation as spaces, tabs expanded.)
	lines := strings.Split(n.Body, "\n")
	common := -1
	for i, line := range lines {
		line = strings.TrimRight(line, " \t")
		lines[i] = line
		if ind := len(line) - len(strings.TrimLeft(line, " ")); line != "" && (common < 0 || ind < common) {
			common = ind
		}
	}
	wrote, blank := false, false
	for _, line := range lines {
		if line == "" {
			blank = wrote
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(line[common:])
		b.WriteByte('\n')
		wrote = true
	}
	return b.String()
}

// Document is n's canonical document under the configuration c: a
// need's link options are its project's link types.
func (c *Config) Document(n *Node) string {
	isLink := LinkOptions(n.Kind)
	if c.Needs.Type(n.Directive) != nil {
		isLink = func(name string) bool { return c.Needs.Link(name) != nil }
	}
	return Canonical(n, isLink)
}

// oneLine keeps a field on its line of the document: a line break in it
// (no node the parser reads has one; nodes made in memory might) is
// written as \n.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
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
// in the order written, matched what entries holds.
func ImplementationCanonical(text uint64, entries []SourceEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seg-revision 1 implementation\ntext %s\n", RevisionString(text))
	for _, e := range entries {
		if len(e.Files) == 0 {
			fmt.Fprintf(&b, "source %s missing\n", oneLine(e.Entry))
			continue
		}
		for _, f := range e.Files {
			fmt.Fprintf(&b, "source %s %s\n", oneLine(f.Path), f.Sum)
		}
	}
	return b.String()
}

// Revision is the revision of canonical document doc.
func Revision(doc string) uint64 {
	sum := sha256.Sum256([]byte(doc))
	return binary.BigEndian.Uint64(sum[:8])
}

// RevisionString writes a revision as seg.lock and every report do: 16
// lower-case hex digits.
func RevisionString(r uint64) string { return fmt.Sprintf("%016x", r) }

// LinkOptions is isLink for a node of the default configuration (no
// sphinx-needs project): the link options of its kind.
func LinkOptions(k Kind) func(string) bool {
	opts := OptionsOf(k)
	return func(name string) bool { return opts[name] }
}
