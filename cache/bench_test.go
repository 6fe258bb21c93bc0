package cache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/seg-trace/seg/parser"
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
func benchEntries(b *testing.B, root string) (srcs [][]byte, payloads [][]byte) {
	paths, _, err := ListFiles(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg := parser.DefaultConfig()
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			b.Fatal(err)
		}
		f := parser.ParseFile(p, src, cfg)
		enc, err := appendFile(nil, f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		payloads = append(payloads, enc)
	}
	return srcs, payloads
}

func BenchmarkTreeCodec(b *testing.B) {
	root := benchTree(b)
	srcs, payloads := benchEntries(b, root)
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
			for _, p := range payloads {
				if _, err := decodeFile(p); err != nil {
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
	// Reading every file into one reused buffer: the cost of the system
	// calls and the copies, without fresh memory.
	b.Run("read-sources", func(b *testing.B) {
		paths, _, _ := ListFiles(root, nil)
		b.SetBytes(srcBytes)
		var buf []byte
		for b.Loop() {
			for _, p := range paths {
				buf, _ = readSource(root, parser.Listed{Path: p}, buf)
			}
		}
	})
	// The same bytes in one file.
	b.Run("read-one-file", func(b *testing.B) {
		one := filepath.Join(b.TempDir(), "all")
		var all []byte
		for _, s := range srcs {
			all = append(all, s...)
		}
		os.WriteFile(one, all, 0o644)
		b.SetBytes(srcBytes)
		buf := make([]byte, len(all)+1)
		for b.Loop() {
			if _, _, err := readFile(one, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWarmParseTree is a warm ParseTree: every entry is in the cache
// (a temporary one, filled before the timer starts).
func BenchmarkWarmParseTree(b *testing.B) {
	root := benchTree(b)
	c := Open(b.TempDir(), "bench", nil)
	if _, _, err := c.ParseTree(root, nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c := Open(c.dir[:len(c.dir)-len(subdir)-1], "bench", nil)
		_, st, err := c.ParseTree(root, nil)
		if err != nil || st.Hits != st.Files {
			b.Fatalf("%+v %v", st, err)
		}
	}
}
