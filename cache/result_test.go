package cache

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/parser"
)

// Scan then Parse gives what the parser gives, cold and warm, and scanning
// an unchanged tree gives the same tree hash every time.
func TestScanParseMatchesParser(t *testing.T) {
	dir := tree(t, sample())
	specials(t, dir)
	want, err := parser.ParseTree(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, base := newCache(t)
	var first [32]byte
	for run := range 3 {
		c := Open(base, "test", nil)
		s, err := c.Scan(dir, nil)
		if err != nil || s == nil {
			t.Fatalf("scan: %v %v", s, err)
		}
		if run == 0 {
			first = s.tree
		} else if s.tree != first {
			t.Fatalf("run %d: the tree hash of an unchanged tree changed", run)
		}
		got, st := c.Parse(s)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("run %d: differs from the parser (-want +got):\n%s", run, diff)
		}
		if run > 0 && (st.Misses != 0 || st.Hits == 0) {
			t.Fatalf("run %d: warm run parsed: %+v", run, st)
		}
		if s.changed.Load() {
			t.Fatalf("run %d: an unchanged tree was seen to change", run)
		}
	}
}

// The tree hash changes with any file's bytes, a file's name, a file
// added, and the parser's configuration.
func TestTreeHashCoversTheTree(t *testing.T) {
	_, base := newCache(t)
	hash := func(dir string, cfg *parser.Config) [32]byte {
		s, err := Open(base, "test", cfg).Scan(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s.tree
	}
	dir := tree(t, sample())
	seen := map[[32]byte]string{hash(dir, nil): "start"}
	step := func(what string, cfg *parser.Config) {
		t.Helper()
		h := hash(dir, cfg)
		if prev, ok := seen[h]; ok {
			t.Fatalf("%s: same tree hash as %s", what, prev)
		}
		seen[h] = what
	}
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-2", 1)), 0o644)
	step("a file's bytes", nil)
	os.Rename(filepath.Join(dir, "a.rst"), filepath.Join(dir, "a2.rst"))
	step("a file's name", nil)
	os.WriteFile(filepath.Join(dir, "docs", "new.rst"), nil, 0o644)
	step("a file added", nil)
	os.Symlink("nowhere.rst", filepath.Join(dir, "dangling.rst"))
	step("an unreadable file", nil)
	step("the configuration", excludeConfig())
}

// A file that changes between the scan and its parse is parsed as it is
// now, and the scan is marked changed, so no result is stored for it.
func TestFileChangedDuringRun(t *testing.T) {
	dir := tree(t, sample())
	c, _ := newCache(t)
	s, err := c.Scan(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Cold: a.rst has no entry, so it is read for its parse, and is not
	// what the scan hashed.
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-9", 1)), 0o644)
	files, _ := c.Parse(s)
	if !s.changed.Load() || !hasID(files, "A-9") {
		t.Fatalf("cold: changed %v, A-9 parsed %v", s.changed.Load(), hasID(files, "A-9"))
	}
	// Unchanged since the scan: nothing is marked.
	s, _ = c.Scan(dir, nil)
	if c.Parse(s); s.changed.Load() {
		t.Fatal("an unchanged tree was seen to change")
	}
	// Warm, with a.rst's entry gone: it is read again, and is not what the
	// scan saw.
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-1", 1)), 0o644)
	s, _ = c.Scan(dir, nil)
	k := c.key("a.rst", &s.sums[indexOf(t, s, "a.rst")])
	_, name := c.entryPath(&k)
	os.Remove(name)
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-7", 1)), 0o644)
	files, _ = c.Parse(s)
	if !s.changed.Load() {
		t.Fatal("the change went unnoticed")
	}
	if !hasID(files, "A-7") {
		t.Fatal("the file was not parsed as it is now")
	}
	w := c.NewResult(s, c.ResultKey(s, "x"))
	w.Write([]byte("report"))
	if w.Commit(0) {
		t.Fatal("a result was stored for a tree that changed during the run")
	}
	if tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(name), "..", "*", ".tmp-*")); len(tmps) != 0 {
		t.Fatalf("left behind: %v", tmps)
	}
}

func indexOf(t *testing.T, s *Scan, rel string) int {
	for i, l := range s.list {
		if l.Path == rel {
			return i
		}
	}
	t.Fatalf("%s not scanned", rel)
	return -1
}

func hasID(files []*parser.File, id string) bool {
	for _, f := range files {
		for _, n := range f.Nodes {
			if n.ID == id {
				return true
			}
		}
	}
	return false
}

// A stored result comes back whole with its exit code; every damage to
// its entry is caught; too large a report, or one discarded, is not
// stored and leaves no file behind.
func TestResultEntries(t *testing.T) {
	dir := tree(t, sample())
	c, _ := newCache(t)
	s, err := c.Scan(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := c.ResultKey(s, "check", "json")
	if k == c.ResultKey(s, "check", "text") || k == c.ResultKey(s, "checkjson") {
		t.Fatal("the parts are not all in the key")
	}
	if _, _, ok := c.LoadResult(k); ok {
		t.Fatal("a result before any was stored")
	}
	report := bytes.Repeat([]byte("report line\n"), 1000)
	w := c.NewResult(s, k)
	w.Write(report[:5])
	w.Write(report[5:])
	if !w.Commit(1) {
		t.Fatal("not stored")
	}
	code, got, ok := c.LoadResult(k)
	if !ok || code != 1 || !bytes.Equal(got, report) {
		t.Fatalf("got code %d, %d bytes, %v", code, len(got), ok)
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
			if _, _, ok := c.LoadResult(k); ok {
				t.Fatalf("a flip of byte %d was not caught", i)
			}
		}
	}
	for _, n := range []int{0, 1, 36, 37, 49, 50, len(orig) - 1} {
		os.WriteFile(name, orig[:n], 0o644)
		if _, _, ok := c.LoadResult(k); ok {
			t.Fatalf("cut to %d bytes and not caught", n)
		}
	}
	os.WriteFile(name, append(bytes.Clone(orig), 0), 0o644)
	if _, _, ok := c.LoadResult(k); ok {
		t.Fatal("a byte more and not caught")
	}
	other := c.ResultKey(s, "other")
	_, otherName := c.entryPath(&other)
	os.MkdirAll(filepath.Dir(otherName), 0o755)
	os.WriteFile(otherName, orig, 0o644)
	if _, _, ok := c.LoadResult(other); ok {
		t.Fatal("another key's entry was taken")
	}
	if st := c.Stats(0); st.Corrupt == 0 {
		t.Fatalf("damaged entries not counted: %+v", st)
	}

	c.maxBytes = 1600
	big := c.NewResult(s, c.ResultKey(s, "big"))
	big.Write(make([]byte, c.maxBytes/maxResultShare))
	big.Write([]byte{0})
	if big.Commit(0) {
		t.Fatal("a report over the bound was stored")
	}
	d := c.NewResult(s, c.ResultKey(s, "discarded"))
	d.Write([]byte("x"))
	d.Discard()
	tmps, _ := filepath.Glob(filepath.Join(c.Dir(), "*", ".tmp-*"))
	if len(tmps) != 0 {
		t.Fatalf("left behind: %v", tmps)
	}
}
