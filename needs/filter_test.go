package needs

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// mapNeed is a need given as a map of its fields.
type mapNeed map[string]any

func (m mapNeed) Field(name string) (any, bool) {
	v, ok := m[name]
	if l, isList := v.([]any); isList {
		s := make([]string, len(l))
		for i, x := range l {
			s[i], _ = x.(string)
		}
		return s, true
	}
	return v, ok
}

// TestFilterAgainstPython evaluates every filter of testdata/filter/cases.txt
// on every need of testdata/filter/needs.json and compares with what
// Python's eval() gives, as sphinx-needs evaluates filters
// (testdata/filter/expected.json, written by eval.py; set
// SEG_REQUIRE_PYTHON=1 to run Python again and compare with it too).
func TestFilterAgainstPython(t *testing.T) {
	expected, err := os.ReadFile("testdata/filter/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SEG_REQUIRE_PYTHON") != "" {
		out, err := exec.Command("python3", "testdata/filter/eval.py").Output()
		if err != nil {
			t.Fatalf("python3 eval.py: %v", err)
		}
		if !bytes.Equal(out, expected) {
			t.Fatalf("Python now gives other results than expected.json:\n%s", out)
		}
	}
	var cases [][2]any
	if err := json.Unmarshal(expected, &cases); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/filter/needs.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		src := c[0].(string)
		want := c[1].([]any)
		f, perr := ParseFilter(src)
		for i, n := range raw {
			got := "error"
			if perr == nil {
				m, merr := f.Match(mapNeed(n), FilterContext{})
				if merr == nil {
					got = map[bool]string{true: "true", false: "false"}[m]
				}
			}
			w := "error"
			if b, ok := want[i].(bool); ok {
				w = map[bool]string{true: "true", false: "false"}[b]
			}
			if got != w {
				t.Errorf("%s on %s: seg %s, Python %s", src, n["id"], got, w)
			}
		}
	}
}

// What seg does not evaluate is refused as unsupported, at the place of
// the construct; what Python refuses too is invalid.
func TestFilterErrors(t *testing.T) {
	cases := []struct {
		src         string
		unsupported bool
		at          string // the text at the error's place
	}{
		{`[x for x in tags]`, true, "for"},
		{`status == "open" if True else False`, true, "if"},
		{`lambda: 1`, true, "lambda"},
		{`os.system("x")`, true, "system"},
		{`open("f")`, true, "open"},
		{`search("(?<=a)b", id)`, true, `"(?<=a)b"`},
		{`{"a": 1}`, true, "{"},
		{`tags[1:]`, true, ":"},
		{`len(tags) * 2`, true, "*"},
		{`status ==`, false, ""},
		{`"open`, false, `"open`},
		{`status == "open")`, false, ")"},
		{`copy("x", need_id="y")`, true, "copy"},
	}
	for _, c := range cases {
		_, err := ParseFilter(c.src)
		if err == nil {
			t.Errorf("%s: no error", c.src)
			continue
		}
		if err.Unsupported != c.unsupported {
			t.Errorf("%s: unsupported %v, want %v (%s)", c.src, err.Unsupported, c.unsupported, err.Msg)
		}
		if got := c.src[err.Offset:min(err.End, len(c.src))]; got != c.at {
			t.Errorf("%s: error at %q, want %q (%s)", c.src, got, c.at, err.Msg)
		}
	}
}

func TestThisDoc(t *testing.T) {
	f, err := ParseFilter(`c.this_doc() and status is None`)
	if err != nil {
		t.Fatal(err)
	}
	n := mapNeed{"status": nil, "docname": "a"}
	if ok, err := f.Match(n, FilterContext{Doc: "a", Docname: "a"}); err != nil || !ok {
		t.Errorf("same document: %v %v", ok, err)
	}
	if ok, err := f.Match(n, FilterContext{Doc: "b", Docname: "a"}); err != nil || ok {
		t.Errorf("other document: %v %v", ok, err)
	}
	if _, err := f.Match(n, FilterContext{}); err == nil || !err.Unsupported {
		t.Errorf("no document: %v", err)
	}
}

func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{22: "22.0", 0.5: "0.5", 1e16: "1e+16", 1.5e-5: "1.5e-05", 0.0001: "0.0001", -3: "-3.0", 132: "132.0", 1e22: "1e+22"} {
		if got := PyFloat(f); got != want {
			t.Errorf("PyFloat(%v) = %s, want %s", f, got, want)
		}
	}
}
