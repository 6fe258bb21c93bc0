package needs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The literal reader on the Python forms conf.py files use.
func TestReadConfPyLiterals(t *testing.T) {
	src := `a = 'x' "y" r'\d' b'z'
b = """two
lines""" + '''!'''
c = ('t', 1, -2.5, None, True, False,)
d = {"k": [1, (2,)], 'e': {}}
e = a
f, g = 1, 2
h = i = "same"
j = "\u00e9\x41\n"
k = [x for x in "ab"]
if True:
    l = 1
m = 1 if a else 2
n = "unterminated
o = ("p"
     "q")
`
	src += "p = {')': '(', '}': '{'}\r\nq = \\\r\n  '\\033[\\a' ; r = 1E-05; s = 'x', 'y'\n"
	vars := readConfPy(src)
	want := map[string]any{
		"q": "\033[\a",
		"r": 1e-05,
		"s": []any{"x", "y"},
		"a": `xy\dz`,
		"b": "two\nlines!",
		"c": []any{"t", int64(1), -2.5, nil, true, false},
		"e": `xy\dz`,
		"h": "same",
		"i": "same",
		"j": "éA\n",
		"o": "pq",
	}
	for k, w := range want {
		if d := cmp.Diff(w, vars[k].val); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}
	if d, ok := vars["p"].val.(*pyDict); !ok || !cmp.Equal(d.keys, []string{")", "}"}) {
		t.Errorf("p = %#v", vars["p"].val)
	}
	if d, ok := vars["d"].val.(*pyDict); !ok || !cmp.Equal(d.keys, []string{"k", "e"}) || !cmp.Equal(d.vals["k"], []any{int64(1), []any{int64(2)}}) {
		t.Errorf("d = %#v", vars["d"].val)
	}
	for _, k := range []string{"k", "m"} {
		if _, ok := vars[k].val.(pyUnknown); !ok {
			t.Errorf("%s = %#v, want unknown", k, vars[k].val)
		}
	}
	for _, k := range []string{"l", "f", "g"} {
		if v, ok := vars[k]; ok {
			if _, unknown := v.val.(pyUnknown); !unknown {
				t.Errorf("%s = %#v, want it unread", k, v.val)
			}
		}
	}
	if vars["o"].line != 15 || vars["j"].line != 9 {
		t.Errorf("lines: o %d, j %d", vars["o"].line, vars["j"].line)
	}
}
