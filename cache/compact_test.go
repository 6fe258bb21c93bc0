package cache

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Compact returns a parse equal to the one it is given, whose strings
// lie in one block of its own, and the same File when it cannot be
// encoded; StoreCompact returns the same from the entry it writes,
// which a later run finds.
func TestCompact(t *testing.T) {
	c := Open(t.TempDir(), "test", parser.DefaultConfig())
	nodes := 0
	for i, f := range corpus(t) {
		var got *parser.File
		if i%2 == 0 {
			got = Compact(f, f.Source)
		} else {
			sum := [32]byte{byte(i), byte(i >> 8)}
			got = c.StoreCompact(&sum, f, f.Source)
			if again := c.Lookup(f.Source, &sum); again == nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("%s: the entry StoreCompact wrote does not decode to what it returned", f.Path)
			}
		}
		if got == f {
			t.Fatalf("%s: not compacted", f.Path)
		}
		if diff := cmp.Diff(f, got, sameFile); diff != "" {
			t.Fatalf("%s: compacting changed the parse (-want +got):\n%s", f.Path, diff)
		}
		if !reflect.DeepEqual(f, got) {
			t.Fatalf("%s: not DeepEqual after compacting", f.Path)
		}
		// The slices carved from the arena's chunks are capped: an
		// append by their user cannot write into the next file's.
		if cap(got.Nodes) != len(got.Nodes) || cap(got.Diagnostics) != len(got.Diagnostics) || cap(got.Source.Lines()) != len(got.Source.Lines()) {
			t.Fatalf("%s: a carved slice is not capped", f.Path)
		}
		for _, n := range got.Nodes {
			if cap(n.Options) != len(n.Options) {
				t.Fatalf("%s: options not capped", f.Path)
			}
			for _, o := range n.Options {
				if cap(o.Links) != len(o.Links) {
					t.Fatalf("%s: links not capped", f.Path)
				}
			}
		}
		// Every ID and title of the copy lies in one block, none in the
		// original's memory.
		lo, hi := uintptr(0), uintptr(0)
		for j := range got.Nodes {
			if id := f.Nodes[j].ID; id != "" && unsafe.StringData(id) == unsafe.StringData(got.Nodes[j].ID) {
				t.Fatalf("%s: the copy shares an ID's bytes with the parse", f.Path)
			}
			for _, s := range []string{got.Nodes[j].ID, got.Nodes[j].Title} {
				if s == "" {
					continue
				}
				p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
				if lo == 0 || p < lo {
					lo = p
				}
				hi = max(hi, p+uintptr(len(s)))
			}
			nodes++
		}
		if size := f.Source.Size(); lo != 0 && size > 0 && hi-lo > uintptr(2*size+64) {
			t.Errorf("%s: the copy's strings span %d bytes for a file of %d", f.Path, hi-lo, size)
		}
	}
	if nodes == 0 {
		t.Fatal("the corpus has no nodes")
	}
	fs := source.NewFileSet()
	a, b := fs.Add("a", 0, source.Docutils), fs.Add("b", 0, source.Docutils)
	bad := &parser.File{Path: "a", Source: a, Nodes: []parser.Node{{Pos: b.Pos(3)}}}
	if Compact(bad, a) != bad {
		t.Error("a parse that cannot be encoded was not returned as it was")
	}
}
