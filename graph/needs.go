package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// needLinks resolves the entries of one link option of a need
// (docs/sphinx-needs.md):
//
//   - a dynamic or variant function is kept open, by design, with no
//     diagnostic;
//   - "ID.part" resolves as needs.Resolve says;
//   - a target no node has is unresolved-link, unless the link type allows
//     dead links; either way the entry is kept open;
//   - a resolved entry of an option seg.toml maps onto a seg edge makes
//     that edge when both ends are of the edge's kinds, and a Link edge
//     otherwise: a sphinx-needs link is never wrong-kind.
func (b *builder) needLinks(from int32, o *parser.Option, lt *needs.LinkType, kind parser.Kind) {
	g := b.g
	spec, mapped := edgeSpec[lt.Edge]
	if !mapped && lt.Mapped() {
		// auto or a list: a suggestion looks among requirements.
		spec, mapped = edgeSpec["refines"], true
	}
	for j := range o.Links {
		l := &o.Links[j]
		if l.IsDynamic() {
			g.open = append(g.open, OpenLink{from: from, option: o.Name, link: *l, reason: Dynamic})
			continue
		}
		if needListedBefore(o.Links, j) {
			b.diag(diag.Diagnostic{
				Code:    CodeDuplicateLink,
				Message: fmt.Sprintf("%q is listed twice in :%s:", l.Address(), o.Name),
				Detail:  "Each entry still makes its own edge; remove the repeated one.",
				Span:    l.Span,
			})
		}
		to, part, ok := needs.Resolve(l.ID, l.Part, g.byID)
		noPart := ok && part != "" && g.nodes[to].partsKnown && !slices.Contains(g.nodes[to].extra().Parts, part)
		if noPart {
			// sphinx-needs reports a link to a part its need does not
			// define as it reports a link to no need (needs.link_outgoing).
			if lt.AllowDead {
				g.open = append(g.open, OpenLink{from: from, option: o.Name, link: *l, reason: Dangling})
				continue
			}
			b.diag(diag.Diagnostic{
				Code:    CodeUnresolvedLink,
				Message: fmt.Sprintf("unresolved link %q: need %q has no part %q", l.Address(), l.ID, part),
				Detail:  fmt.Sprintf("A need's parts are the :need_part: (:np:) roles in its content, \"(ID)text\" for the part ID; %q defines %s. This entry of :%s: adds no edge.", l.ID, partList(g.nodes[to].extra().Parts), o.Name),
				Span:    l.Span,
			})
			g.open = append(g.open, OpenLink{from: from, option: o.Name, link: *l, reason: Unresolved})
			g.nodes[from].broken = true
			continue
		}
		if !ok {
			if lt.AllowDead {
				g.open = append(g.open, OpenLink{from: from, option: o.Name, link: *l, reason: Dangling})
				continue
			}
			want := parser.Kind(0)
			if mapped {
				want = spec.target
			}
			msg := fmt.Sprintf("unresolved link %q", l.ID)
			if s := b.suggestion(l.ID, want); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			b.diag(diag.Diagnostic{
				Code:    CodeUnresolvedLink,
				Message: msg,
				Detail:  fmt.Sprintf("No node in the tree has the ID %q, so this entry of :%s: adds no edge. (A link type whose dead links are allowed is configured with allow_dead_links in ubproject.toml.)", l.ID, o.Name),
				Span:    l.Span,
			})
			g.open = append(g.open, OpenLink{from: from, option: o.Name, link: *l, reason: Unresolved})
			g.nodes[from].broken = true
			continue
		}
		typ, state, reversed := Link, parser.Active, false
		if name, rev, ok := mapLink(lt, kind, g.nodes[to].kind); ok {
			typ, reversed = edgeSpec[name].typ, rev
			if parser.StatefulLinks[name] {
				state = l.State
			}
		}
		e := newEdge(typ, from, to, state, l.Span)
		x := edgeExtra{option: o.Name, part: part, condition: l.Condition}
		if l.Condition != "" {
			x.cond = b.condition(from, to, o, l)
		}
		e.x = b.extra(x)
		if reversed {
			// The need named is the edge's start: the edge is its
			// own, handed to it once every node is linked (reversed).
			e.from, e.to = to, from
			b.reversed = append(b.reversed, e)
			continue
		}
		b.edges = append(b.edges, e)
	}
}

// extra stores x in a chunk shared by many edges: one allocation per
// thousand sphinx-needs edges rather than one each.
func (b *builder) extra(x edgeExtra) *edgeExtra {
	if len(b.extras) == cap(b.extras) {
		b.extras = make([]edgeExtra, 0, 1024)
	}
	b.extras = append(b.extras, x)
	return &b.extras[len(b.extras)-1]
}

// needListedBefore reports whether links[j] names the address an earlier
// entry already named.
func needListedBefore(links []parser.Link, j int) bool {
	for k := range j {
		if links[k].ID == links[j].ID && links[k].Part == links[j].Part && !links[k].IsDynamic() {
			return true
		}
	}
	return false
}

// partList names a need's parts for a message.
func partList(parts []string) string {
	if len(parts) == 0 {
		return "no part"
	}
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = fmt.Sprintf("%q", p)
	}
	return "the parts " + strings.Join(q, ", ")
}

// mapLink is the seg edge an entry of link type lt makes from a node of
// kind from to one of kind to: the first of the type's candidate edges
// whose kinds fit, and whether the edge runs from the node named back to
// the one the entry is written on (a reverse mapping). ok is false when
// none fits: the entry makes a Link edge.
func mapLink(lt *needs.LinkType, from, to parser.Kind) (edge string, reversed, ok bool) {
	edges, rev := lt.Candidates()
	if rev {
		from, to = to, from
	}
	for _, name := range edges {
		if s, known := edgeSpec[name]; known && s.from == from && (s.target == to || s.also != 0 && s.also == to) {
			return name, rev, true
		}
	}
	return "", false, false
}

// giveReversed hands each edge of a reverse mapping, made while its
// target was linked, to the node it leaves, keeping every node's edges
// sorted as setOut sorts them.
func (b *builder) giveReversed(reversed []Edge) {
	if len(reversed) == 0 {
		return
	}
	g := b.g
	touched := map[int32]bool{}
	for _, e := range reversed {
		n := g.nodes[e.from]
		n.out = append(n.out[:len(n.out):len(n.out)], e)
		touched[e.from] = true
	}
	for i := range touched {
		n := g.nodes[i]
		slices.SortFunc(n.out, func(x, y Edge) int {
			if x.typ != y.typ {
				return cmp.Compare(x.typ, y.typ)
			}
			if x.to != y.to {
				return cmp.Compare(x.to, y.to)
			}
			return b.files.Compare(x.Pos(), y.Pos())
		})
	}
}
