package cache

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
)

// corpus parses every file of the parser's corpus under a few
// configurations.
func corpus(t testing.TB) []*parser.File {
	t.Helper()
	names, err := filepath.Glob("../parser/testdata/corpus/*.rst")
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	extra := parser.DefaultConfig()
	extra.ExtraOptions["status"] = true
	extra.ExtraOptions["tags"] = true
	extra.Literal["jupyter-execute"] = true
	extra.Directives["hlr"] = parser.Requirement
	var files []*parser.File
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel := "docs/" + filepath.Base(n)
		files = append(files, parser.ParseFile(rel, src, nil), parser.ParseFile(rel, src, extra))
	}
	return files
}

// odd are Files the parser does not make today but the codec must carry
// all the same: nil against empty slices, positions in other files or in
// none, negative and large numbers, every field set.
func odd() []*parser.File {
	p := func(f string, l, c int) parser.Pos { return parser.Pos{File: f, Line: l, Col: c} }
	return []*parser.File{
		{},
		{Path: "a.rst"},
		{Path: "a.rst", Nodes: []parser.Node{}, Diagnostics: parser.Diagnostics{}},
		{Path: "dir/ünïcode.rst", Nodes: []parser.Node{{
			Kind: parser.Waiver, Directive: "waiver", ID: "W-1", Title: "t\x00itle",
			Pos: p("dir/ünïcode.rst", min(1<<40, math.MaxInt), -3), Parent: -1, Body: "body\n\n  more",
			Options: []parser.Option{
				{Name: "excuses", Value: "A, B", Pos: p("other.rst", 0, 0), ValuePos: p("", 7, 9), Links: []parser.Link{}},
				{Name: "excuses", Value: "A (suspect)", Links: []parser.Link{
					{ID: "A", State: parser.InvalidState, StateText: "suspect", Span: parser.Span{Start: p("dir/ünïcode.rst", 3, 4), End: p("dir/ünïcode.rst", 3, 15)}},
					{ID: "", State: 200},
					{ID: "REQ_1", Part: "a.b", Condition: `status == "open" and x[0]`},
				}},
				{},
			},
		}, {Kind: 0, Parent: min(1<<50, math.MaxInt)}, {Kind: 255, Parent: max(-1<<50, math.MinInt), Options: []parser.Option{}}},
			Diagnostics: parser.Diagnostics{
				{Severity: parser.Error, Code: "x", Message: "m", Detail: "d", Span: parser.Span{Start: p("dir/ünïcode.rst", 1, 1)},
					Related: []parser.Related{{Span: parser.Span{Start: p("b.rst", 2, 3), End: p("b.rst", 2, 9)}, Message: "first"}, {}}},
				{Severity: 9, Related: []parser.Related{}},
				{},
			}},
	}
}

func roundTrip(t *testing.T, f *parser.File) {
	t.Helper()
	enc, err := appendFile(nil, f)
	if err != nil {
		t.Fatalf("%s: encode: %v", f.Path, err)
	}
	got, err := decodeFile(enc)
	if err != nil {
		t.Fatalf("%s: decode: %v", f.Path, err)
	}
	if diff := cmp.Diff(f, got); diff != "" {
		t.Fatalf("%s: round trip changed the file (-want +got):\n%s", f.Path, diff)
	}
	// nil and empty slices must survive, which cmp.Diff does check; check
	// the deepest ones directly too.
	if !reflect.DeepEqual(f, got) {
		t.Fatalf("%s: not DeepEqual after a round trip", f.Path)
	}
}

func TestCodecRoundTripCorpus(t *testing.T) {
	files := corpus(t)
	nodes := 0
	for _, f := range files {
		roundTrip(t, f)
		nodes += len(f.Nodes)
	}
	if nodes == 0 {
		t.Fatal("the corpus has no nodes")
	}
}

func TestCodecRoundTripOdd(t *testing.T) {
	for _, f := range odd() {
		roundTrip(t, f)
	}
}

func TestCodecRejectsLineOutOfRange(t *testing.T) {
	line := int64(maxLine) + 1
	if int64(int(line)) != line {
		t.Skip("an int cannot hold such a line here")
	}
	f := &parser.File{Path: "a", Nodes: []parser.Node{{Pos: parser.Pos{Line: int(line)}}}}
	if _, err := appendFile(nil, f); err == nil {
		t.Fatal("a line the encoding cannot carry was encoded")
	}
}

// A decoded File must not let an append by its user write into the next
// node's options or links.
func TestDecodedSlicesAreCapped(t *testing.T) {
	f := odd()[3]
	enc, _ := appendFile(nil, f)
	got, err := decodeFile(enc)
	if err != nil {
		t.Fatal(err)
	}
	o := got.Nodes[0].Options
	if cap(o) != len(o) || cap(o[1].Links) != len(o[1].Links) {
		t.Fatal("slab slices are not capped")
	}
}

// Every strict prefix and every one-byte change of an encoding either
// fails to decode or decodes to something; it never panics. (Entries are
// also guarded by a checksum: see TestEntryFraming.)
func TestCodecDamage(t *testing.T) {
	for _, f := range append(corpus(t)[:6], odd()...) {
		enc, err := appendFile(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(enc); n++ {
			if _, err := decodeFile(append([]byte(nil), enc[:n]...)); err == nil {
				t.Fatalf("%s: a prefix of %d of %d bytes decoded", f.Path, n, len(enc))
			}
		}
		for i := range enc {
			b := append([]byte(nil), enc...)
			b[i] ^= 0x55
			decodeFile(b)
		}
		if _, err := decodeFile(append(append([]byte(nil), enc...), 0)); err == nil {
			t.Fatalf("%s: trailing bytes were accepted", f.Path)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, file := range append(corpus(f)[:10], odd()...) {
		enc, err := appendFile(nil, file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte(nil), data...)
		got, err := decodeFile(in)
		if err != nil {
			return
		}
		// What decodes re-encodes, and decodes again to the same File.
		enc, err := appendFile(nil, got)
		if err != nil {
			// Only a line the encoder refuses can fail.
			return
		}
		again, err := decodeFile(enc)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("re-encoding changed the file:\n%s", diff)
		}
	})
}
