package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// idGraph is a graph of the given IDs (sorted, unique) with random kinds.
func idGraph(r *rand.Rand, ids []string) *Graph {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	g := &Graph{nodes: make([]*Node, len(ids))}
	for i, id := range ids {
		g.nodes[i] = &Node{index: i}
		g.nodes[i].id, g.nodes[i].kind = id, parser.Kind(1+r.IntN(3))
	}
	return g
}

// typo makes up to n random edits (insertion, deletion, substitution,
// swap of two neighbours) to id.
func typo(r *rand.Rand, id string, n int) string {
	b := []byte(id)
	const alphabet = "ABCDERQST-_.0123456789abc"
	for range n {
		switch k := r.IntN(4); {
		case k == 0 || len(b) == 0:
			p := r.IntN(len(b) + 1)
			b = slices.Insert(b, p, alphabet[r.IntN(len(alphabet))])
		case k == 1:
			p := r.IntN(len(b))
			b = slices.Delete(b, p, p+1)
		case k == 2:
			b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
		case len(b) > 1:
			p := r.IntN(len(b) - 1)
			b[p], b[p+1] = b[p+1], b[p]
		}
	}
	return string(b)
}

// The index gives the scan's answer (referenceClosest): on numbered IDs of
// a few prefix families, on random short strings, for typos of one to four
// edits, unrelated IDs and prefixes of IDs.
func TestIndexIsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	families := []string{"REQ-", "SEG-SREQ-", "TS_", "IMPL.", "R", "sys-req-", "EXT_REQ_"}
	for round := range 60 {
		var ids []string
		n := 1 + r.IntN(400)
		for range n {
			if round%3 == 2 {
				ids = append(ids, typo(r, "", 1+r.IntN(8)))
				continue
			}
			f := families[r.IntN(len(families))]
			ids = append(ids, fmt.Sprintf("%s%0*d", f, 1+r.IntN(5), r.IntN(100000)))
		}
		g := idGraph(r, ids)
		s := newSuggester(g)
		for q := range 60 {
			var id string
			switch q % 4 {
			case 0, 1:
				id = typo(r, g.nodes[r.IntN(len(g.nodes))].id, 1+r.IntN(4))
			case 2:
				id = fmt.Sprintf("%s%d", families[r.IntN(len(families))], r.IntN(1000000))
			default:
				x := g.nodes[r.IntN(len(g.nodes))].id
				id = x[:r.IntN(len(x)+1)]
			}
			want := parser.Kind(1 + r.IntN(3))
			if got, ref := s.closest(id, want), referenceClosest(g, id, want); got != ref {
				t.Fatalf("round %d: closest(%q) = %q, the scan says %q", round, id, got, ref)
			}
		}
	}
}

// A prefix restricts the candidates: the closest ID that starts with it,
// or none.
func TestIndexPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := idGraph(r, []string{"REQ_001", "REQ_002", "EXT_REQ_009"})
	s := newSuggester(g)
	if got := s.closestWith("EXT_REQ_001", parser.Requirement, constraint{prefix: "EXT_"}); got != "EXT_REQ_009" {
		t.Errorf("with the prefix: %q", got)
	}
	if got := s.closestWith("OTH_REQ_001", parser.Requirement, constraint{prefix: "OTH_"}); got != "" {
		t.Errorf("a prefix no ID has: %q", got)
	}
	if got := s.closestWith("REQ_0001", parser.Requirement, constraint{}); got != "REQ_001" {
		t.Errorf("without a prefix: %q", got)
	}
}

// benchIDs is the tree of the benchmark: n IDs in four families.
func benchIDs(r *rand.Rand, n int) []string {
	families := []string{"SEG-SREQ-", "SEG-TS-", "SEG-IMPL-", "SYS-"}
	ids := make([]string, 0, n)
	for i := range n {
		ids = append(ids, fmt.Sprintf("%s%05d", families[i%len(families)], r.IntN(100000)))
	}
	return ids
}

// BenchmarkSuggest2000Of50000 is the case of issue 24: 2,000 unresolved
// links among 50,000 IDs, half typos of an ID (one or two edits), half
// links into another project whose needs.json is not there.
func BenchmarkSuggest2000Of50000(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	g := idGraph(r, benchIDs(r, 50000))
	links := make([]string, 2000)
	for i := range links {
		if i%2 == 0 {
			links[i] = typo(r, g.nodes[r.IntN(len(g.nodes))].id, 1+r.IntN(2))
		} else {
			links[i] = fmt.Sprintf("OTHER_REQ_%04d", r.IntN(10000))
		}
	}
	b.ResetTimer()
	for range b.N {
		s := newSuggester(g)
		for _, l := range links {
			s.closest(l, parser.Requirement)
		}
	}
}

// BenchmarkSuggestScan2000Of50000 is the same with the scan the index
// replaced, for the figure it is compared with.
func BenchmarkSuggestScan2000Of50000(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	g := idGraph(r, benchIDs(r, 50000))
	links := make([]string, 200)
	for i := range links {
		if i%2 == 0 {
			links[i] = typo(r, g.nodes[r.IntN(len(g.nodes))].id, 1+r.IntN(2))
		} else {
			links[i] = fmt.Sprintf("OTHER_REQ_%04d", r.IntN(10000))
		}
	}
	b.ResetTimer()
	for range b.N {
		s := newSuggester(g)
		for _, l := range links {
			scanClosest(s, l, parser.Requirement)
		}
	}
}

// scanClosest is the scan measure made before the index, for the
// benchmark's figure.
func scanClosest(s *suggester, id string, want parser.Kind) string {
	if i, ok := s.caseOnly(id); ok {
		return s.g.nodes[i].id
	}
	best, bestScore := "", 1<<30
	for l := len(id) - 3; l <= len(id)+3; l++ {
		limit := diag.MaxTypos(max(len(id), l))
		if l < len(id)-limit || l > len(id)+limit {
			continue
		}
		for _, i := range s.ofLen(l) {
			n := s.g.nodes[i]
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

// On a tree of the benchmark's shape the index gives the scan's answers:
// typos of one to three edits, numbers no ID has, links into another
// project.
func TestIndexIsScanLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("measures 20,000 IDs per lookup")
	}
	r := rand.New(rand.NewPCG(9, 10))
	g := idGraph(r, benchIDs(r, 20000))
	s := newSuggester(g)
	for i := range 45 {
		var l string
		switch i % 3 {
		case 0:
			l = typo(r, g.nodes[r.IntN(len(g.nodes))].id, 1+r.IntN(3))
		case 1:
			l = fmt.Sprintf("OTHER_REQ_%04d", r.IntN(10000))
		default:
			l = fmt.Sprintf("SEG-SREQ-%06d", r.IntN(1000000))
		}
		if a, b := s.closest(l, parser.Requirement), scanClosest(s, l, parser.Requirement); a != b {
			t.Errorf("closest(%q) = %q, the scan says %q", l, a, b)
		}
	}
}
