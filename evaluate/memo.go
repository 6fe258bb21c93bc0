package evaluate

import "github.com/seg-trace/seg/graph"

// Memo carries an evaluation from one run to the next of the same tree,
// as graph.Memo carries a build, for a client that evaluates the graph
// again after every edit (the language server). Evaluate updates the
// last result (Update) when it is given the delta from the graph that
// result is of to the graph it evaluates, and evaluates in full
// otherwise: after a full build (the zero Delta), or when the last
// result is of another graph than the delta's base (a run that was not
// evaluated, say), which the generations tell.
//
// A Memo is used by one run at a time; the Results it returns do not
// change.
type Memo struct {
	last    *Result
	updated bool
}

// Evaluate evaluates g with o: from the last result through d where it
// can, in full otherwise; either way the result is EvaluateWith(g, o)'s
// (Update). A nil m evaluates in full.
func (m *Memo) Evaluate(g *graph.Graph, o Options, d graph.Delta) *Result {
	if m == nil {
		return EvaluateWith(g, o)
	}
	var res *Result
	updated := false
	if m.last != nil && d.Valid() {
		res, updated = update(g, o, m.last, d)
	} else {
		res = EvaluateWith(g, o)
	}
	m.last, m.updated = res, updated
	return res
}

// Updated reports whether the last Evaluate reused the result before it.
func (m *Memo) Updated() bool { return m != nil && m.updated }

// Reset forgets the last result: the next Evaluate is a full one.
func (m *Memo) Reset() { m.last, m.updated = nil, false }
