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
// evaluation of the graph d goes from (d.Base()), for every requirement
// the edit d describes cannot have touched: what the language server
// does after each keystroke, where a full evaluation of a large tree
// costs more than the rest of the work.
//
// What it may assume of its input is in its types: a graph.Delta is
// made only by the graph package (graph.Memo.Delta after a patch, or
// graph.Diff), and names the generations of the graphs it goes from and
// to. Update refuses, and evaluates g in full, when d is no delta, g is
// not d's target (g.Generation() != d.To()), or prev is not the
// evaluation of d's base (of generation d.From()): a delta is never
// applied to another pair of graphs than its own.
//
// The Result is identical to EvaluateWith(g, o), unexported fields
// included, except that a verdict or test outcome carried over from prev
// may point at the base's nodes and edges where they are equal in value
// to g's. Where g shares its unchanged nodes with the base (d.Shared(),
// a build that patched it), those are g's own, and the result holds
// nothing of the base; fed graphs built apart (graph.Diff), a chain of
// updates would keep every earlier graph alive. Update also evaluates in
// full when o differs from prev's options (other than in the time of
// day), or d changes more than an eighth of the graph (or the edit
// touches more than half of the requirements); and it never changes
// prev.
func Update(g *graph.Graph, o Options, prev *Result, d graph.Delta) *Result {
	r, _ := update(g, o, prev, d)
	return r
}

// update is Update, reporting whether it reused prev.
func update(g *graph.Graph, o Options, prev *Result, d graph.Delta) (*Result, bool) {
	if !updatable(g, o, prev, d) {
		return EvaluateWith(g, o), false
	}
	prevGraph, changed := d.Base(), d.Changed()
	tests := dirtyTests(g, prevGraph, changed)
	reqs, inR := dirtyRequirements(g, prevGraph, changed, tests)
	if float64(len(reqs)) > 4*updateLimit*float64(len(prev.Verdicts)) {
		return EvaluateWith(g, o), false
	}
	e := newEvaluation(g, o)
	r := &Result{At: e.at, byNode: prev.byNode, reqNodes: prev.reqNodes, eval: e, opts: e.opts, gen: g.Generation(),
		Verdicts: slices.Clone(prev.Verdicts), tests: slices.Clone(prev.tests)}

	// The outcomes of the tests an edit touched, then what every test
	// that verifies a leaf decided again says, as EvaluateWith does for
	// all.
	parallel(len(tests), func(lo, hi int) {
		for _, i := range tests[lo:hi] {
			r.tests[r.byNode[i]] = e.outcomes(g.Node(i))
		}
	})
	r.Diagnostics = r.updateDiagnostics(g, prevGraph, prev, changed, tests)
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
			*v = Verdict{ID: n.ID(), Leaf: g.IsLeaf(n)}
			v.Evidence = r.evidence(g, n)
			v.Tally = tally(g, &v.Evidence, v.Leaf)
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
	return r, true
}

// updateLimit is the share of the graph's nodes that may change, and a
// quarter of the share of its requirements that may need deciding again,
// for Update to reuse the last evaluation: above it a full evaluation on
// every core costs little more. A variable, so that the tests can make
// every update reuse.
var updateLimit = 0.125

// updatable reports whether Update may reuse prev: see Update.
func updatable(g *graph.Graph, o Options, prev *Result, d graph.Delta) bool {
	if prev == nil || !d.Valid() || d.To() != g.Generation() || prev.gen != d.From() ||
		len(prev.byNode) != g.Len() || float64(d.Len()) > updateLimit*float64(g.Len()) {
		return false
	}
	a, b := o, prev.opts
	a.At, b.At = time0, time0
	if !samePolicies(&a, &b) {
		return false
	}
	a.Policies, b.Policies = nil, nil
	return a == b && Day(o.At).Equal(prev.At)
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
// waivers, of every edge into or out of a changed node, and the warnings
// about the changed outcomes and about every waiver named by an outcome
// of a test decided again (tests), made again. The others are functions
// of nodes, edges and standings equal in both evaluations
// (waiverDiagnostic, linkDiagnostic, evidenceDiagnostic).
func (r *Result) updateDiagnostics(g, prevGraph *graph.Graph, prev *Result, changed, tests []int) diag.List {
	e := r.eval
	if g.HasPins() != prevGraph.HasPins() {
		return r.diagnostics(g)
	}
	redo := evidenceRedo(g, prevGraph, prev, r, changed, tests)
	old := changedDiagnostics(newEvaluation(prevGraph, prev.opts), changed)
	now := changedDiagnostics(e, changed)
	for _, i := range redo {
		if d, ok := prev.evidenceDiagnostic(prevGraph, prevGraph.Node(i)); ok {
			old = append(old, d)
		}
		if d, ok := r.evidenceDiagnostic(g, g.Node(i)); ok {
			now = append(now, d)
		}
	}
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

// evidenceRedo lists, in index order, the nodes whose evidence warning
// an update makes again: the changed ones, every waiver that names a
// changed node, and every waiver that names an outcome of a test decided
// again, before (prev, in prevGraph) or after (r, in g).
func evidenceRedo(g, prevGraph *graph.Graph, prev, r *Result, changed, tests []int) []int {
	var s indexSet
	for _, c := range changed {
		s.add(c)
		for _, gr := range [2]*graph.Graph{prevGraph, g} {
			for ed := range gr.In(gr.Node(c), graph.Excuses) {
				s.add(gr.From(ed).Index())
			}
		}
	}
	for _, t := range tests {
		for _, res := range [2]*Result{prev, r} {
			for _, oe := range res.tests[res.byNode[t]] {
				for _, we := range oe.Waivers {
					s.add(we.Waiver.Index())
				}
			}
		}
	}
	slices.Sort(s.list)
	return s.list
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
