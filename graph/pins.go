package graph

import (
	"fmt"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// CodeOrphanPin is a seg.lock line for a link the tree does not have.
var CodeOrphanPin = diag.NewWarning("orphan-pin", "a seg.lock pin for a link that does not exist")

// Pin is what seg.lock says of one link: the revisions its target had
// when it was reviewed, one per line that names it (more than one only
// where seg.lock has a duplicate-pin error).
type Pin struct {
	Revisions []uint64
	Pos       source.Pos // the first line's
}

// Pin returns the pin of the link e was written in, if any.
func (g *Graph) Pin(e *Edge) (Pin, bool) {
	if e.pin == 0 {
		return Pin{}, false
	}
	return g.pins[e.pin-1], true
}

// HasPins reports whether any edge has a pin.
func (g *Graph) HasPins() bool { return len(g.pins) > 0 }

// OrphanPins are the seg.lock pins whose link the tree does not have (the
// first line of each), in file order.
func (g *Graph) OrphanPins() []pins.Pin { return g.orphans }

// Link is the seg.lock name of the link e was written in.
func (g *Graph) Link(e *Edge) pins.Link {
	return pins.Link{From: g.From(e).ID(), Link: e.Option(), To: g.To(e).ID()}
}

// attachPins gives every edge the pin of its link, and reports the pins
// whose link the tree does not have.
func (b *builder) attachPins(ps []pins.Pin) {
	g := b.g
	byLink := map[pins.Link]int32{}
	for _, p := range ps {
		i, ok := byLink[p.Link]
		if !ok {
			g.pins = append(g.pins, Pin{Pos: p.Pos})
			i = int32(len(g.pins))
			byLink[p.Link] = i
		}
		g.pins[i-1].Revisions = append(g.pins[i-1].Revisions, p.Revision)
	}
	if len(byLink) == 0 {
		return
	}
	used := map[pins.Link]bool{}
	for i := range g.edges {
		e := &g.edges[i]
		l := g.Link(e)
		if p, ok := byLink[l]; ok {
			e.pin = p
			used[l] = true
		}
	}
	listed := map[pins.Link]bool{}
	for _, p := range ps {
		if used[p.Link] {
			continue
		}
		// Every line is warned of (each is a pin of a link the tree
		// lacks, a duplicate one too); OrphanPins lists each link once.
		if !listed[p.Link] {
			listed[p.Link] = true
			g.orphans = append(g.orphans, p)
		}
		b.diag(diag.Diagnostic{
			Code:    CodeOrphanPin,
			Message: fmt.Sprintf("pin for %s, a link the tree does not have", p.Link),
			Detail:  "The link was removed or renamed since it was pinned. seg review --prune drops such pins.",
			Span:    source.At(p.Pos),
		})
	}
}
