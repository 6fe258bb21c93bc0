package results

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/seg-trace/seg/parser"
)

const hugeCases = 100_000

// hugeJUnit is a JUnit file of n cases in 100 suites: one in ten fails,
// one in twenty is skipped.
func hugeJUnit(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"" + fmt.Sprint(n) + "\">\n")
	for i := 0; i < n; i++ {
		if i%(n/100) == 0 {
			if i > 0 {
				b.WriteString("  </testsuite>\n")
			}
			fmt.Fprintf(&b, "  <testsuite name=\"example.com/big/p%d\">\n    <properties><property name=\"go.version\" value=\"go1.26\"/></properties>\n", i/(n/100))
		}
		fmt.Fprintf(&b, "    <testcase classname=\"example.com/big/p%d\" name=\"TestCase%d/sub\" time=\"0.001\">", i/(n/100), i)
		switch {
		case i%10 == 3:
			fmt.Fprintf(&b, "\n      <failure message=\"Failed\">=== RUN   TestCase%d/sub\n    x_test.go:%d: wrong answer\n--- FAIL: TestCase%d/sub (0.00s)\n</failure>\n    ", i, i, i)
		case i%20 == 7:
			b.WriteString("<skipped message=\"not today\"></skipped>")
		}
		b.WriteString("</testcase>\n")
	}
	b.WriteString("  </testsuite>\n</testsuites>\n")
	return b.Bytes()
}

// hugeGoTest is a go test -json stream of n tests in 100 packages, with
// the events go test writes for each.
func hugeGoTest(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		pkg := fmt.Sprintf("example.com/big/p%d", i/(n/100))
		if i%(n/100) == 0 {
			if i > 0 {
				fmt.Fprintf(&b, "{\"Time\":\"2026-01-02T10:00:00.000000Z\",\"Action\":\"fail\",\"Package\":\"example.com/big/p%d\",\"Elapsed\":1.5}\n", i/(n/100)-1)
			}
			fmt.Fprintf(&b, "{\"Time\":\"2026-01-02T10:00:00.000000Z\",\"Action\":\"start\",\"Package\":%q}\n", pkg)
		}
		test := fmt.Sprintf("TestCase%d", i)
		ev := func(action, output string) {
			fmt.Fprintf(&b, "{\"Time\":\"2026-01-02T10:00:00.000000Z\",\"Action\":%q,\"Package\":%q,\"Test\":%q", action, pkg, test)
			if output != "" {
				fmt.Fprintf(&b, ",\"Output\":%q", output)
			}
			b.WriteString("}\n")
		}
		ev("run", "")
		ev("output", "=== RUN   "+test+"\n")
		switch {
		case i%10 == 3:
			ev("output", "    x_test.go:12: wrong answer\n")
			ev("output", "--- FAIL: "+test+" (0.00s)\n")
			ev("fail", "")
		case i%20 == 7:
			ev("output", "--- SKIP: "+test+" (0.00s)\n")
			ev("skip", "")
		default:
			ev("output", "--- PASS: "+test+" (0.00s)\n")
			ev("pass", "")
		}
	}
	fmt.Fprintf(&b, "{\"Time\":\"2026-01-02T10:00:00.000000Z\",\"Action\":\"fail\",\"Package\":\"example.com/big/p99\",\"Elapsed\":1.5}\n")
	return b.Bytes()
}

func hugeSpecs() []*parser.File {
	var nodes []parser.Node
	for i := 0; i < 200; i++ {
		cases := fmt.Sprintf("example.com/big/p%d.TestCase%d*", i%100, i*500)
		if i%2 == 0 {
			cases = fmt.Sprintf("example.com/big/p%d.TestCase%d/sub", (i*500)/1000, i*500)
		}
		nodes = append(nodes, testNode("docs/big.rst", fmt.Sprintf("TS-%d", i), i*3+1, [2]string{"cases", cases}))
	}
	return []*parser.File{{Path: "docs/big.rst", Nodes: nodes}}
}

