package cache

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// A stored result comes back whole with its exit code; every damage to
// its entry is caught; too large a report, or one discarded, is not
// stored and leaves no file behind.
func TestResultEntries(t *testing.T) {
	c, _ := newCache(t)
	s := []TreeFile{{Path: "a.rst", Sum: [32]byte{1}}, {Path: "b.rst", Bad: "cannot read"}}
	k := c.ResultKey(s, "check", "json")
	if k == c.ResultKey(s, "check", "text") || k == c.ResultKey(s, "checkjson") {
		t.Fatal("the parts are not all in the key")
	}
	for i, other := range [][]TreeFile{
		{{Path: "a.rst", Sum: [32]byte{2}}, {Path: "b.rst", Bad: "cannot read"}},
		{{Path: "a2.rst", Sum: [32]byte{1}}, {Path: "b.rst", Bad: "cannot read"}},
		{{Path: "a.rst", Sum: [32]byte{1}}, {Path: "b.rst", Bad: "other"}},
		{{Path: "a.rst", Sum: [32]byte{1}}},
		{{Path: "a.rst", Sum: [32]byte{1}}, {Path: "b.rst", Bad: "cannot read"}, {Path: "c.rst"}},
	} {
		if c.ResultKey(other, "check", "json") == k {
			t.Errorf("tree %d: the tree is not all in the key", i)
		}
	}
	if Open(t.TempDir(), "other", nil).ResultKey(s, "check", "json") == k {
		t.Error("the version is not in the key")
	}
	var unchanged atomic.Bool
	if _, _, _, ok := c.LoadResult(k); ok {
		t.Fatal("a result before any was stored")
	}
	report := bytes.Repeat([]byte("report line\n"), 1000)
	w := c.NewResult(k, &unchanged, []byte("deps: a.go 1234"))
	w.Write(report[:5])
	w.Write(report[5:])
	if !w.Commit(1) {
		t.Fatal("not stored")
	}
	code, got, deps, ok := c.LoadResult(k)
	if !ok || code != 1 || !bytes.Equal(got, report) || string(deps) != "deps: a.go 1234" {
		t.Fatalf("got code %d, %d bytes, deps %q, %v", code, len(got), deps, ok)
	}
	_, name := c.entryPath(&k)
	orig, _ := os.ReadFile(name)
	// Every byte of the header and trailer, and some of the report.
	var at []int
	for i := range orig {
		if i < 64 || i > len(orig)-40 || i%97 == 0 {
			at = append(at, i)
		}
	}
	for _, i := range at {
		for _, flip := range []byte{1, 0x80} {
			b := bytes.Clone(orig)
			b[i] ^= flip
			os.WriteFile(name, b, 0o644)
			if _, _, _, ok := c.LoadResult(k); ok {
				t.Fatalf("a flip of byte %d was not caught", i)
			}
		}
	}
	for _, n := range []int{0, 1, 36, 37, 49, 50, len(orig) - 1} {
		os.WriteFile(name, orig[:n], 0o644)
		if _, _, _, ok := c.LoadResult(k); ok {
			t.Fatalf("cut to %d bytes and not caught", n)
		}
	}
	os.WriteFile(name, append(bytes.Clone(orig), 0), 0o644)
	if _, _, _, ok := c.LoadResult(k); ok {
		t.Fatal("a byte more and not caught")
	}
	other := c.ResultKey(s, "other")
	_, otherName := c.entryPath(&other)
	os.MkdirAll(filepath.Dir(otherName), 0o755)
	os.WriteFile(otherName, orig, 0o644)
	if _, _, _, ok := c.LoadResult(other); ok {
		t.Fatal("another key's entry was taken")
	}
	if st := c.Stats(0); st.Corrupt == 0 {
		t.Fatalf("damaged entries not counted: %+v", st)
	}

	c.maxBytes = 1600
	big := c.NewResult(c.ResultKey(s, "big"), &unchanged, nil)
	big.Write(make([]byte, c.maxBytes/maxResultShare))
	big.Write([]byte{0})
	if big.Commit(0) {
		t.Fatal("a report over the bound was stored")
	}
	d := c.NewResult(c.ResultKey(s, "discarded"), &unchanged, nil)
	d.Write([]byte("x"))
	d.Discard()
	var changed atomic.Bool
	changed.Store(true)
	ch := c.NewResult(c.ResultKey(s, "changed"), &changed, nil)
	ch.Write([]byte("x"))
	if ch.Commit(0) {
		t.Fatal("a result was stored for a tree that changed during the run")
	}
	tmps, _ := filepath.Glob(filepath.Join(c.Dir(), "*", ".tmp-*"))
	if len(tmps) != 0 {
		t.Fatalf("left behind: %v", tmps)
	}
}
