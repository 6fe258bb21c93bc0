package graph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/needs/model"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// CodeLinkMappingUnused is a [needs.links] mapping that makes no seg edge
// where the tree uses its option, or some of whose entries join kinds its
// edges do not take: one warning per option, with the count and the
// likely fix.
var CodeLinkMappingUnused = diag.NewWarning("link-mapping-unused",
	"a [needs.links] mapping whose option makes no seg edge where the tree uses it, or joins kinds its edge does not take")

// LinkMappingWarnings are the link-mapping-unused warnings of g: for each
// link type seg.toml maps, the resolved entries of its option that made
// no seg edge because of the kinds at their ends (docs/sphinx-needs.md,
// "Mapping link types"). Under "auto", an entry that joins a need of an
// unmapped type or an external need is left out: no edge is meant there.
func LinkMappingWarnings(g *Graph) diag.List {
	if g.needs == nil {
		return nil
	}
	type pair struct{ from, to parser.Kind }
	type use struct {
		lt          *needs.LinkType
		total, none int
		pairs       map[pair]int
		first       source.Pos
	}
	uses := map[string]*use{}
	for e := range g.Edges() {
		if e.x == nil {
			continue
		}
		lt := g.needs.Link(e.x.option)
		if lt == nil || !lt.Mapped() {
			continue
		}
		u := uses[e.x.option]
		if u == nil {
			u = &use{lt: lt, pairs: map[pair]int{}}
			uses[e.x.option] = u
		}
		u.total++
		if e.typ != Link {
			continue
		}
		from, to := g.nodes[e.from], g.nodes[e.to]
		if from.external || to.external || lt.Auto && (from.kind == parser.Need || to.kind == parser.Need) {
			continue
		}
		u.none++
		u.pairs[pair{from.kind, to.kind}]++
		if !u.first.IsValid() || g.files.Compare(e.pos, u.first) < 0 {
			u.first = e.pos
		}
	}
	var out diag.List
	for _, option := range slices.Sorted(func(yield func(string) bool) {
		for k := range uses {
			if !yield(k) {
				return
			}
		}
	}) {
		u := uses[option]
		if u.none == 0 {
			continue
		}
		ps := make([]pair, 0, len(u.pairs))
		for p := range u.pairs {
			ps = append(ps, p)
		}
		slices.SortFunc(ps, func(a, b pair) int {
			if u.pairs[a] != u.pairs[b] {
				return u.pairs[b] - u.pairs[a]
			}
			return strings.Compare(a.from.String()+a.to.String(), b.from.String()+b.to.String())
		})
		// The fix is told for the commonest pair of seg kinds; a pair
		// with a need of an unmapped type only when there is no other.
		fixPair := ps[0]
		for _, p := range ps {
			if p.from != parser.Need && p.to != parser.Need {
				fixPair = p
				break
			}
		}
		var kinds []string
		for _, p := range ps {
			kinds = append(kinds, fmt.Sprintf("%s→%s %d", p.from, p.to, u.pairs[p]))
		}
		mapping := fmt.Sprintf("[needs.links] %s = %s", option, needs.Mapping(u.lt))
		var msg string
		if u.none == u.total {
			msg = fmt.Sprintf("%s makes no edge: none of its %d entries joins kinds it takes (%s)", mapping, u.total, strings.Join(kinds, ", "))
		} else {
			msg = fmt.Sprintf("%s: %d of its %d entries make no edge (%s)", mapping, u.none, u.total, strings.Join(kinds, ", "))
		}
		out = append(out, diag.Diagnostic{
			Code:    CodeLinkMappingUnused,
			Message: msg,
			Detail:  linkMappingFix(option, u.lt, fixPair.from, fixPair.to),
			Span:    source.At(u.first),
		})
	}
	return out
}

// linkMappingFix says what would make an entry of option, from a node of
// kind from to one of kind to, an edge.
func linkMappingFix(option string, lt *needs.LinkType, from, to parser.Kind) string {
	key := option
	if strings.ContainsAny(key, ".:+! ") {
		key = fmt.Sprintf("%q", key)
	}
	what := fmt.Sprintf("These entries link %s to %s, which the mapping does not join; they are read and shown (seg graph) and count for no rule.",
		diag.Article(from.String()), diag.Article(to.String()))
	switch {
	case from == parser.Need || to == parser.Need:
		return what + " Map the need types at their ends in [needs.types] (requirement, test or implementation)."
	case lt.Auto:
		return what + " No seg edge joins these kinds: leave them, or map the need types otherwise."
	}
	for _, name := range model.AutoEdges {
		s := edgeSpec[name]
		if s.from == from && s.target == to {
			return what + fmt.Sprintf(" Likely fix: %s = %q (or \"auto\", which maps each entry by the kinds at its ends).", key, name)
		}
		if s.from == to && s.target == from {
			return what + fmt.Sprintf(" The need named is where the edge starts: likely fix: %s = { edge = %q, reverse = true }.", key, name)
		}
	}
	return what + " No seg edge joins these kinds: leave the option unmapped, or map the need types otherwise."
}
