package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// SplitLinks on its own: entries as offsets into the value, so the parser
// can place them; the parser's tests (parser/needs_test.go) check the
// same syntax end to end with source positions.
func TestSplitLinks(t *testing.T) {
	plain := &LinkType{Option: "links"}
	stateful := &LinkType{Option: "tests", Edge: "verifies"}
	type got struct {
		Text, ID, Part, Condition, State string
	}
	cases := []struct {
		val      string
		lt       *LinkType
		want     []got
		problems []string
	}{
		{"A, B;C |D", plain, []got{{"A", "A", "", "", ""}, {"B", "B", "", "", ""}, {"C", "C", "", "", ""}, {"D", "D", "", "", ""}}, nil},
		{"A.p1[status == 'open'], B[[x[0] > 1]]", plain, []got{
			{"A.p1[status == 'open']", "A", "p1", "status == 'open'", ""},
			{"B[[x[0] > 1]]", "B", "", "x[0] > 1", ""}}, nil},
		{"[[copy('links', 'X')]], Y", plain, []got{{"[[copy('links', 'X')]]", "[[copy('links', 'X')]]", "", "", ""}, {"Y", "Y", "", "", ""}}, nil},
		{"A\n  , B (suspect)", stateful, []got{{"A", "A", "", "", ""}, {"B (suspect)", "B", "", "", "suspect"}}, nil},
		{"B (suspect)", plain, []got{{"B (suspect)", "B (suspect)", "", "", ""}}, nil},
		{"A[open, B", plain, []got{{"A[open, B", "A", "", "open, B", ""}},
			[]string{`malformed link entry "A[open, B" in ":links:" (unclosed "[")`}},
		{"A[x] y, [z]", plain, []got{{"A[x] y", "A", "", "x", ""}, {"[z]", "", "", "z", ""}},
			[]string{`malformed link entry "A[x] y" in ":links:" (text after the condition)`, `malformed link entry "[z]" in ":links:" (no ID)`}},
	}
	for _, c := range cases {
		entries, problems := SplitLinks([]byte(c.val), c.lt.Option, c.lt)
		var g []got
		for _, e := range entries {
			g = append(g, got{c.val[e.Start:e.End], e.ID, e.Part, e.Condition, e.StateText})
		}
		var ps []string
		for _, p := range problems {
			ps = append(ps, p.Message)
		}
		if d := cmp.Diff(c.want, g); d != "" {
			t.Errorf("%q entries (-want +got):\n%s", c.val, d)
		}
		if d := cmp.Diff(c.problems, ps); d != "" {
			t.Errorf("%q problems (-want +got):\n%s", c.val, d)
		}
	}
}
