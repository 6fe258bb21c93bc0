package glob

import "testing"

// TestSphinxMatch holds SphinxMatch to what Sphinx's
// sphinx.util.matching.Matcher answers for the same pattern and path.
func TestSphinxMatch(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		want      bool
	}{
		{"_build", "_build", true},
		{"_build", "a/_build", false},
		{"**/_build", "_build", false}, // "**/" needs a folder before
		{"**/_build", "a/b/_build", true},
		{"*.rst", "a.rst", true},
		{"*.rst", "a/b.rst", false},
		{"**.rst", "a/b.rst", true},
		{"drafts/*", "drafts/x.rst", true},
		{"drafts/*", "drafts/sub/x.rst", false},
		{"drafts/**", "drafts/sub/x.rst", true},
		{"?.rst", "a.rst", true},
		{"?.rst", "/.rst", false},
		{"[ab].rst", "b.rst", true},
		{"[!ab].rst", "c.rst", true},
		{"[!ab].rst", "a.rst", false},
		{"x[/y", "x[/y", true}, // an unclosed class is itself
		{"über/*.rst", "über/a.rst", true},
		{"a.b", "axb", false}, // "." is no wildcard
		{"Thumbs.db", "Thumbs.db", true},
	} {
		if got := SphinxMatch(c.pat, c.name); got != c.want {
			t.Errorf("SphinxMatch(%q, %q) = %v, want %v", c.pat, c.name, got, c.want)
		}
	}
}
