package parser

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// codesAt renders a file's diagnostics as "line:col code".
func codesAt(f *File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		p := f.Position(d.Span.Start)
		out = append(out, fmt.Sprintf("%d:%d %s", p.Line, p.Column, d.Code))
	}
	return out
}

// codeCase is a source and the diagnostics it gives, as codesAt renders
// them.
type codeCase struct {
	name, src string
	want      []string
}

func runCodeCases(t *testing.T, cfg *Config, tests []codeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseString("a.rst", tt.src, cfg)
			if d := cmp.Diff(tt.want, codesAt(f)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The lookalikes are the seg directive names of the configuration, need
// types included, and no other directive; the corpus (42-hidden.rst) has
// the cases with the default names, checked against docutils.
func TestHiddenDirectiveNames(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Directives["spec"] = Requirement
	tests := []codeCase{
		{"configured name", "Text\n.. spec:: S\n   :id: S-1\n", []string{"2:1 hidden-directive"}},
		{"configured name, upper case", "Text\n.. Spec:: S\n", []string{"2:1 hidden-directive"}},
		{"other directive", "Text\n.. note:: N\n\n.. note: one colon\n", nil},
		{"not a name", "Text\n.. ::\n..\n", nil},
		{"in a code block", ".. code-block:: rst\n\n   Text\n   .. spec:: S\n", nil},
		{"a real node", "Text\n\n.. spec:: S\n   :id: S-1\n", nil},
		{"three colons", ".. spec::: S\n", nil},
		{"comment of a comment", ".. .. spec: S\n", nil},
	}
	runCodeCases(t, cfg, tests)
}

// An option the node's kind does not take is no misplaced option: it is
// not the node's either way.
func TestMisplacedOptionNames(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ExtraOptions["status"] = true
	tests := []codeCase{
		{"extra option", ".. sreq:: T\n   :id: R-1\n:status: open\n", []string{"3:1 misplaced-option"}},
		{"another kind's option", ".. sreq:: T\n   :id: R-1\n:verifies: R-2\n", nil},
		{"a field list after a blank line", ".. sreq:: T\n   :id: R-1\n\n:refines: R-2\n", nil},
		{"a body that is not a field list", ".. sreq:: T\n   :id: R-1\n\n   Body :refines: R-2\n", nil},
	}
	runCodeCases(t, cfg, tests)
}
