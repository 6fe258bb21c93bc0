package graph

import (
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// The index behind "did you mean": the IDs in byte order are a trie
// without a single node allocated (the IDs under a prefix are a run of
// the sorted list, and a child's run is found by binary search on its
// next byte). A lookup walks that trie once per edit limit, 1, 2, then 3,
// carrying the row of the edit distance between the path and the
// mistyped ID, and leaves a subtree as soon as every cell of the row is
// over the limit: no ID under it can come closer (a cell is at most one
// more than the one above it; diag.Distance prunes the same way). The
// first limit that finds an ID gives the answer, so a typo of one edit
// costs a walk near one path, and a link into another project (a prefix
// no ID shares) a walk that ends within a few bytes. Each candidate the
// walk reaches is measured with diag.Distance, as the scan over every ID
// of a close length measured it (referenceClosest in the tests), so the
// answers are the scan's.

// walkBudget bounds one lookup: the rows and candidates it may measure
// over all its limits. A lookup that needs more (a mistyped ID three edits
// from tens of thousands of numbered IDs, where any one of them would be
// a guess) gets no suggestion.
const walkBudget = 1 << 17

// trie is the sorted view of a graph's IDs.
type trie struct {
	ids   []string // in byte order
	nodes []int32  // ids[k] is the ID of node nodes[k]
}

func newTrie(g *Graph) *trie {
	t := &trie{ids: make([]string, len(g.nodes)), nodes: make([]int32, len(g.nodes))}
	for i, n := range g.nodes {
		t.ids[i], t.nodes[i] = n.id, int32(i)
	}
	if !slices.IsSorted(t.ids) {
		// The graph keeps its nodes in ID order; this is only a guard.
		order := make([]int, len(t.ids))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(g.nodes[a].id, g.nodes[b].id) })
		for k, i := range order {
			t.ids[k], t.nodes[k] = g.nodes[i].id, int32(i)
		}
	}
	return t
}

// walker is one lookup's state.
type walker struct {
	t     *trie
	g     *Graph
	q     string
	want  parser.Kind
	c     constraint // what a candidate must share with the query
	limit int        // the walk's edit limit
	rows  [][]int
	path  []byte
	steps int
	// the best candidate so far: its node, distance, score
	best             int32
	bestD, bestScore int
}

// closestIndexed is measure's answer from the trie: the candidate of the
// smallest distance, of the wanted kind before another, then the shortest,
// then the first in node order; "" when none is within diag.MaxTypos, or
// the lookup ran over its budget. A candidate must be one c allows.
func (s *suggester) closestIndexed(id string, want parser.Kind, c constraint) string {
	if s.trie == nil {
		s.trie = newTrie(s.g)
	}
	w := &walker{t: s.trie, g: s.g, q: id, want: want, c: c, best: -1}
	m := len(id)
	top := diag.MaxTypos(m + 3)
	w.rows = make([][]int, 0, m+top+2)
	for w.limit = 1; w.limit <= top; w.limit++ {
		w.row(0)
		for j := range w.rows[0] {
			w.rows[0][j] = j
		}
		w.path = w.path[:0]
		if !w.walk(0, len(w.t.ids), 0) {
			return ""
		}
		if w.best >= 0 {
			return s.g.nodes[w.best].id
		}
	}
	return ""
}

// row returns the row of depth d, allocated on first use.
func (w *walker) row(d int) []int {
	for len(w.rows) <= d {
		w.rows = append(w.rows, make([]int, len(w.q)+1))
	}
	return w.rows[d]
}

// walk visits the IDs ids[lo:hi], which share their first depth bytes
// (whose row is rows[depth]); false when the budget ran out.
func (w *walker) walk(lo, hi, depth int) bool {
	ids := w.t.ids
	if len(ids[lo]) == depth { // the prefix itself is an ID (sorted first)
		w.leaf(lo)
		lo++
	}
	if hi-lo == 1 {
		w.leaf(lo)
		return w.steps <= walkBudget
	}
	for lo < hi {
		c := ids[lo][depth]
		// The end of the run whose byte at depth is c.
		a, b := lo+1, hi
		for a < b {
			mid := int(uint(a+b) >> 1)
			if ids[mid][depth] <= c {
				a = mid + 1
			} else {
				b = mid
			}
		}
		w.steps++
		if w.steps > walkBudget {
			return false
		}
		if w.step(depth+1, c) <= w.limit {
			w.path = append(w.path, c)
			if !w.walk(lo, a, depth+1) {
				return false
			}
			w.path = w.path[:depth]
		}
		lo = a
	}
	return true
}

// step computes the row of depth d, whose last byte is c, and returns its
// smallest cell: the optimal-string-alignment distance of the path to
// every prefix of the query, as diag.Distance measures.
func (w *walker) step(d int, c byte) int {
	q := w.q
	prev, cur := w.rows[d-1], w.row(d)
	var back []int
	var pc byte
	if d > 1 {
		back, pc = w.rows[d-2], w.path[d-2]
	}
	cur[0] = d
	low := d
	for j := 1; j <= len(q); j++ {
		v := prev[j-1]
		if c != q[j-1] {
			v = min(prev[j], cur[j-1], v) + 1
			if back != nil && j > 1 && c == q[j-2] && pc == q[j-1] {
				v = min(v, back[j-2]+1)
			}
		} else {
			v = min(v, prev[j]+1, cur[j-1]+1)
		}
		cur[j] = v
		low = min(low, v)
	}
	return low
}

// leaf measures the ID ids[k] as the scan did, and keeps it when it is the
// best so far.
func (w *walker) leaf(k int) {
	w.steps++
	id := w.t.ids[k]
	m, l := len(w.q), len(id)
	lim := diag.MaxTypos(max(m, l))
	if l < m-3 || l > m+3 || l < m-lim || l > m+lim || !w.c.allows(id) {
		return
	}
	lim = min(lim, w.limit)
	d := diag.Distance(w.q, id, lim)
	if d > lim {
		return
	}
	i := w.t.nodes[k]
	score := 2 * d
	if w.g.nodes[i].kind != w.want {
		score++
	}
	if w.best >= 0 {
		bl := len(w.g.nodes[w.best].id)
		if score > w.bestScore || score == w.bestScore && (l > bl || l == bl && i > w.best) {
			return
		}
	}
	w.best, w.bestD, w.bestScore = i, d, score
}
