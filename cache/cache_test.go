package cache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// parseAll parses every file of a tree (listed as seg lists it) through
// the cache, as a run does, into a new FileSet.
func parseAll(t *testing.T, c *Cache, dir string, cfg *parser.Config) []*parser.File {
	t.Helper()
	list := rstFiles(t, dir)
	fs := source.NewFileSet()
	var out []*parser.File
	for _, l := range list {
		src, err := os.ReadFile(filepath.Join(dir, l))
		if err != nil {
			continue
		}
		sf := fs.Add(l, len(src), source.Docutils)
		sum := sha256.Sum256(src)
		f := c.Lookup(sf, &sum)
		if f == nil {
			f = parser.ParseFile(sf, src, cfg)
			c.Store(&sum, f)
		}
		out = append(out, f)
	}
	c.Finish()
	return out
}

// summary renders parsed files with every position resolved, to compare
// parses made in different FileSets.
func summary(files []*parser.File) []string {
	var out []string
	for _, f := range files {
		for _, n := range f.Nodes {
			s := fmt.Sprintf("%s %s %s %q %q broken=%v", f.Position(n.Pos), n.Directive, n.ID, n.Title, n.Body, n.Broken)
			for _, o := range n.Options {
				s += fmt.Sprintf(" :%s:%s@%s", o.Name, o.Value, f.Position(o.ValuePos))
				for _, l := range o.Links {
					s += fmt.Sprintf(" [%s %s %s-%s]", l.ID, l.State, f.Position(l.Span.Start), f.Position(l.Span.End))
				}
			}
			out = append(out, s)
		}
		for _, d := range f.Diagnostics {
			out = append(out, fmt.Sprintf("%s %s %s", f.Position(d.Span.Start), d.Code, d.Message))
		}
	}
	return out
}

const node = ".. sreq:: Title\n   :id: %s\n   :refines: P\n\n   Body.\n"

// tree writes files (slash paths) under a new folder.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func sample() map[string]string {
	return map[string]string{
		"a.rst":           strings.Replace(node, "%s", "A-1", 1),
		"docs/b.rst":      strings.Replace(node, "%s", "B-1", 1) + "\n" + strings.Replace(node, "%s", "B 2", 1),
		"docs/deep/c.rst": ".. test:: T\n   :id: T-1\n   :verifies: A-1 (suspect), B-1 (bogus)\n   :unknown: x\n",
		"docs/bom.rst":    "\xef\xbb\xbf.. impl:: I\n   :id: I-1\r\n   :implements: A-1\r\n",
		"docs/empty.rst":  "",
	}
}

// Entries give exactly what the parser gives; the key holds the path, the
// content, the configuration and the version, not the excluded globs.
func TestLookupStore(t *testing.T) {
	dir := tree(t, sample())
	want := summary(parseAll(t, Open(t.TempDir(), "test", nil), dir, nil))
	_, base := newCache(t)
	for run := range 2 {
		c := Open(base, "test", nil)
		if diff := cmp.Diff(want, summary(parseAll(t, c, dir, nil))); diff != "" {
			t.Fatalf("run %d: differs from the parser (-want +got):\n%s", run, diff)
		}
		if st := c.Stats(0); run == 1 && (st.Misses != 0 || st.Hits != 5) || run == 0 && st.Misses != 5 {
			t.Fatalf("run %d: %+v", run, st)
		}
	}
	stats := func(version string, cfg *parser.Config) Stats {
		c := Open(base, version, cfg)
		parseAll(t, c, dir, cfg)
		return c.Stats(0)
	}
	if st := stats("v2", nil); st.Misses != 5 {
		t.Fatalf("another version hit: %+v", st)
	}
	cfg := parser.DefaultConfig()
	cfg.ExtraOptions["status"] = true
	if st := stats("test", cfg); st.Misses != 5 {
		t.Fatalf("another config hit: %+v", st)
	}
	cfg = parser.DefaultConfig()
	cfg.Exclude = []string{"nothing/**"}
	if st := stats("test", cfg); st.Hits != 5 {
		t.Fatalf("exclude should not change the key: %+v", st)
	}
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-2", 1)), 0o644)
	if st := stats("test", nil); st.Misses != 1 {
		t.Fatalf("changed content hit: %+v", st)
	}
	os.Rename(filepath.Join(dir, "a.rst"), filepath.Join(dir, "z.rst"))
	if st := stats("test", nil); st.Misses != 1 {
		t.Fatalf("renamed file hit: %+v", st)
	}
}

