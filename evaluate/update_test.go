package evaluate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// Update after a random edit is the full evaluation of the edited graph,
// to the last unexported field, on random trees with pins, dates,
// maximum ages, results outcomes, flaky reruns and waivers of whole
// tests. Both graphs are built in full, and the changed nodes are found
// by comparing every accessor, as the contract of Update words them; a
// chain of edits feeds each update the last one's result.
func TestUpdateIsEvaluateWith(t *testing.T) {
	defer func(l float64, c int) { updateLimit, parallelChunk = l, c }(updateLimit, parallelChunk)
	updateLimit = 1 // reuse whatever the share of the graph changed
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	seeds := uint64(1000)
	if testing.Short() {
		seeds = 200
	}
	reused, edits := 0, map[string]int{}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 19))
		parallelChunk = []int{1, 1 << 30}[seed%2] // every node a chunk of its own, or one chunk
		tr, lock := updateTree(r)
		o := Options{At: at.Add(time.Duration(r.IntN(20)) * time.Hour), MaxAgeDays: []int{0, 30, 90}[r.IntN(3)],
			RequirePins: r.IntN(4) == 0, WaiverWarnDays: []int{0, 30}[r.IntN(2)]}
		graphs := []*graph.Graph{buildPinned(tr, tr.Nodes, lock)}
		res := EvaluateWith(graphs[0], o)
		nodes := tr.Nodes
		for step := range 3 {
			nodes = cloneNodes(nodes)
			var what []string
			for range 1 + r.IntN(2) {
				what = append(what, editNodes(r, tr, nodes, &lock))
			}
			for _, w := range what {
				edits[strings.Fields(w)[0]]++
			}
			prevGraph := graphs[len(graphs)-1]
			g := buildPinned(tr, nodes, lock)
			prev := res
			d := graph.Diff(prevGraph, g)
			if !d.Valid() || !isSubset(changedNodes(prevGraph, g), d.Changed()) {
				t.Fatalf("seed %d step %d (%s): graph.Diff names %v, not every node that differs (%v)", seed, step, what, d.Changed(), changedNodes(prevGraph, g))
			}
			res = Update(g, o, prev, d)
			want := EvaluateWith(g, o)
			b := rebinder{g: g}
			for _, old := range graphs {
				b.earlier = append(b.earlier, old)
				b.changed = append(b.changed, changedNodes(old, g))
			}
			for i, v := range res.Verdicts {
				if n, _ := g.Lookup(v.ID); res.VerdictNode(g, i) != n {
					t.Fatalf("seed %d step %d (%s): the node of verdict %d (%s) is %v, not %v", seed, step, what, i, v.ID, res.VerdictNode(g, i), n)
				}
			}
			got := b.result(res)
			if len(b.bad) > 0 {
				t.Fatalf("seed %d step %d (%s): the update kept nodes or edges that changed: %v\ntree:\n%s", seed, step, what, b.bad, tr.With(nodes))
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d (%s): Update differs from EvaluateWith (-update +full):\n%s\ntree:\n%s", seed, step, what,
					cmp.Diff(got, want, cmp.Exporter(func(reflect.Type) bool { return true })), tr.With(nodes))
			}
			if step == 0 && !reflect.DeepEqual(prev, EvaluateWith(prevGraph, o)) {
				t.Fatalf("seed %d: Update changed the result it was given", seed)
			}
			reused += b.rebound
			graphs = append(graphs, g)
		}
	}
	t.Logf("edits %v; nodes and edges kept from earlier evaluations: %d", edits, reused)
	// Without reuse the comparison above would prove nothing of it.
	if reused < 10000 {
		t.Errorf("the updates kept only %d nodes and edges of earlier evaluations", reused)
	}
	for _, k := range []string{"result", "break", "retarget", "add", "remove", "state", "expires", "date",
		"refines", "max-age", "revision", "broken", "title", "move", "lock", "rerun-of", "cases"} {
		if edits[k] < int(seeds)/50 {
			t.Errorf("edit %s made only %d times", k, edits[k])
		}
	}
}

