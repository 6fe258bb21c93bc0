package graph

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/chunks"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// Build makes the graph from every parsed file plus extra nodes (outcomes
// read from test results), all of whose positions are in fset. It never
// fails: what does not fit becomes a diagnostic (in no particular order)
// and adds nothing to the graph. The input order does not matter: the same
// nodes in any order give an identical graph. When the tree is a
// sphinx-needs project np (config.Config.Needs, whose tables the files
// were parsed with), a need's link options make edges as the project and
// seg.toml's mapping say (docs/sphinx-needs.md); np is nil otherwise.
func Build(fset *source.FileSet, files []*parser.File, extra []parser.Node, np *needs.Project) (*Graph, diag.List) {
	return BuildPinned(fset, files, extra, np, nil)
}

// BuildPinned is Build with the pins of seg.lock: every edge gets the pin
// of its link, and a pin whose link the tree does not have is orphan-pin.
func BuildPinned(fset *source.FileSet, files []*parser.File, extra []parser.Node, np *needs.Project, lock []pins.Pin) (*Graph, diag.List) {
	return buildPinned(fset, files, extra, np, lock, nil)
}

func buildPinned(fset *source.FileSet, files []*parser.File, extra []parser.Node, np *needs.Project, lock []pins.Pin, m *Memo) (*Graph, diag.List) {
	if m != nil && m.sameLock(lock) {
		if g, diags, ok := m.patch(fset, files, extra, np, lock); ok {
			return g, diags
		}
	}
	var src []*parser.Node
	for _, f := range files {
		for i := range f.Nodes {
			src = append(src, &f.Nodes[i])
		}
		for i := range f.Rejected {
			src = append(src, &f.Rejected[i])
		}
	}
	for i := range extra {
		src = append(src, &extra[i])
	}
	var parents map[*parser.Node]string
	if np != nil {
		parents = map[*parser.Node]string{}
		for _, f := range files {
			for i := range f.Nodes {
				if p := f.Nodes[i].Parent; p >= 0 && p < len(f.Nodes) {
					parents[&f.Nodes[i]] = f.Nodes[p].ID
				}
			}
		}
	}
	g, diags := build(fset, src, np, parents, lock, m)
	if m != nil {
		m.last.files, m.last.extra, m.last.needs = files, extra, np
	}
	return g, diags
}

func build(fset *source.FileSet, src []*parser.Node, needs *needs.Project, parents map[*parser.Node]string, lock []pins.Pin, m *Memo) (*Graph, diag.List) {
	b := &builder{needs: needs, files: fset, owner: -1}
	if m != nil {
		b.dup = map[string]bool{}
	}
	keys := b.keep(src, m)
	byID, sameIndex := m.lookup(keys)
	g := &Graph{byID: byID, needs: needs, files: fset, gen: nextGeneration()}
	b.g = g
	pn := make([]*parser.Node, 0, len(keys))
	shadowOf := map[*parser.Node]string{}
	for _, k := range keys {
		pn = append(pn, k.n)
		if k.id != k.n.ID {
			shadowOf[k.n] = k.id
		}
	}
	var last *Memo
	if sameIndex && m.tpn != nil {
		last = m // its targets were looked up in the same index
	}
	first, targets := b.setUp(pn, shadowOf, parents, last)
	nDups := len(b.diags)
	b.makeEdges(pn, first, targets)
	nLinks := len(b.diags)
	b.owner = -1
	orphans := b.attachPins(lock)
	nPins := len(b.diags)
	b.cycles()
	nCycles := len(b.diags)
	b.warnings()
	if m != nil {
		m.pn, m.tpn, m.first, m.targets = pn, slices.Clone(pn), first, targets
		m.prev, m.suggest = nil, b.suggest
		owned := b.owned()
		m.last = &lastBuild{g: g, dup: b.dup,
			dups:    slices.Clone(b.diags[:nDups]),
			links:   owned[nDups:nLinks],
			pins:    slices.Clone(b.diags[nLinks:nPins]),
			orphans: orphans,
			cycles:  slices.Clone(b.diags[nPins:nCycles]),
			warns:   owned[nCycles:],
		}
	}
	return g, b.diags
}

