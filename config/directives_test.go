package config

import (
	"testing"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// [directives] NAME = "none" gives a name away, a built-in one included:
// another extension's directive of that name (a doctest-like ".. test::")
// makes no node and raises nothing, and no lookalike hint names it. The
// other names keep working.
func TestDirectiveNone(t *testing.T) {
	c, err := Parse("seg.toml", []byte("[directives]\ntest = \"none\"\nTSpec = \"test\"\nunused = \"none\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Parser.Directives
	if _, ok := d["test"]; ok {
		t.Errorf("test is still a directive: %v", d)
	}
	if d["tspec"] != parser.Test || d["sreq"] != parser.Requirement {
		t.Errorf("the other names: %v", d)
	}
	src := "Text\n.. test:: continues the paragraph\n\n.. test:: run_all\n\n   >>> 1 + 1\n   2\n\n.. test: one colon\n   :id: X-1\n\n.. tspec:: T\n   :id: T-1\n"
	f := parser.ParseFile(source.NewFileSet().Add("a.rst", len(src), source.Docutils), []byte(src), c.Parser)
	for _, dg := range f.Diagnostics {
		t.Errorf("%v: %s %s", f.Position(dg.Span.Start), dg.Code, dg.Message)
	}
	if len(f.Nodes) != 1 || f.Nodes[0].ID != "T-1" {
		t.Errorf("nodes: %+v, want only T-1", f.Nodes)
	}
	// The default configuration still reads .. test:: as seg's.
	f = parser.ParseFile(source.NewFileSet().Add("a.rst", len(src), source.Docutils), []byte(src), parser.DefaultConfig())
	if len(f.Diagnostics) == 0 {
		t.Error("with the built-in names, .. test:: raises nothing")
	}
}