// Update evaluates in full when it cannot reuse, and says the same.
func TestUpdateFallsBack(t *testing.T) {
	defer func(l float64) { updateLimit = l }(updateLimit)
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(3, 19))
	for range 50 {
		tr, lock := updateTree(r)
		prevGraph := buildPinned(tr, tr.Nodes, lock)
		nodes := cloneNodes(tr.Nodes)
		editNodes(r, tr, nodes, &lock)
		g := buildPinned(tr, nodes, lock)
		changed := changedNodes(prevGraph, g)
		o := Options{At: at, MaxAgeDays: 30, WaiverWarnDays: 30}
		prev := EvaluateWith(prevGraph, o)
		d := graph.Diff(prevGraph, g)
		if !d.Valid() {
			t.Fatal("no delta between two builds of the tree")
		}
		// A graph built from the same nodes again is another generation:
		// the delta is not its own, and neither is a result of it.
		twin := buildPinned(tr, nodes, lock)
		for _, c := range []struct {
			name   string
			o      Options
			prev   *Result
			d      graph.Delta
			reuses bool
			limit  float64
		}{
			{"same options, another hour", Options{At: at.Add(5 * time.Hour), MaxAgeDays: 30, WaiverWarnDays: 30}, prev, d, true, 1},
			{"another day", Options{At: at.AddDate(0, 0, 1), MaxAgeDays: 30, WaiverWarnDays: 30}, prev, d, false, 1},
			{"another maximum age", Options{At: at, MaxAgeDays: 31, WaiverWarnDays: 30}, prev, d, false, 1},
			{"strict review", Options{At: at, MaxAgeDays: 30, WaiverWarnDays: 30, RequirePins: true}, prev, d, false, 1},
			{"another warning", Options{At: at, MaxAgeDays: 30}, prev, d, false, 1},
			{"no last result", o, nil, d, false, 1},
			{"no delta", o, prev, graph.Delta{}, false, 1},
			{"a delta to another graph", o, prev, graph.Diff(prevGraph, twin), false, 1},
			{"a result of another graph", o, EvaluateWith(twin, o), d, false, 1},
			{"too much changed", o, prev, d, false, 0},
		} {
			if c.limit == 0 && d.Len() == 0 {
				continue
			}
			updateLimit = c.limit
			got := Update(g, c.o, c.prev, c.d)
			b := rebinder{g: g, earlier: []*graph.Graph{prevGraph, twin}, changed: [][]int{changed, changedNodes(twin, g)}}
			if !reflect.DeepEqual(b.result(got), EvaluateWith(g, c.o)) {
				t.Fatalf("%s: Update differs from EvaluateWith", c.name)
			}
			if reuses := b.rebound > 0; reuses != c.reuses {
				t.Fatalf("%s: reused %d of the last result, want reuse %v", c.name, b.rebound, c.reuses)
			}
		}
	}
	// A graph of another size is evaluated in full.
	tr, _ := updateTree(rand.New(rand.NewPCG(4, 19)))
	small := buildPinned(tr, tr.Nodes[:len(tr.Nodes)-1], nil)
	g := buildPinned(tr, tr.Nodes, nil)
	o := Options{At: at}
	if !reflect.DeepEqual(Update(g, o, EvaluateWith(small, o), graph.Diff(small, g)), EvaluateWith(g, o)) {
		t.Fatal("another size: Update differs from EvaluateWith")
	}
}

func allNodes(g *graph.Graph) []int {
	var out []int
	for i := range g.Len() {
		out = append(out, i)
	}
	return out
}

func buildPinned(tr *segtest.Tree, nodes []parser.Node, lock []pins.Pin) *graph.Graph {
	t := tr.With(nodes)
	g, _ := graph.BuildPinned(t.FileSet(), t.Files(), nil, nil, lock)
	return g
}

