package cache

import (
	"bytes"
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
	"github.com/seg-trace/seg/parser"
)

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

const node = ".. sreq:: Title\n   :id: %s\n   :refines: P\n\n   Body.\n"

func sample() map[string]string {
	return map[string]string{
		"a.rst":                        strings.Replace(node, "%s", "A-1", 1),
		"docs/b.rst":                   strings.Replace(node, "%s", "B-1", 1) + "\n" + strings.Replace(node, "%s", "B 2", 1),
		"docs/deep/c.rst":              ".. test:: T\n   :id: T-1\n   :verifies: A-1 (suspect), B-1 (bogus)\n   :unknown: x\n",
		"docs/bad.rst":                 "\xff\xfe not UTF-8\n",
		"docs/empty.rst":               "",
		"docs/bom.rst":                 "\xef\xbb\xbf.. impl:: I\n   :id: I-1\r\n   :implements: A-1\r\n",
		".hidden/x.rst":                strings.Replace(node, "%s", "H-1", 1),
		"docs/.x.rst":                  strings.Replace(node, "%s", "H-2", 1),
		"_build/x.rst":                 strings.Replace(node, "%s", "H-3", 1),
		"docs/node_modules/x.rst":      strings.Replace(node, "%s", "H-4", 1),
		"vendor/x.rst":                 strings.Replace(node, "%s", "H-5", 1),
		"drafts/one/x.rst":             strings.Replace(node, "%s", "X-1", 1),
		"docs/gen/deep/er/x.rst":       strings.Replace(node, "%s", "X-2", 1),
		"notes.txt":                    "not rst",
		"docs/x.rst.bak":               "not rst",
		"docs/sub/same-name-dir.rst/y": "a folder named like a file",
	}
}

func excludeConfig() *parser.Config {
	cfg := parser.DefaultConfig()
	cfg.Exclude = []string{"drafts/**", "docs/**/er"}
	return cfg
}

// specials adds what only a real file system has: links to a file and to
// a folder, a FIFO, a dangling link, a link loop.
func specials(t *testing.T, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // links need a privilege there
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("a.rst", filepath.Join(dir, "link-to-file.rst")))
	must(os.Symlink("docs", filepath.Join(dir, "link-to-dir")))
	must(os.Symlink("docs", filepath.Join(dir, "link-to-dir.rst")))
	must(os.Symlink("nowhere.rst", filepath.Join(dir, "dangling.rst")))
	must(os.Symlink("loop.rst", filepath.Join(dir, "loop.rst")))
	if mkfifo(filepath.Join(dir, "docs", "fifo.rst")) == nil {
		must(os.Symlink("docs/fifo.rst", filepath.Join(dir, "link-to-fifo.rst")))
	}
}

