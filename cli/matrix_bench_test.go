package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/seg-trace/seg/bench/gen"
)

// matrixPage generates a seggen tree of n requirements (seed 1) and writes
// its HTML matrix; $SEG_BENCH_TREES, when set, keeps the trees between
// runs (TREES/n-N).
func matrixPage(b testing.TB, n int) (page string, size int64) {
	b.Helper()
	dir := b.TempDir()
	if keep := os.Getenv("SEG_BENCH_TREES"); keep != "" {
		dir = filepath.Join(keep, fmt.Sprintf("n-%d", n))
	}
	root := filepath.Join(dir, "tree")
	if _, err := os.Stat(filepath.Join(root, "seggen.json")); err != nil {
		t, err := gen.New(gen.Options{N: n, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := gen.WriteDir(t, root, gen.WriteOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	page = filepath.Join(dir, "matrix.html")
	if code, _, stderr := run("matrix", "--format", "html", "--at", mxAt, "--output", page, root); code != 0 {
		b.Fatalf("seg matrix: exit %d: %s", code, stderr)
	}
	info, err := os.Stat(page)
	if err != nil {
		b.Fatal(err)
	}
	return page, info.Size()
}

// pageText is how many bytes of the page are the requirements' text:
// the titles and bodies of the nodes shown (a requirement's text, an
// outcome's failure message, a waiver's justification) and the reasons'
// messages, as the page's data holds them.
func pageText(b testing.TB, page string) int64 {
	b.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	const open = `<script type="application/json" id="_data">`
	i := strings.Index(s, open)
	j := strings.Index(s[i:], "</script>")
	var d struct {
		Title, Body []string
		Rows        [][]json.RawMessage
	}
	if err := json.Unmarshal([]byte(s[i+len(open):i+j]), &d); err != nil {
		b.Fatal(err)
	}
	var n int64
	for k := range d.Title {
		n += int64(len(d.Title[k]) + len(d.Body[k]))
	}
	for _, r := range d.Rows {
		// The evidence is a JSON string (tests, implements, notes); the
		// blocking reasons, the text counted here, follow it in the row.
		var ev string
		var parts []json.RawMessage
		var blocking [][]any
		if len(r) < 9 || json.Unmarshal(r[6], &ev) != nil || json.Unmarshal([]byte(ev), &parts) != nil || len(parts) != 3 ||
			json.Unmarshal(r[8], &blocking) != nil {
			b.Fatal("the page's row layout changed")
		}
		for _, x := range blocking {
			n += int64(len(x[1].(string)))
		}
	}
	return n
}

// BenchmarkMatrixHTMLChromium loads the HTML matrix of generated trees in
// headless Chromium and measures what a reader waits for: the load event
// (the page parsed, the data read, the first rows drawn), the first text
// filter (which builds the search index) and a later one, and a status
// filter, each until two frames after the change. It also reports the
// page's size per requirement, with and without the text.
//
//	go test ./cli -run '^$' -bench MatrixHTMLChromium -benchtime 3x
func BenchmarkMatrixHTMLChromium(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			page, size := matrixPage(b, n)
			text := pageText(b, page)
			ctx := browser(b)
			url := fileURL(b, page) + "#!v=list"
			var load, first, again, status float64
			measure := func(action string) float64 {
				return mxEval[float64](b, ctx, `new Promise(done => { const t0 = performance.now(); `+action+
					`; requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0))); })`, chromedp.EvalAwaitPromise)
			}
			b.ResetTimer()
			for b.Loop() {
				mxDo(b, ctx, chromedp.Navigate("about:blank"))
				mxLoad(b, ctx, url)
				load += mxEval[float64](b, ctx, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
				first += measure(`const f = document.getElementById("_f-text"); f.value = "brake"; f.dispatchEvent(new Event("input"))`)
				again += measure(`const f = document.getElementById("_f-text"); f.value = "pedal"; f.dispatchEvent(new Event("input"))`)
				status += measure(`const f = document.getElementById("_f-text"); f.value = ""; const s = document.getElementById("_f-status"); s.value = "failing"; s.dispatchEvent(new Event("change"))`)
			}
			k := float64(b.N)
			b.ReportMetric(load/k, "load-ms")
			b.ReportMetric(first/k, "first-filter-ms")
			b.ReportMetric(again/k, "filter-ms")
			b.ReportMetric(status/k, "status-filter-ms")
			b.ReportMetric(float64(size)/float64(n), "B/req")
			b.ReportMetric(float64(size-text)/float64(n), "B/req-without-text")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// The page holds at most 1 KB per requirement on average besides the
// text it shows (titles, bodies, failure messages, justifications,
// reasons): the rows are data, not markup.
func TestMatrixHTMLSize(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const n = 2000
	page, size := matrixPage(t, n)
	text := pageText(t, page)
	per := float64(size-text) / n
	t.Logf("%d requirements: %d bytes, %d of text; %.0f bytes a requirement besides the text", n, size, text, per)
	if per > 1024 {
		t.Errorf("%.0f bytes a requirement besides the text, want at most 1024", per)
	}
}
