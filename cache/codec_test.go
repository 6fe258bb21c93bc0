package cache

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
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
	fs := source.NewFileSet()
	var files []*parser.File
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel := "docs/" + filepath.Base(n)
		files = append(files,
			parser.ParseFile(fs.Add(rel, len(src), source.Docutils), src, nil),
			parser.ParseFile(fs.Add(rel, len(src), source.Docutils), src, extra))
	}
	return files
}

// odd are Files the parser does not make today but the codec must carry
// all the same: nil against empty slices, positions of no line or none at
// all, offsets that go back, large numbers, every field set.
func odd() []*parser.File {
	fs := source.NewFileSet()
	file := func(name string, lines ...int32) *source.File {
		f := fs.Add(name, 0, source.Docutils)
		f.SetLines(lines)
		return f
	}
	a, u := file("a.rst"), file("dir/ünïcode.rst", 0, 10, 20, 40)
	code, _ := diag.Lookup("invalid-id")
	return []*parser.File{
		{Source: file("")},
		{Path: "a.rst", Source: a},
		{Path: "a.rst", Source: file("a.rst", 0), Nodes: []parser.Node{}, Diagnostics: diag.List{}},
		{Path: "dir/ünïcode.rst", Source: u, Nodes: []parser.Node{{
			Kind: parser.Waiver, Directive: "waiver", ID: "W-1", Title: "t\x00itle",
			Pos: u.Pos(source.MaxFileSize), Parent: -1, Body: "body\n\n  more", Broken: true,
			Options: []parser.Option{
				{Name: "excuses", Value: "A, B", Pos: u.Whole(), ValuePos: u.Pos(7), Links: []parser.Link{}},
				{Name: "excuses", Value: "A (suspect)", Links: []parser.Link{
					{ID: "A", State: parser.InvalidState, StateText: "suspect", Span: u.Span(3, 15)},
					{ID: "", State: 200},
					{ID: "REQ_1", Part: "a.b", Condition: `status == "open" and x[0]`},
				}},
				{},
			},
		}, {Kind: 0, Parent: min(1<<50, math.MaxInt)}, {Kind: 255, Parent: max(-1<<50, math.MinInt), Options: []parser.Option{}}},
			Diagnostics: diag.List{
				{Code: code, Message: "m", Detail: "d", Span: source.At(u.Pos(0)),
					Related: []diag.Related{{Span: u.Span(22, 29), Message: "first"}, {}}},
				{Code: code, Related: []diag.Related{}},
			},
			Ignores: []parser.Ignore{
				{Codes: []string{"unknown-option", "missing-id"}, Reason: "why", Span: u.Span(3, 9)},
				{Codes: []string{}, Line: math.MaxInt32},
				{Line: -3, Reason: "ünï"},
			}},
	}
}

// sameFile compares positions as values and files as pointers.
var sameFile = cmp.Options{
	cmp.AllowUnexported(source.Pos{}),
	cmp.Comparer(func(a, b *source.File) bool { return a == b }),
}

func roundTrip(t *testing.T, f *parser.File) {
	t.Helper()
	enc, err := appendFile(nil, f)
	if err != nil {
		t.Fatalf("%s: encode: %v", f.Path, err)
	}
	lines := f.Source.Lines()
	got, err := decodeFile(enc, f.Source)
	if err != nil {
		t.Fatalf("%s: decode: %v", f.Path, err)
	}
	if diff := cmp.Diff(f, got, sameFile); diff != "" {
		t.Fatalf("%s: round trip changed the file (-want +got):\n%s", f.Path, diff)
	}
	if diff := cmp.Diff(lines, f.Source.Lines()); diff != "" {
		t.Fatalf("%s: round trip changed the line table:\n%s", f.Path, diff)
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

func TestCodecRejectsAnotherFilesPosition(t *testing.T) {
	fs := source.NewFileSet()
	a, b := fs.Add("a", 0, source.Docutils), fs.Add("b", 0, source.Docutils)
	f := &parser.File{Path: "a", Source: a, Nodes: []parser.Node{{Pos: b.Pos(3)}}}
	if _, err := appendFile(nil, f); err == nil {
		t.Fatal("a position in another file was encoded")
	}
}

// A decoded File must not let an append by its user write into the next
// node's options or links.
func TestDecodedSlicesAreCapped(t *testing.T) {
	f := odd()[3]
	enc, _ := appendFile(nil, f)
	got, err := decodeFile(enc, f.Source)
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
			if _, err := decodeFile(append([]byte(nil), enc[:n]...), f.Source); err == nil {
				t.Fatalf("%s: a prefix of %d of %d bytes decoded", f.Path, n, len(enc))
			}
		}
		for i := range enc {
			b := append([]byte(nil), enc...)
			b[i] ^= 0x55
			decodeFile(b, f.Source)
		}
		if _, err := decodeFile(append(append([]byte(nil), enc...), 0), f.Source); err == nil {
			t.Fatalf("%s: trailing bytes were accepted", f.Path)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, file := range append(corpus(f)[:10], odd()[3]) {
		enc, err := appendFile(nil, file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	sf := source.NewFileSet().Add("a.rst", 0, source.Docutils)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte(nil), data...)
		got, err := decodeFile(in, sf)
		if err != nil {
			return
		}
		// What decodes re-encodes, and decodes again to the same File.
		enc, err := appendFile(nil, got)
		if err != nil {
			// Only a line the encoder refuses can fail.
			return
		}
		again, err := decodeFile(enc, sf)
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v", err)
		}
		if diff := cmp.Diff(got, again, sameFile); diff != "" {
			t.Fatalf("re-encoding changed the file:\n%s", diff)
		}
	})
}