// nodeKey is a node under the name the graph knows it by: its ID, or a
// shadow name (shadowID).
type nodeKey struct {
	id string
	n  *parser.Node
	i  int32 // the key's place in the input, where a Memo records the sort
}

// keep decides which nodes enter the graph, sorted by name. A node
// without an ID was already reported by the parser; nothing can link to
// it, so it stays out of the graph, and so does the second node of an ID.
// An outcome is the exception: it may be the evidence against a
// requirement, and bad input never makes that disappear (semantics.md).
// It stays, under a name no link can spell (shadowID).
func (b *builder) keep(src []*parser.Node, m *Memo) []nodeKey {
	fset := b.files
	// Sort small keys rather than the nodes themselves: the comparisons
	// then read memory in order, which matters at hundreds of thousands of
	// nodes.
	keys := make([]nodeKey, 0, len(src))
	var shadows []nodeKey
	for _, n := range src {
		switch {
		case n.Kind == 0:
		case n.ID != "":
			keys = append(keys, nodeKey{id: n.ID, n: n})
		case n.Kind == parser.Outcome:
			shadows = append(shadows, nodeKey{id: shadowID(fset, n, "(no :id:)"), n: n})
		}
	}
	byKey := func(a, b nodeKey) int {
		if a.id != b.id {
			return strings.Compare(a.id, b.id)
		}
		return fset.Compare(a.n.Pos, b.n.Pos)
	}
	keys = m.sortKeys(keys, byKey)
	unique := keys[:0]
	for i, k := range keys {
		if i == 0 || keys[i-1].id != k.id {
			unique = append(unique, k)
			continue
		}
		if k.n.Kind == parser.Outcome {
			k.id = shadowID(fset, k.n, k.id+" (again)")
			shadows = append(shadows, k)
		}
		if b.dup != nil {
			b.dup[k.n.ID] = true
		}
		b.duplicate(k, unique[len(unique)-1].n)
	}
	keys = unique
	if len(shadows) > 0 {
		keys = append(keys, shadows...)
		slices.SortFunc(keys, byKey)
	}
	return keys
}

// duplicate reports k, a node whose ID an earlier node (first) has.
func (b *builder) duplicate(k nodeKey, first *parser.Node) {
	left := "this one is left out of the graph"
	if k.id != k.n.ID {
		left = fmt.Sprintf("this outcome stays in the graph as %q and counts as invalid for every test it confirms", k.id)
	}
	b.diag(diag.Diagnostic{
		Code:    CodeDuplicateID,
		Message: fmt.Sprintf("duplicate ID %q (first defined at %s)", k.n.ID, b.files.Position(first.Pos)),
		Detail:  "IDs are unique across the whole tree. The first definition (by file, line and column) is the one links resolve to; " + left + ".",
		Span:    idSpan(k.n),
		Related: []diag.Related{{Span: idSpan(first), Message: fmt.Sprintf("%q first defined here", k.n.ID)}},
	})
}

