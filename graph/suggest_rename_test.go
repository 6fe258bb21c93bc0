package graph

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/seg-trace/seg/parser"
)

// The suggester a patch makes from the last one after renames (each ID
// at its place in the order) is the one newSuggester makes of the new
// graph: the same buckets, trie, case-insensitive index and families,
// and the same answers, over IDs with case variants, IDs that are not
// ASCII, and renames that change an ID's length and its ASCII-ness.
func TestRenamedSuggesterIsNew(t *testing.T) {
	defer func(n int) { lowerOverMax = n }(lowerOverMax)
	for seed := range uint64(60) {
		lowerOverMax = []int{1024, 0}[seed%2] // odd seeds fold the overrides at once
		r := rand.New(rand.NewPCG(seed, 43))
		var ids []string
		for i := range 30 + r.IntN(40) {
			id := fmt.Sprintf("REQ-%d", i)
			switch r.IntN(6) {
			case 0:
				id = fmt.Sprintf("req-%d", i)
			case 1:
				id = fmt.Sprintf("RÉQ-%d", i)
			case 2:
				// A case variant: the case index keeps the first.
				ids = append(ids, fmt.Sprintf("req-%d", i))
			}
			ids = append(ids, id)
		}
		text := func(ids []string) map[string]string {
			var b strings.Builder
			for _, id := range ids {
				fmt.Fprintf(&b, ".. req:: T\n   :id: %s\n\n", id)
			}
			return map[string]string{"a.rst": b.String()}
		}
		fs, files := parseAll(nil, text(ids), "a.rst")
		g0, _ := Build(fs, files, nil, nil)
		s := newSuggester(g0)
		queries := []string{"REQ-1", "req-2", "Req-3", "RÉQ-4", "réq-5", "REQ-9-", "REQ-12-é", "REQ-x",
			"rEQ-6", "REQ-7x", "ReQ-8", "REQ-20-", "réq-11"}
		for _, q := range queries { // past lowerIndexAfter: the case index is made
			s.closest(q, parser.Requirement)
		}
		s.familyOf("")
		// Three rounds, each from the last one's suggester.
		for round := range 3 {
			// Rename a few nodes: a trailing "-", "-é" or "-x" (each sorts
			// right after the ID), or an "x" after the first letter (the ID
			// moves in the order, and every node between its places takes
			// the ID of its neighbour).
			renamedIDs := append([]string(nil), ids...)
			var renames []rename
			for range 1 + r.IntN(3) {
				k := r.IntN(len(ids))
				now := renamedIDs[k] + []string{"-", "-é", "-x", ""}[r.IntN(4)]
				if strings.HasSuffix(now, renamedIDs[k]) {
					now = now[:1] + "x" + now[1:] // it moves in the ID order
				}
				renamedIDs[k] = now
			}
			fs1, files1 := parseAll(nil, text(renamedIDs), "a.rst")
			g1, _ := Build(fs1, files1, nil, nil)
			for i := range g0.nodes {
				if g0.nodes[i].id != g1.nodes[i].id {
					renames = append(renames, rename{i: int32(i), was: g0.nodes[i].id, now: g1.nodes[i].id})
				}
			}
			if len(renames) == 0 {
				t.Fatalf("seed %d round %d: no rename", seed, round)
			}
			got, want := s.renamed(g1, renames), newSuggester(g1)
			for _, q := range queries {
				want.closest(q, parser.Requirement) // lookups made, as on s
			}
			want.familyOf("")
			kept := got.families != nil
			got.familyOf("") // made again at first use when not kept
			if want.trie == nil || want.lower == nil || got.trie == nil {
				t.Fatalf("seed %d: the indexes were not made", seed)
			}
			for _, c := range []struct {
				name string
				a, b any
			}{
				{"start", got.start, want.start}, {"byLen", got.byLen, want.byLen}, {"nonASCII", got.nonASCII, want.nonASCII},
				{"trie", got.trie, want.trie}, {"families", got.families, want.families},
			} {
				if !reflect.DeepEqual(c.a, c.b) {
					t.Fatalf("seed %d (%v): %s differs: %v, want %v", seed, renames, c.name, c.a, c.b)
				}
			}
			if got.lower != nil && !reflect.DeepEqual(lowered(got), want.lower) {
				t.Fatalf("seed %d (%v): the case index differs:\n%v\nwant\n%v", seed, renames, lowered(got), want.lower)
			}
			if kept && !reflect.DeepEqual(got.families, want.families) {
				t.Fatalf("seed %d: the kept families differ", seed)
			}
			for _, q := range append(queries, renamedIDs[0]+"x", "REQ-1-", "req-1-É") {
				if a, b := got.closest(q, parser.Requirement), want.closest(q, parser.Requirement); a != b {
					t.Fatalf("seed %d: %q: renamed suggests %q, new %q", seed, q, a, b)
				}
			}
			s, g0, ids = got, g1, renamedIDs
		}
	}
}

// lowered is s's case-insensitive index with its overrides applied.
func lowered(s *suggester) map[string]int32 {
	out := maps.Clone(s.lower)
	for k, i := range s.lowerOver {
		if i < 0 {
			delete(out, k)
		} else {
			out[k] = i
		}
	}
	return out
}