func paths(files []*parser.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
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

// The cache must give exactly what the parser gives, cold and warm.
func TestParseTreeMatchesParser(t *testing.T) {
	dir := tree(t, sample())
	specials(t, dir)
	for _, cfg := range []*parser.Config{nil, excludeConfig()} {
		want, err := parser.ParseTree(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, base := newCache(t)
		for run := range 3 {
			c := Open(base, "test", cfg)
			got, st, err := c.ParseTree(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("run %d: cache differs from the parser (-want +got):\n%s", run, diff)
			}
			if run > 0 && st.Hits == 0 {
				t.Fatalf("run %d: warm run used no entry: %+v", run, st)
			}
			if run > 0 && st.Misses != 0 {
				t.Fatalf("run %d: warm run parsed: %+v", run, st)
			}
		}
	}
}

// ListFiles walks as the parser does.
func TestListFilesMatchesParser(t *testing.T) {
	dir := tree(t, sample())
	specials(t, dir)
	for _, cfg := range []*parser.Config{nil, excludeConfig()} {
		files, err := parser.ParseTree(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		list, early, err := ListFiles(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		all := append(list, paths(early)...)
		sort.Strings(all)
		if diff := cmp.Diff(paths(files), all); diff != "" {
			t.Fatalf("walk differs (-parser +cache):\n%s", diff)
		}
	}
}

// The key holds the path, the content, the config and the version.
func TestKeyParts(t *testing.T) {
	dir := tree(t, map[string]string{"a.rst": strings.Replace(node, "%s", "A-1", 1)})
	_, base := newCache(t)
	run := func(version string, cfg *parser.Config) Stats {
		t.Helper()
		_, st, err := Open(base, version, cfg).ParseTree(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := run("v1", nil); st.Misses != 1 {
		t.Fatalf("cold: %+v", st)
	}
	if st := run("v1", nil); st.Hits != 1 {
		t.Fatalf("warm: %+v", st)
	}
	if st := run("v2", nil); st.Misses != 1 {
		t.Fatalf("another version hit: %+v", st)
	}
	cfg := parser.DefaultConfig()
	cfg.ExtraOptions["status"] = true
	if st := run("v1", cfg); st.Misses != 1 {
		t.Fatalf("another config hit: %+v", st)
	}
	cfg = parser.DefaultConfig()
	cfg.Exclude = []string{"nothing/**"}
	if st := run("v1", cfg); st.Hits != 1 {
		t.Fatalf("exclude should not change the key: %+v", st)
	}
	os.WriteFile(filepath.Join(dir, "a.rst"), []byte(strings.Replace(node, "%s", "A-2", 1)), 0o644)
	if st := run("v1", nil); st.Misses != 1 {
		t.Fatalf("changed content hit: %+v", st)
	}
	os.Rename(filepath.Join(dir, "a.rst"), filepath.Join(dir, "b.rst"))
	if st := run("v1", nil); st.Misses != 1 {
		t.Fatalf("renamed file hit: %+v", st)
	}
}

// ConfigHash must cover every field of parser.Config that can change a
// parse. A new field fails this test until it is added to ConfigHash (or
// here, as not changing a parse).
func TestConfigHashCoversConfig(t *testing.T) {
	known := map[string]bool{"Directives": true, "Literal": true, "ExtraOptions": true, "IDPattern": true, "Exclude": true, "Needs": true}
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
		"needs":            func(c *parser.Config) { c.Needs = parser.NewNeeds() },
		"needs type": func(c *parser.Config) {
			c.Needs = parser.NewNeeds()
			c.Needs.AddType(parser.NeedType{Directive: "req"})
		},
		"needs link edge": func(c *parser.Config) {
			c.Needs = parser.NewNeeds()
			c.Needs.AddLink(parser.LinkType{Option: "links", Edge: "refines"})
		},
		"needs id required": func(c *parser.Config) {
			c.Needs = parser.NewNeeds()
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

// Every way an entry can go bad is seen, and the file parsed and the
// entry written again.
func TestDamagedEntriesAreRebuilt(t *testing.T) {
	dir := tree(t, sample())
	want, _ := parser.ParseTree(dir, nil)
	c, base := newCache(t)
	if _, _, err := c.ParseTree(dir, nil); err != nil {
		t.Fatal(err)
	}
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
		got, st, err := Open(base, "test", nil).ParseTree(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: result changed:\n%s", what, diff)
		}
		if st.Corrupt != len(ents) || st.Hits != 0 || st.Written != len(ents) {
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
	got, _, err := Open(base, "test", nil).ParseTree(dir, nil)
	if err != nil || !cmp.Equal(want, got) {
		t.Fatalf("a folder in place of an entry: %v", err)
	}
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

func TestCacheInsideTreeIsNotUsed(t *testing.T) {
	dir := tree(t, sample())
	want, _ := parser.ParseTree(dir, nil)
	c := Open(filepath.Join(dir, "cache"), "test", nil)
	got, st, err := c.ParseTree(dir, nil)
	if err != nil || !cmp.Equal(want, got) {
		t.Fatalf("%v", err)
	}
	if st.Written != 0 {
		t.Fatalf("wrote into the tree: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache")); err == nil {
		t.Fatal("the cache folder was made inside the tree")
	}
}

// The rule holds through links: a root that is a link to a folder
// holding the cache folder, a cache folder given through a link into the
// tree (SEG_CACHE_DIR=link), and a link to a cache folder not made yet.
// Neither the parse nor the report cache writes there.
func TestCacheInsideTreeThroughLinksIsNotUsed(t *testing.T) {
	cases := []struct {
		name string
		// root and cache base, given the tree's real folder and a folder
		// outside it for links
		paths func(t *testing.T, real, out string) (root, base string)
	}{
		{"root is a link", func(t *testing.T, real, out string) (string, string) {
			root := filepath.Join(out, "root-link")
			symlinkOrSkip(t, real, root)
			return root, filepath.Join(real, "build", "seg-cache")
		}},
		{"cache folder through a link", func(t *testing.T, real, out string) (string, string) {
			if err := os.MkdirAll(filepath.Join(real, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join(real, "build"), base)
			return real, base
		}},
		{"cache folder through a link to a folder not made yet", func(t *testing.T, real, out string) (string, string) {
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join(real, "later"), base)
			return real, filepath.Join(base, "seg")
		}},
		{"both through links", func(t *testing.T, real, out string) (string, string) {
			root := filepath.Join(out, "root-link")
			symlinkOrSkip(t, real, root)
			base := filepath.Join(out, "cache-link")
			symlinkOrSkip(t, filepath.Join("root-link", "cache"), base)
			return root, base
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			real := tree(t, sample())
			root, base := tc.paths(t, real, t.TempDir())
			want, _ := parser.ParseTree(real, nil)
			before := listAll(t, real)
			c := Open(base, "test", nil)
			got, st, err := c.ParseTree(root, nil)
			if err != nil || !cmp.Equal(want, got) {
				t.Fatalf("parse through the cache: %v", err)
			}
			if st.Written != 0 || st.Hits != 0 {
				t.Errorf("used a cache inside the tree: %+v", st)
			}
			if scan, err := c.Scan(root, nil); scan != nil || err != nil {
				t.Errorf("the report cache scanned a tree holding its folder (%v)", err)
			}
			if after := listAll(t, real); !cmp.Equal(before, after) {
				t.Errorf("the tree changed:\n%s", cmp.Diff(before, after))
			}
		})
	}

	// A cache folder beside the tree, given through a link, is used.
	real := tree(t, sample())
	link := filepath.Join(t.TempDir(), "cache-link")
	symlinkOrSkip(t, t.TempDir(), link)
	c := Open(link, "test", nil)
	if _, st, err := c.ParseTree(real, nil); err != nil || st.Written == 0 {
		t.Errorf("a cache outside the tree was not used: %+v %v", st, err)
	}
}

func symlinkOrSkip(t *testing.T, to, name string) {
	t.Helper()
	if err := os.Symlink(to, name); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
}

// listAll lists every path under dir, links not followed.
func listAll(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
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
	if _, _, err := c.ParseTree(dir, nil); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, e := range entryFiles(t, c) {
		st, _ := os.Stat(e)
		total += st.Size()
	}
	if total > c.maxBytes {
		t.Fatalf("cache holds %d bytes, bound %d", total, c.maxBytes)
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
