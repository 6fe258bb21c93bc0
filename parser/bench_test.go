package parser

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// synthFile writes a directive-dense RST page of about size bytes: nodes of
// every kind, nested, among paragraphs, lists, literal blocks and code.
func synthFile(r *rand.Rand, n, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "Page %d\n=========\n\n", n)
	k := 0
	id := func(p string) string { k++; return fmt.Sprintf("%s-%d-%d", p, n, k) }
	for b.Len() < size {
		req := id("REQ")
		fmt.Fprintf(&b, ".. sreq:: Requirement %d shall hold\n   :id: %s\n   :refines: SYS-%d\n\n", k, req, r.Intn(50))
		fmt.Fprintf(&b, "   The controller shall do thing %d within %d ms.\n\n", k, r.Intn(100))
		ts := id("TS")
		fmt.Fprintf(&b, "   .. test:: Test of %s\n      :id: %s\n      :verifies: %s, SYS-%d (suspect)\n      :cases: TestThing%d\n\n      Steps on target.\n\n", req, ts, req, r.Intn(50), k)
		switch r.Intn(4) {
		case 0:
			fmt.Fprintf(&b, "- a list item\n- .. impl:: Impl\n     :id: %s\n     :implements: %s\n\n", id("IMPL"), req)
		case 1:
			fmt.Fprintf(&b, "Example::\n\n   .. sreq:: not a node\n      :id: NOT\n\n")
		case 2:
			fmt.Fprintf(&b, ".. code-block:: python\n\n   def f():\n       return %d\n\n", k)
		default:
			fmt.Fprintf(&b, "Some paragraph text that says why %d matters,\nover two lines.\n\n", k)
		}
		fmt.Fprintf(&b, ".. outcome:: Run\n   :id: %s\n   :confirms: %s\n   :witnesses: IMPL-%d\n   :result: passed\n\n", id("OUT"), ts, k)
	}
	return []byte(b.String())
}

var (
	benchOnce  sync.Once
	benchRoot  string
	benchBytes int64
)

// benchTree writes ~20 MB in 1,000 files once per test binary.
func benchTree(b *testing.B) (string, int64) {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "seg-bench-")
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewSource(1))
		for i := 0; i < 1000; i++ {
			src := synthFile(r, i, 20_000)
			p := filepath.Join(dir, fmt.Sprintf("d%02d", i%30), fmt.Sprintf("f%04d.rst", i))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, src, 0o644); err != nil {
				b.Fatal(err)
			}
			benchBytes += int64(len(src))
		}
		benchRoot = dir
	})
	return benchRoot, benchBytes
}

// BenchmarkParseTree parses a synthetic ~20 MB tree of 1,000 files on
// GOMAXPROCS workers (run with -cpu 1,2 to compare).
func BenchmarkParseTree(b *testing.B) {
	root, n := benchTree(b)
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	nodes := 0
	for i := 0; i < b.N; i++ {
		files, err := ParseTree(root, nil)
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

// BenchmarkParseFile is one 20 KB page, in memory.
func BenchmarkParseFile(b *testing.B) {
	src := synthFile(rand.New(rand.NewSource(1)), 0, 20_000)
	cfg := DefaultConfig()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ParseFile("f.rst", src, cfg)
	}
}

// BenchmarkLexer is the line lexer alone, for comparison.
func BenchmarkLexer(b *testing.B) {
	src := synthFile(rand.New(rand.NewSource(1)), 0, 20_000)
	cfg := DefaultConfig()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := newScanner("f.rst", src, cfg)
		s.run()
	}
}
