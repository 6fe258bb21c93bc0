package graph

import (
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// suggester finds the defined ID closest to a mistyped one. IDs are bucketed
// by length so a lookup only measures IDs that could be close enough, which
// keeps "did you mean" cheap on trees with hundreds of thousands of IDs.
type suggester struct {
	g     *Graph
	byLen map[int][]int32
	lower map[string]int32
}

func newSuggester(g *Graph) *suggester {
	s := &suggester{g: g, byLen: map[int][]int32{}, lower: map[string]int32{}}
	for i := range g.nodes {
		id := g.nodes[i].id
		s.byLen[len(id)] = append(s.byLen[len(id)], int32(i))
		if _, dup := s.lower[strings.ToLower(id)]; !dup {
			s.lower[strings.ToLower(id)] = int32(i)
		}
	}
	return s
}

// closest returns the best candidate or "". A candidate of the wanted kind
// beats one of another kind at the same distance; ties go to the smaller ID
// (nodes are in ID order), so the hint is deterministic.
func (s *suggester) closest(id string, want parser.Kind) string {
	if i, ok := s.lower[strings.ToLower(id)]; ok {
		return s.g.nodes[i].id
	}
	best, bestScore := "", 1<<30
	for l := len(id) - 3; l <= len(id)+3; l++ {
		limit := diag.MaxTypos(max(len(id), l))
		if l < len(id)-limit || l > len(id)+limit {
			continue
		}
		for _, i := range s.byLen[l] {
			n := &s.g.nodes[i]
			d := diag.Distance(id, n.id, limit)
			if d > limit {
				continue
			}
			score := d * 2
			if n.kind != want {
				score++
			}
			if score < bestScore {
				best, bestScore = n.id, score
			}
		}
	}
	return best
}

// Closest is the defined ID closest to a mistyped one (a case-only
// difference first), or "" when none is close: the "did you mean" of
// commands that take an ID.
func (g *Graph) Closest(id string) string {
	return newSuggester(g).closest(id, ^parser.Kind(0)) // no kind is wanted over another
}
