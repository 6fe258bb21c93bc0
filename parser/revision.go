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
// needs the file system, so package check works it out (SourceRevision).

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
	blank := false
	for i, line := range strings.Split(n.Body, "\n") {
		line = strings.TrimRight(line, " \t")
		if line == "" {
			blank = i > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
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