// setUp makes the graph's nodes from pn and looks up every link entry's
// target (-1 when it names no node); node i's entries are
// targets[first[i]:first[i+1]]. Both run on every core: they only read
// what is built before and write their own slots, and the map lookups
// (cache misses, most of the build) are what a large tree spends its
// time on.
//
// last, when not nil, is the Memo of a build whose index named the same
// nodes in the same order: a node at the same place is the same parser
// node (parses are never changed once made) has its link entries' targets
// copied from it, not looked up again.
func (b *builder) setUp(pn []*parser.Node, shadowOf map[*parser.Node]string, parents map[*parser.Node]string, last *Memo) (first, targets []int32) {
	g := b.g
	g.nodes = make([]*Node, len(pn))
	// One array holds the nodes of a full build; a build after an edit
	// allocates only the nodes it changes (Memo).
	backing := make([]Node, len(pn))
	first = make([]int32, len(pn)+1)
	for i, n := range pn {
		k := first[i]
		for j := range n.Options {
			k += int32(len(n.Options[j].Links))
		}
		first[i+1] = k
	}
	targets = make([]int32, first[len(pn)])
	parallel(len(pn), func(lo, hi int) {
		copied := 0
		defer func() {
			if last != nil {
				last.reusedTargets.Add(int64(copied))
			}
		}()
		for i := lo; i < hi; i++ {
			n := pn[i]
			g.nodes[i] = &backing[i]
			b.fill(g.nodes[i], i, n, shadowOf[n], parents[n])
			if last != nil && i < len(last.tpn) && last.tpn[i] == n &&
				last.first[i+1]-last.first[i] == first[i+1]-first[i] {
				copy(targets[first[i]:first[i+1]], last.targets[last.first[i]:last.first[i+1]])
				copied++
				continue
			}
			g.lookUp(n, targets[first[i]:first[i]])
		}
	})
	return first, targets
}

// lookUp appends to dst the node each link entry of n names, in option
// order, -1 where none has the ID.
func (g *Graph) lookUp(n *parser.Node, dst []int32) []int32 {
	for j := range n.Options {
		for _, l := range n.Options[j].Links {
			to, ok := g.byID[l.ID]
			if !ok {
				to = -1
			}
			dst = append(dst, to)
		}
	}
	return dst
}

// makeEdges makes the edges of every node's links, in node order on one
// core (the diagnostics come out in order); each node's own edges are
// sorted by type, target and position, and then indexed.
//
// On a large tree the links are resolved on every core first, each core
// taking a contiguous run of nodes with a builder of its own (its edges,
// open links, diagnostics and "did you mean" index) over a shallow copy
// of the graph: it writes only its own nodes and reads of the others
// only what setUp made. The runs are then joined in node order, which
// gives what one core gives.
func (b *builder) makeEdges(pn []*parser.Node, first, targets []int32) {
	g := b.g
	b.pn = pn
	run := func(pb *builder, lo, hi int) {
		// Every link entry makes at most one edge: the array never grows.
		pb.edges = make([]Edge, 0, first[hi]-first[lo])
		for i := lo; i < hi; i++ {
			start := len(pb.edges)
			pb.links(int32(i), pn[i], targets[first[i]:first[i+1]])
			pb.setOut(g.nodes[i], start)
		}
	}
	if workers := min(runtime.GOMAXPROCS(0), len(pn)/parallelChunk+1); workers > 1 {
		parts := make([]*builder, workers)
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := len(pn)*w/workers, len(pn)*(w+1)/workers
			part := *g
			part.open = nil
			pb := &builder{g: &part, files: b.files, needs: b.needs, pn: pn}
			parts[w] = pb
			wg.Add(1)
			go func() {
				defer wg.Done()
				run(pb, lo, hi)
			}()
		}
		wg.Wait()
		for _, pb := range parts {
			g.open = append(g.open, pb.g.open...)
			b.diags = append(b.diags, pb.diags...)
			b.owners = append(b.owners, pb.owners...)
			b.reversed = append(b.reversed, pb.reversed...)
		}
	} else {
		run(b, 0, len(pn))
	}
	b.giveReversed(b.reversed)
	b.reversed = nil
	g.adjacency()
}

// setOut makes the edges made since start n's own, sorted.
func (b *builder) setOut(n *Node, start int) {
	out := b.edges[start:len(b.edges):len(b.edges)]
	if len(out) > 1 {
		slices.SortFunc(out, func(x, y Edge) int {
			if x.typ != y.typ {
				return cmp.Compare(x.typ, y.typ)
			}
			if x.to != y.to {
				return cmp.Compare(x.to, y.to)
			}
			return b.files.Compare(x.Pos(), y.Pos())
		})
	}
	if len(out) == 0 {
		out = nil
	}
	n.out = out
}

