// Package review decides what seg review shows and writes
// (docs/revisions.md): the links whose pin no longer names their target's
// revision, the pins whose link is gone, under strict review the links
// with no pin; and the seg.lock that accepting some nodes' links, or every
// link, makes. The state of each link is evaluate's (LinkState); this
// package only gathers it per link and turns acceptance into pins.
package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// Kind is why a link needs a review.
type Kind uint8

const (
	// Stale: pinned, and its target changed since.
	Stale Kind = iota + 1
	// Unreviewed: strict review, and no pin.
	Unreviewed
	// Orphan: a pin for a link the tree does not have.
	Orphan
	// Condition: the link entry's condition (sphinx-needs 8's
	// "ID[condition]") does not hold for its target, or cannot be
	// evaluated: the link is stale (conditions.go).
	Condition
)

func (k Kind) String() string {
	switch k {
	case Stale:
		return "stale"
	case Unreviewed:
		return "unreviewed"
	case Orphan:
		return "orphan"
	case Condition:
		return "condition"
	}
	return "unknown"
}

// Item is one link that needs a review.
type Item struct {
	Kind Kind
	Link pins.Link
	// At is where the link is written: the first entry of it (a link
	// written twice in one option is one link). For an orphan pin it is
	// the seg.lock line.
	At source.Span
	// From and To are the link's nodes (nil for an orphan pin).
	From, To *graph.Node
	// Pinned are the revisions seg.lock names for the link (stale and
	// orphan; more than one only with a duplicate-pin error).
	Pinned []uint64
	// Current is the target's revision now (stale and unreviewed).
	Current uint64
	// Diff is what changed in the target, once Diffs has looked (stale
	// items only).
	Diff *Diff
	// Condition is the entry's condition and what it says of the target
	// (condition items only; At is the entry).
	Condition graph.Condition
}

// Review is what seg review found in a tree.
type Review struct {
	Check *check.Check
	// Items are the links that need a review, in seg.lock's order (FROM,
	// LINK, TO).
	Items []Item
}

// List gathers every link of the checked tree that needs a review. The
// links of outcomes made from results files are observations of the
// tree as it is: they are never pinned and never listed.
func List(c *check.Check) *Review {
	r := &Review{Check: c}
	g := c.Graph
	seen := map[pins.Link]bool{}
	for e := range g.Edges() {
		if !g.From(e).Pinnable() {
			continue
		}
		if cond := g.Condition(e); !cond.Holds() {
			r.Items = append(r.Items, Item{Kind: Condition, Link: g.Link(e), At: e.Span(), From: g.From(e), To: g.To(e),
				Current: g.To(e).Revision(), Condition: cond})
		}
		l := g.Link(e)
		if seen[l] {
			continue
		}
		seen[l] = true
		it := Item{Link: l, At: e.Span(), From: g.From(e), To: g.To(e), Current: g.To(e).Revision()}
		switch c.Result.LinkState(g, e) {
		case evaluate.Stale:
			// A link stale by its condition only is a condition item,
			// and unreviewed too when strict review wants a pin.
			p, ok := g.Pin(e)
			switch {
			case ok && pinStale(p, it.Current):
				it.Kind = Stale
				it.Pinned = p.Revisions
			case !ok && c.Config != nil && c.Config.RequirePins && g.From(e).Pinnable():
				it.Kind = Unreviewed
			default:
				continue
			}
		case evaluate.Unreviewed:
			it.Kind = Unreviewed
		default:
			continue
		}
		r.Items = append(r.Items, it)
	}
	for _, p := range g.OrphanPins() {
		it := Item{Kind: Orphan, Link: p.Link, At: source.At(p.Pos)}
		for _, q := range c.Lock.Pins {
			if q.Link == p.Link {
				it.Pinned = append(it.Pinned, q.Revision)
			}
		}
		r.Items = append(r.Items, it)
	}
	slices.SortStableFunc(r.Items, func(a, b Item) int {
		if c := a.Link.Compare(b.Link); c != 0 {
			return c
		}
		return cmp.Compare(a.Kind, b.Kind)
	})
	return r
}

