package graph

import (
	"github.com/seg-trace/seg/diag"
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
	// The keys keep sorted last time, in input order (IDs and positions),
	// the names of the file set's files they were compared under, and the
	// order the sort put them in.
	ids   []string
	pos   []source.Pos
	names []string
	perm  []int32
	// byID last time, and the names of the graph's nodes it indexes, in
	// order.
	byID  map[string]int32
	index []string
	// reused counts the sorts and indexes replayed (for the tests).
	reusedSort, reusedIndex int
}

// BuildMemo is BuildPinned reusing what m kept from the last build of
// the same tree, and keeping in m what the next can reuse. A nil m is
// BuildPinned.
func BuildMemo(fset *source.FileSet, files []*parser.File, extra []parser.Node, cfg *parser.Config, lock []pins.Pin, m *Memo) (*Graph, diag.List) {
	return buildPinned(fset, files, extra, cfg, lock, m)
}

// sortKeys sorts keys by cmp (sortParallel), replaying the order the last
// sort gave when the keys are the same IDs at the same positions of
// files of the same names: the sort's comparisons then all come out as
// before, and it is deterministic, so it would give that order again.
func (m *Memo) sortKeys(fset *source.FileSet, keys []nodeKey, cmp func(a, b nodeKey) int) []nodeKey {
	if m == nil {
		return sortParallel(keys, cmp)
	}
	if m.same(fset, keys) {
		m.reusedSort++
		out := make([]nodeKey, len(keys))
		for j, i := range m.perm {
			out[j] = keys[i]
		}
		return out
	}
	m.ids = m.ids[:0]
	m.pos = m.pos[:0]
	for i := range keys {
		keys[i].i = int32(i)
		m.ids = append(m.ids, keys[i].id)
		m.pos = append(m.pos, keys[i].n.Pos)
	}
	m.names = m.names[:0]
	for _, f := range fset.Files() {
		m.names = append(m.names, f.Name())
	}
	keys = sortParallel(keys, cmp)
	m.perm = m.perm[:0]
	for _, k := range keys {
		m.perm = append(m.perm, k.i)
	}
	return keys
}

func (m *Memo) same(fset *source.FileSet, keys []nodeKey) bool {
	if len(keys) != len(m.ids) || len(m.perm) != len(keys) {
		return false
	}
	files := fset.Files()
	if len(files) != len(m.names) {
		return false
	}
	for i, f := range files {
		if f.Name() != m.names[i] {
			return false
		}
	}
	for i, k := range keys {
		if k.id != m.ids[i] || k.n.Pos != m.pos[i] {
			return false
		}
	}
	return true
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
