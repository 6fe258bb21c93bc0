package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadIgnore(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    Ignore
		problem string
	}{
		{"[unknown-option] the theme reads it", Ignore{Codes: []string{"unknown-option"}, Reason: "the theme reads it"}, ""},
		{"[a, b ,c] why", Ignore{Codes: []string{"a", "b", "c"}, Reason: "why"}, ""},
		{"[a] line=12 why not", Ignore{Codes: []string{"a"}, Line: 12, Reason: "why not"}, ""},
		{"[a]", Ignore{}, "gives no reason"},
		{"[a] line=12", Ignore{}, "gives no reason"},
		{"[a] line=x why", Ignore{}, `has line="x", which is no line number`},
		{"[a] line=0 why", Ignore{}, `has line="0", which is no line number`},
		{"[] why", Ignore{}, "names no codes"},
		{"[a why", Ignore{}, `has no "]" after its codes`},
		{" why", Ignore{}, "names no codes (want ignore[CODE,...])"},
	} {
		got, problem := readIgnore(c.in)
		if problem != c.problem {
			t.Errorf("readIgnore(%q): problem %q, want %q", c.in, problem, c.problem)
			continue
		}
		if problem == "" && (!cmp.Equal(got.Codes, c.want.Codes) || got.Reason != c.want.Reason || got.Line != c.want.Line) {
			t.Errorf("readIgnore(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// A suppression is a comment as docutils reads it: not in a literal block
// or a comment's body, and the reason goes on in its indented lines.
func TestIgnoreComments(t *testing.T) {
	src := `.. seg: ignore[unknown-option] the theme
   reads it

An example::

   .. seg: ignore[missing-id] shown, not meant

.. seg: ignored, says the prose

.. a comment

   .. seg: ignore[missing-id] inside a comment's body

.. seg: ignore[missing-id]

.. sreq:: R
   :id: R-1
`
	f := parseString("a.rst", src, DefaultConfig())
	if len(f.Ignores) != 1 {
		t.Fatalf("%d ignores, want 1: %+v", len(f.Ignores), f.Ignores)
	}
	ig := f.Ignores[0]
	if ig.Reason != "the theme reads it" || f.Position(ig.Span.Start).Line != 1 || f.Position(ig.Span.Start).Column != 4 {
		t.Errorf("ignore %+v at %v", ig, f.Position(ig.Span.Start))
	}
	var bad []int
	for _, d := range f.Diagnostics {
		if d.Code == CodeBadIgnore {
			bad = append(bad, f.Position(d.Span.Start).Line)
		}
	}
	if !cmp.Equal(bad, []int{14}) {
		t.Errorf("bad-ignore on lines %v, want [14]", bad)
	}
}
