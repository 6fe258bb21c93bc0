package metamodel

import (
	"os"
	"path/filepath"
	"testing"
)

// Patterns match as Python's re.match: anchored at the start only; "$"
// also before one newline that ends the value; "\Z" at the very end.
func TestPatternMatchesAsRePython(t *testing.T) {
	cases := []struct {
		pat, val string
		want     bool
	}{
		{`(QM|ASIL_B)`, "QM", true},
		{`(QM|ASIL_B)`, "QMX", true}, // re.match: the end is free
		{`(QM|ASIL_B)`, "XQM", false},
		{`^(QM|ASIL_B)$`, "QMX", false},
		{`^[0-9]+$`, "12\n", true}, // $ before a final newline
		{`^[0-9]+$`, "12\n\n", false},
		{`^[0-9]+\Z`, "12\n", false},
		{`^[0-9]+\Z`, "12", true},
		{`^[$]+$`, "$$", true},      // a $ in a class is a dollar
		{`^[]a]+$`, "]a]", true},    // a ] first in a class is a member
		{`^[^]a]+$`, "bc", true},    // and in a negated one
		{`^\$\d$`, "$5", true},      // an escaped $
		{`^[\s\S]+$`, "a\nb", true}, // content
		{`^https://github.com/.*`, "https://github.com/x", true},
	}
	for _, c := range cases {
		p, err := CompilePattern(c.pat)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if got := p.Match(c.val); got != c.want {
			t.Errorf("%q on %q: %v, want %v", c.pat, c.val, got, c.want)
		}
	}
	for _, bad := range []string{`^(?!x).*$`, `^(a)\1$`, `(?<=a)b`, `[a`} {
		if _, err := CompilePattern(bad); err == nil {
			t.Errorf("%q compiled; RE2 cannot express it and it must be refused", bad)
		}
	}
}

// conf.py's score_metamodel_yaml in the computed forms seg reads, and one
// it cannot tell.
func TestConfPath(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ src, want string }{
		{`score_metamodel_yaml = "mm.yaml"`, filepath.Join(dir, "mm.yaml")},
		{"import os\nscore_metamodel_yaml = os.path.join(os.path.dirname(__file__), 'a', \"mm.yaml\")", filepath.Join(dir, "a", "mm.yaml")},
		{"import os\nscore_metamodel_yaml = os.path.join(\n    os.path.dirname(os.path.abspath(__file__)),\n    \"mm.yaml\",\n)", filepath.Join(dir, "mm.yaml")},
		{"from pathlib import Path\nscore_metamodel_yaml = Path(__file__).parent / \"x\" / 'mm.yaml'", filepath.Join(dir, "x", "mm.yaml")},
		{"import os\nscore_metamodel_yaml = os.environ['MM']", ""},
		{`project = "x"`, ""},
	} {
		p := filepath.Join(dir, "conf.py")
		if err := os.WriteFile(p, []byte(c.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, why := confPath(p); got != c.want {
			t.Errorf("%s: %q (%s), want %q", c.src, got, why, c.want)
		}
	}
}

// A condition's operators and its text as S-CORE prints it.
func TestCond(t *testing.T) {
	m := Parse([]byte(`needs_types:
  t:
    title: T
graph_checks:
  g:
    needs:
      include: t
      condition:
        xor:
          - a == 1
          - not:
              - b != 2
    check:
      links: c contains x
    explanation: E.
`))
	if len(m.Problems) > 0 || len(m.Graph) != 1 {
		t.Fatalf("%+v", m.Problems)
	}
	g := m.Graph[0]
	if got, want := g.Select.String(), `{'xor': ['a == 1', {'not': ['b != 2']}]}`; got != want {
		t.Errorf("String: %s, want %s", got, want)
	}
	for _, c := range []struct {
		f    fields
		want bool
	}{
		{fields{"a": "1", "b": "3"}, true},
		{fields{"a": "1", "b": "2"}, false},
		{fields{"a": "0", "b": "2"}, true},
		{fields{"a": []string{"1"}, "b": "3"}, false},
	} {
		var missing []string
		if got := g.Select.Eval(c.f, &missing); got != c.want || len(missing) > 0 {
			t.Errorf("%v: %v (missing %v), want %v", c.f, got, missing, c.want)
		}
	}
	var missing []string
	if g.Checks[0].Cond.Eval(fields{}, &missing) || len(missing) != 1 || missing[0] != "c" {
		t.Errorf("an attribute the need lacks: missing %v", missing)
	}
}

type fields map[string]any

func (f fields) Field(name string) (any, bool) {
	v, ok := f[name]
	return v, ok
}

// The shortcuts of the common patterns give what the expression gives.
func TestPatternShortcuts(t *testing.T) {
	values := []string{"", "valid", "invalid", "valid\n", "Valid", "a b", "a\nb", "x\n", "\n", "QM", "ASIL_B",
		"feat_req__a_1", "feat_req__", "feat_req__A", "feat_req__a-b", "https://github.com/x", "https://githubXcom/x", "https://github\u00e9com/", "https://gitlab.com", "12", "1a", "wf__x"}
	for _, src := range []string{`^(valid|invalid)$`, `^(QM|ASIL_B)$`, `^.*$`, `^.+$`, `^[\s\S]+$`,
		`^feat_req__[0-9a-z_]+$`, `^feat_req__[0-9a-zA-Z_-]*$`, `^https://github.com/.*`, `^https://github\.com/`, `^[0-9]*$`, `^[0-9]+$`, `^wf__$`} {
		p, err := CompilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		if p.words == nil && !p.anyLine && !p.anyText && p.simple == nil {
			t.Errorf("%s has no shortcut", src)
		}
		for _, v := range values {
			if got, want := p.Match(v), p.regexp().MatchString(v); got != want {
				t.Errorf("%s on %q: %v, the expression says %v", src, v, got, want)
			}
		}
	}
}
