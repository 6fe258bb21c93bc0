package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// report renders what evaluate decided and decides nothing (issue 14):
// no file of it reads dates, ages, expiry or pins, or walks the graph's
// edges to find outcomes again. Each name below is a graph accessor that
// only a rule needs; explanations get the same facts from the evidence
// record (evaluate.Verdict, OutcomeEvidence, WaiverEvidence).
var decidingCalls = map[string]bool{
	"Expires": true, "HasExpires": true, "ExpiresValid": true, "Date": true,
	"MaxAge": true, "Pin": true, "In": true, "Out": true, "HasIn": true,
	"Broken": true, "WaiverCases": true, "Waivers": true,
}

func TestReportDecidesNothing(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
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
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && decidingCalls[sel.Sel.Name] {
				t.Errorf("%s: report calls %s, which decides what evidence counts: take it from evaluate's record", fset.Position(call.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("only %d files of report checked", checked)
	}
}
