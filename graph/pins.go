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
	if e.pin == nil {
		return Pin{}, false
	}
	return *e.pin, true
}

// HasPins reports whether any edge has a pin.
func (g *Graph) HasPins() bool { return g.pinned > 0 }

// OrphanPins are the seg.lock pins whose link the tree does not have (the
// first line of each), in file order.
func (g *Graph) OrphanPins() []pins.Pin { return g.orphans }

// Link is the seg.lock name of the link e was written in.
func (g *Graph) Link(e *Edge) pins.Link {
	return pins.Link{From: g.From(e).ID(), Link: e.Option(), To: g.To(e).ID()}
}

// attachPins gives every edge the pin of its link, and reports the pins
// whose link the tree does not have. It returns the places in ps of the
// orphan lines.
func (b *builder) attachPins(ps []pins.Pin) []int32 {
	g := b.g
	var orphans []int32
	for k, p := range ps {
		if from, ok := g.byID[p.From]; ok && b.attachPin(g.nodes[from], p, len(ps)-k) {
			continue
		}
		orphans = append(orphans, int32(k))
	}
	b.orphanPins(ps, orphans)
	return orphans
}

// orphanPins warns of the lines of ps at the places lines names (in
// order), the pins of links the tree lacks, and makes them the graph's
// orphan pins.
func (b *builder) orphanPins(ps []pins.Pin, lines []int32) {
	g := b.g
	g.orphans = nil
	var orphaned map[pins.Link]bool
	for _, k := range lines {
		p := ps[k]
		// Every line is warned of (each is a pin of a link the tree
		// lacks, a duplicate one too); OrphanPins lists each link once.
		if orphaned == nil {
			orphaned = map[pins.Link]bool{}
		}
		if !orphaned[p.Link] {
			orphaned[p.Link] = true
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

// attachPin adds p's revision to the pin of every edge of its link, which
// leaves n, and reports whether there was one. A large tree pins hundreds
// of thousands of links: finding the link among its source node's few
// edges costs one lookup of an ID, where a map keyed by whole links
// hashed three strings for every pin and every edge. Pins are allocated
// from a slab of up to more (the lines left to attach).
func (b *builder) attachPin(n *Node, p pins.Pin, more int) bool {
	g := b.g
	found := false
	for e := range g.Out(n, 0) {
		if e.Option() != p.Link.Link || g.To(e).ID() != p.To {
			continue
		}
		found = true
		if e.pin == nil {
			if len(b.pinSlab) == cap(b.pinSlab) {
				b.pinSlab = make([]Pin, 0, max(more, 1))
			}
			b.pinSlab = append(b.pinSlab, Pin{Pos: p.Pos})
			e.pin = &b.pinSlab[len(b.pinSlab)-1]
			g.pinned++
		}
		e.pin.Revisions = append(e.pin.Revisions, p.Revision)
	}
	return found
}