// updateTree is a random tree (RandomTree) with revisions, pins, dates,
// maximum ages, outcomes from results files, flaky reruns and waivers of
// whole tests by case.
func updateTree(r *rand.Rand) (*segtest.Tree, []pins.Pin) {
	tr := segtest.RandomTree(r)
	ids := func(k parser.Kind) []string {
		var out []string
		for _, n := range tr.Nodes {
			if n.Kind == k {
				out = append(out, n.ID)
			}
		}
		return out
	}
	tests, impls := ids(parser.Test), ids(parser.Implementation)
	if len(tests) > 0 {
		for i := range r.IntN(5) {
			opts := []parser.Option{segtest.Links("confirms", tests[r.IntN(len(tests))]),
				segtest.Links("witnesses", impls[r.IntN(len(impls))]),
				segtest.Opt("result", []string{"passed", "passed", "failed", "skipped"}[r.IntN(4)])}
			if i > 0 && r.IntN(2) == 0 {
				opts = append(opts, segtest.Opt("rerun-of", fmt.Sprintf("RO%d", r.IntN(i))))
			}
			tr.Add(parser.Outcome, "outcome", fmt.Sprintf("RO%d", i), opts...)
			n := &tr.Nodes[len(tr.Nodes)-1]
			n.FromResults, n.CaseNames = true, []string{fmt.Sprintf("suite.case_%d", r.IntN(4))}
		}
		for i := range r.IntN(3) {
			tr.Add(parser.Waiver, "waiver", fmt.Sprintf("WC%d", i), segtest.Links("excuses", tests[r.IntN(len(tests))]),
				segtest.Links("cases", fmt.Sprintf("suite.case_%d*", r.IntN(4))), segtest.Opt("expires", randomDate(r)))
		}
	}
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		n.Revision = 1 + uint64(r.IntN(3))
		switch {
		case (n.Kind == parser.Outcome || n.Kind == parser.Waiver) && r.IntN(3) == 0:
			setOpt(n, "date", randomDate(r))
		case n.Kind == parser.Test && r.IntN(4) == 0:
			setOpt(n, "max-age", fmt.Sprint(r.IntN(60)))
		}
	}
	var lock []pins.Pin
	if r.IntN(3) != 0 {
		g := buildPinned(tr, tr.Nodes, nil)
		for e := range g.Edges() {
			if r.IntN(2) == 0 {
				lock = append(lock, randomPin(r, tr, g, e))
			}
		}
	}
	return tr, lock
}

func randomPin(r *rand.Rand, tr *segtest.Tree, g *graph.Graph, e *graph.Edge) pins.Pin {
	return pins.Pin{Link: g.Link(e), Revision: g.To(e).Revision() + uint64(r.IntN(2)), Pos: tr.At(20000+r.IntN(1000), 1)}
}

func randomDate(r *rand.Rand) string {
	if r.IntN(12) == 0 {
		return "2026-13-01"
	}
	return time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(100)-70).Format(time.DateOnly)
}

func setOpt(n *parser.Node, name, value string) {
	if o := n.Option(name); o != nil {
		o.Value = value
		return
	}
	n.Options = append(n.Options, parser.Option{Name: name, Value: value, Pos: n.Pos.Add(100), ValuePos: n.Pos.Add(110)})
}

func delOpt(n *parser.Node, name string) {
	n.Options = slices.DeleteFunc(n.Options, func(o parser.Option) bool { return o.Name == name })
}

func cloneNodes(ns []parser.Node) []parser.Node {
	out := slices.Clone(ns)
	for i := range out {
		out[i].Options = slices.Clone(out[i].Options)
		for j := range out[i].Options {
			out[i].Options[j].Links = slices.Clone(out[i].Options[j].Links)
		}
		out[i].CaseNames = slices.Clone(out[i].CaseNames)
	}
	return out
}

