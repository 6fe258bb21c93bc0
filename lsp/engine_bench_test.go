package lsp

import (
	"os"
	"testing"
)

// BenchmarkEngine times the engine on the tree SEG_BENCH_TREE names (a
// seggen tree): the first load, and an edit of one file, without the
// protocol. bench/lspbench times the whole server over a pipe.
func BenchmarkEngine(b *testing.B) {
	root := os.Getenv("SEG_BENCH_TREE")
	if root == "" {
		b.Skip("SEG_BENCH_TREE is not set")
	}
	e := newEngine(root, Options{})
	snap, err := e.load(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("load", func(b *testing.B) {
		for range b.N {
			var err error
			snap, err = e.load(nil)
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	files := snap.files()
	b.Run("findings-all", func(b *testing.B) {
		for range b.N {
			s, _ := e.load(nil)
			b.ResetTimer()
			for _, f := range files {
				s.findings(f)
			}
		}
	})
	// A recheck: a run with nothing changed (Config.Recheck).
	b.Run("recheck", func(b *testing.B) {
		for range b.N {
			next, err := e.update(nil)
			if err != nil {
				b.Fatal(err)
			}
			next.changedSince(snap)
			snap = next
		}
	})
	f := files[len(files)/2]
	text := append([]byte(nil), snap.text(f)...)
	b.Run("edit", func(b *testing.B) {
		for i := range b.N {
			t := append([]byte(nil), text...)
			if i%2 == 0 {
				t = append(t, "\nMore text.\n"...)
			}
			next, err := e.update(map[string][]byte{f: t})
			if err != nil {
				b.Fatal(err)
			}
			next.changedSince(snap)
			snap = next
		}
	})
}