// shadowID names an outcome the graph keeps although links cannot reach
// it (no :id:, or the ID of an earlier node): the name holds spaces, which
// no ID written in a link option can, so it names nothing else.
func shadowID(fset *source.FileSet, n *parser.Node, what string) string {
	return fmt.Sprintf("%s at %s", what, fset.Position(n.Pos))
}

// sortParallel sorts s by cmp, a total order, sorting its two halves on
// two cores and merging them when s is large; it may return a new slice.
func sortParallel[T any](s []T, cmp func(a, b T) int) []T {
	if len(s) < 4*parallelChunk || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(s, cmp)
		return s
	}
	mid := len(s) / 2
	done := make(chan struct{})
	go func() {
		slices.SortFunc(s[:mid], cmp)
		close(done)
	}()
	slices.SortFunc(s[mid:], cmp)
	<-done
	out := make([]T, 0, len(s))
	a, b := s[:mid], s[mid:]
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// parallelChunk is the least work worth a goroutine (a variable so the
// tests can compare a parallel build with a sequential one).
var parallelChunk = 4096

// parallel runs f over [0, n) on every core, in chunks of at least
// parallelChunk.
func parallel(n int, f func(lo, hi int)) { chunks.Run(n, parallelChunk, f) }

// adjacency fills every node's in list, in edge order, as windows on one
// shared array (one allocation instead of one per node).
func (g *Graph) adjacency() {
	inN := make([]int32, len(g.nodes)+1)
	total := 0
	for _, n := range g.nodes {
		for k := range n.out {
			inN[n.out[k].to+1]++
		}
		total += len(n.out)
	}
	for i := 1; i < len(inN); i++ {
		inN[i] += inN[i-1]
	}
	in := make([]*Edge, total)
	for i, n := range g.nodes {
		if inN[i] < inN[i+1] {
			n.in = in[inN[i]:inN[i]:inN[i+1]]
		}
	}
	for _, n := range g.nodes {
		for k := range n.out {
			t := g.nodes[n.out[k].to]
			t.in = append(t.in, &n.out[k])
		}
	}
	g.numEdges = total
}

type builder struct {
	g       *Graph
	files   *source.FileSet
	diags   diag.List
	suggest *suggester
	needs   *needs.Project
	extras  []edgeExtra // see extra
	edges   []Edge      // the edges links makes, before setOut hands them out
	// reversed are the edges of reverse mappings links makes: each
	// leaves the node the entry names (giveReversed).
	reversed []Edge
	// owner is the node the findings made now are about (-1: none, or
	// several), owners that of each finding in diags; dup, when not nil,
	// collects the IDs more than one node has (for a Memo).
	owner  int32
	owners []int32
	dup    map[string]bool
	// pinSlab is where attachPin allocates pins.
	pinSlab []Pin
	// pn are the parses of the graph's nodes, by index, which link
	// conditions read of their targets; filters the conditions parsed.
	pn      []*parser.Node
	filters map[string]condFilter
}

func (b *builder) diag(d diag.Diagnostic) {
	b.diags = append(b.diags, d)
	b.owners = append(b.owners, b.owner)
}

// owned pairs every finding with its owner.
func (b *builder) owned() []ownedDiag {
	out := make([]ownedDiag, len(b.diags))
	for i, d := range b.diags {
		out[i] = ownedDiag{b.owners[i], d}
	}
	return out
}

func (b *builder) resetDiags() { b.diags, b.owners = nil, nil }

// fill makes nn, node i of the graph, from its parse n: a shadow outcome
// gets the name shadow, a need its parent's ID.
func (b *builder) fill(nn *Node, i int, n *parser.Node, shadow, parent string) {
	initNode(nn, i, n)
	if shadow != "" {
		nn.id, nn.shadow, nn.broken = shadow, true, true
	}
	if b.needs != nil {
		nn.need = b.needs.Type(n.Directive) != nil
		nn.parent = parent
		if nn.need && !n.External && !n.Imported {
			nn.partsKnown = true
			if parts := parser.NeedParts(n.Body); parts != nil {
				nn.moreData().Parts = parts
			}
		}
	}
}

