package cache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The benchmarks run on a generated tree named by SEG_BENCH_TREE (for
// example the output of go run -tags seggen ./bench/seggen -n 50000 -seed 1 -out DIR)
// and are skipped without it.

func benchTree(b *testing.B) string {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("SEG_BENCH_TREE is not set")
	}
	return root
}

// benchEntries parses the tree once and encodes every file.
func benchEntries(b *testing.B, root string) (srcs [][]byte, payloads [][]byte, files []*source.File) {
	list := rstFiles(b, root)
	cfg := parser.DefaultConfig()
	fs := source.NewFileSet()
	for _, l := range list {
		src, err := os.ReadFile(filepath.Join(root, l))
		if err != nil {
			b.Fatal(err)
		}
		sf := fs.Add(l, len(src), source.Docutils)
		f := parser.ParseFile(sf, src, cfg)
		enc, err := appendFile(nil, f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		payloads = append(payloads, enc)
		files = append(files, sf)
	}
	return srcs, payloads, files
}

func BenchmarkTreeCodec(b *testing.B) {
	root := benchTree(b)
	srcs, payloads, files := benchEntries(b, root)
	var n int64
	for _, p := range payloads {
		n += int64(len(p))
	}
	var srcBytes int64
	for _, s := range srcs {
		srcBytes += int64(len(s))
	}
	b.Logf("%d files, %d source bytes, %d payload bytes", len(srcs), srcBytes, n)
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(n)
		for b.Loop() {
			for i, p := range payloads {
				if _, err := decodeFile(p, files[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("sha256-sources", func(b *testing.B) {
		b.SetBytes(srcBytes)
		for b.Loop() {
			for _, s := range srcs {
				sha256.Sum256(s)
			}
		}
	})
}