// editNodes changes one node of nodes, or seg.lock, keeping every ID and
// kind, and says what it did.
func editNodes(r *rand.Rand, tr *segtest.Tree, nodes []parser.Node, lock *[]pins.Pin) string {
	n := &nodes[r.IntN(len(nodes))]
	kind := r.IntN(17)
	if kind == 15 { // few nodes are results outcomes: find one
		for _, i := range r.Perm(len(nodes)) {
			if nodes[i].FromResults {
				n = &nodes[i]
				break
			}
		}
	}
	anyID := func() string { return nodes[r.IntN(len(nodes))].ID }
	var links []*parser.Option
	for i := range n.Options {
		if n.Options[i].Links != nil && n.Options[i].Name != "cases" {
			links = append(links, &n.Options[i])
		}
	}
	var link *parser.Link
	if len(links) > 0 {
		if o := links[r.IntN(len(links))]; len(o.Links) > 0 {
			link = &o.Links[r.IntN(len(o.Links))]
		}
	}
	switch {
	case kind == 0 && n.Kind == parser.Outcome:
		if r.IntN(6) == 0 {
			delOpt(n, "result")
		} else {
			setOpt(n, "result", []string{"passed", "failed", "error", "skipped", "bogus"}[r.IntN(5)])
		}
		return "result " + n.ID
	case kind == 1 && link != nil:
		link.ID += "x"
		return "break " + n.ID
	case kind == 2 && link != nil:
		link.ID = anyID()
		return "retarget " + n.ID
	case kind == 3 && len(links) > 0:
		o := links[r.IntN(len(links))]
		o.Links = append(o.Links, parser.Link{ID: anyID(), Span: spanAt(o.Pos.Add(30 + 10*len(o.Links)))})
		return "add " + n.ID
	case kind == 4 && len(links) > 0:
		o := links[r.IntN(len(links))]
		if len(o.Links) > 0 {
			o.Links = slices.Delete(o.Links, 0, 1)
		}
		return "remove " + n.ID
	case kind == 5 && link != nil:
		link.State = []parser.State{parser.Active, parser.Suspect, parser.Retired}[r.IntN(3)]
		return "state " + n.ID
	case kind == 6 && n.Kind == parser.Waiver:
		setOpt(n, "expires", randomDate(r))
		return "expires " + n.ID
	case kind == 7 && (n.Kind == parser.Waiver || n.Kind == parser.Outcome):
		if r.IntN(4) == 0 {
			delOpt(n, "date")
		} else {
			setOpt(n, "date", randomDate(r))
		}
		return "date " + n.ID
	case kind == 8 && n.Kind == parser.Requirement:
		target := fmt.Sprintf("R%d", r.IntN(14))
		if o := n.Option("refines"); o != nil && r.IntN(2) == 0 {
			o.Links = nil
		} else if o != nil {
			o.Links = append(o.Links, parser.Link{ID: target, Span: spanAt(o.Pos.Add(40 + 10*len(o.Links)))})
		} else {
			o := segtest.Links("refines", target)
			o.Pos = n.Pos.Add(90)
			o.Links[0].Span = spanAt(n.Pos.Add(100))
			n.Options = append(n.Options, o)
		}
		return "refines " + n.ID
	case kind == 9 && n.Kind == parser.Test:
		setOpt(n, "max-age", fmt.Sprint(r.IntN(60)))
		return "max-age " + n.ID
	case kind == 10:
		n.Revision = 1 + uint64(r.IntN(3))
		return "revision " + n.ID
	case kind == 11:
		n.Broken = !n.Broken
		return "broken " + n.ID
	case kind == 12:
		n.Title += "!"
		return "title " + n.ID
	case kind == 13:
		n.Pos = n.Pos.Add(1)
		return "move " + n.ID
	case kind == 14:
		// seg.lock changes: a pin is added, dropped or given another
		// revision.
		switch {
		case len(*lock) > 0 && r.IntN(2) == 0:
			i := r.IntN(len(*lock))
			*lock = slices.Delete(slices.Clone(*lock), i, i+1)
		case len(*lock) > 0:
			i := r.IntN(len(*lock))
			*lock = slices.Clone(*lock)
			(*lock)[i].Revision++
		default:
			g := buildPinned(tr, nodes, nil)
			for e := range g.Edges() {
				*lock = append(slices.Clip(*lock), randomPin(r, tr, g, e))
				break
			}
		}
		return "lock"
	case kind == 15 && n.FromResults:
		setOpt(n, "rerun-of", fmt.Sprintf("RO%d", r.IntN(5)))
		return "rerun-of " + n.ID
	case kind == 16 && n.Kind == parser.Waiver:
		if o := n.Option("cases"); o != nil && r.IntN(2) == 0 {
			delOpt(n, "cases")
		} else {
			delOpt(n, "cases")
			o := segtest.Links("cases", fmt.Sprintf("suite.case_%d*", r.IntN(4)))
			o.Pos = n.Pos.Add(80)
			n.Options = append(n.Options, o)
		}
		return "cases " + n.ID
	}
	return editNodes(r, tr, nodes, lock)
}

func spanAt(p source.Pos) source.Span { return source.Span{Start: p, End: p.Add(3)} }

// changedNodes lists the indices of the nodes of b that differ from a's
// in anything an accessor shows (Update's contract).
func changedNodes(a, b *graph.Graph) []int {
	da, db := described(a), described(b)
	var out []int
	for i := range db {
		if da[i] != db[i] {
			out = append(out, i)
		}
	}
	return out
}

// descriptions holds what describe says of every node of the graphs of a
// test, each graph described once.
var descriptions = map[*graph.Graph][]string{}