// Every way an entry can go bad is seen: the lookup misses, counts it,
// and the entry stored again is the one a sound run writes.
func TestDamagedEntriesAreRebuilt(t *testing.T) {
	dir := tree(t, sample())
	c, base := newCache(t)
	want := summary(parseAll(t, c, dir, nil))
	ents := entryFiles(t, c)
	if len(ents) == 0 {
		t.Fatal("no entries written")
	}
	orig := map[string][]byte{}
	for _, e := range ents {
		orig[e], _ = os.ReadFile(e)
	}
	damages := map[string]func(name string, b []byte) []byte{
		"empty":         func(_ string, b []byte) []byte { return nil },
		"truncated":     func(_ string, b []byte) []byte { return b[:len(b)-1] },
		"half":          func(_ string, b []byte) []byte { return b[:len(b)/2] },
		"header only":   func(_ string, b []byte) []byte { return b[:headerLen] },
		"longer":        func(_ string, b []byte) []byte { return append(b, 0) },
		"magic":         func(_ string, b []byte) []byte { b[0] ^= 1; return b },
		"version":       func(_ string, b []byte) []byte { b[4]++; return b },
		"key":           func(_ string, b []byte) []byte { b[10] ^= 0x80; return b },
		"length":        func(_ string, b []byte) []byte { b[37]++; return b },
		"payload bit":   func(_ string, b []byte) []byte { b[headerLen+len(b[headerLen:])/2] ^= 4; return b },
		"checksum":      func(_ string, b []byte) []byte { b[len(b)-1] ^= 0xff; return b },
		"zeros":         func(_ string, b []byte) []byte { return make([]byte, len(b)) },
		"foreign entry": func(name string, b []byte) []byte { return orig[ents[(sort.SearchStrings(ents, name)+1)%len(ents)]] },
	}
	for what, damage := range damages {
		for _, e := range ents {
			b := damage(e, append([]byte(nil), orig[e]...))
			if err := os.WriteFile(e, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c := Open(base, "test", nil)
		if diff := cmp.Diff(want, summary(parseAll(t, c, dir, nil))); diff != "" {
			t.Fatalf("%s: result changed:\n%s", what, diff)
		}
		if st := c.Stats(0); st.Corrupt != len(ents) || st.Hits != 0 || st.Written != len(ents) {
			t.Fatalf("%s: %+v, want every one of %d entries rejected and written again", what, st, len(ents))
		}
		for _, e := range ents {
			if b, _ := os.ReadFile(e); !bytes.Equal(b, orig[e]) {
				t.Fatalf("%s: %s was not written again", what, e)
			}
		}
	}
	// A folder in an entry's place is a miss too, and the run still works.
	os.Remove(ents[0])
	os.Mkdir(ents[0], 0o755)
	if diff := cmp.Diff(want, summary(parseAll(t, Open(base, "test", nil), dir, nil))); diff != "" {
		t.Fatalf("a folder in place of an entry:\n%s", diff)
	}
}

// A run that writes prunes, so the cache stays bounded without anyone
// calling Prune.
func TestRunsStayBounded(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[filepath.ToSlash(filepath.Join("d", string(rune('a'+i%26))+strings.Repeat("x", i)+".rst"))] =
			strings.Replace(node, "%s", "N-"+strings.Repeat("1", i+1), 1) + strings.Repeat("   filler\n", 200)
	}
	dir := tree(t, files)
	t.Setenv(EnvMaxMB, "1")
	_, base := newCache(t)
	c := Open(base, "test", nil)
	if c.maxBytes != 1<<20 {
		t.Fatalf("%s not honoured: %d", EnvMaxMB, c.maxBytes)
	}
	c.maxBytes = 20_000 // below what the tree needs
	parseAll(t, c, dir, nil)
	var total int64
	for _, e := range entryFiles(t, c) {
		st, _ := os.Stat(e)
		total += st.Size()
	}
	if total > c.maxBytes {
		t.Fatalf("cache holds %d bytes, bound %d", total, c.maxBytes)
	}
}

func newCache(t *testing.T) (*Cache, string) {
	t.Helper()
	base := t.TempDir()
	c := Open(base, "test", nil)
	if c == nil {
		t.Fatal("no build identity")
	}
	return c, base
}

// ConfigHash must cover every field of parser.Config that can change a
// parse. A new field fails this test until it is added to ConfigHash (or
// here, as not changing a parse).
func TestConfigHashCoversConfig(t *testing.T) {
	known := map[string]bool{"Directives": true, "Literal": true, "ExtraOptions": true, "IDPattern": true, "Exclude": true, "Needs": true,
		// Which files are read, not how one is parsed.
		"SourcelinkSuffix": true}
	typ := reflect.TypeFor[parser.Config]()
	for i := range typ.NumField() {
		if !known[typ.Field(i).Name] {
			t.Errorf("parser.Config.%s is new: add it to ConfigHash", typ.Field(i).Name)
		}
	}
	base := ConfigHash(parser.DefaultConfig())
	changes := map[string]func(*parser.Config){
		"directive":        func(c *parser.Config) { c.Directives["hlr"] = parser.Requirement },
		"directive kind":   func(c *parser.Config) { c.Directives["req"] = parser.Test },
		"literal":          func(c *parser.Config) { c.Literal["foo"] = true },
		"literal false":    func(c *parser.Config) { c.Literal["foo"] = false },
		"extra":            func(c *parser.Config) { c.ExtraOptions["status"] = true },
		"id pattern":       func(c *parser.Config) { c.IDPattern = regexp.MustCompile(`^X`) },
		"no id pattern":    func(c *parser.Config) { c.IDPattern = nil },
		"name into kind":   func(c *parser.Config) { c.ExtraOptions["a"] = true; c.Literal["b"] = true },
		"name into kind 2": func(c *parser.Config) { c.ExtraOptions["b"] = true; c.Literal["a"] = true },
		"needs":            func(c *parser.Config) { c.Needs = &needs.NewProject().Tables },
		"needs type": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.AddType(needs.NeedType{Directive: "req"})
		},
		"needs link edge": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.AddLink(needs.LinkType{Option: "links", Edge: "refines"})
		},
		// A mapping of another form changes which entries take seg's
		// "(state)" suffix (LinkType.Stateful) with the same Edge.
		"needs link auto": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.AddLink(needs.LinkType{Option: "links", Auto: true})
		},
		"needs link edges": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.AddLink(needs.LinkType{Option: "links", Edges: []string{"refines"}})
		},
		"needs link edges stateful": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.AddLink(needs.LinkType{Option: "links", Edges: []string{"implements", "refines"}})
		},
		"needs id required": func(c *parser.Config) {
			c.Needs = &needs.NewProject().Tables
			c.Needs.IDRequired = true
		},
	}
	seen := map[[32]byte]string{base: "default"}
	for name, change := range changes {
		c := parser.DefaultConfig()
		change(c)
		h := ConfigHash(c)
		if other, ok := seen[h]; ok {
			t.Errorf("%s hashes like %s", name, other)
		}
		seen[h] = name
	}
	if ConfigHash(parser.DefaultConfig()) != base {
		t.Error("ConfigHash is not deterministic")
	}
}

