package check

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/parser"
)

var (
	denseOnce  sync.Once
	denseRoot  string
	denseBytes int64
	denseErr   error
)

// denseTree writes a directive-dense tree of about 20 MB in 1,000 files
// once per test binary (bench/gen, as seggen -dense-mb 20 -files 1000).
func denseTree(b *testing.B) (string, int64) {
	denseOnce.Do(func() {
		dir, err := os.MkdirTemp("", "seg-bench-")
		if err != nil {
			denseErr = err
			return
		}
		t, err := gen.NewDense(gen.DenseOptions{MB: 20, Files: 1000, Seed: 1})
		if err != nil {
			denseErr = err
			return
		}
		if _, err := gen.WriteDir(t, dir, gen.WriteOptions{}); err != nil {
			denseErr = err
			return
		}
		denseRoot = dir
		denseErr = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				denseBytes += fi.Size()
			}
			return err
		})
	})
	if denseErr != nil {
		b.Fatal(denseErr)
	}
	return denseRoot, denseBytes
}

// BenchmarkParseTree lists, reads and parses a ~20 MB tree of 1,000 files
// on GOMAXPROCS workers, without a cache (run with -cpu 1,2 to compare).
func BenchmarkParseTree(b *testing.B) {
	root, n := denseTree(b)
	b.SetBytes(n)
	b.ReportAllocs()
	nodes := 0
	for b.Loop() {
		files, _, err := ParseTree(root, nil)
		if err != nil {
			b.Fatal(err)
		}
		nodes = 0
		for _, f := range files {
			nodes += len(f.Nodes)
		}
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkRun is one cold run (no cache) of the tree $SEG_BENCH_TREE
// (a seggen tree, say): read, parse, revisions and sources, seg.lock,
// graph, evaluation. Profile it with -cpuprofile to see what a stage costs.
func BenchmarkRun(b *testing.B) {
	t, _ := benchTree(b)
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		if _, _, err := t.Run(Options{At: at}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunAfterEdit is a run of $SEG_BENCH_TREE through a warm parse
// cache after one file changed: what a pre-commit hook pays.
func BenchmarkRunAfterEdit(b *testing.B) {
	t, root := benchTree(b)
	at := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	dir := b.TempDir()
	touched := filepath.Join(root, "zz-bench-touched.rst")
	defer os.Remove(touched)
	run := func(i int) {
		if err := os.WriteFile(touched, []byte(fmt.Sprintf(".. run %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		c := cache.Open(dir, "bench", t.Config.Parser)
		if _, _, err := t.Run(Options{At: at, Cache: c}); err != nil {
			b.Fatal(err)
		}
	}
	run(-1) // fill the cache
	i := 0
	for b.Loop() {
		run(i)
		i++
	}
}

// BenchmarkLiveAfterEdit is a Live run of $SEG_BENCH_TREE after one
// file's buffer changed (a line added at its end), through a parse cache
// as the language server runs by default: what the server does after a
// didChange.
func BenchmarkLiveAfterEdit(b *testing.B) {
	l, path, text, at := liveBench(b)
	i := 0
	for b.Loop() {
		l.SetText(path, append(text, fmt.Sprintf("\nedit %d\n", i)...))
		if _, err := l.Run(at); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// liveBench starts a Live check of $SEG_BENCH_TREE through a parse
// cache, as the language server runs by default, and runs it once; it
// returns the first file's path and text, for the benchmark to edit.
func liveBench(b *testing.B) (l *Live, path string, text []byte, at time.Time) {
	t, root := benchTree(b)
	at = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	l = t.Live(Options{Cache: cache.Open(b.TempDir(), "bench", t.Config.Parser)})
	if _, err := l.Run(at); err != nil {
		b.Fatal(err)
	}
	for p := range l.files {
		if path == "" || p < path {
			path = p
		}
	}
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		b.Fatal(err)
	}
	return l, path, text, at
}

// BenchmarkLiveAfterRename times a live run after an edit that renames
// an ID in its place in the ID order (a suffix: "R-1" to "R-1-R0", as a
// writer changing the end of an ID does): the graph is patched, the
// nodes that named the old ID or name the new one linked again.
func BenchmarkLiveAfterRename(b *testing.B) {
	benchRename(b, true, func(id []byte, n int) []byte { return fmt.Appendf(slices.Clip(id), "-R%d", n) })
}

// BenchmarkLiveAfterMove times a live run after an edit that renames an
// ID so that it moves in the ID order (to the end of it, and back again):
// every node between its places would change index, and the run is the
// full one.
func BenchmarkLiveAfterMove(b *testing.B) {
	benchRename(b, false, func(id []byte, n int) []byte {
		if n%2 == 1 {
			return id
		}
		return fmt.Appendf(nil, "~MOVED-%s", id)
	})
}

// benchRename times live runs after edits that rename the first ID of
// the benchmark's file by rename, failing unless each run is patched
// (or is not) as patched says.
func benchRename(b *testing.B, patched bool, rename func(id []byte, n int) []byte) {
	l, path, text, at := liveBench(b)
	i := bytes.Index(text, []byte(":id: "))
	if i < 0 {
		b.Fatalf("%s has no :id:", path)
	}
	i += len(":id: ")
	end := i + bytes.IndexByte(text[i:], '\n')
	n := 0
	for b.Loop() {
		edited := slices.Concat(text[:i], rename(text[i:end], n), text[end:])
		l.SetText(path, edited)
		if _, err := l.Run(at); err != nil {
			b.Fatal(err)
		}
		if Patched(l) != patched {
			b.Fatalf("a rename patched the graph: %v, want %v", Patched(l), patched)
		}
		n++
	}
}

// benchTree opens the tree $SEG_BENCH_TREE names, or skips the benchmark.
func benchTree(b *testing.B) (*Tree, string) {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("set SEG_BENCH_TREE to a tree to run")
	}
	t, err := Open(root, "")
	if err != nil {
		b.Fatal(err)
	}
	return t, root
}

// BenchmarkSources is the :source: stage alone over the parses of
// $SEG_BENCH_TREE, with the parse cache's remembered sums filled: "run"
// as Tree.Run does it, "live" as a Live run does it after an edit of a
// file with implementations (that file's parse is new, every source file
// is as it was).
func BenchmarkSources(b *testing.B) {
	t, root := benchTree(b)
	files, _, err := ParseTree(root, t.Config)
	if err != nil {
		b.Fatal(err)
	}
	edited := slices.IndexFunc(files, func(f *parser.File) bool { return len(sourcePatterns(f)) > 0 })
	if edited < 0 {
		b.Skip("no implementation names source files")
	}
	sums := cache.Open(b.TempDir(), "bench", t.Config.Parser).Sums()
	t.sources(files, sums, nil)
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			t.sources(files, sums, nil)
		}
	})
	b.Run("live", func(b *testing.B) {
		var m sourceMemo
		t.sources(files, sums, &m)
		for b.Loop() {
			files = slices.Clone(files)
			f := *files[edited]
			files[edited] = &f
			t.sources(files, sums, &m)
		}
	})
}