func described(g *graph.Graph) []string {
	if d, ok := descriptions[g]; ok {
		return d
	}
	if len(descriptions) > 8 {
		clear(descriptions)
	}
	open := openLinks(g)
	var d []string
	for n := range g.Nodes() {
		d = append(d, describe(g, n, open))
	}
	descriptions[g] = d
	return d
}

func openLinks(g *graph.Graph) map[int][]string {
	out := map[int][]string{}
	for o := range g.OpenLinks() {
		i := g.OpenFrom(o).Index()
		out[i] = append(out[i], fmt.Sprintf("%s %v %v %s %s %s %s", o.Option(), o.Reason(), o.Span(), o.Part(), o.Condition(), o.Target(), o.Address()))
	}
	return out
}

// describe is everything the accessors of g show of n.
func describe(g *graph.Graph, n *graph.Node, open map[int][]string) string {
	var b strings.Builder
	day, hasDate, dateOK := n.Date()
	maxAge, hasMaxAge := n.MaxAge()
	fmt.Fprintf(&b, "%d %q %v %q %q %v %v|%v %q %q %q %q %q %v %v %v %v|%d %d %d|%v %v %v %d %v|%q %v %q %q %v %v %v %v %v %q|%v %v\n",
		n.Index(), n.ID(), n.Kind(), n.Directive(), n.Title(), n.Pos(), g.Files().Position(n.Pos()),
		n.Result(), n.ResultText(), n.Config(), n.Sources(), n.Cases(), n.ExpiresText(), n.Attrs(), n.HasExpires(), n.ExpiresValid(), n.Expires(),
		n.InDegree(), n.OutDegree(), n.Revision(),
		day, hasDate, dateOK, maxAge, hasMaxAge,
		n.WaiverCases(), n.FromResults(), n.CaseNames(), n.Justification(), n.Broken(), n.Shadow(), n.Pinnable(), n.IsNeed(), n.IsExternal(), n.Parent(),
		g.IsLeaf(n), n.IsRequirement() && g.OnCycle(n))
	edge := func(e *graph.Edge) {
		pin, pinned := g.Pin(e)
		fmt.Fprintf(&b, "  %s %s %s %v %v %v %s %s %s %v %v\n", g.From(e).ID(), e.Type(), g.To(e).ID(), e.State(), e.Pos(), e.Span(),
			e.Option(), e.Part(), e.Condition(), pinned, pin)
	}
	for e := range g.Out(n, 0) {
		edge(e)
	}
	b.WriteString("in\n")
	for e := range g.In(n, 0) {
		edge(e)
	}
	fmt.Fprintln(&b, open[n.Index()])
	return b.String()
}

// Update after the graph build patched the last graph (graph.Memo), with
// the nodes the build names as changed, over the edits a writer makes
// to a tree of several files (segtest.Edit), is the full evaluation of
// the new graph, and holds only the new graph's nodes and edges: a node
// the build did not make anew is the last graph's own. Half the sessions
// pin most links of the graph of some step before, one pin in four to a
// stale revision (the edits then orphan pins and give them back).
func TestUpdateAfterPatch(t *testing.T) {
	defer func(l float64) { updateLimit = l }(updateLimit)
	updateLimit = 1
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	updates, steps, pinned := 0, 0, 0
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 23))
		text := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(6))
		o := Options{At: at, MaxAgeDays: []int{0, 30}[r.IntN(2)], WaiverWarnDays: 30}
		tree := segtest.Parse(text)
		var m graph.Memo
		var last *graph.Graph
		var res *Result
		var lock []pins.Pin
		for step := range 60 {
			if step > 0 {
				tree.Changed(segtest.Edit(r, text))
			}
			if seed%2 == 1 && last != nil && (step == 1 || r.IntN(15) == 0) {
				lock = pinsOf(r, last)
			}
			// A new slice every step, as a check that reads seg.lock
			// again makes.
			fset, files := tree.Files()
			g, _ := graph.BuildMemo(fset, files, nil, nil, slices.Clone(lock), &m)
			want := EvaluateWith(g, o)
			steps++
			if d := m.Delta(); d.Valid() {
				prev := d.Base()
				if prev != last {
					t.Fatalf("seed %d step %d: the build patched another graph than the last", seed, step)
				}
				updates++
				if g.HasPins() {
					pinned++
				}
				res = Update(g, o, res, d)
				b := rebinder{g: g}
				b.result(res)
				if len(b.bad) > 0 {
					t.Fatalf("seed %d step %d: the update holds nodes or edges of other graphs: %v", seed, step, b.bad)
				}
				if !reflect.DeepEqual(res, want) {
					t.Fatalf("seed %d step %d: Update differs from EvaluateWith (-update +full):\n%s", seed, step,
						cmp.Diff(res, want, cmp.Exporter(func(reflect.Type) bool { return true })))
				}
			} else {
				res = want
			}
			last = g
		}
	}
	if updates < steps/8 || pinned < updates/4 {
		t.Errorf("only %d of %d builds were patched and updated, %d with pins", updates, steps, pinned)
	}
	t.Logf("%d of %d builds patched and updated, %d with pins", updates, steps, pinned)
}