// repeated reports whether options[i] repeats an earlier option's name. A
// node has a handful of options, so a scan beats a map.
func repeated(options []parser.Option, i int) bool {
	for j := range i {
		if options[j].Name == options[i].Name {
			return true
		}
	}
	return false
}

func idSpan(n *parser.Node) source.Span {
	if o := n.Option("id"); o != nil && o.ValuePos.IsValid() {
		return source.Span{Start: o.ValuePos, End: o.ValuePos.Add(len(n.ID))}
	}
	return source.At(n.Pos)
}

// initNode fills g in place: the graph's node slice is allocated once, and
// building each node where it lives saves a copy of a large struct.
func initNode(g *Node, index int, n *parser.Node) {
	g.index = index
	g.id = n.ID
	g.kind = n.Kind
	g.pn = n
	g.broken = n.Broken
	g.revision = n.Revision
	g.fromResults = n.FromResults
	g.external = n.External
	var oc *outcomeData
	if n.Kind == parser.Outcome {
		oc = &outcomeData{CaseNames: n.CaseNames}
		g.oc = oc
	}
	resultRaw := ""
	for i, o := range n.Options {
		if repeated(n.Options, i) {
			continue // a repeated option was reported by the parser; the first counts
		}
		switch {
		case o.Name == "id":
		case n.Kind == parser.Outcome && o.Name == "result":
			resultRaw = o.Value
			oc.ResultRaw = o.Value
		case n.Kind == parser.Outcome && o.Name == "config":
			oc.Config = o.Value
		case n.Kind == parser.Waiver && o.Name == "expires":
			m := g.moreData()
			m.HasExpires = true
			m.ExpiresText = strings.TrimSpace(o.Value)
			if t, err := time.Parse(time.DateOnly, m.ExpiresText); err == nil {
				m.Expires, m.ExpiresOK = t, true
			}
		case n.Kind == parser.Implementation && o.Name == "source":
			g.sources = o.Value
		case n.Kind == parser.Test && o.Name == "cases":
			g.cases = o.Value
		case n.Kind == parser.Test && o.Name == "max-age":
			g.hasMaxAge = true
			if v := strings.TrimSpace(o.Value); parser.ValidMaxAge(v) {
				g.maxAge, _ = strconv.Atoi(v)
			}
		case n.Kind == parser.Outcome && o.Name == "date":
			oc.HasDate = true
			if t, err := time.Parse(time.DateOnly, strings.TrimSpace(o.Value)); err == nil {
				oc.Date, oc.DateOK = t, true
			}
		case n.Kind == parser.Waiver && o.Name == "date":
			m := g.moreData()
			m.HasDate = true
			if t, err := time.Parse(time.DateOnly, strings.TrimSpace(o.Value)); err == nil {
				m.Date, m.DateOK = t, true
			}
		case n.Kind == parser.Waiver && o.Name == "cases":
			m := g.moreData()
			m.CasesPos = o.Pos
			for _, l := range o.Links {
				m.WaiverCases = append(m.WaiverCases, l.ID)
			}
		case o.Links != nil:
			// a link option (of a need: every link type of the project)
		default:
			if _, isKindOption := parser.OptionsOf(n.Kind)[o.Name]; !isKindOption {
				g.attrs = append(g.attrs, Attr{Name: o.Name, Value: o.Value})
			}
		}
	}
	g.result = ParseResult(strings.TrimSpace(resultRaw))
}

// moreData is g's moreData, made when it has none.
func (g *Node) moreData() *moreData {
	if g.more == nil {
		g.more = &moreData{}
	}
	return g.more
}

// listedBefore reports whether links[j] names a target an earlier entry
// already named.
func listedBefore(links []parser.Link, j int) bool {
	for k := range j {
		if links[k].ID == links[j].ID {
			return true
		}
	}
	return false
}

