package parser

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seg-trace/seg/source"
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

// BenchmarkParseFile is one 20 KB page, in memory.
func BenchmarkParseFile(b *testing.B) {
	src := synthFile(rand.New(rand.NewSource(1)), 0, 20_000)
	cfg := DefaultConfig()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		parseBytes("f.rst", src, cfg)
	}
}

// BenchmarkLexer is the line lexer alone, for comparison.
func BenchmarkLexer(b *testing.B) {
	src := synthFile(rand.New(rand.NewSource(1)), 0, 20_000)
	cfg := DefaultConfig()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s := newScanner(source.NewFileSet().Add("f.rst", len(src), source.Docutils), src, cfg)
		s.run()
	}
}

// BenchmarkParseTreeFiles parses every file of the tree $SEG_BENCH_TREE
// (a seggen tree, say) one after the other, from memory: the parse alone,
// without reading or spreading over cores. Profile it with -cpuprofile
// and -memprofile to see where a cold start's parse goes.
func BenchmarkParseTreeFiles(b *testing.B) {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("SEG_BENCH_TREE is not set")
	}
	cfg := DefaultConfig()
	var list []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rst") {
			rel, _ := filepath.Rel(root, p)
			list = append(list, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	srcs := make([][]byte, len(list))
	size := 0
	for i, l := range list {
		if srcs[i], err = os.ReadFile(filepath.Join(root, filepath.FromSlash(l))); err != nil {
			b.Fatal(err)
		}
		size += len(srcs[i])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		fset := source.NewFileSet()
		for i, l := range list {
			ParseFile(fset.Add(l, len(srcs[i]), source.Docutils), srcs[i], cfg)
		}
	}
}
