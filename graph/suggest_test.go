package graph

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// referenceClosest is the suggester as it was first written: a map from
// each lowered ID to its first node, then every ID measured whose length
// could be close enough, by length and then in node order.
func referenceClosest(g *Graph, id string, want parser.Kind) string {
	lower := map[string]int32{}
	for i := range g.nodes {
		if _, dup := lower[strings.ToLower(g.nodes[i].id)]; !dup {
			lower[strings.ToLower(g.nodes[i].id)] = int32(i)
		}
	}
	if i, ok := lower[strings.ToLower(id)]; ok {
		return g.nodes[i].id
	}
	best, bestScore := "", 1<<30
	// Shorter IDs first, then in node order: a tie goes to the first.
	order := make([]int, len(g.nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(g.nodes[a].id) - len(g.nodes[b].id) })
	for _, i := range order {
		n := g.nodes[i]
		limit := diag.MaxTypos(max(len(id), len(n.id)))
		if len(n.id) < len(id)-3 || len(n.id) > len(id)+3 || len(n.id) < len(id)-limit || len(n.id) > len(id)+limit {
			continue
		}
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
	return best
}

// The suggester without maps gives what the map did, case-only matches
// across scripts included (a Kelvin sign lowers to "k", a dotted capital
// I to "i", a byte that is not UTF-8 to U+FFFD), before and after it
// builds its case index.
func TestSuggesterIsReference(t *testing.T) {
	pieces := []string{"REQ", "req", "Req", "SYS", "T", "-", "_", "1", "01", "001", "K", "k", "\u212a", "İ", "i", "I", "É", "é", "\xff", "\ufffd", "ß", "ẞ", "Σ", "σ", "ς"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for round := range 200 {
		var ids []string
		for range 1 + r.IntN(60) {
			ids = append(ids, word())
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		g := &Graph{nodes: make([]*Node, len(ids))}
		for i, id := range ids {
			g.nodes[i] = &Node{}
			g.nodes[i].id, g.nodes[i].kind = id, parser.Kind(1+r.IntN(3))
		}
		s := newSuggester(g)
		for q := range 3 * lowerIndexAfter {
			id := word()
			if q%3 == 0 {
				// A case change of a defined ID, rune by rune.
				id = strings.Map(func(c rune) rune {
					if r.IntN(2) == 0 {
						return []rune(strings.ToUpper(string(c)))[0]
					}
					return c
				}, ids[r.IntN(len(ids))])
			}
			want := parser.Kind(1 + r.IntN(3))
			ref := referenceClosest(g, id, want)
			// The second answer is the one kept from the first.
			for ask := range 2 {
				if got := s.closest(id, want); got != ref {
					t.Fatalf("round %d, lookup %d, asked %d times: closest(%q) = %q, want %q (IDs %q)", round, q, ask+1, id, got, ref, ids)
				}
			}
			if other := parser.Kind(1 + (int(want)+1)%3); s.closest(id, other) != referenceClosest(g, id, other) {
				t.Fatalf("round %d, lookup %d: closest(%q) for another kind is not its own", round, q, id)
			}
		}
	}
}

func TestLowerEqual(t *testing.T) {
	for _, a := range []string{"", "a", "A", "\u212a", "k", "K", "İ", "i", "\xff", "\ufffd", "ab\xffc", "AB\ufffdC", "ß", "ẞ", "Σσ", "σΣ"} {
		for _, b := range []string{"", "a", "A", "\u212a", "k", "K", "İ", "i", "\xff", "\ufffd", "ab\xffc", "AB\ufffdC", "ß", "ẞ", "Σσ", "σΣ"} {
			if got, want := lowerEqual(a, b), strings.ToLower(a) == strings.ToLower(b); got != want {
				t.Errorf("lowerEqual(%q, %q) = %t, want %t", a, b, got, want)
			}
		}
	}
}
