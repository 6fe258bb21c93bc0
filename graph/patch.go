package graph

import (
	"maps"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// An edit in an editor changes one file and, nearly always, none of the
// tree's IDs: the graph after it differs from the graph before only in
// the nodes of that file, the nodes they link to, and the findings about
// them. patch builds that graph from the last one, sharing every node it
// does not change (edges included), in time proportional to the edit
// rather than to the tree. It applies only where that is plainly the
// whole difference; everywhere else Build starts afresh. What it made
// anew is a Delta (delta.go), the one input evaluate.Update takes.
//
// An edit may also rename IDs, as a writer typing the end of an :id:
// does, provided that every renamed ID keeps its node's place in the ID
// order (inSlot), or one renamed ID moves over at most moveLimit nodes
// of its own kind (move: every index in between is then renamed to the
// ID of the node that moves onto it, and made anew), and no ID becomes,
// or stops being, one two nodes have: every index keeps its kind. The patch then also links again every
// node with an edge into a renamed node (it dangles now), with an open
// link to an old or a new ID (it may resolve now, or be of the wrong
// kind), and with an unresolved link (its "did you mean" reads every
// ID, from the last index updated: suggest_rename.go); the graph gets an
// index of the new IDs, and the seg.lock lines of an old ID are
// orphans. An edit that adds or removes an ID, or moves one further,
// would shift the index of every node after it (and every edge and
// verdict that names one): that is a full build.
//
// What a node of the graph reads from elsewhere, and so what patch must
// redo when a node changes:
//   - its own fields, edges, open links and link findings come from its
//     parse and from the kind of each node it names (kinds do not change
//     here), and a wrong-kind finding also shows where the target is;
//   - its in list holds the edges of the nodes that name it;
//   - its warnings read its edges and the kinds of the nodes they reach
//     (the warnings that read how outcomes stand are evaluate's);
//   - the refinement order, the cycles and their findings read every
//     refines edge and where it is written;
//   - an edge's pin is the seg.lock lines of its link, all of which name
//     the node it leaves; a line is an orphan pin when that node has no
//     edge of its link (or the tree no node of the ID);
//   - an edge's condition (and its finding) reads the fields of the node
//     it names: a change to that node links its source again.

// ownedDiag is a finding about one node, kept so that a patch can replace
// the findings of the nodes it changes and keep the others.
type ownedDiag struct {
	owner int32
	d     diag.Diagnostic
}

// lastBuild is what a Memo keeps of the last build for patch.
type lastBuild struct {
	g     *Graph
	files []*parser.File
	extra []parser.Node
	needs *needs.Project
	// dup names the IDs more than one node has: an edit to such a node
	// changes which one the graph keeps.
	dup map[string]bool
	// The build's findings by the step that made them; links and warns
	// are ordered by owner.
	dups, pins, cycles []diag.Diagnostic
	links, warns       []ownedDiag
	// orphans are the places in seg.lock of the lines pins warns of.
	orphans []int32
	// changed lists the nodes a patch made anew (nil after a full build).
	changed []int
	patched bool
}

// findings are the build's diagnostics in the order a full build makes
// them.
func (lb *lastBuild) findings() diag.List {
	n := len(lb.dups) + len(lb.links) + len(lb.pins) + len(lb.cycles) + len(lb.warns)
	if n == 0 {
		return nil // as a build without findings leaves them
	}
	out := make(diag.List, 0, n)
	out = append(out, lb.dups...)
	for _, o := range lb.links {
		out = append(out, o.d)
	}
	out = append(out, lb.pins...)
	out = append(out, lb.cycles...)
	for _, o := range lb.warns {
		out = append(out, o.d)
	}
	return out
}

// patchLimit is the share of the nodes (one in patchLimit) past which a
// patch would cost about what a build does.
const patchLimit = 8

// patchFloor is a number of nodes a patch always takes on.
const patchFloor = 1024

// patch builds the graph of files and extra from the last build, when the
// input differs from the last in the nodes of some files only, and those
// files have the same IDs, of the same kinds, in the same order as
// before, none an ID two nodes have. The caller has made sure lock is the
// last build's (sameLock). ok is false when it does not apply.
func (m *Memo) patch(fset *source.FileSet, files []*parser.File, extra []parser.Node, np *needs.Project, lock []pins.Pin) (*Graph, diag.List, bool) {
	lb := m.last
	if lb == nil || len(files) != len(lb.files) || len(extra) != len(lb.extra) ||
		len(extra) > 0 && &extra[0] != &lb.extra[0] {
		return nil, nil, false
	}
	if np != lb.needs || np.HasReverse() {
		// A reverse mapping gives a node edges written in another
		// node's file: an edit there relinks a node the patch would
		// not touch.
		return nil, nil, false
	}
	ed, ok := m.edited(files, np != nil)
	if !ok {
		return nil, nil, false
	}
	p := m.newPatcher(fset, np, ed)
	if len(p.relink) > patchFloor && len(p.relink) > len(lb.g.nodes)/patchLimit {
		return nil, nil, false
	}
	p.makeNodes(ed)
	if len(ed.renames) > 0 && m.suggest != nil {
		// "Did you mean" from the new IDs, made from the last one's index.
		p.b.suggest = m.suggest.renamed(p.g, ed.renames)
	}
	orphans, cycles := p.linkNodes(lock)
	if len(lock) > 0 {
		// The lines of an ID the tree no longer has are orphans.
		for id := range ed.removed() {
			m.lockLines(id, func(k int32) { orphans = append(orphans, k) })
		}
	}
	p.rewire()
	links := mergeBy(lb.links, p.b.owned(), diagOwner, p.isRelinked)
	p.b.resetDiags()
	orphanLines, pinDiags := lb.orphans, lb.pins
	if len(lock) > 0 {
		if lines, ok := reorphan(p.g, lock, lb.orphans, orphans, p.isRelinked, ed.removed()); !ok {
			orphanLines, pinDiags = lines, p.findings(func() { p.b.orphanPins(lock, lines) })
		}
	}
	cycleDiags := lb.cycles
	if cycles {
		cycleDiags = p.findings(p.b.cycles)
	}
	warns := p.warnings()
	m.prev = p.g0
	m.suggest = p.b.suggest
	if len(ed.renames) > 0 {
		// The index of the new IDs, for the next build to reuse.
		m.byID = p.g.byID
		for _, rn := range ed.renames {
			if int(rn.i) < len(m.index) {
				m.index[rn.i] = rn.now
			}
		}
	}
	m.last = &lastBuild{g: p.g, files: files, extra: extra, needs: np, dup: lb.dup,
		dups: lb.dups, pins: pinDiags, orphans: orphanLines, cycles: cycleDiags, links: links, warns: warns,
		changed: p.changed(cycles), patched: true}
	// The link targets a full build may copy were looked up for nodes
	// this patch replaced.
	m.tpn, m.first, m.targets = nil, nil, nil
	return p.g, m.last.findings(), true
}

// edit is the nodes of the files an edit changed: their indices in the
// graph (sorted), their new parse, and in a sphinx-needs tree the ID of
// the node whose body holds each.
type edit struct {
	dirty  []int32
	parse  map[int32]*parser.Node
	parent map[int32]string
	// renames are the nodes whose ID the edit changed, each keeping its
	// place in the ID order (matchFile, inSlot).
	renames []rename
}

// rename is a node (i) whose ID was and is now another.
type rename struct {
	i        int32
	was, now string
}

// removed is the set of the IDs the edit renamed away (a node's ID that
// only moved to another index is no ID removed).
func (ed *edit) removed() map[string]bool {
	if len(ed.renames) == 0 {
		return nil
	}
	out := make(map[string]bool, len(ed.renames))
	for _, rn := range ed.renames {
		out[rn.was] = true
	}
	for _, rn := range ed.renames {
		delete(out, rn.now)
	}
	return out
}

// edited finds the nodes of the files that are not the last build's,
// and reports false when a patch cannot take them (matchFile) or they
// are too many for a patch to pay.
func (m *Memo) edited(files []*parser.File, withParents bool) (edit, bool) {
	lb := m.last
	ed := edit{parse: map[int32]*parser.Node{}, parent: map[int32]string{}}
	for i, f := range files {
		old := lb.files[i]
		if f == old {
			continue
		}
		if f.Path != old.Path {
			return ed, false
		}
		var ok bool
		if ed.dirty, ok = m.matchFile(old, f, withParents, &ed); !ok {
			return ed, false
		}
		if len(ed.dirty) > patchFloor && len(ed.dirty) > len(lb.g.nodes)/patchLimit {
			return ed, false
		}
	}
	if !m.inSlot(ed.renames) {
		if len(ed.renames) != 1 || !m.move(&ed) {
			return ed, false
		}
	}
	slices.Sort(ed.dirty)
	ed.dirty = slices.Compact(ed.dirty)
	return ed, true
}

// moveLimit is the most nodes a renamed ID may move over in the ID order
// for patch to take the edit.
const moveLimit = 512

// move takes the one rename of ed whose new ID, new to the graph, sorts
// at another place in the ID order than the old one: every node between
// the two places moves one index towards the old place, and the renamed
// node takes the new one. patch then treats every index in between as
// renamed (to the ID of the node that now has it) and edited (its node
// is made anew from that node's parse), so that every node keeps an
// index the build of the new input gives it. It reports false, and the
// edit is built afresh, when the nodes in between are more than
// moveLimit, any is of another kind than the renamed one (an evaluation
// reads a node's kind at its index), a shadow, or not of this tree's
// files.
func (m *Memo) move(ed *edit) bool {
	g0 := m.last.g
	rn := ed.renames[0]
	if _, taken := g0.byID[rn.now]; taken {
		return false
	}
	i := int(rn.i)
	// j: the first index whose ID sorts after the new one, in the graph
	// before; the renamed node's new index is j, or j-1 when it moves up.
	j, _ := slices.BinarySearchFunc(g0.nodes, rn.now, func(n *Node, id string) int { return strings.Compare(n.id, id) })
	q := j
	if j > i {
		q = j - 1
	}
	lo, hi := min(i, q), max(i, q)
	if q == i || hi-lo > moveLimit {
		return false
	}
	kind := g0.nodes[i].kind
	for k := lo; k <= hi; k++ {
		if n := g0.nodes[k]; n.kind != kind || n.shadow || n.external || n.fromResults {
			return false
		}
	}
	// The parse and parent of the node at each index from lo to hi now.
	type slot struct {
		n      *parser.Node
		parent string
	}
	was := func(k int) slot {
		if n, ok := ed.parse[int32(k)]; ok {
			par, has := ed.parent[int32(k)]
			if !has {
				par = g0.nodes[k].parent
			}
			return slot{n, par}
		}
		return slot{m.pn[k], g0.nodes[k].parent}
	}
	now := make([]slot, hi-lo+1)
	for k := lo; k <= hi; k++ {
		from := k
		switch {
		case k == q:
			from = i
		case q > i:
			from = k + 1
		default:
			from = k - 1
		}
		now[k-lo] = was(from)
	}
	ed.renames = ed.renames[:0]
	for k := lo; k <= hi; k++ {
		sl := now[k-lo]
		id := sl.n.ID
		ed.renames = append(ed.renames, rename{i: int32(k), was: g0.nodes[k].id, now: id})
		ed.parse[int32(k)] = sl.n
		ed.parent[int32(k)] = sl.parent
		ed.dirty = append(ed.dirty, int32(k))
	}
	return true
}

// inSlot reports whether the IDs of renames, all new to the graph and
// none twice, sort where the IDs they replace did, between the IDs of
// the nodes before and after them (as renamed, where those are renamed
// too): the graph then has every node at its index, as a build of the
// new input would place it. An ID that moves in that order would shift
// the index of every node between its places: that edit is built afresh.
func (m *Memo) inSlot(renames []rename) bool {
	if len(renames) == 0 {
		return true
	}
	g0 := m.last.g
	now := make(map[int32]string, len(renames))
	seen := make(map[string]bool, len(renames))
	for _, rn := range renames {
		if _, taken := g0.byID[rn.now]; taken || seen[rn.now] {
			return false // a duplicate ID appears
		}
		seen[rn.now] = true
		now[rn.i] = rn.now
	}
	idAt := func(i int32) string {
		if id, ok := now[i]; ok {
			return id
		}
		return g0.nodes[i].id
	}
	for _, rn := range renames {
		if rn.i > 0 && idAt(rn.i-1) >= rn.now || int(rn.i)+1 < len(g0.nodes) && idAt(rn.i+1) <= rn.now {
			return false
		}
	}
	return true
}

// patcher is one patch under way: the graph before (g0), the graph it
// makes (g), the nodes it links again (relink) and those whose in list
// it makes again (rein, once rewire has run).
type patcher struct {
	m          *Memo
	g0, g      *Graph
	b          *builder
	relink     []int32
	isRelinked map[int32]bool
	rein       []int32
}

// newPatcher starts a patch of the last graph for the edit ed. Besides
// the nodes it edited, it links again the nodes that name one of them
// with a link of the wrong kind (their finding shows where it is), a
// link to one of its parts (which the edit may have added or removed) or
// a link that has a condition (it reads the target's fields). When the
// edit renames IDs it links again, too, every node with an edge into a
// renamed node (the edge now dangles), every node with an open link to
// an ID renamed away or to a new one (it may now resolve, or be of the
// wrong kind), and every node with an unresolved link (its "did you
// mean" reads the IDs); the graph gets an index of the new IDs.
func (m *Memo) newPatcher(fset *source.FileSet, np *needs.Project, ed edit) *patcher {
	g0 := m.last.g
	dirty := ed.dirty
	relink := slices.Clone(dirty)
	isDirty := make(map[int32]bool, len(dirty))
	for _, i := range dirty {
		isDirty[i] = true
	}
	var names map[string]bool
	if len(ed.renames) > 0 {
		names = make(map[string]bool, 2*len(ed.renames))
		for _, rn := range ed.renames {
			names[rn.was], names[rn.now] = true, true
			for _, e := range g0.nodes[rn.i].in {
				relink = append(relink, e.from)
			}
		}
	}
	for k := range g0.open {
		o := &g0.open[k]
		if names != nil && (o.reason == Unresolved || names[o.link.ID]) {
			relink = append(relink, o.from)
			continue
		}
		if to, ok := g0.byID[o.link.ID]; ok && (o.reason == WrongKind || o.link.Part != "") && isDirty[to] {
			relink = append(relink, o.from)
		}
	}
	// A link to a part of an edited need (the need may define the part
	// no longer, or now), and a link condition, which reads its target's
	// fields: the nodes that name a changed node so link again.
	for _, i := range dirty {
		for _, e := range g0.nodes[i].in {
			if e.x != nil && (e.x.part != "" || e.x.condition != "") {
				relink = append(relink, e.from)
			}
		}
	}
	slices.Sort(relink)
	relink = slices.Compact(relink)
	isRelinked := make(map[int32]bool, len(relink))
	for _, i := range relink {
		isRelinked[i] = true
	}
	byID, suggest := g0.byID, m.suggest
	if len(ed.renames) > 0 {
		byID = maps.Clone(g0.byID)
		for _, rn := range ed.renames {
			delete(byID, rn.was)
		}
		for _, rn := range ed.renames {
			byID[rn.now] = rn.i
		}
		suggest = nil // patch makes it from the last one, once the nodes are made
	}
	g := &Graph{nodes: slices.Clone(g0.nodes), numEdges: g0.numEdges, byID: byID, order: g0.order, cyclic: g0.cyclic,
		needs: g0.needs, files: fset, pinned: g0.pinned, orphans: g0.orphans, gen: nextGeneration()}
	b := &builder{g: g, files: fset, needs: np, suggest: suggest, pn: m.pn}
	return &patcher{m: m, g0: g0, g: g, b: b, relink: relink, isRelinked: isRelinked}
}

// makeNodes makes every relinked node anew, before any is linked: a
// wrong-kind finding shows where its target is now.
func (p *patcher) makeNodes(ed edit) {
	for _, i := range p.relink {
		old := p.g0.nodes[i]
		if n := ed.parse[i]; n != nil {
			p.m.pn[i] = n
		}
		parent, ok := ed.parent[i]
		if !ok {
			parent = old.parent
		}
		shadow := ""
		if old.shadow {
			shadow = old.id
		}
		p.g.nodes[i] = new(Node)
		p.b.fill(p.g.nodes[i], int(i), p.m.pn[i], shadow, parent)
	}
}

// linkNodes makes the relinked nodes' edges, open links and link
// findings, and gives their edges their pins. It returns the places in
// lock of the lines of their IDs that pin none of their links, and
// whether the refinement order and the cycles must be worked out again
// (a relinked node's refines edges changed, or it sits on a cycle, whose
// finding shows where its links are).
func (p *patcher) linkNodes(lock []pins.Pin) (orphans []int32, cycles bool) {
	for _, i := range p.relink {
		old, nn, n := p.g0.nodes[i], p.g.nodes[i], p.m.pn[i]
		p.g.numEdges -= len(old.out)
		targets := p.g.lookUp(n, nil)
		p.b.edges = make([]Edge, 0, len(targets))
		p.b.links(i, n, targets)
		p.b.setOut(nn, 0)
		p.g.numEdges += len(nn.out)
		if len(lock) > 0 {
			orphans = p.m.repin(p.b, old, nn, orphans)
		}
		if p.g0.cyclic[i] || !sameRefines(old, nn) {
			cycles = true
		}
	}
	return orphans, cycles
}

// rewire makes again the in lists of the relinked nodes and of every
// node they name, before or now, and the open links.
func (p *patcher) rewire() {
	g0, g := p.g0, p.g
	fresh := map[int32][]*Edge{}
	for _, i := range p.relink {
		p.rein = append(p.rein, i)
		for k := range g0.nodes[i].out {
			p.rein = append(p.rein, g0.nodes[i].out[k].to)
		}
		n := g.nodes[i]
		for k := range n.out {
			p.rein = append(p.rein, n.out[k].to)
			fresh[n.out[k].to] = append(fresh[n.out[k].to], &n.out[k])
		}
	}
	slices.Sort(p.rein)
	p.rein = slices.Compact(p.rein)
	for _, t := range p.rein {
		if !p.isRelinked[t] {
			nn := *g0.nodes[t]
			g.nodes[t] = &nn
		}
		// The edges into t of nodes not relinked, and of the relinked ones
		// now, in source order.
		g.nodes[t].in = mergeBy(g0.nodes[t].in, fresh[t], edgeFrom, p.isRelinked)
	}
	g.open = mergeBy(g0.open, g.open, openFrom, p.isRelinked)
}

// findings runs step on the patch's builder with no node as owner and
// returns the findings it made.
func (p *patcher) findings(step func()) diag.List {
	p.b.owner = -1
	step()
	d := p.b.diags
	p.b.resetDiags()
	return d
}

// warnings makes again the warnings of the nodes made anew and of every
// node that names one, and
// returns the graph's warnings.
func (p *patcher) warnings() []ownedDiag {
	warn := map[int32]bool{}
	for _, t := range p.rein {
		warn[t] = true
		for _, e := range p.g.nodes[t].in {
			warn[e.from] = true
		}
	}
	order := slices.Sorted(maps.Keys(warn))
	for _, i := range order {
		p.b.nodeWarnings(p.g.nodes[i])
	}
	return mergeBy(p.m.last.warns, p.b.owned(), diagOwner, warn)
}

// changed is the nodes the patch made anew (Memo.Delta). When the
// cycles were worked out again, a node may have joined or left one
// without an edge of its own changing: it is made anew too.
func (p *patcher) changed(cycles bool) []int {
	changed := make([]int, 0, len(p.rein))
	for _, t := range p.rein {
		changed = append(changed, int(t))
	}
	if !cycles {
		return changed
	}
	for i := range p.g.cyclic {
		if p.g.cyclic[i] != p.g0.cyclic[i] && p.g.nodes[i] == p.g0.nodes[i] {
			nn := *p.g0.nodes[i]
			p.g.nodes[i] = &nn
			changed = append(changed, i)
		}
	}
	slices.Sort(changed)
	return changed
}

// repin gives the edges of nn, a relinked node made anew in place of
// old, the pins of their links, as attachPins would, and adds to orphans
// the places of the lines of nn's ID that pin none of its links.
func (m *Memo) repin(b *builder, old, nn *Node, orphans []int32) []int32 {
	for k := range old.out {
		if old.out[k].pin != nil {
			b.g.pinned--
		}
	}
	m.lockLines(nn.id, func(k int32) {
		if !b.attachPin(nn, m.lock[k], 1) {
			orphans = append(orphans, k)
		}
	})
	return orphans
}

// reorphan is the places in lock of the orphan lines after a patch: was,
// those of the graph before, with the lines of relinked nodes and of the
// IDs renamed away (removed) replaced by now (theirs after the patch).
// ok is true when they are the same.
func reorphan(g *Graph, lock []pins.Pin, was, now []int32, relinked map[int32]bool, removed map[string]bool) (lines []int32, ok bool) {
	slices.Sort(now)
	var kept, gone []int32
	for _, k := range was {
		if from, ok := g.byID[lock[k].From]; ok && relinked[from] || removed[lock[k].From] {
			gone = append(gone, k)
		} else {
			kept = append(kept, k)
		}
	}
	if slices.Equal(gone, now) {
		return was, true
	}
	lines = append(kept, now...)
	slices.Sort(lines)
	return lines, false
}

// matchFile adds to ed.dirty the index of every node of f, the parse of
// a file that was old in the last build, with its new parse (and, in a
// sphinx-needs tree, its parent's ID), and to ed.renames the nodes whose
// ID changed. It reports false when f's nodes are not old's kinds in
// old's order, or one of them is a shadow, has an ID another node has or
// gets one (a duplicate, before or now), or has no ID.
func (m *Memo) matchFile(old, f *parser.File, withParents bool, ed *edit) ([]int32, bool) {
	lb := m.last
	dirty := ed.dirty
	was, now := keyed(old), keyed(f)
	if len(was) != len(now) {
		return dirty, false
	}
	var parents map[*parser.Node]string
	if withParents {
		parents = map[*parser.Node]string{}
		for i := range f.Nodes {
			if p := f.Nodes[i].Parent; p >= 0 && p < len(f.Nodes) {
				parents[&f.Nodes[i]] = f.Nodes[p].ID
			}
		}
	}
	for j, n := range now {
		o := was[j]
		if n == o {
			// The same parse; its parent may have been renamed.
			if i, ok := lb.g.byID[n.ID]; withParents && ok && n.ID != "" && lb.g.nodes[i].parent != parents[n] {
				dirty = append(dirty, i)
				ed.parent[i] = parents[n]
			}
			continue
		}
		if n.ID == "" || o.ID == "" || n.Kind != o.Kind || lb.dup[n.ID] || lb.dup[o.ID] {
			return dirty, false
		}
		i, ok := lb.g.byID[o.ID]
		if !ok || m.pn[i] != o {
			return dirty, false
		}
		if n.ID != o.ID {
			ed.renames = append(ed.renames, rename{i: i, was: o.ID, now: n.ID})
		}
		dirty = append(dirty, i)
		ed.parse[i] = n
		if withParents {
			ed.parent[i] = parents[n]
		}
	}
	return dirty, true
}

// keyed lists the nodes of f the graph keys (keep), in the order Build
// reads them.
func keyed(f *parser.File) []*parser.Node {
	var out []*parser.Node
	for _, list := range [][]parser.Node{f.Nodes, f.Rejected} {
		for i := range list {
			if n := &list[i]; n.Kind != 0 && (n.ID != "" || n.Kind == parser.Outcome) {
				out = append(out, n)
			}
		}
	}
	return out
}

// sameRefines reports whether a and b refine the same nodes in the same
// order (the refinement order and the cycles read nothing else of them).
func sameRefines(a, b *Node) bool {
	var x, y []int32
	for k := range a.out {
		if a.out[k].typ == Refines {
			x = append(x, a.out[k].to)
		}
	}
	for k := range b.out {
		if b.out[k].typ == Refines {
			y = append(y, b.out[k].to)
		}
	}
	return slices.Equal(x, y)
}

// mergeBy is old without the items whose key is in drop, and fresh (whose
// keys all are), in key order: both lists are ordered by key. It is nil
// when empty, as a build leaves an empty list.
func mergeBy[T any](old, fresh []T, key func(T) int32, drop map[int32]bool) []T {
	var out []T
	j := 0
	for _, o := range old {
		k := key(o)
		if drop[k] {
			continue
		}
		for j < len(fresh) && key(fresh[j]) < k {
			out = append(out, fresh[j])
			j++
		}
		out = append(out, o)
	}
	return append(out, fresh[j:]...)
}

func edgeFrom(e *Edge) int32      { return e.from }
func openFrom(o OpenLink) int32   { return o.from }
func diagOwner(o ownedDiag) int32 { return o.owner }
