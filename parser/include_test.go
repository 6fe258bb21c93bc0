package parser

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/seg-trace/seg/source"
)

// mayInclude is the filter Includes runs before it scans a text: it must
// never miss a spelling docutils takes as an include directive (the name
// in any case, one optional space, then "::"), which a regular expression
// says here over random texts of the letters that matter.
func TestMayInclude(t *testing.T) {
	want := regexp.MustCompile(`(?i)include ?::`)
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("inclUDE:: eEdDuU\n")
	for n := 0; n < 50000; n++ {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(3) == 0 {
			at := rng.IntN(len(b) + 1)
			w := []byte("include ::")
			if rng.IntN(2) == 0 {
				w = []byte("include::")
			}
			for i := range w {
				if rng.IntN(2) == 0 && w[i] >= 'a' && w[i] <= 'z' {
					w[i] -= 'a' - 'A'
				}
			}
			b = append(b[:at:at], append(w, b[at:]...)...)
		}
		if got := mayInclude(b); got != want.Match(b) {
			t.Fatalf("mayInclude(%q) = %v, want %v", b, got, !got)
		}
	}
}

// A parse says whether its file has an include directive where docutils
// runs it, as Includes finds them: a run follows the includes of those
// files only, and a stored report is never one of such a tree.
func TestHasInclude(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{".. include:: a.inc\n", true},
		{".. include ::  a.inc\n", true},
		{"Text.\n\n.. INCLUDE:: a.inc\n", true},
		{".. note::\n\n   .. Include:: a.inc\n", true},
		{".. code-block:: rst\n\n   .. include:: a.inc\n", false},
		{"..\n   .. include:: a.inc\n", false},
		{"Text::\n\n   .. include:: a.inc\n", false},
		{".. includes:: a.inc\n", false},
		{".. include  :: a.inc\n", false}, // two spaces: a comment to docutils
		{"The include:: in prose.\n", false},
	} {
		fs := source.NewFileSet()
		f := ParseFile(fs.Add("a.rst", 0, source.Docutils), []byte(tc.src), nil)
		if f.HasInclude != tc.want {
			t.Errorf("%q: HasInclude %v, want %v", tc.src, f.HasInclude, tc.want)
		}
		if got := len(Includes([]byte(tc.src), nil)) > 0; got != tc.want {
			t.Errorf("%q: Includes found %v, want %v", tc.src, got, tc.want)
		}
	}
}
