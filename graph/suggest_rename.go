package graph

import (
	"maps"
	"slices"
	"strings"
)

// renamed is the suggester of g, a graph patched from s's graph by an
// edit that renamed the nodes of renames, each at its index and the ID
// order kept (patch.go, inSlot): what newSuggester(g) would be, made
// from s in time proportional to the renames rather than to the tree.
// Its answers are made anew (a new ID may be closer to a mistyped one);
// the length buckets are s's when no renamed ID changed length, the
// trie's sorted IDs are s's with the renamed ones replaced (the order
// holds), and the case-insensitive index and the prefix families are
// s's, updated, where that is plainly right, and made again at their
// first use otherwise.
func (s *suggester) renamed(g *Graph, renames []rename) *suggester {
	n := &suggester{g: g, start: s.start, byLen: s.byLen, nonASCII: s.nonASCII, lookups: s.lookups}
	sameLen, sameFamily := true, true
	for _, rn := range renames {
		sameLen = sameLen && len(rn.was) == len(rn.now)
		sameFamily = sameFamily && family(rn.was) == family(rn.now)
	}
	if !sameLen {
		n.byLength()
	}
	for _, rn := range renames {
		was, now := !isASCII(rn.was), !isASCII(rn.now)
		if was == now {
			continue
		}
		n.nonASCII = slices.Clone(n.nonASCII)
		k, found := slices.BinarySearch(n.nonASCII, rn.i)
		if found {
			n.nonASCII = slices.Delete(n.nonASCII, k, k+1)
		} else {
			n.nonASCII = slices.Insert(n.nonASCII, k, rn.i)
		}
	}
	if s.trie != nil && len(s.trie.ids) == len(g.nodes) {
		t := &trie{ids: slices.Clone(s.trie.ids), nodes: s.trie.nodes}
		for _, rn := range renames {
			if t.nodes[rn.i] != rn.i {
				t = nil // the guard's order: made again
				break
			}
			t.ids[rn.i] = rn.now
		}
		n.trie = t
	}
	if sameFamily {
		n.families = s.families
	}
	if s.lower != nil {
		n.lower = n.relower(s.lower, renames)
	}
	return n
}

// byLength makes the length buckets (byLen, start) of s's graph, as
// newSuggester does.
func (s *suggester) byLength() {
	g := s.g
	longest := 0
	for i := range g.nodes {
		longest = max(longest, len(g.nodes[i].id))
	}
	s.start = make([]int32, longest+2)
	for i := range g.nodes {
		s.start[len(g.nodes[i].id)+1]++
	}
	for n := 1; n < len(s.start); n++ {
		s.start[n] += s.start[n-1]
	}
	next := append([]int32(nil), s.start[:longest+1]...)
	s.byLen = make([]int32, len(g.nodes))
	for i := range g.nodes {
		l := len(g.nodes[i].id)
		s.byLen[next[l]] = int32(i)
		next[l]++
	}
}

// relower is the case-insensitive index (lowered ID -> first node in
// node order) of s's graph from was, that of the graph before the
// renames; nil when an ID renamed away is not all ASCII (the node that
// now comes first under its lowered form is found by a scan of the IDs
// of its length, which holds only for ASCII: made again at first use).
func (s *suggester) relower(was map[string]int32, renames []rename) map[string]int32 {
	lower := maps.Clone(was)
	for _, rn := range renames {
		if !isASCII(rn.was) {
			return nil
		}
		k := strings.ToLower(rn.was)
		if i, ok := lower[k]; ok && i == rn.i {
			delete(lower, k)
			for _, j := range s.ofLen(len(rn.was)) {
				if lowerEqual(rn.was, s.g.nodes[j].id) {
					lower[k] = j
					break
				}
			}
			for _, j := range s.nonASCII {
				if i, ok := lower[k]; ok && j >= i {
					break
				}
				if lowerEqual(rn.was, s.g.nodes[j].id) {
					lower[k] = j
					break
				}
			}
		}
	}
	for _, rn := range renames {
		k := strings.ToLower(rn.now)
		if i, ok := lower[k]; !ok || rn.i < i {
			lower[k] = rn.i
		}
	}
	return lower
}
