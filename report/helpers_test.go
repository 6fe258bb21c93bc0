package report

import (
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// checkOf builds and evaluates parsed files (or nodes made in memory) at
// testAt, as a run does after reading; np is the sphinx-needs project the
// files were parsed with (nil: none).
func checkOf(fset *source.FileSet, files []*parser.File, np *needs.Project) *check.Check {
	var diags diag.List
	for _, f := range files {
		diags = append(diags, f.Diagnostics...)
	}
	g, gdiags := graph.Build(fset, files, nil, np)
	diags = append(diags, gdiags...)
	res := evaluate.Evaluate(g, testAt)
	diags = append(diags, res.Diagnostics...)
	diags.Sort(fset)
	return &check.Check{At: testAt, Files: fset, Parsed: files, Graph: g, Result: res, Diagnostics: diags}
}
