package parser

import "github.com/seg-trace/seg/revision"

// A node's revision is the fingerprint of what it says (package revision,
// docs/revisions.md, "The canonical form"). The canonical form is the
// revision package's; what the parser adds is which options of a node
// are links (they are reviewed on the link, not in the target): those of
// its kind for seg's directives, the project's link types for a need.

// Canonical writes n's canonical document. isLink says which of its
// options hold links.
func Canonical(n *Node, isLink func(name string) bool) string {
	var w revision.Writer
	writeDocument(&w, n, isLink)
	return w.String()
}

// writeDocument writes n's canonical document with w.
func writeDocument(w *revision.Writer, n *Node, isLink func(name string) bool) {
	w.Start(n.Kind.String(), n.ID, n.Title)
	for i := range n.Options {
		if o := &n.Options[i]; o.Name != "id" && !isLink(o.Name) {
			w.Option(o.Name, o.Value)
		}
	}
	w.Body(n.Body)
}

// Document is n's canonical document under the configuration c: a
// need's link options are its project's link types.
func (c *Config) Document(n *Node) string {
	var w revision.Writer
	c.writeDocument(&w, n)
	return w.String()
}

func (c *Config) writeDocument(w *revision.Writer, n *Node) {
	isLink := LinkOptions(n.Kind)
	if c.Needs.Type(n.Directive) != nil {
		isLink = func(name string) bool { return c.Needs.Link(name) != nil }
	}
	writeDocument(w, n, isLink)
}

// LinkOptions is isLink for a node of the default configuration (no
// sphinx-needs project): the link options of its kind.
func LinkOptions(k Kind) func(string) bool {
	opts := OptionsOf(k)
	return func(name string) bool { return opts[name] }
}
