package graph

import (
	"slices"

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
// whole difference; everywhere else Build starts afresh.
//
// What a node of the graph reads from elsewhere, and so what patch must
// redo when a node changes:
//   - its own fields, edges, open links and link findings come from its
//     parse and from the kind of each node it names (kinds do not change
//     here), and a wrong-kind finding also shows where the target is;
//   - its in list holds the edges of the nodes that name it;
//   - its warnings read its edges and the nodes they reach, and for a
//     waiver of a test, that test's outcomes;
//   - the refinement order, the cycles and their findings read every
//     refines edge and where it is written;
//   - an edge's pin is the seg.lock lines of its link, all of which name
//     the node it leaves; a line is an orphan pin when that node has no
//     edge of its link (or the tree no node of the ID).

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

// Changed reports, after a build with m, whether it was a patch of the
// graph before (prev), and which nodes (by index, sorted) it made anew:
// every other node of the new graph is prev's, the same pointer with
// the same edges, and both graphs have the same nodes at the same
// indices. ok is false after a full build.
func (m *Memo) Changed() (prev *Graph, changed []int, ok bool) {
	if m == nil || m.last == nil || !m.last.patched {
		return nil, nil, false
	}
	return m.prev, m.last.changed, true
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
func (m *Memo) patch(fset *source.FileSet, files []*parser.File, extra []parser.Node, cfg *parser.Config, lock []pins.Pin) (*Graph, diag.List, bool) {
	lb := m.last
	if lb == nil || len(files) != len(lb.files) || len(extra) != len(lb.extra) ||
		len(extra) > 0 && &extra[0] != &lb.extra[0] {
		return nil, nil, false
	}
	var np *needs.Project
	if cfg != nil {
		np = cfg.Needs
	}
	if np != lb.needs {
		return nil, nil, false
	}
	g0 := lb.g
	// The nodes of the changed files, by index, with their new parse and
	// (a sphinx-needs tree) the ID of the node whose body holds them.
	var dirty []int32
	parse := map[int32]*parser.Node{}
	parent := map[int32]string{}
	for i, f := range files {
		old := lb.files[i]
		if f == old {
			continue
		}
		if f.Path != old.Path {
			return nil, nil, false
		}
		var ok bool
		if dirty, ok = m.matchFile(old, f, np != nil, dirty, parse, parent); !ok {
			return nil, nil, false
		}
		if len(dirty) > patchFloor && len(dirty) > len(g0.nodes)/patchLimit {
			return nil, nil, false
		}
	}
	slices.Sort(dirty)
	// Nodes that name a changed node with a link of the wrong kind show
	// where it is in their finding: link them again too.
	relink := slices.Clone(dirty)
	isDirty := make(map[int32]bool, len(dirty))
	for _, i := range dirty {
		isDirty[i] = true
	}
	for k := range g0.open {
		o := &g0.open[k]
		if o.reason != WrongKind {
			continue
		}
		if to, ok := g0.byID[o.link.ID]; ok && isDirty[to] {
			relink = append(relink, o.from)
		}
	}
	slices.Sort(relink)
	relink = slices.Compact(relink)

	g := &Graph{nodes: slices.Clone(g0.nodes), numEdges: g0.numEdges, byID: g0.byID, order: g0.order, cyclic: g0.cyclic,
		needs: g0.needs, files: fset, pinned: g0.pinned, orphans: g0.orphans}
	b := &builder{g: g, files: fset, needs: np, suggest: m.suggest}
	isRelinked := make(map[int32]bool, len(relink))
	cycles := false
	// Every node is made before any is linked: a wrong-kind finding shows
	// where its target is now.
	for _, i := range relink {
		isRelinked[i] = true
		old := g0.nodes[i]
		if n := parse[i]; n != nil {
			m.pn[i] = n
		}
		p, ok := parent[i]
		if !ok {
			p = old.parent
		}
		shadow := ""
		if old.shadow {
			shadow = old.id
		}
		g.nodes[i] = new(Node)
		b.fill(g.nodes[i], int(i), m.pn[i], shadow, p)
	}
	var orphans []int32 // the relinked nodes' orphan lines
	for _, i := range relink {
		old, nn, n := g0.nodes[i], g.nodes[i], m.pn[i]
		g.numEdges -= len(old.out)
		targets := make([]int32, 0, 8)
		for j := range n.Options {
			for _, l := range n.Options[j].Links {
				to, ok := g.byID[l.ID]
				if !ok {
					to = -1
				}
				targets = append(targets, to)
			}
		}
		b.edges = make([]Edge, 0, len(targets))
		b.owner = i
		b.links(i, n, targets)
		b.setOut(nn, 0)
		g.numEdges += len(nn.out)
		if len(lock) > 0 {
			orphans = m.repin(b, old, nn, orphans)
		}
		if g0.cyclic[i] || !sameRefines(old, nn) {
			cycles = true
		}
	}
	// The in lists of the relinked nodes and of every node they name,
	// before or now.
	var rein []int32
	for _, i := range relink {
		rein = append(rein, i)
		for _, n := range []*Node{g0.nodes[i], g.nodes[i]} {
			for k := range n.out {
				rein = append(rein, n.out[k].to)
			}
		}
	}
	slices.Sort(rein)
	rein = slices.Compact(rein)
	freshIn := map[int32][]*Edge{}
	for _, i := range relink {
		n := g.nodes[i]
		for k := range n.out {
			freshIn[n.out[k].to] = append(freshIn[n.out[k].to], &n.out[k])
		}
	}
	for _, t := range rein {
		if !isRelinked[t] {
			nn := *g0.nodes[t]
			g.nodes[t] = &nn
		}
		// The edges into t of nodes not relinked, and of the relinked ones
		// now, in source order.
		g.nodes[t].in = mergeBy(g0.nodes[t].in, freshIn[t], edgeFrom, isRelinked)
	}
	g.open = mergeBy(g0.open, g.open, openFrom, isRelinked)
	links := mergeBy(lb.links, b.owned(), diagOwner, isRelinked)
	b.resetDiags()
	orphanLines, pinDiags := lb.orphans, lb.pins
	if len(lock) > 0 {
		if lines, ok := reorphan(g, lock, lb.orphans, orphans, isRelinked); !ok {
			b.owner = -1
			b.orphanPins(lock, lines)
			orphanLines, pinDiags = lines, b.diags
			b.resetDiags()
		}
	}
	cycleDiags := lb.cycles
	if cycles {
		b.owner = -1
		b.cycles()
		cycleDiags = b.diags
		b.resetDiags()
	}
	// Warnings: of the nodes made anew, and of every node that names one.
	warn := map[int32]bool{}
	for _, t := range rein {
		warn[t] = true
		for _, e := range g.nodes[t].in {
			warn[e.from] = true
		}
	}
	order := make([]int32, 0, len(warn))
	for i := range warn {
		order = append(order, i)
	}
	slices.Sort(order)
	for _, i := range order {
		b.owner = i
		b.nodeWarnings(g.nodes[i])
	}
	warns := mergeBy(lb.warns, b.owned(), diagOwner, warn)

	changed := make([]int, 0, len(rein))
	for _, t := range rein {
		changed = append(changed, int(t))
	}
	if cycles {
		// A node may join or leave a cycle without an edge of its own
		// changing.
		for i := range g.cyclic {
			if g.cyclic[i] != g0.cyclic[i] && g.nodes[i] == g0.nodes[i] {
				nn := *g0.nodes[i]
				g.nodes[i] = &nn
				changed = append(changed, i)
			}
		}
		slices.Sort(changed)
	}
	m.prev = g0
	m.suggest = b.suggest
	m.last = &lastBuild{g: g, files: files, extra: extra, needs: np, dup: lb.dup,
		dups: lb.dups, pins: pinDiags, orphans: orphanLines, cycles: cycleDiags, links: links, warns: warns,
		changed: changed, patched: true}
	// The link targets a full build may copy were looked up for nodes
	// this patch replaced.
	m.tpn, m.first, m.targets = nil, nil, nil
	return g, m.last.findings(), true
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
// those of the graph before, with the lines of relinked nodes replaced
// by now (theirs after the patch). ok is true when they are the same.
func reorphan(g *Graph, lock []pins.Pin, was, now []int32, relinked map[int32]bool) (lines []int32, ok bool) {
	slices.Sort(now)
	var kept, gone []int32
	for _, k := range was {
		if from, ok := g.byID[lock[k].From]; ok && relinked[from] {
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

// matchFile adds to dirty the index of every node of f, the parse of a
// file that was old in the last build, with its new parse (and, in a
// sphinx-needs tree, its parent's ID). It reports false when f's nodes
// are not old's IDs and kinds in old's order, or one of them is a
// shadow or has an ID another node has.
func (m *Memo) matchFile(old, f *parser.File, withParents bool, dirty []int32, parse map[int32]*parser.Node, parent map[int32]string) ([]int32, bool) {
	lb := m.last
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
			continue // the same parse
		}
		if n.ID == "" || n.ID != o.ID || n.Kind != o.Kind || lb.dup[n.ID] {
			return dirty, false
		}
		i, ok := lb.g.byID[n.ID]
		if !ok || m.pn[i] != o {
			return dirty, false
		}
		dirty = append(dirty, i)
		parse[i] = n
		if withParents {
			parent[i] = parents[n]
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