func entryFiles(t *testing.T, c *Cache) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(c.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(filepath.Base(filepath.Dir(p))) == 2 && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Every flip of every byte of a framed entry is caught by its framing.
func TestEntryFraming(t *testing.T) {
	var k [32]byte
	k[3] = 7
	for _, f := range append(corpus(t)[:8], odd()...) {
		e, err := encodeEntry(&k, f)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := checkEntry(e, &k); !ok || len(p) != len(e)-headerLen-trailerLen {
			t.Fatal("a sound entry was rejected")
		}
		other := k
		other[0]++
		if _, ok := checkEntry(e, &other); ok {
			t.Fatal("an entry was accepted for another key")
		}
		for i := range e {
			for _, bit := range []byte{1, 0x80} {
				b := append([]byte(nil), e...)
				b[i] ^= bit
				if _, ok := checkEntry(b, &k); ok {
					t.Fatalf("%s: a flipped bit at %d passed", f.Path, i)
				}
			}
		}
		for n := range len(e) {
			if _, ok := checkEntry(e[:n], &k); ok {
				t.Fatalf("%s: a prefix of %d bytes passed", f.Path, n)
			}
		}
	}
}

// The cache is never kept in a tree, links or no links: a root that is a
// link to a folder holding the cache folder, a cache folder given through
// a link into the tree (SEG_CACHE_DIR=link), a link to a cache folder not
// made yet. A cache folder beside the tree, given through a link, is
// used.
func TestOverlapsThroughLinks(t *testing.T) {
	cases := []struct {
		name string
		// root and cache base, given the tree's real folder and a folder
		// outside it for links
		paths func(t *testing.T, real, out string) (root, base string)
		want  bool
	}{
		{"the cache in the tree", func(t *testing.T, real, out string) (string, string) {
			return real, filepath.Join(real, "cache")
		}, true},
		{"root is a link", func(t *testing.T, real, out string) (string, string) {
			root := filepath.Join(out, "root-link")
			symlinkOrSkip(t, real, root)
			return root, filepath.Join(real, "build", "seg-cache")
		}, true},
		{"cache folder through a link", func(t *testing.T, real, out string) (string, string) {
			if err := os.MkdirAll(filepath.Join(real, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join(real, "build"), base)
			return real, base
		}, true},
		{"cache folder through a link to a folder not made yet", func(t *testing.T, real, out string) (string, string) {
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join(real, "later"), base)
			return real, filepath.Join(base, "seg")
		}, true},
		{"both through links", func(t *testing.T, real, out string) (string, string) {
			root := filepath.Join(out, "root-link")
			symlinkOrSkip(t, real, root)
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join("root-link", "cache"), base)
			return root, base
		}, true},
		{"beside the tree, through a link", func(t *testing.T, real, out string) (string, string) {
			link := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, t.TempDir(), link)
			return real, link
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			real := tree(t, sample())
			root, base := tc.paths(t, real, t.TempDir())
			if got := Open(base, "test", nil).Overlaps(root); got != tc.want {
				t.Errorf("Overlaps = %v, want %v", got, tc.want)
			}
		})
	}
}

