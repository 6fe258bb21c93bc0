package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seg-trace/seg/parser"
)

// suggester finds the defined ID closest to a mistyped one: a case-only
// match first (IDs bucketed by length, as two ASCII IDs that differ in
// case only have one length), then the trie of suggest_index.go, which
// measures only the IDs a walk bounded by the edit limit reaches, so "did
// you mean" stays cheap on trees with hundreds of thousands of IDs and
// thousands of unresolved links.
//
// It is built whenever a graph has an unresolved link, and the language
// server builds a graph at every edit (while an ID is being typed, its
// link is unresolved), so building it must cost little next to the
// build: the buckets are one counting sort, the trie is the nodes' own ID
// order, and the case-insensitive index is made only once enough lookups
// would pay for it.
type suggester struct {
	g *Graph
	// byLen holds the nodes ordered by the length of their ID, in node
	// (ID) order within a length: those of length n are
	// byLen[start[n]:start[n+1]].
	byLen []int32
	start []int32
	// nonASCII are the nodes whose ID is not all ASCII, in node order:
	// lowering such an ID may change its length.
	nonASCII []int32
	lookups  int
	lower    map[string]int32 // lowered ID -> first node, once built
	// lowerOver overrides lower after renames (suggest_rename.go): a
	// lowered ID's first node now, -1 where none has it any more. lower
	// is shared with the suggester it was made for.
	lowerOver map[string]int32
	// answers are the suggestions made so far. A suggester lives as long
	// as its IDs and kinds do (a Memo hands it from a graph to the graph
	// patched from it), and a writer typing in a file with a broken link
	// has that file's links resolved again at every keystroke.
	answers map[suggestion]string
	// trie is the IDs' index (suggest_index.go), made at the first lookup
	// that is no case-only match.
	trie *trie
	// families: see familyOf (suggest_external.go).
	families map[string]uint8
}

type suggestion struct {
	id   string
	want parser.Kind
	c    constraint
}

// lowerIndexAfter is how many lookups scan for a case-only match before
// the map that answers it at once is built.
const lowerIndexAfter = 8

func newSuggester(g *Graph) *suggester {
	s := &suggester{g: g}
	s.byLength()
	for i := range g.nodes {
		if !isASCII(g.nodes[i].id) {
			s.nonASCII = append(s.nonASCII, int32(i))
		}
	}
	return s
}

// ofLen lists the nodes whose ID is n bytes long, in node order.
func (s *suggester) ofLen(n int) []int32 {
	if n < 0 || n+1 >= len(s.start) {
		return nil
	}
	return s.byLen[s.start[n]:s.start[n+1]]
}

// closest returns the best candidate or "". A candidate of the wanted kind
// beats one of another kind at the same distance; ties go to the shorter
// ID, then the smaller (nodes are in ID order), so the hint is
// deterministic.
func (s *suggester) closest(id string, want parser.Kind) string {
	return s.closestWith(id, want, constraint{})
}

// closestWith is closest among the IDs c allows.
func (s *suggester) closestWith(id string, want parser.Kind, c constraint) string {
	key := suggestion{id, want, c}
	if a, ok := s.answers[key]; ok {
		return a
	}
	a := s.measure(id, want, c)
	if s.answers == nil {
		s.answers = map[suggestion]string{}
	}
	s.answers[key] = a
	return a
}

func (s *suggester) measure(id string, want parser.Kind, c constraint) string {
	if i, ok := s.caseOnly(id); ok && c.allows(s.g.nodes[i].id) {
		return s.g.nodes[i].id
	}
	return s.closestIndexed(id, want, c)
}

// caseOnly finds the first node (in ID order) whose ID lowered is id
// lowered, as strings.ToLower lowers.
func (s *suggester) caseOnly(id string) (int32, bool) {
	s.lookups++
	if s.lower == nil && s.lookups > lowerIndexAfter {
		s.lower = make(map[string]int32, len(s.g.nodes))
		for i := range s.g.nodes {
			key := strings.ToLower(s.g.nodes[i].id)
			if _, dup := s.lower[key]; !dup {
				s.lower[key] = int32(i)
			}
		}
	}
	if s.lower != nil {
		return s.lowerIndex(strings.ToLower(id))
	}
	best := int32(-1)
	scan := func(nodes []int32) {
		for _, i := range nodes {
			if best >= 0 && i >= best {
				return
			}
			if lowerEqual(id, s.g.nodes[i].id) {
				best = i
				return
			}
		}
	}
	if isASCII(id) {
		// Two ASCII IDs that differ in case only have the same length.
		scan(s.ofLen(len(id)))
		scan(s.nonASCII)
	} else {
		for i := range s.g.nodes {
			if lowerEqual(id, s.g.nodes[i].id) {
				return int32(i), true
			}
		}
	}
	return best, best >= 0
}

// lowerIndex is the first node whose ID lowered is key, from the
// case-insensitive index and its overrides.
func (s *suggester) lowerIndex(key string) (int32, bool) {
	if i, ok := s.lowerOver[key]; ok {
		return i, i >= 0
	}
	i, ok := s.lower[key]
	return i, ok
}

// lowerEqual reports whether strings.ToLower(a) == strings.ToLower(b),
// without making either: ToLower maps each rune (a byte that is not
// UTF-8 becoming U+FFFD, as decoding makes it).
func lowerEqual(a, b string) bool {
	for a != "" && b != "" {
		if a[0] < utf8.RuneSelf && b[0] < utf8.RuneSelf {
			if lowerASCII(a[0]) != lowerASCII(b[0]) {
				return false
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb && unicode.ToLower(ra) != unicode.ToLower(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == "" && b == ""
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Closest is the defined ID closest to a mistyped one (a case-only
// difference first), or "" when none is close: the "did you mean" of
// commands that take an ID.
func (g *Graph) Closest(id string) string {
	return newSuggester(g).closest(id, ^parser.Kind(0)) // no kind is wanted over another
}
