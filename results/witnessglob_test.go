package results

import (
	"slices"
	"strings"
	"testing"

	"github.com/seg-trace/seg/parser"
)

// Witnesses may be patterns over implementation IDs, the implementations
// made from code tags (extra nodes) included; a pattern that matches
// nothing is invalid-witness and its outcomes count only against.
func TestWitnessPatterns(t *testing.T) {
	const f = "docs/w.rst"
	files := []*parser.File{{Path: f, Nodes: []parser.Node{
		testNode(f, "TS-1", 1, [2]string{"cases", "pkg.TestA"}),
		{Kind: parser.Implementation, ID: "IMPL-A"},
		{Kind: parser.Requirement, ID: "R-1"},
	}}}
	code := []parser.Node{{Kind: parser.Implementation, ID: "src/a.c::R-1"}, {Kind: parser.Implementation, ID: "src/b/c.c::R-1"}}
	run := []byte(`{"Action":"pass","Package":"pkg","Test":"TestA"}` + "\n")
	cases := []struct {
		witnesses []string
		want      []string // the witnesses of the outcome
		broken    bool
		diag      string
	}{
		{[]string{"*"}, []string{"IMPL-A", "src/a.c::R-1", "src/b/c.c::R-1"}, false, ""},
		{[]string{"src/*"}, []string{"src/a.c::R-1", "src/b/c.c::R-1"}, false, ""},
		{[]string{"src/b/*", "IMPL-A"}, []string{"src/b/c.c::R-1", "IMPL-A"}, false, ""},
		{[]string{"src/a.c::R-1"}, []string{"src/a.c::R-1"}, false, ""},
		{[]string{"NOPE-*", "IMPL-A"}, []string{"IMPL-A"}, true, `--witness "NOPE-*" is a pattern that matches no implementation`},
		{[]string{"R-*"}, nil, true, `--witness "R-*" is a pattern that matches no implementation`},
	}
	for _, c := range cases {
		out, _, diags := OutcomesWith(files, code, []Source{withWitnesses(src("run.json", run), c.witnesses...)})
		if len(out) != 1 {
			t.Fatalf("%v: %d outcomes", c.witnesses, len(out))
		}
		var got []string
		if w := out[0].Option("witnesses"); w != nil {
			for _, l := range w.Links {
				got = append(got, l.ID)
			}
		}
		if !slices.Equal(got, c.want) || out[0].Broken != c.broken {
			t.Errorf("%v: witnesses %v broken %v, want %v %v", c.witnesses, got, out[0].Broken, c.want, c.broken)
		}
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, d.Message)
		}
		if c.diag != "" && !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.diag) }) {
			t.Errorf("%v: diagnostics %q lack %q", c.witnesses, msgs, c.diag)
		}
		if c.diag == "" && len(diags) > 0 {
			t.Errorf("%v: diagnostics %q", c.witnesses, msgs)
		}
		// The explanation's note names the patterns.
		wp := out[0].Option(OptionWitnessPatterns)
		hasGlob := slices.ContainsFunc(c.witnesses, hasMeta)
		if hasGlob != (wp != nil) {
			t.Errorf("%v: witness-patterns option %v", c.witnesses, wp)
		}
		if c.witnesses[0] == "*" && (wp == nil || wp.Value != `"*" (--witness, 3 implementations)`) {
			t.Errorf("*: note %v", wp)
		}
	}
	// Without the code nodes, "*" is the written implementations only.
	out, _, _ := Outcomes(files, []Source{withWitnesses(src("run.json", run), "*")})
	if w := out[0].Option("witnesses"); w == nil || len(w.Links) != 1 || w.Links[0].ID != "IMPL-A" {
		t.Errorf("without code nodes: %v", w)
	}
}
