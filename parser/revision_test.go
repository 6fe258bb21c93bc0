package parser

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// revisionNode is a node to render in many ways: what it says, and what
// it links to.
type revisionNode struct {
	directive, id string
	title         []string // one line each
	opts          [][2]string
	links         [][2]string // option, value
	body          [][]string  // paragraphs of lines
}

var revisionWords = []string{"brake", "pressure", "shall", "follow", "the", "pedal", "map", "within", "10 ms", "ü", "a\tb"}

func randomRevisionNode(r *rand.Rand) revisionNode {
	words := func(n int) string {
		var w []string
		for range 1 + r.IntN(n) {
			w = append(w, revisionWords[r.IntN(len(revisionWords)-1)])
		}
		return strings.Join(w, " ")
	}
	n := revisionNode{id: fmt.Sprintf("N-%d", r.IntN(1000))}
	switch r.IntN(4) {
	case 0:
		n.directive = "sreq"
		n.links = [][2]string{{"refines", "P-1, P-2"}}
	case 1:
		n.directive = "test"
		n.opts = [][2]string{{"cases", "pkg.TestA, pkg.TestB/" + words(2)}, {"max-age", fmt.Sprint(1 + r.IntN(90))}}
		n.links = [][2]string{{"verifies", "R-1 (suspect), R-2"}}
	case 2:
		n.directive = "outcome"
		n.opts = [][2]string{{"result", "passed"}, {"config", words(2)}, {"date", "2026-11-01"}}
		n.links = [][2]string{{"confirms", "T-1"}, {"witnesses", "I-1"}}
	default:
		n.directive = "waiver"
		n.opts = [][2]string{{"expires", "2027-01-31"}, {"date", "2026-10-01"}}
		n.links = [][2]string{{"excuses", "O-1"}}
	}
	n.opts = append(n.opts, [2]string{"status", words(2)})
	for range 1 + r.IntN(2) {
		n.title = append(n.title, words(4))
	}
	for range r.IntN(3) {
		var p []string
		for range 1 + r.IntN(3) {
			p = append(p, words(6))
		}
		n.body = append(n.body, p)
	}
	return n
}

// render writes the node at indentation ind (a prefix of spaces or
// tabs), its options in order, blank lines between paragraphs repeated
// blanks times, with trailing white space when trail.
func (n revisionNode) render(ind string, order []int, blanks int, trail bool) string {
	var b strings.Builder
	b.WriteString(ind + ".. " + n.directive + ":: " + n.title[0] + "\n")
	for _, t := range n.title[1:] {
		b.WriteString(ind + "   " + t + "\n")
	}
	opts := append(append([][2]string{{"id", n.id}}, n.opts...), n.links...)
	for _, i := range order {
		b.WriteString(ind + "   :" + opts[i][0] + ": " + opts[i][1] + "\n")
	}
	for _, p := range n.body {
		b.WriteString(strings.Repeat("\n", blanks))
		for _, line := range p {
			if trail {
				line += " \t"
			}
			b.WriteString(ind + "   " + line + "\n")
		}
	}
	return b.String()
}

func (n revisionNode) nopts() int { return 1 + len(n.opts) + len(n.links) }

func revisionOfText(t *testing.T, name, src, id string) uint64 {
	t.Helper()
	cfg := DefaultConfig()
	cfg.ExtraOptions["status"] = true
	f := parseString(name, src, cfg)
	for _, d := range f.Diagnostics {
		t.Fatalf("%s: %s %s in\n%s", f.Position(d.Span.Start), d.Code, d.Message, src)
	}
	for _, nd := range f.Nodes {
		if nd.ID == id {
			return nd.Revision
		}
	}
	t.Fatalf("no node %s in\n%s", id, src)
	return 0
}

// The revision invariants (revisions.md): moving a node, re-indenting
// it, nesting it, reordering its options, blank lines and trailing white
// space, and changing its links leave its revision alone; a word of its
// title, body or a non-link option always changes it.
func TestRevisionInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 15))
	for range 300 {
		n := randomRevisionNode(r)
		order := make([]int, n.nopts())
		for i := range order {
			order[i] = i
		}
		base := revisionOfText(t, "a.rst", n.render("", order, 1, false), n.id)
		same := func(what, name, src string) {
			t.Helper()
			if got := revisionOfText(t, name, src, n.id); got != base {
				t.Fatalf("%s changed the revision:\n%s", what, src)
			}
		}
		same("moving to another file", "docs/deep/b.rst", "Title\n=====\n\nSome prose.\n\n"+n.render("", order, 1, false))
		same("re-indenting", "a.rst", ".. note::\n\n"+n.render("      ", order, 1, false))
		same("a tab for indentation", "a.rst", "- item\n\n\t"+strings.TrimPrefix(n.render("\t", order, 1, false), "\t"))
		same("nesting in a node", "a.rst", ".. sreq:: Parent\n   :id: PARENT\n\n   Parent text.\n\n"+n.render("   ", order, 1, false)+"\n   More parent text.\n")
		// The body's own common indentation goes too (found by
		// internal/revref): a body indented further than the options.
		head, body, _ := strings.Cut(n.render("", order, 1, false), "\n\n")
		deeper := regexp.MustCompile(`(?m)^(.)`).ReplaceAllString(body, "  $1")
		same("a body indented further than the options", "a.rst", head+"\n\n"+deeper)
		perm := r.Perm(len(order))
		same("reordering options", "a.rst", n.render("", perm, 1, false))
		same("blank lines and trailing space", "a.rst", n.render("", order, 3, true))
		moved := n
		moved.links = nil
		for _, l := range n.links {
			moved.links = append(moved.links, [2]string{l[0], "OTHER-1, OTHER-2"})
		}
		same("changing links", "a.rst", moved.render("", order, 1, false))

		differ := func(what string, m revisionNode) {
			t.Helper()
			if got := revisionOfText(t, "a.rst", m.render("", order, 1, false), n.id); got == base {
				t.Fatalf("%s left the revision alone:\n%s", what, m.render("", order, 1, false))
			}
		}
		m := n
		m.title = append([]string{n.title[0] + " again"}, n.title[1:]...)
		differ("a word of the title", m)
		m = n
		m.opts = append([][2]string(nil), n.opts...)
		i := len(m.opts) - 1 // :status:
		m.opts[i][1] += " more"
		differ("a non-link option", m)
		m = n
		m.body = append([][]string{{"One more word."}}, n.body...)
		differ("a word of the body", m)
	}
}
