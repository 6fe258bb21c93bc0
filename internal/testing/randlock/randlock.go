// Package randlock writes random seg.lock files for the tests that hold
// two ways of checking a tree to one another (check.Live against Run, the
// language server against seg check): every kind of pin line they must
// read alike.
package randlock

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/revision"
)

// Lock is a seg.lock for the tree c checked: about three links in four
// pinned, one pin in staleOneIn to another revision than its target's
// (stale), a pin of a link the tree does not have and a line that cannot
// be read.
func Lock(r *rand.Rand, c *check.Check, staleOneIn int) string {
	var b strings.Builder
	for e := range c.Graph.Edges() {
		if !c.Graph.From(e).Pinnable() || r.IntN(4) == 0 {
			continue
		}
		rev := c.Graph.To(e).Revision()
		if r.IntN(staleOneIn) == 0 {
			rev++
		}
		l := c.Graph.Link(e)
		fmt.Fprintf(&b, "%s %s %s %s\n", l.From, l.Link, l.To, revision.String(rev))
	}
	b.WriteString("GONE verifies R0 0123456789abcdef\nnot a pin\n")
	return b.String()
}
