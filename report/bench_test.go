package report

import (
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/seg-trace/seg/bench/gen"
	"github.com/seg-trace/seg/check"
)

var (
	benchOnce  sync.Once
	benchCheck *check.Check
	benchErr   error
)

// benchTree is a check of a generated tree of 1,250 requirements with a few
// planted defects (bench/gen, as seggen -n 1250 -seed 1 -defects), run once
// per test binary.
func benchTree(b *testing.B) *check.Check {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "seg-report-bench-")
		if err != nil {
			benchErr = err
			return
		}
		defer os.RemoveAll(dir)
		t, err := gen.New(gen.Options{N: 1250, Seed: 1, Defects: true})
		if err != nil {
			benchErr = err
			return
		}
		if _, err := gen.WriteDir(t, dir, gen.WriteOptions{}); err != nil {
			benchErr = err
			return
		}
		tree, err := check.Open(dir, "")
		if err != nil {
			benchErr = err
			return
		}
		benchCheck, _, benchErr = tree.Run(check.Options{At: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchCheck
}

// BenchmarkReports renders one generated tree of 1,250 requirements in the
// formats whose writers walk every node (json, sarif, the matrix).
func BenchmarkReports(b *testing.B) {
	c := benchTree(b)
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"json", func(w io.Writer) error { return WriteJSON(w, c) }},
		{"sarif", func(w io.Writer) error { return WriteSARIF(w, c, "bench") }},
		{"matrix-build", func(io.Writer) error { BuildMatrix(c, MatrixOptions{}); return nil }},
		{"matrix-json", func(w io.Writer) error { return WriteMatrixJSON(w, BuildMatrix(c, MatrixOptions{})) }},
		{"matrix-html", func(w io.Writer) error {
			return WriteMatrixHTML(w, c, BuildMatrix(c, MatrixOptions{}), MatrixOptions{})
		}},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f.write(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
