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
	var orphaned map[pins.Link]bool
	for _, p := range ps {
		if b.attachPin(p) {
			continue
		}
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

// attachPin adds p's revision to the pin of every edge of its link and
// reports whether there was one. A large tree pins hundreds of thousands
// of links: finding the link among its source node's few edges costs one
// lookup of an ID, where a map keyed by whole links hashed three strings
// for every pin and every edge.
func (b *builder) attachPin(p pins.Pin) bool {
	g := b.g
	from, ok := g.byID[p.From]
	if !ok {
		return false
	}
	found := false
	for e := range g.Out(g.nodes[from], 0) {
		if e.Option() != p.Link.Link || g.To(e).ID() != p.To {
			continue
		}
		found = true
		if e.pin == 0 {
			g.pins = append(g.pins, Pin{Pos: p.Pos})
			e.pin = int32(len(g.pins))
		}
		g.pins[e.pin-1].Revisions = append(g.pins[e.pin-1].Revisions, p.Revision)
	}
	return found
}
