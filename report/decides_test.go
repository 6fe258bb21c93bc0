package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every package that renders evidence (report, the language server, diff,
// review) shows what evaluate decided and decides nothing (issues 14 and
// 23): no file of them reads dates, ages, expiry or pins, walks the
// graph's edges to find outcomes or links again, or reads what a rule
// reads to decide (an edge's written state or whether it is active, an
// outcome's result, whether a link still holds). Each name below is such
// an accessor of the graph (or evaluate's own link-state function, which
// the record's EdgeState already holds); the renderers get the same facts
// from the evidence record: evaluate.Verdict with its Tally, Link.State,
// OutcomeEvidence (Standing, Result), WaiverEvidence, Result.Edge and
// Result.Edges.
var decidingCalls = map[string]string{
	"Expires": "expiry", "HasExpires": "expiry", "ExpiresValid": "expiry", "Date": "dates",
	"MaxAge": "maximum ages", "Pin": "pins", "HasPins": "pins", "LinkState": "whether a link holds",
	"In": "the graph's edges", "Out": "the graph's edges", "HasIn": "the graph's edges", "HasOut": "the graph's edges",
	"Broken": "errors on nodes", "WaiverCases": "waivers", "Waivers": "waivers", "WaiversOf": "waivers",
	"TestWaivers": "waivers", "Covers": "waivers",
	"Active": "whether an edge is active", "State": "an edge's state", "Result": "an outcome's result",
}

// renderers are the packages that render evidence, from report's folder.
var renderers = []string{".", "../lsp", "../diff", "../review"}

func TestReportDecidesNothing(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range renderers {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, call := range decidingCallsIn(f) {
				sel := call.Fun.(*ast.SelectorExpr).Sel.Name
				t.Errorf("%s: calls %s, which reads %s: a renderer takes what evidence counts from evaluate's record", fset.Position(call.Pos()), sel, decidingCalls[sel])
			}
		}
		if checked == 0 {
			t.Errorf("no file of %s checked", dir)
		}
	}
}

// decidingCallsIn lists the calls of f to a deciding accessor.
func decidingCallsIn(f *ast.File) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && decidingCalls[sel.Sel.Name] != "" {
				out = append(out, call)
			}
		}
		return true
	})
	return out
}

// The test above would miss a copy that reads under another name: it is
// checked on the copies it was written against (the matrix's coverage
// counted the written edge state, the language server walked a node's
// edges to find stale links).
func TestDecidingCallsAreFound(t *testing.T) {
	for _, src := range []string{
		`package p; func f(v V) bool { return slices.ContainsFunc(v.Verifies, func(t T) bool { return t.Edge.Active() }) }`,
		`package p; func f(gr G, g N) { for e := range gr.Out(g, 0) { _ = e } }`,
		`package p; func f(o N) string { return o.Result().String() }`,
		`package p; func f(e E) string { return e.State().String() }`,
		`package p; func f(c C, e E) bool { return c.Result.LinkState(c.Graph, e) != 0 }`,
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(decidingCallsIn(f)) != 1 {
			t.Errorf("not found in %s", src)
		}
	}
}