// links resolves every link entry of node n into edges.
// links makes the edges of node from, n; targets holds the index of the
// node every link entry of n names (in option order, -1 when none).
func (b *builder) links(from int32, n *parser.Node, targets []int32) {
	g := b.g
	b.owner = from
	isNeed := b.needs.Type(n.Directive) != nil
	for i := range n.Options {
		o := &n.Options[i]
		ts := targets[:len(o.Links)]
		targets = targets[len(o.Links):]
		if isNeed {
			if lt := b.needs.Link(o.Name); lt != nil && !repeated(n.Options, i) {
				b.needLinks(from, o, lt, n.Kind)
			}
			continue
		}
		spec, ok := edgeSpec[o.Name]
		if !ok || spec.from != n.Kind || repeated(n.Options, i) {
			continue
		}
		for j, l := range o.Links {
			if listedBefore(o.Links, j) {
				b.diag(diag.Diagnostic{
					Code:    CodeDuplicateLink,
					Message: fmt.Sprintf("%q is listed twice in :%s:", l.ID, o.Name),
					Detail:  "Each entry still makes its own edge; remove the repeated one.",
					Span:    l.Span,
				})
			}
			to := ts[j]
			if to < 0 {
				msg := fmt.Sprintf("unresolved link %q", l.ID)
				if s := b.suggestion(l.ID, spec.target); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				b.diag(diag.Diagnostic{
					Code:    CodeUnresolvedLink,
					Message: msg,
					Detail:  fmt.Sprintf("No node in the tree has the ID %q, so this entry of :%s: adds no edge.", l.ID, o.Name),
					Span:    l.Span,
				})
				g.open = append(g.open, OpenLink{from: from, option: o.Name, link: l, reason: Unresolved})
				g.nodes[from].broken = true
				continue
			}
			target := g.nodes[to]
			if target.kind != spec.target && (spec.also == 0 || target.kind != spec.also) {
				want := diag.Article(spec.target.String())
				if spec.also != 0 {
					want += " or " + diag.Article(spec.also.String())
				}
				b.diag(diag.Diagnostic{
					Code:    CodeWrongKind,
					Message: fmt.Sprintf(":%s: must name %s, but %q is %s", o.Name, want, l.ID, diag.Article(target.kind.String())),
					Detail:  "A link to a node of the wrong kind adds no edge.",
					Span:    l.Span,
					Related: []diag.Related{{Span: source.At(target.Pos()), Message: fmt.Sprintf("%q is defined here", l.ID)}},
				})
				g.open = append(g.open, OpenLink{from: from, option: o.Name, link: l, reason: WrongKind})
				g.nodes[from].broken = true
				continue
			}
			state := parser.Active
			if parser.StatefulLinks[o.Name] {
				state = l.State
			}
			e := newEdge(spec.typ, from, to, state, l.Span)
			e.partial = l.Partial && spec.typ == Verifies
			b.edges = append(b.edges, e)
		}
	}
}

func (b *builder) suggestion(id string, want parser.Kind) string {
	if b.suggest == nil {
		b.suggest = newSuggester(b.g)
	}
	return b.suggest.closestWith(id, want, b.suggest.linkConstraint(id, b.needs))
}

// warnings adds the diagnostics that need the resolved graph but not the
// evaluation date.
func (b *builder) warnings() {
	for _, n := range b.g.nodes {
		b.nodeWarnings(n)
	}
}

// nodeWarnings adds the warnings about n.
func (b *builder) nodeWarnings(n *Node) {
	g := b.g
	b.owner = int32(n.index)
	switch n.kind {
	case parser.Waiver:
		b.waiverWarnings(n)
	case parser.Test:
		if !g.HasOut(n, Verifies) {
			b.diag(diag.Diagnostic{
				Code:    CodeOrphanTest,
				Message: fmt.Sprintf("test specification %q verifies no requirement", n.id),
				Detail:  "A test specification without a :verifies: edge to a requirement is evidence for nothing.",
				Span:    source.At(n.Pos()),
			})
		}
	}
}
