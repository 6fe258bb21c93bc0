package source

import (
	"slices"
	"testing"
)

// A form feed and a vertical tab are spaces to docutils' parser, so a
// form-feed line is one line, as in an editor; the line separators
// str.splitlines() knows besides still end lines.
func TestLineStartsFormFeed(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []int32
	}{
		{"a\n\f\nb\n", []int32{0, 2, 4}},
		{"a\fb\vc\n", []int32{0}},
		{"a\u2028b\x1cc", []int32{0, 4, 6}},
	} {
		if got := LineStarts([]byte(tc.src), Docutils); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.src, got, tc.want)
		}
	}
}
