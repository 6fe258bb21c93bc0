package graph

import (
	"strings"

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
	limit := 1 + len(id)/5
	if limit > 3 {
		limit = 3
	}
	best, bestScore := "", 1<<30
	for l := len(id) - limit; l <= len(id)+limit; l++ {
		for _, i := range s.byLen[l] {
			n := &s.g.nodes[i]
			d := editDistance(id, n.id, limit)
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
// difference first), or "" when none is close: the one "did you mean" of
// every command that takes an ID.
func (g *Graph) Closest(id string) string {
	return newSuggester(g).closest(id, ^parser.Kind(0)) // no kind is wanted over another
}

// editDistance is the Levenshtein distance between a and b, or limit+1 as
// soon as it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
