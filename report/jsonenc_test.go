package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/internal/testing/segtest"
	"github.com/seg-trace/seg/parser"
)

// stdIndent is what a json.Encoder without HTML escaping, indenting by
// two spaces after prefix, writes for v, less the final newline.
func stdIndent(t *testing.T, v any, prefix string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type jsonInner struct {
	A string `json:"a"`
	B []int  `json:"b,omitempty"`
}

type jsonEmbedded struct {
	jsonInner
	C int `json:"c"`
}

type jsonOdd struct {
	Plain    string
	Renamed  string `json:"renamed"`
	Skipped  string `json:"-"`
	Dash     string `json:"-,"`
	BadTag   string `json:"a\"b"`
	Empty    string `json:",omitempty"`
	Zero     int    `json:"zero,omitempty"`
	False    bool   `json:"false,omitempty"`
	NilPtr   *int   `json:"nil_ptr"`
	Ptr      *jsonInner
	NilSlice []string
	EmptySl  []string
	Nested   [][]jsonInner
	Any      any
	AnyNil   any
	Map      map[string]int
	Float    float64
	Bytes    []byte
	Time     time.Time
	TimePtr  *time.Time
	Emb      jsonEmbedded
	Str      int `json:"str,string"`
	Uint     uint16
	Neg      int64
	unexp    string
	NoFields struct{}
	Arr      [2]string
}

// The appender writes what encoding/json writes, for every kind of value
// and every byte a string can hold.
func TestJSONAppenderMatchesEncodingJSON(t *testing.T) {
	var all []byte
	for b := range 256 {
		all = append(all, byte(b))
	}
	n := 7
	values := []any{
		"", "plain", string(all), "\u2028\u2029 é 漢 \U0001F600", "\xff\xfe\xc3", "<&>", "\x7f",
		0, -1, int64(1 << 62), true, false, nil,
		[]string{}, []string(nil), []any{1, "x", nil, []int{}},
		jsonInner{}, jsonInner{A: "x", B: []int{1, 2}}, &jsonInner{}, (*jsonInner)(nil),
		jsonEmbedded{jsonInner{"y", nil}, 3},
		jsonOdd{},
		jsonOdd{Plain: "p", Empty: "e", Zero: 1, False: true, NilPtr: &n, Ptr: &jsonInner{A: "q"}, EmptySl: []string{},
			Nested: [][]jsonInner{{}, {{A: "z"}}}, Any: map[string]any{"k": []int{1}}, Map: map[string]int{"b": 1, "a": 2},
			Float: 1e21, Bytes: []byte("hi"), Time: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Str: 5, Uint: 9, Neg: -7,
			Arr: [2]string{"a", "b"}},
	}
	for i, v := range values {
		for _, prefix := range []string{"", "    "} {
			var a jsonAppender
			a.value(reflect.ValueOf(v), prefix)
			if a.err != nil {
				t.Fatalf("value %d: %v", i, a.err)
			}
			if diff := cmp.Diff(stdIndent(t, v, prefix), string(a.buf)); diff != "" {
				t.Errorf("value %d (%T), prefix %q (-encoding/json +appender):\n%s", i, v, prefix, diff)
			}
		}
	}
}

// Every JSON document seg writes comes out the same through the appender
// as through encoding/json in one piece: the example trees and random
// ones, with odd text in titles and bodies.
func TestJSONDocumentsMatchEncodingJSON(t *testing.T) {
	var checks []*check.Check
	for _, ex := range []string{"brake", "broken", "needs"} {
		checks = append(checks, checkOfDir(t, filepath.Join("..", "examples", ex)))
	}
	r := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		tr := segtest.RandomTree(r)
		files := tr.Files()
		for _, f := range files {
			for i := range f.Nodes {
				f.Nodes[i].Title = []string{"", "quote \" back \\ tab \t", "\u2028 <b>&", "\xff bad"}[r.IntN(4)] + f.Nodes[i].Title
			}
		}
		checks = append(checks, checkOf(tr.FileSet(), files, nil))
	}
	writers := map[string]func(*bytes.Buffer, *check.Check) error{
		"check": func(b *bytes.Buffer, c *check.Check) error { return WriteJSON(b, c) },
		"graph": func(b *bytes.Buffer, c *check.Check) error { return WriteGraphJSON(b, c) },
		"needs": func(b *bytes.Buffer, c *check.Check) error { return WriteNeedsJSON(b, c) },
		"sarif": func(b *bytes.Buffer, c *check.Check) error { return WriteSARIF(b, c, "test") },
		"matrix": func(b *bytes.Buffer, c *check.Check) error {
			return WriteMatrixJSON(b, BuildMatrix(c, MatrixOptions{}))
		},
		"explain": func(b *bytes.Buffer, c *check.Check) error { return explainFirst(b, c) },
	}
	for i, c := range checks {
		for name, write := range writers {
			var fast, std bytes.Buffer
			if err := write(&fast, c); err != nil {
				t.Fatalf("tree %d, %s: %v", i, name, err)
			}
			stdJSON = true
			err := write(&std, c)
			stdJSON = false
			if err != nil {
				t.Fatalf("tree %d, %s (encoding/json): %v", i, name, err)
			}
			if diff := cmp.Diff(std.String(), fast.String()); diff != "" {
				t.Fatalf("tree %d, %s (-encoding/json +appender):\n%s", i, name, diff)
			}
		}
	}
}

// explainFirst explains the first requirement that others refine (so the
// tree below it, nested explanations, is encoded too), else the first
// requirement, or writes nothing.
func explainFirst(b *bytes.Buffer, c *check.Check) error {
	var first *graph.Node
	for n := range c.Graph.Nodes() {
		if n.Kind() != parser.Requirement {
			continue
		}
		if v, _ := c.Result.Verdict(n); len(v.RefinedBy) > 0 {
			return WriteExplainJSON(b, c, n.ID(), ExplainOptions{Depth: -1})
		}
		if first == nil {
			first = n
		}
	}
	if first == nil {
		return nil
	}
	return WriteExplainJSON(b, c, first.ID(), ExplainOptions{Depth: -1})
}