// rebinder copies a Result, replacing the nodes and edges of earlier
// graphs it holds with g's, where Update's contract allows it to hold
// them: the node (or for an edge, the node it leaves) did not change
// since. Anything else it keeps, so that the comparison sees it.
type rebinder struct {
	g       *graph.Graph
	earlier []*graph.Graph
	changed [][]int // by earlier graph: the nodes that differ from g's
	rebound int
	bad     []string
}

func (b *rebinder) node(n *graph.Node) *graph.Node {
	if n == nil || b.g.Node(n.Index()) == n {
		return n
	}
	for k, old := range b.earlier {
		if old.Node(n.Index()) == n {
			if _, changed := slices.BinarySearch(b.changed[k], n.Index()); changed {
				b.bad = append(b.bad, "node "+n.ID())
				return n
			}
			b.rebound++
			return b.g.Node(n.Index())
		}
	}
	b.bad = append(b.bad, "node of no graph "+n.ID())
	return n
}

func (b *rebinder) edge(e *graph.Edge) *graph.Edge {
	for x := range b.g.Out(b.g.From(e), 0) {
		if x == e {
			return e
		}
	}
	for k, old := range b.earlier {
		from := old.From(e)
		i := 0
		for x := range old.Out(from, 0) {
			if x != e {
				i++
				continue
			}
			if _, changed := slices.BinarySearch(b.changed[k], from.Index()); changed {
				b.bad = append(b.bad, "edge from "+from.ID())
				return e
			}
			b.rebound++
			for y := range b.g.Out(b.g.Node(from.Index()), 0) {
				if i == 0 {
					return y
				}
				i--
			}
			panic("unreachable")
		}
	}
	b.bad = append(b.bad, "edge of no graph from "+b.g.From(e).ID())
	return e
}

func (b *rebinder) link(l Link) Link { return Link{b.edge(l.Edge), b.node(l.Node), l.State} }

func (b *rebinder) outcomes(os []OutcomeEvidence) []OutcomeEvidence {
	return mapSlice(os, func(o OutcomeEvidence) OutcomeEvidence {
		o.Outcome, o.Waiver = b.node(o.Outcome), b.node(o.Waiver)
		o.Waivers = mapSlice(o.Waivers, func(w WaiverEvidence) WaiverEvidence {
			w.Waiver = b.node(w.Waiver)
			return w
		})
		return o
	})
}

func (b *rebinder) result(r *Result) *Result {
	c := *r
	c.Verdicts = mapSlice(r.Verdicts, func(v Verdict) Verdict {
		v.Refines, v.RefinedBy, v.Implements = mapSlice(v.Refines, b.link), mapSlice(v.RefinedBy, b.link), mapSlice(v.Implements, b.link)
		v.Verifies = mapSlice(v.Verifies, func(te TestEvidence) TestEvidence {
			return TestEvidence{b.link(te.Link), b.outcomes(te.Outcomes)}
		})
		return v
	})
	c.tests = mapSlice(r.tests, b.outcomes)
	return &c
}

// mapSlice is s with f applied to each element, nil when s is.
func mapSlice[T any](s []T, f func(T) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, x := range s {
		out[i] = f(x)
	}
	return out
}

