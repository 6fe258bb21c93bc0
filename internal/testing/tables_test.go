package testing_test

import (
	"slices"
	"strings"
	"testing"
)

// The parser reads a sphinx-needs project as the plain tables of
// needs/model (docs/structure.md, "Decisions"): neither it nor anything
// it imports, through any number of others, is package needs (the
// project, its readers, its filter engine) or another package under
// needs/ than model, and model stays a leaf beside diag and source.
func TestParserReadsNeedsAsTables(t *testing.T) {
	imports := segImports(t)
	if _, ok := imports["parser"]; !ok {
		t.Fatal("go list lists no package parser")
	}
	seen := map[string]bool{}
	var walk func(pkg string, path []string)
	walk = func(pkg string, path []string) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		path = append(path, pkg)
		if (pkg == "needs" || strings.HasPrefix(pkg, "needs/")) && pkg != "needs/model" {
			t.Errorf("parser reaches %s (%s)", pkg, strings.Join(path, " -> "))
		}
		for _, dep := range imports[pkg] {
			walk(dep, slices.Clone(path))
		}
	}
	walk("parser", nil)
	if !seen["needs/model"] {
		t.Error("parser no longer imports needs/model: update this test and docs/structure.md")
	}
	for _, dep := range imports["needs/model"] {
		if dep != "diag" && dep != "source" {
			t.Errorf("needs/model imports %s: it holds plain tables and pure functions, over diag and source only", dep)
		}
	}
}
