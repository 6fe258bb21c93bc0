package parser

import (
	"runtime"
	"strings"
	"testing"
)

// pathological are inputs that would make a naive scanner slow or
// hungry: backtracking option lists, deep nesting, long runs of markers.
func pathological() map[string]string {
	// Nodes nested 2,000 deep: a body leaves out the nodes nested in it,
	// so memory stays linear in the file's size (it was cubic in the
	// depth when every body copied its descendants).
	var deep strings.Builder
	for i := 0; i < 2000; i++ {
		deep.WriteString(strings.Repeat(" ", i) + ".. sreq:: x\n" + strings.Repeat(" ", i+1) + ":id: A\n\n")
	}
	var bullets strings.Builder
	for i := 0; i < 3000; i++ {
		bullets.WriteString(strings.Repeat("- ", i%200) + "x\n")
	}
	return map[string]string{
		"option list":       strings.Repeat("-a b, ", 5000) + "-a  text\n",
		"option list fails": strings.Repeat("-ab, ", 5000) + "x\n",
		"deep nesting":      deep.String(),
		"bullets":           bullets.String(),
		"grid":              strings.Repeat("+"+strings.Repeat("-+", 300)+"\n"+"|"+strings.Repeat(" |", 300)+"\n", 300),
		"simple":            strings.Repeat("= ", 2000) + "\n" + strings.Repeat("a ", 2000) + "\n" + strings.Repeat("= ", 2000) + "\n",
		"enumerators":       strings.Repeat("#. ", 5000) + "\n",
		"fields":            strings.Repeat(":a\\:", 5000) + "\n",
		"comments":          strings.Repeat("..\n", 20000),
		"titles":            strings.Repeat("=====\nTitle\n=====\n", 5000),
	}
}

// TestPathological parses each input and bounds the memory it takes
// (all of it allocated, not only what stays live) by a multiple of its
// size. Time is for BenchmarkPathological: a unit test must not fail
// because the machine is busy, and go test's -timeout catches a hang.
func TestPathological(t *testing.T) {
	for name, src := range pathological() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		parseString("t.rst", src, DefaultConfig())
		runtime.ReadMemStats(&after)
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(200*len(src)+4<<20); got > limit {
			t.Errorf("%s: %d bytes allocated for %d bytes of input (limit %d)", name, got, len(src), limit)
		}
	}
}

func BenchmarkPathological(b *testing.B) {
	for name, src := range pathological() {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				parseString("t.rst", src, DefaultConfig())
			}
		})
	}
}
