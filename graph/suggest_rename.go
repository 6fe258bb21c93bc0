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
		n.lower, n.lowerOver = s.lower, s.lowerOver
		if !n.relower(renames) {
			n.lower, n.lowerOver = nil, nil
		}
	}
	return n
}

// byLength makes the length buckets (byLen, start) of s's graph: a new
// suggester's, and a renamed graph's when the lengths moved.
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

// relower updates the case-insensitive index (lowered ID -> first node
// in node order) of the graph before the renames, which n holds (shared
// with that graph's suggester), for n's graph: the changes go into a
// copy of the overrides (lowerOver), not into the shared map, and once
// the overrides grow past lowerOverMax they are folded into a copy of
// it. It reports false, and the index is made again at first use, when
// an ID renamed away is not all ASCII (the node that now comes first
// under its lowered form is found by a scan of the IDs of its length,
// which holds only for ASCII).
func (n *suggester) relower(renames []rename) bool {
	over := make(map[string]int32, len(n.lowerOver)+2*len(renames))
	maps.Copy(over, n.lowerOver)
	n.lowerOver = over
	for _, rn := range renames {
		if !isASCII(rn.was) {
			return false
		}
		k := strings.ToLower(rn.was)
		if i, ok := n.lowerIndex(k); ok && i == rn.i {
			first := int32(-1)
			for _, j := range n.ofLen(len(rn.was)) {
				if lowerEqual(rn.was, n.g.nodes[j].id) {
					first = j
					break
				}
			}
			for _, j := range n.nonASCII {
				if first >= 0 && j >= first {
					break
				}
				if lowerEqual(rn.was, n.g.nodes[j].id) {
					first = j
					break
				}
			}
			over[k] = first
		}
	}
	for _, rn := range renames {
		k := strings.ToLower(rn.now)
		if i, ok := n.lowerIndex(k); !ok || rn.i < i {
			over[k] = rn.i
		}
	}
	if len(over) > lowerOverMax {
		lower := maps.Clone(n.lower)
		for k, i := range over {
			if i < 0 {
				delete(lower, k)
			} else {
				lower[k] = i
			}
		}
		n.lower, n.lowerOver = lower, nil
	}
	return true
}

// lowerOverMax is the most overrides of the case-insensitive index a
// suggester keeps before it folds them into a copy of the index (a
// variable, for the tests to fold at once).
var lowerOverMax = 1024
