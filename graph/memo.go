package graph

import (
	"slices"
	"sync/atomic"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// Memo carries from one build to the next of the same tree what a build
// can reuse when the next one's input is the same in the respects that
// decide it, for a client that builds the graph again after every edit
// (the language server), where most edits leave every node's ID and
// position as they were. Each reuse is checked against the new input in
// full and replays only what a pure function of that input gave, so a
// build with a Memo is identical to one without; the checks cost a
// linear scan, where the work they save sorts or hashes every ID.
//
// A Memo is used by one build at a time; the graphs it helped build may
// share read-only data with later ones.
type Memo struct {
	// perm is the order the last sort of keys put them in: perm[j] is the
	// place in the input of the j-th key sorted.
	perm []int32
	// byID last time, and the names of the graph's nodes it indexes, in
	// order.
	byID  map[string]int32
	index []string
	// pn are the parses of the last graph's nodes, in order (a patch
	// keeps them up to date).
	pn []*parser.Node
	// The nodes of the last full build, in order, and their link entries'
	// targets (setUp); nil after a patch.
	tpn            []*parser.Node
	first, targets []int32
	// What patch builds on: the last build, the graph before it when it
	// was a patch, and the "did you mean" index of its IDs.
	last    *lastBuild
	prev    *Graph
	suggest *suggester
	// lock is the last build's seg.lock; lockHead and lockNext list its
	// lines by the ID they pin a link of (the first line of each ID, the
	// next line of the same ID, -1 after the last), made by the first
	// patch that needs them.
	lock     []pins.Pin
	lockHead map[string]int32
	lockNext []int32
	// reused counts the sorts and indexes replayed and the nodes whose
	// targets were copied (for the tests).
	reusedSort, reusedIndex int
	reusedTargets           atomic.Int64
}

// BuildMemo is BuildPinned reusing what m kept from the last build of
// the same tree, and keeping in m what the next can reuse. A nil m is
// BuildPinned. lock must not change once given (a new seg.lock is a new
// slice): a build patches the last graph only where its lock holds the
// same pins as the last build's, which is cheap to tell when it is the
// same slice.
func BuildMemo(fset *source.FileSet, files []*parser.File, extra []parser.Node, np *needs.Project, lock []pins.Pin, m *Memo) (*Graph, diag.List) {
	return buildPinned(fset, files, extra, np, lock, m)
}

// sortKeys sorts keys by cmp (sortParallel), replaying the order the last
// sort gave when it sorts these keys strictly: no two keys then compare
// equal, so there is one sorted order, the one the sort would give. An
// edit leaves the nodes of the files it did not touch in their places in
// the input, and most edits add, remove or rename none, so the order
// holds although an edited file's positions moved. When it does not
// hold, or two keys tie (where the sort's own choice would count), the
// keys are sorted.
func (m *Memo) sortKeys(keys []nodeKey, cmp func(a, b nodeKey) int) []nodeKey {
	if m == nil {
		return sortParallel(keys, cmp)
	}
	if len(m.perm) == len(keys) && len(keys) > 0 {
		out := make([]nodeKey, len(keys))
		out[0] = keys[m.perm[0]]
		ok := true
		for j := 1; j < len(keys); j++ {
			out[j] = keys[m.perm[j]]
			if cmp(out[j-1], out[j]) >= 0 {
				ok = false
				break
			}
		}
		if ok {
			m.reusedSort++
			return out
		}
	}
	for i := range keys {
		keys[i].i = int32(i)
	}
	keys = sortParallel(keys, cmp)
	m.perm = m.perm[:0]
	for _, k := range keys {
		m.perm = append(m.perm, k.i)
	}
	return keys
}

// lookup is the index by ID of nodes named keys (sorted, unique): the
// last build's when it indexed the same names in the same order.
func (m *Memo) lookup(keys []nodeKey) (byID map[string]int32, reused bool) {
	if m != nil && m.byID != nil && len(m.index) == len(keys) {
		same := true
		for i, k := range keys {
			if k.id != m.index[i] {
				same = false
				break
			}
		}
		if same {
			m.reusedIndex++
			return m.byID, true
		}
	}
	byID = make(map[string]int32, len(keys))
	for i, k := range keys {
		byID[k.id] = int32(i)
	}
	if m != nil {
		m.byID = byID
		m.index = m.index[:0]
		for _, k := range keys {
			m.index = append(m.index, k.id)
		}
	}
	return byID, false
}

// sameLock reports whether lock holds the pins the last build's did, in
// the same order, and keeps it for the next build.
func (m *Memo) sameLock(lock []pins.Pin) bool {
	same := len(lock) == len(m.lock) && (len(lock) == 0 || &lock[0] == &m.lock[0] || slices.Equal(lock, m.lock))
	if !same {
		m.lockHead, m.lockNext = nil, nil
	}
	m.lock = lock
	return same
}

// lockLines calls f with the place in m.lock of every line that pins a
// link from id, in file order.
func (m *Memo) lockLines(id string, f func(k int32)) {
	if m.lockHead == nil {
		m.lockHead = make(map[string]int32)
		m.lockNext = make([]int32, len(m.lock))
		for k := len(m.lock) - 1; k >= 0; k-- {
			next, ok := m.lockHead[m.lock[k].From]
			if !ok {
				next = -1
			}
			m.lockNext[k] = next
			m.lockHead[m.lock[k].From] = int32(k)
		}
	}
	k, ok := m.lockHead[id]
	for ok && k >= 0 {
		f(k)
		k = m.lockNext[k]
	}
}