func symlinkOrSkip(t *testing.T, to, name string) {
	t.Helper()
	if err := os.Symlink(to, name); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
}

func TestPruneKeepsTheBound(t *testing.T) {
	c, _ := newCache(t)
	payload := bytes.Repeat([]byte("x"), 1000)
	var k [32]byte
	old := time.Now().Add(-48 * time.Hour)
	for i := range 100 {
		k[0], k[1] = byte(i), byte(i>>8)
		dir, name := c.entryPath(&k)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(name, payload, 0o644)
		// Entry i was last used i minutes after old.
		ts := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(name, ts, ts)
	}
	tmpDir, _ := c.entryPath(&k)
	stale := filepath.Join(tmpDir, ".tmp-stale")
	fresh := filepath.Join(tmpDir, ".tmp-fresh")
	os.WriteFile(stale, payload, 0o644)
	os.Chtimes(stale, old, old)
	os.WriteFile(fresh, payload, 0o644)

	if n := Prune(c.dir, 200_000); n != 0 {
		t.Fatalf("pruned %d under the bound", n)
	}
	if n := Prune(c.dir, 50_000); n != 63 {
		t.Fatalf("pruned %d entries, want 63 (down to 3/4 of the bound)", n)
	}
	left := entryFiles(t, c)
	if len(left) != 37 {
		t.Fatalf("%d entries left", len(left))
	}
	// The most recently used are the ones left.
	for i := 63; i < 100; i++ {
		k[0], k[1] = byte(i), byte(i>>8)
		if _, name := c.entryPath(&k); sort.SearchStrings(left, name) == len(left) || left[sort.SearchStrings(left, name)] != name {
			t.Fatalf("entry %d (recently used) was pruned", i)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary file was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary file (another process's write) was removed")
	}
}

func TestBaseDir(t *testing.T) {
	t.Setenv(EnvDir, "/some/where")
	if d, ok := BaseDir(); !ok || d != "/some/where" {
		t.Fatal(d, ok)
	}
	t.Setenv(EnvDir, "off")
	if _, ok := BaseDir(); ok {
		t.Fatal("off is not off")
	}
	t.Setenv(EnvDir, "")
	if d, ok := BaseDir(); ok && filepath.Base(d) != "seg" {
		t.Fatal(d)
	}
}

func TestBuildIdentity(t *testing.T) {
	if buildIdentity() == "" {
		t.Fatal("no build identity for the test binary")
	}
	exe, _ := os.Executable()
	if runtime.GOOS == "linux" && goBuildID(exe) == "" {
		t.Error("no Go build ID found in the test binary")
	}
}

// rstFiles lists the .rst files under root, sorted, as slash paths: the
// trees these tests build have nothing a check would leave out.
func rstFiles(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rst") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
