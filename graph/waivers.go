package graph

import (
	"fmt"
	"slices"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/results"
	"github.com/seg-trace/seg/source"
)

// CodeCasesNotAllowed is :cases: on a waiver that names no test
// specification: the patterns would filter nothing.
var CodeCasesNotAllowed = diag.NewError("cases-not-allowed", ":cases: on a waiver that names no test specification")

// Waivers lists the waivers that name outcome o as evidence for test t:
// those whose :excuses: names o, and those whose :excuses: names t and
// that cover o (all of t's outcomes, or with :cases: those made from a
// results case whose name matches one of them: a hand-written outcome
// has no case name). Each waiver once, in ID order. Whether one is in
// force is evaluate's to say.
func (g *Graph) Waivers(o, t *Node) []*Node { return g.WaiversOf(o, g.TestWaivers(t)) }

// TestWaivers are the waivers whose :excuses: names test t, in ID order.
// A test may have thousands of outcomes; finding these once, not once an
// outcome among all of t's incoming edges, keeps evaluating it linear.
func (g *Graph) TestWaivers(t *Node) []*Node {
	var ws []*Node
	for e := range g.In(t, Excuses) {
		ws = append(ws, g.From(e))
	}
	return ws
}

// WaiversOf is Waivers for outcome o, given its test's TestWaivers.
func (g *Graph) WaiversOf(o *Node, testWaivers []*Node) []*Node {
	var ws []*Node
	for e := range g.In(o, Excuses) {
		ws = append(ws, g.From(e))
	}
	for _, w := range testWaivers {
		if Covers(w, o) {
			ws = append(ws, w)
		}
	}
	sortByIndex(ws)
	// A waiver naming both o and its test is listed once.
	return slices.CompactFunc(ws, func(a, b *Node) bool { return a == b })
}

// Covers reports whether waiver w, naming a test specification, covers
// outcome o of it: w has no :cases:, or o was made from a results case
// one of whose names matches one of them.
func Covers(w, o *Node) bool {
	cases := w.extra().WaiverCases
	if len(cases) == 0 {
		return true
	}
	for _, p := range cases {
		for _, name := range o.outcome().CaseNames {
			if results.Match(p, name) {
				return true
			}
		}
	}
	return false
}

func sortByIndex(ns []*Node) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].index < ns[j-1].index; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

// waiverWarnings adds cases-not-allowed. Whether a waiver excuses anything
// (unused-waiver) reads how its outcomes stand: evaluate says it.
func (b *builder) waiverWarnings(n *Node) {
	g := b.g
	namesTest := false
	for e := range g.Out(n, Excuses) {
		if g.nodes[e.to].kind == parser.Test {
			namesTest = true
		}
	}
	if len(n.extra().WaiverCases) > 0 && !namesTest {
		b.diag(diag.Diagnostic{
			Code:    CodeCasesNotAllowed,
			Message: fmt.Sprintf("waiver %q has :cases: but names no test specification", n.id),
			Detail:  ":cases: picks which outcomes of a test specification a waiver excuses; name the test specification in :excuses:, or remove :cases:.",
			Span:    source.At(n.extra().CasesPos),
		})
		n.broken = true
	}
}
