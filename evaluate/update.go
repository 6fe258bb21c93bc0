package evaluate

import (
	"reflect"
	"slices"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Update evaluates g as EvaluateWith(g, o) does, reusing prev, the
// evaluation of prevGraph, for every requirement an edit cannot have
// touched: what the language server does after each keystroke, where a
// full evaluation of a large tree costs more than the rest of the work.
//
// The caller promises, of its input:
//   - prev is the Result of an evaluation of prevGraph (by EvaluateWith
//     or Update);
//   - prevGraph and g have as many nodes, and at every index a node of
//     the same ID and kind;
//   - changed, sorted and without repeats, lists every index whose node
//     differs between the two graphs in anything a graph accessor can
//     observe: the node's own accessors (position included, and the line
//     and column Files resolves it to), its incoming and outgoing edges
//     (their endpoints, type, state, position, option, pin), the open
//     links that leave it, the waivers on it, IsLeaf and OnCycle. Every
//     node not listed is equal in value in both graphs (where the
//     graph is built incrementally, the very same node).
//
// Nothing else of the graph may differ, except the refinement order,
// which Update reads from g: a change to refines edges lists both ends,
// and every node whose OnCycle changes, so their ancestors and children
// are decided again in g's order.
//
// The Result is identical to EvaluateWith(g, o), unexported fields
// included, except that a verdict or test outcome carried over from prev
// may point at prevGraph's nodes and edges where they are equal in value
// to g's. Where g shares its unchanged nodes with prevGraph (a build that
// patched it, graph.Memo.Changed), those are g's own, and the result
// holds nothing of prevGraph; fed graphs built apart, a chain of updates
// would keep every earlier graph alive. Update evaluates in full when prev is nil, the node counts
// differ, o differs from prev's options (other than in the time of day),
// changed is out of order or out of range, or it lists more than an
// eighth of the graph (or the edit touches more than half of the
// requirements); and it never changes prev.
func Update(g *graph.Graph, o Options, prev *Result, prevGraph *graph.Graph, changed []int) *Result {
	if !updatable(g, o, prev, prevGraph, changed) {
		return EvaluateWith(g, o)
	}
	tests := dirtyTests(g, prevGraph, changed)
	reqs, inR := dirtyRequirements(g, prevGraph, changed, tests)
	if float64(len(reqs)) > 4*updateLimit*float64(len(prev.Verdicts)) {
		return EvaluateWith(g, o)
	}
	e := newEvaluation(g, o)
	r := &Result{At: e.at, byNode: prev.byNode, eval: e, opts: e.opts,
		Verdicts: slices.Clone(prev.Verdicts), tests: slices.Clone(prev.tests)}
	r.Diagnostics = r.updateDiagnostics(g, prevGraph, prev, changed)

	// The outcomes of the tests an edit touched, then what every test
	// that verifies a leaf decided again says, as EvaluateWith does for
	// all.
	parallel(len(tests), func(lo, hi int) {
		for _, i := range tests[lo:hi] {
			r.tests[r.byNode[i]] = e.outcomes(g.Node(i))
		}
	})
	r.testFacts = make([]*testFacts, len(r.tests))
	var verifying []*graph.Node
	for _, n := range reqs {
		if g.IsLeaf(n) {
			for ed := range g.In(n, graph.Verifies) {
				if t := g.From(ed); r.facts(t) == nil {
					r.testFacts[r.byNode[t.Index()]] = &testFacts{} // listed once
					verifying = append(verifying, t)
				}
			}
		}
	}
	parallel(len(verifying), func(lo, hi int) {
		for _, t := range verifying[lo:hi] {
			r.testFacts[r.byNode[t.Index()]] = facts(g, t, r.TestOutcomes(t))
		}
	})
	// Every requirement decided again starts as EvaluateWith starts it,
	// unsatisfied, before any non-leaf reads it: a member of a cycle may
	// read one decided after it.
	parallel(len(reqs), func(lo, hi int) {
		for _, n := range reqs[lo:hi] {
			v := &r.Verdicts[r.byNode[n.Index()]]
			*v = Verdict{ID: n.ID(), Leaf: g.IsLeaf(n), Evidence: r.evidence(g, n)}
			if v.Leaf {
				r.leaf(g, n, v)
			}
		}
	})
	for n := range g.RefinementOrder() {
		if inR[n.Index()] {
			if v := &r.Verdicts[r.byNode[n.Index()]]; !v.Leaf {
				r.nonLeaf(g, n, v)
			}
		}
	}
	r.testFacts, r.eval = nil, nil
	r.updateStatuses(g, reqs, inR)
	return r
}

// updateLimit is the share of the graph's nodes that may change, and a
// quarter of the share of its requirements that may need deciding again,
// for Update to reuse the last evaluation: above it a full evaluation on
// every core costs little more. A variable, so that the tests can make
// every update reuse.
var updateLimit = 0.125

// updatable reports whether Update may reuse prev: see Update.
func updatable(g *graph.Graph, o Options, prev *Result, prevGraph *graph.Graph, changed []int) bool {
	if prev == nil || prevGraph == nil || g.Len() != prevGraph.Len() || len(prev.byNode) != g.Len() ||
		float64(len(changed)) > updateLimit*float64(g.Len()) {
		return false
	}
	a, b := o, prev.opts
	a.At, b.At = time0, time0
	if !samePolicies(&a, &b) {
		return false
	}
	a.Policies, b.Policies = nil, nil
	if a != b || !Day(o.At).Equal(prev.At) {
		return false
	}
	for k, i := range changed {
		if i < 0 || i >= g.Len() || k > 0 && i <= changed[k-1] {
			return false
		}
		if n, p := g.Node(i), prevGraph.Node(i); n.ID() != p.ID() || n.Kind() != p.Kind() {
			return false
		}
	}
	return true
}

var time0 time.Time

// indexSet collects node indices, each once.
type indexSet struct {
	seen map[int]bool
	list []int
}

func (s *indexSet) add(i int) {
	if s.seen == nil {
		s.seen = map[int]bool{}
	}
	if !s.seen[i] {
		s.seen[i] = true
		s.list = append(s.list, i)
	}
}

// dirtyTests lists, in index order, the tests whose outcomes an edit may
// have changed: how an outcome stands for test t reads t, the outcomes
// that confirm it, the waivers on t and on them, the implementations
// they witness (whose revisions their pins are checked against), and for
// a flaky rerun the later run it names, which counts only where it
// confirms t too. So a changed node dirties the tests it is one of those
// for, in either graph.
func dirtyTests(g, prevGraph *graph.Graph, changed []int) []int {
	var s indexSet
	confirmed := func(o int) { // the tests outcome o confirms, in either graph
		for _, gr := range [2]*graph.Graph{prevGraph, g} {
			for ed := range gr.Out(gr.Node(o), graph.Confirms) {
				s.add(gr.To(ed).Index())
			}
		}
	}
	for _, c := range changed {
		for _, gr := range [2]*graph.Graph{prevGraph, g} {
			n := gr.Node(c)
			switch n.Kind() {
			case parser.Test:
				s.add(c)
			case parser.Outcome:
				confirmed(c)
			case parser.Waiver:
				for ed := range gr.Out(n, graph.Excuses) {
					if x := gr.To(ed); x.Kind() == parser.Test {
						s.add(x.Index())
					} else {
						confirmed(x.Index())
					}
				}
			case parser.Implementation:
				for ed := range gr.In(n, graph.Witnesses) {
					confirmed(gr.From(ed).Index())
				}
			}
		}
	}
	slices.Sort(s.list)
	return s.list
}

// dirtyRequirements lists, in index order, the requirements whose verdict
// or evidence an edit may have changed, and marks them by index: in
// either graph, what a changed node or a dirty test bears on, the
// requirements refining a changed one (their evidence holds it, and a
// cycle member's reason reads whether it is on a cycle), and everything
// those refine (a non-leaf reads its children's verdicts).
func dirtyRequirements(g, prevGraph *graph.Graph, changed, tests []int) ([]*graph.Node, []bool) {
	inR := make([]bool, g.Len())
	var reqs []*graph.Node
	for _, gr := range [2]*graph.Graph{prevGraph, g} {
		var seeds []*graph.Node
		for _, list := range [2][]int{changed, tests} {
			for _, i := range list {
				n := gr.Node(i)
				seeds = append(seeds, n)
				if n.IsRequirement() {
					for ed := range gr.In(n, graph.Refines) {
						seeds = append(seeds, gr.From(ed))
					}
				}
			}
		}
		for n := range gr.Affected(seeds) {
			if !inR[n.Index()] {
				inR[n.Index()] = true
				reqs = append(reqs, g.Node(n.Index()))
			}
		}
	}
	slices.SortFunc(reqs, func(a, b *graph.Node) int { return a.Index() - b.Index() })
	return reqs, inR
}

// updateStatuses gives the requirements decided again, reqs (marked in
// inR), their status, as statuses does for all: the others keep theirs,
// since nothing below them changed, and a failing one among them makes
// every requirement decided again above it failing.
func (r *Result) updateStatuses(g *graph.Graph, reqs []*graph.Node, inR []bool) {
	var work []*graph.Node
	for _, n := range reqs {
		v := &r.Verdicts[r.byNode[n.Index()]]
		if v.Status = v.ownStatus(); v.Status == Failing {
			work = append(work, n)
		}
	}
	for _, n := range reqs {
		v := &r.Verdicts[r.byNode[n.Index()]]
		if v.Status != Unproven {
			continue
		}
		for ed := range g.In(n, graph.Refines) {
			if c := g.From(ed); !inR[c.Index()] && r.Verdicts[r.byNode[c.Index()]].Status == Failing {
				v.Status = Failing
				work = append(work, n)
				break
			}
		}
	}
	r.failUp(g, work)
}

// updateDiagnostics is prev's diagnostics with those of the changed
// waivers and of every edge into or out of a changed node made again.
// The others are functions of nodes and edges equal in both graphs
// (waiverDiagnostic, linkDiagnostic).
func (r *Result) updateDiagnostics(g, prevGraph *graph.Graph, prev *Result, changed []int) diag.List {
	e := r.eval
	if g.HasPins() != prevGraph.HasPins() {
		out := append(e.waiverDiagnostics(), e.linkDiagnostics()...)
		out.Sort(g.Files())
		return out
	}
	old := changedDiagnostics(newEvaluation(prevGraph, prev.opts), changed)
	now := changedDiagnostics(e, changed)
	if len(old) == 0 && len(now) == 0 {
		return prev.Diagnostics
	}
	type key struct {
		code    *diag.Code
		start   source.Pos
		message string
	}
	drop := map[key][]int{} // the places in old of the diagnostics with a key
	for i, d := range old {
		k := key{d.Code, d.Span.Start, d.Message}
		drop[k] = append(drop[k], i)
	}
	var out diag.List
	for _, d := range prev.Diagnostics {
		k := key{d.Code, d.Span.Start, d.Message}
		if at := slices.IndexFunc(drop[k], func(i int) bool { return reflect.DeepEqual(old[i], d) }); at >= 0 {
			drop[k] = slices.Delete(drop[k], at, at+1) // each once: two may be equal
			continue
		}
		out = append(out, d)
	}
	out = append(out, now...)
	out.Sort(g.Files())
	return out
}

// changedDiagnostics are the waiver and link diagnostics of e's graph
// that are about a changed node or one of its edges, each once.
func changedDiagnostics(e *evaluation, changed []int) diag.List {
	var out diag.List
	links := e.opts.RequirePins || e.g.HasPins()
	add := func(d diag.Diagnostic, ok bool) {
		if ok {
			out = append(out, d)
		}
	}
	for _, c := range changed {
		n := e.g.Node(c)
		add(e.waiverDiagnostic(n))
		if !links {
			continue
		}
		for ed := range e.g.Out(n, 0) {
			add(e.linkDiagnostic(ed))
		}
		for ed := range e.g.In(n, 0) {
			if _, both := slices.BinarySearch(changed, e.g.From(ed).Index()); !both {
				add(e.linkDiagnostic(ed))
			}
		}
	}
	return out
}