// TestHugeFiles reads 100,000-case files completely; it is not timed (see
// BenchmarkReadCases).
func TestHugeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"junit", hugeJUnit(hugeCases)}, {"gotest", hugeGoTest(hugeCases)}} {
		t.Run(tc.name, func(t *testing.T) {
			cases, diags := ReadCases(src("big", tc.data))
			if len(diags) != 0 || len(cases) != hugeCases {
				t.Fatalf("%d cases, diagnostics %v", len(cases), diags)
			}
			count := map[string]int{}
			for _, c := range cases {
				count[c.Result]++
			}
			want := map[string]int{Failed: hugeCases / 10, Skipped: hugeCases / 20, Passed: hugeCases - hugeCases/10 - hugeCases/20}
			if fmt.Sprint(count) != fmt.Sprint(want) {
				t.Errorf("results %v, want %v", count, want)
			}
			if tc.name != "junit" {
				return
			}
			outs, unmatched, diags := Outcomes(hugeSpecs(), []Source{src("big", tc.data)})
			if len(outs) == 0 || len(outs)+len(unmatched) != hugeCases || diags.HasErrors() {
				t.Errorf("%d outcomes, %d unmatched; diagnostics %v", len(outs), len(unmatched), diags)
			}
		})
	}
}

// BenchmarkReadCases reads a 100,000-case JUnit file and go test -json
// stream. On the 2-core development machine: see docs/results.md.
func BenchmarkReadCases(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []byte
	}{{"junit", hugeJUnit(hugeCases)}, {"gotest", hugeGoTest(hugeCases)}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			b.ReportAllocs()
			for b.Loop() {
				cases, diags := ReadCases(src("big", tc.data))
				if len(cases) != hugeCases || len(diags) != 0 {
					b.Fatalf("%d cases, %v", len(cases), diags)
				}
			}
		})
	}
}

// BenchmarkOutcomes matches 100,000 cases against 200 test specifications.
func BenchmarkOutcomes(b *testing.B) {
	specs := hugeSpecs()
	srcs := []Source{src("big", hugeGoTest(hugeCases))}
	for b.Loop() {
		Outcomes(specs, srcs)
	}
}

// junitStream makes a JUnit file on the fly as it is read: cases test
// cases, each with out bytes of system-out, one in ten failing.
type junitStream struct {
	cases, out, next int
	buf              []byte
	done             bool
}

func (j *junitStream) Read(p []byte) (int, error) {
	for len(j.buf) == 0 {
		switch {
		case j.done:
			return 0, io.EOF
		case j.next == 0 && j.buf == nil:
			j.buf = []byte("<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"s\" timestamp=\"2026-11-28T10:00:00\">\n")
		case j.next == j.cases:
			j.buf, j.done = []byte("</testsuite>\n</testsuites>\n"), true
		default:
			var b bytes.Buffer
			fmt.Fprintf(&b, "<testcase classname=\"big\" name=\"case%d\">", j.next)
			if j.next%10 == 3 {
				b.WriteString("<failure message=\"wrong answer\">trace</failure>")
			}
			b.WriteString("<system-out>")
			line := bytes.Repeat([]byte("x"), 99)
			for n := 0; n < j.out; n += 100 {
				b.Write(line)
				b.WriteByte('\n')
			}
			b.WriteString("</system-out></testcase>\n")
			j.buf = b.Bytes()
			j.next++
		}
	}
	n := copy(p, j.buf)
	j.buf = j.buf[n:]
	return n, nil
}

// TestStreamedMemory reads a JUnit stream of 160 MiB, made as it is read:
// the file is never held, so the heap stays far below its size (the cases
// are kept, their output is not). The bound is 64 MiB: a reader that held
// the stream whole would pass it more than twice over.
func TestStreamedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const cases, out = 1280, 128 << 10 // 1,280 × 128 KiB = 160 MiB
	stream := &junitStream{cases: cases, out: out}
	s := Source{Path: "big.xml", Open: func() (io.ReadCloser, error) { return io.NopCloser(stream), nil }}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n, failed := 0, 0
	diags := scan(s, func(c *Case) {
		n++
		if c.Result == Failed {
			failed++
		}
	})
	runtime.ReadMemStats(&after)
	if len(diags) != 0 || n != cases || failed != (cases+9)/10 {
		t.Fatalf("%d cases, %d failed, diagnostics %v", n, failed, diags)
	}
	// HeapSys is what the heap took from the system: it bounds the peak.
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > 64<<20 {
		t.Errorf("reading a 160 MiB stream grew the heap by %d MiB", grew>>20)
	}
}