// A refines edge that closes a cycle of satisfied requirements, and the
// edit that opens it again: a member of the cycle decided first reads
// the other as EvaluateWith does, unsatisfied, not as it was.
func TestUpdateCycle(t *testing.T) {
	defer func(l float64) { updateLimit = l }(updateLimit)
	updateLimit = 1
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	tr := &segtest.Tree{}
	tr.Req("R0", "")
	tr.Req("R1", "R0")
	tr.Req("R2", "R1")
	tr.Test("T2", "R2")
	tr.Impl("I2", "R2")
	tr.Outcome("O2", "T2", "I2", "passed")
	open := buildPinned(tr, tr.Nodes, nil)
	nodes := cloneNodes(tr.Nodes)
	refines := segtest.Links("refines", "R2")
	refines.Pos, refines.Links[0].Span = tr.At(3, 4), spanAt(tr.At(3, 20))
	nodes[0].Options = append(nodes[0].Options, refines)
	closed := buildPinned(tr, nodes, nil)
	o := Options{At: at}
	for _, c := range []struct {
		name     string
		from, to *graph.Graph
	}{{"closing", open, closed}, {"opening", closed, open}} {
		prev := EvaluateWith(c.from, o)
		got := Update(c.to, o, prev, graph.Diff(c.from, c.to))
		b := rebinder{g: c.to, earlier: []*graph.Graph{c.from}, changed: [][]int{changedNodes(c.from, c.to)}}
		if want := EvaluateWith(c.to, o); !reflect.DeepEqual(b.result(got), want) {
			t.Errorf("%s the cycle: Update differs from EvaluateWith (-update +full):\n%s", c.name,
				cmp.Diff(b.result(got), want, cmp.Exporter(func(reflect.Type) bool { return true })))
		}
	}
	if v := EvaluateWith(open, o).Verdicts[0]; !v.Satisfied {
		t.Fatalf("R0 should be satisfied before the cycle: %+v", v.Reasons)
	}
}

// isSubset reports whether every element of a (sorted) is in b (sorted).
func isSubset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// Update after a patch that renamed IDs (segtest.Rename: in their place
// in the ID order, or moving over nodes of their kind), or made links
// name such IDs, with and without seg.lock pins and strict review, is
// the full evaluation: the verdicts that read a renamed or moved node,
// or a link that now dangles or resolves, are decided again.
func TestUpdateAfterRename(t *testing.T) {
	defer func(l float64) { updateLimit = l }(updateLimit)
	updateLimit = 1
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	updates, renames, pinned := 0, 0, 0
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 37))
		text := segtest.RandomTree(r).RSTFiles(r, 2+r.IntN(5))
		o := Options{At: at, MaxAgeDays: []int{0, 30}[r.IntN(2)], WaiverWarnDays: 30}
		tree := segtest.Parse(text)
		o.RequirePins = seed%4 == 3
		var m graph.Memo
		var em Memo
		var lock []pins.Pin
		var last *graph.Graph
		for step := range 40 {
			if step > 0 {
				tree.Changed(segtest.Rename(r, text))
			}
			if seed%2 == 1 && last != nil && (step == 1 || r.IntN(15) == 0) {
				// Renames orphan these pins and give them back.
				lock = pinsOf(r, last)
			}
			fset, files := tree.Files()
			g, _ := graph.BuildMemo(fset, files, nil, nil, slices.Clone(lock), &m)
			last = g
			d := m.Delta()
			got := em.Evaluate(g, o, d)
			if em.Updated() {
				updates++
				if g.HasPins() {
					pinned++
				}
				for _, i := range d.Changed() {
					if d.Base().Node(i).ID() != g.Node(i).ID() {
						renames++
						break
					}
				}
			}
			if want := EvaluateWith(g, o); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: Update differs from EvaluateWith (-update +full):\n%s", seed, step,
					cmp.Diff(got, want, cmp.Exporter(func(reflect.Type) bool { return true })))
			}
		}
	}
	if renames < updates/4 || pinned < updates/8 {
		t.Errorf("%d updates, %d of them after a rename, %d with pins", updates, renames, pinned)
	}
	t.Logf("%d updates, %d of them after a rename, %d with pins", updates, renames, pinned)
}

// pinsOf pins three in four of g's pinnable links, one in four of them
// stale (a revision one off), as a seg.lock read again after edits
// does.
func pinsOf(r *rand.Rand, g *graph.Graph) []pins.Pin {
	var lock []pins.Pin
	for e := range g.Edges() {
		if !g.From(e).Pinnable() || r.IntN(4) == 0 {
			continue
		}
		rev := g.To(e).Revision()
		if r.IntN(4) == 0 {
			rev++
		}
		lock = append(lock, pins.Pin{Link: g.Link(e), Revision: rev})
	}
	return lock
}