// pinStale reports whether pin p names another revision than now.
func pinStale(p graph.Pin, now uint64) bool {
	for _, r := range p.Revisions {
		if r != now {
			return true
		}
	}
	return false
}

// Change is what seg review is asked to write.
type Change struct {
	// Accept are the IDs of nodes whose every link is pinned to its
	// target's current revision.
	Accept []string
	// All pins every link of the tree.
	All bool
	// Prune drops the orphan pins (every other change keeps them).
	Prune bool
}

// RefusedError is seg review refusing to rewrite a seg.lock with lines it
// cannot read: they would be dropped or changed silently.
type RefusedError struct{ Lines []string }

func (e *RefusedError) Error() string {
	return "seg.lock has lines that cannot be kept; fix or delete them first:\n  " + strings.Join(e.Lines, "\n  ")
}

// Refusal is the *RefusedError that keeps any command from rewriting
// seg.lock while it has lines seg cannot read, or nil.
func Refusal(c *check.Check) error {
	if !c.Lock.Refused() {
		return nil
	}
	var lines []string
	for _, d := range c.Lock.Diagnostics {
		pos := c.Files.Position(d.Span.Start)
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s [%s]", pos.Filename, pos.Line, pos.Column, d.Message, d.Code.Name))
	}
	return &RefusedError{lines}
}

// UnknownError is an --accept ID that names no node seg can pin.
type UnknownError struct{ ID, Why string }

func (e *UnknownError) Error() string { return fmt.Sprintf("seg review: --accept %s: %s", e.ID, e.Why) }

// Apply returns the pins seg.lock holds after the change: the pins it
// holds now (one per link), the links of every accepted node pinned to
// their targets' current revisions, the orphans dropped when pruning.
// suggest proposes an ID for one that names no node ("" for none).
func (r *Review) Apply(ch Change, suggest func(string) string) ([]pins.Pin, error) {
	c := r.Check
	if err := Refusal(c); err != nil {
		return nil, err
	}
	g := c.Graph
	accept := map[string]bool{}
	for _, id := range ch.Accept {
		n, ok := g.Lookup(id)
		switch {
		case !ok:
			why := "no node has this ID"
			if s := suggest(id); s != "" {
				why += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return nil, &UnknownError{id, why}
		case !n.Pinnable():
			return nil, &UnknownError{id, "no pin applies to it (an outcome made from a results file, or one kept under a made-up name)"}
		}
		accept[id] = true
	}
	orphan := map[pins.Link]bool{}
	for _, p := range g.OrphanPins() {
		orphan[p.Link] = true
	}
	byLink := map[pins.Link]pins.Pin{}
	for _, p := range c.Lock.Pins {
		if ch.Prune && orphan[p.Link] {
			continue
		}
		byLink[p.Link] = pins.Pin{Link: p.Link, Revision: p.Revision}
	}
	for e := range g.Edges() {
		from := g.From(e)
		if !from.Pinnable() || !(ch.All || accept[from.ID()]) {
			continue
		}
		l := g.Link(e)
		byLink[l] = pins.Pin{Link: l, Revision: g.To(e).Revision()}
	}
	out := make([]pins.Pin, 0, len(byLink))
	for _, p := range byLink {
		out = append(out, p)
	}
	return pins.Merge(out, nil), nil
}

// ImportPins are the pins of an outcome seg import writes under id: its
// confirms and witnesses links, each to its target's revision now (the
// run it records was observed on the tree as it is).
func ImportPins(c *check.Check, id string, n *parser.Node) []pins.Pin {
	var out []pins.Pin
	for _, name := range []string{"confirms", "witnesses"} {
		o := n.Option(name)
		if o == nil {
			continue
		}
		for _, l := range o.Links {
			if t, ok := c.Graph.Lookup(l.ID); ok {
				out = append(out, pins.Pin{Link: pins.Link{From: id, Link: name, To: l.ID}, Revision: t.Revision()})
			}
		}
	}
	return out
}
