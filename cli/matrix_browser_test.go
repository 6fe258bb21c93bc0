package cli

// Tests of seg matrix through the command line: its verdicts are seg
// check's, row by row (on the example trees and on generated ones), its
// exit codes, its relative links, and the HTML page driven in a real
// headless Chromium (Debian's chromium package) with chromedp.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

const mxAt = "2026-11-29"

// mxTree generates a tree of n requirements (a tenth sys, three tenths
// req, the rest sreq leaves) with tests, implementations, outcomes under
// several configurations, waivers (some expired), suspect and retired
// links, refinement cycles, unwitnessed and invalid outcomes, unresolved
// links and titles that need escaping. The same n and seed give the same
// files.
func mxTree(n int, seed uint64) map[string]string {
	r := rand.New(rand.NewPCG(seed, 0x5e9))
	nSys := max(1, n/10)
	nReq := max(1, 3*n/10)
	nSreq := max(1, n-nSys-nReq)
	files := map[string]*strings.Builder{}
	add := func(file, text string) {
		b := files[file]
		if b == nil {
			b = &strings.Builder{}
			files[file] = b
			fmt.Fprintf(b, "%s\n%s\n\n", file, strings.Repeat("=", len(file)))
		}
		b.WriteString(text)
	}
	words := []string{"brake", "pressure", "pedal", "sensor", "fault", "bus", "loop", "timing", "map", "valve", "wheel", "speed"}
	odd := []string{"<script>alert(1)</script>", "a | b", "*bold* & _it_", "\"quoted\", 'single'", "Ünïcödé ≥ 5 %", "[x](y)", "`code`", "\\back"}
	title := func() string {
		w := words[r.IntN(len(words))]
		t := strings.ToUpper(w[:1]) + w[1:]
		for range 1 + r.IntN(4) {
			t += " " + words[r.IntN(len(words))]
		}
		if r.IntN(40) == 0 {
			t += " " + odd[r.IntN(len(odd))]
		}
		return t
	}
	state := func(suspect, retired int) string {
		switch x := r.IntN(1000); {
		case x < suspect:
			return " (suspect)"
		case x < suspect+retired:
			return " (retired)"
		}
		return ""
	}
	part := func(kind string, i int) string { return fmt.Sprintf("docs/%s/part-%03d.rst", kind, i/100) }
	sysID := func(i int) string { return fmt.Sprintf("SYS-%05d", i) }
	reqID := func(i int) string { return fmt.Sprintf("REQ-%05d", i) }
	sreqID := func(i int) string { return fmt.Sprintf("SREQ-%05d", i) }

	for i := range nSys {
		add(part("sys", i), fmt.Sprintf(".. sys:: %s\n   :id: %s\n\n   The system shall do it.\n\n", title(), sysID(i)))
	}
	for i := range nReq {
		refs := []string{sysID(r.IntN(nSys)) + state(30, 10)}
		if r.IntN(10) == 0 {
			refs = append(refs, sysID(r.IntN(nSys)))
		}
		if i%500 == 7 && i+1 < nReq { // a refinement cycle
			refs = append(refs, reqID(i+1))
		}
		if i%500 == 8 {
			refs = append(refs, reqID(i-1))
		}
		add(part("req", i), fmt.Sprintf(".. req:: %s\n   :id: %s\n   :refines: %s\n\n", title(), reqID(i), strings.Join(refs, ", ")))
	}
	for i := range nSreq {
		text := fmt.Sprintf(".. sreq:: %s\n   :id: %s\n", title(), sreqID(i))
		if r.IntN(50) != 0 {
			text += fmt.Sprintf("   :refines: %s%s\n", reqID(r.IntN(nReq)), state(20, 5))
		}
		add(part("sreq", i), text+"\n   The software shall do it.\n\n")
	}
	// Implementations: one per five leaves, some leaves left out.
	var impls []string
	for i := 0; i < nSreq; i += 5 {
		id := fmt.Sprintf("IMPL-%05d", i/5)
		impls = append(impls, id)
		var targets []string
		for j := i; j < min(i+5, nSreq); j++ {
			if r.IntN(12) != 0 {
				targets = append(targets, sreqID(j)+state(10, 20))
			}
		}
		if len(targets) == 0 {
			targets = []string{sreqID(i)}
		}
		add(part("impl", i/5), fmt.Sprintf(".. impl:: %s\n   :id: %s\n   :implements: %s\n\n", title(), id, strings.Join(targets, ", ")))
	}
	// Tests with outcomes and waivers.
	configs := []string{"linux", "windows", "macos"}
	nTest, nOut, nWaiver := 0, 0, 0
	for i := range nSreq {
		if r.IntN(10) == 0 {
			continue
		}
		tid := fmt.Sprintf("TS-%05d", nTest)
		targets := []string{sreqID(i) + state(40, 10)}
		switch x := r.IntN(100); {
		case x < 3:
			targets = append(targets, sreqID(r.IntN(nSreq)))
		case x < 5:
			targets = append(targets, reqID(r.IntN(nReq))) // a non-leaf's own test
		case x < 6:
			targets = append(targets, fmt.Sprintf("SREQ-9%05d", i)) // unresolved
		}
		add(part("tests", nTest), fmt.Sprintf(".. test:: %s\n   :id: %s\n   :verifies: %s\n\n", title(), tid, strings.Join(targets, ", ")))
		nTest++
		for _, cfg := range configs[:r.IntN(4)] {
			oid := fmt.Sprintf("OUT-%06d", nOut)
			nOut++
			result := "passed"
			switch x := r.IntN(100); {
			case x < 6:
				result = "failed"
			case x < 11:
				result = "skipped"
			case x < 13:
				result = "error"
			case x < 14:
				result = "pased"
			}
			text := fmt.Sprintf(".. outcome:: Run of %s on %s\n   :id: %s\n   :confirms: %s\n", tid, cfg, oid, tid)
			if r.IntN(25) != 0 {
				text += fmt.Sprintf("   :witnesses: %s\n", impls[min(i/5, len(impls)-1)])
			}
			text += fmt.Sprintf("   :result: %s\n   :config: %s\n\n", result, cfg)
			add(part("results", nOut), text)
			if (result == "failed" || result == "error") && r.IntN(2) == 0 {
				expires := []string{"   :expires: 2026-01-31\n", "   :expires: 2027-06-30\n", ""}[r.IntN(3)]
				add(part("waivers", nWaiver), fmt.Sprintf(".. waiver:: Known problem %d\n   :id: WVR-%05d\n   :excuses: %s\n%s\n", nWaiver, nWaiver, oid, expires))
				nWaiver++
			}
		}
	}
	out := map[string]string{}
	for name, b := range files {
		out[name] = b.String()
	}
	return out
}

func mxWrite(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type mxReason struct {
	Code, Message, File string
	Line, Column        int
}

// mxRow is what seg check --format json and seg matrix --format json both
// say about one requirement.
type mxRow struct {
	ID, Kind, Title, File string
	Line                  int
	Leaf                  bool
	Verdict               string
	Reasons               []mxReason
}

// The matrix's rows are seg check's requirements, in the same order, with
// the same verdicts and blocking reasons; its coverage counts agree with
// check's summary.
func TestMatrixVerdictsMatchCheck(t *testing.T) {
	gen := t.TempDir()
	mxWrite(t, gen, mxTree(3000, 1))
	gen2 := t.TempDir()
	mxWrite(t, gen2, mxTree(400, 7))
	for _, root := range []string{"../examples/brake", "../examples/broken", gen, gen2} {
		_, checkOut, stderr := run("check", "--format", "json", "--at", mxAt, root)
		var check struct {
			Summary struct {
				Requirements, Satisfied, Unsatisfied, Errors, Warnings int
			}
			Requirements []mxRow
		}
		if err := json.Unmarshal([]byte(checkOut), &check); err != nil {
			t.Fatalf("check %s: %v\n%s", root, err, stderr)
		}
		code, matrixOut, stderr := run("matrix", "--format", "json", "--at", mxAt, root)
		if code != 0 {
			t.Fatalf("matrix %s: exit %d: %s", root, code, stderr)
		}
		var matrix struct {
			Schema   string
			Coverage struct {
				Satisfied struct{ Count, Total int } `json:"requirements_satisfied"`
			}
			Diagnostics struct{ Errors, Warnings int }
			Rows        []mxRow
		}
		if err := json.Unmarshal([]byte(matrixOut), &matrix); err != nil {
			t.Fatalf("matrix %s: %v", root, err)
		}
		if matrix.Schema != "seg-matrix/1" {
			t.Errorf("schema %q", matrix.Schema)
		}
		if len(check.Requirements) == 0 {
			t.Fatalf("%s: no requirements", root)
		}
		if d := cmp.Diff(check.Requirements, matrix.Rows); d != "" {
			t.Errorf("%s: matrix rows differ from check (-check +matrix):\n%s", root, d)
		}
		s := check.Summary
		if got := matrix.Coverage.Satisfied; got.Count != s.Satisfied || got.Total != s.Requirements {
			t.Errorf("%s: coverage %d/%d, check %d/%d", root, got.Count, got.Total, s.Satisfied, s.Requirements)
		}
		if matrix.Diagnostics.Errors != s.Errors || matrix.Diagnostics.Warnings != s.Warnings {
			t.Errorf("%s: diagnostics %+v, check %d errors %d warnings", root, matrix.Diagnostics, s.Errors, s.Warnings)
		}
		if root == gen {
			// The generated tree has both verdicts, and every kind of finding.
			if s.Satisfied == 0 || s.Unsatisfied == 0 || s.Errors == 0 || s.Warnings == 0 {
				t.Errorf("generated tree too uniform: %+v", s)
			}
			for _, code := range []string{"on-cycle", "outcome-failed", "no-active-verifies", "no-active-implements", "child-unsatisfied"} {
				if !strings.Contains(checkOut, `"`+code+`"`) {
					t.Errorf("generated tree has no %s reason", code)
				}
			}
		}
	}
}

func TestMatrixExitCodes(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		want   int
		stderr string
	}{
		{"satisfied tree", []string{"matrix", "../examples/brake"}, 0, ""},
		{"unsatisfied requirements still exit 0", []string{"matrix", "--format", "csv", "../examples/broken"}, 0, ""},
		{"min coverage met", []string{"matrix", "--min-coverage", "100", "../examples/brake"}, 0, ""},
		{"min coverage missed", []string{"matrix", "--min-coverage", "50", "../examples/broken"}, 1, "seg matrix: coverage 0.0% (0 of 6 requirements satisfied) is below --min-coverage 50%\n"},
		{"min coverage zero", []string{"matrix", "--min-coverage", "0", "../examples/broken"}, 0, ""},
		{"min coverage too big", []string{"matrix", "--min-coverage", "101", "../examples/brake"}, 2, "seg matrix: --min-coverage must be a percentage from 0 to 100, not 101\n"},
		{"min coverage negative", []string{"matrix", "--min-coverage=-1", "../examples/brake"}, 2, ""},
		{"min coverage NaN", []string{"matrix", "--min-coverage", "NaN", "../examples/brake"}, 2, ""},
		{"min coverage not a number", []string{"matrix", "--min-coverage", "most", "../examples/brake"}, 2, ""},
		{"bad format", []string{"matrix", "--format", "pdf", "../examples/brake"}, 2, "seg matrix: unknown --format \"pdf\" (want one of: csv, html, json, markdown)\n"},
		{"two roots", []string{"matrix", "../examples/brake", "../examples/broken"}, 2, ""},
		{"missing root", []string{"matrix", "does/not/exist"}, 2, ""},
		{"help", []string{"matrix", "-h"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, stderr := run(c.args...)
			if got != c.want {
				t.Errorf("seg %s: exit %d, want %d\nstderr: %s", strings.Join(c.args, " "), got, c.want, stderr)
			}
			if c.stderr != "" && stderr != c.stderr {
				t.Errorf("stderr %q, want %q", stderr, c.stderr)
			}
			if c.want == 0 && c.name != "help" && stderr != "" {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
	// A failed ratchet still writes the matrix.
	out := filepath.Join(t.TempDir(), "m.md")
	if code, _, _ := run("matrix", "--min-coverage", "99.5", "--output", out, "../examples/broken"); code != 1 {
		t.Errorf("exit %d", code)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(data), "# Traceability matrix") {
		t.Errorf("no matrix written: %v", err)
	}
}

// The matrix never writes into the tree, and gives the same bytes for the
// same tree whatever the order its files were created in.
func TestMatrixDeterministicAndReadOnly(t *testing.T) {
	files := mxTree(300, 3)
	var first map[string]string
	for i := range 2 {
		dir := t.TempDir()
		names := slices.Sorted(maps.Keys(files))
		if i == 1 {
			slices.Reverse(names)
		}
		for _, n := range names {
			mxWrite(t, dir, map[string]string{n: files[n]})
		}
		before := hashTree(t, dir)
		got := map[string]string{}
		for _, f := range []string{"markdown", "csv", "json", "html"} {
			_, out, stderr := run("matrix", "--format", f, "--at", mxAt, "--link-template", "https://h/r/blob/main/{file}#L{line}", dir)
			if stderr != "" {
				t.Fatal(stderr)
			}
			got[f] = out
		}
		if d := cmp.Diff(before, hashTree(t, dir)); d != "" {
			t.Errorf("seg matrix changed the tree:\n%s", d)
		}
		if first == nil {
			first = got
		} else if !cmp.Equal(first, got) {
			t.Errorf("creation order changed the matrix")
		}
	}
}

var hrefRE = regexp.MustCompile(`href="([^"#]*)#L(\d+)"`)

// Without a link template, the page's links are relative to where it is
// written, and each leads to an existing file; with one, they are the
// template's.
func TestMatrixHTMLLinks(t *testing.T) {
	tmp := t.TempDir()
	for _, out := range []string{
		filepath.Join(tmp, "site", "deep", "matrix.html"),
		filepath.Join("..", "examples", "broken", "matrix-test-output.html"), // inside the root
	} {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run("matrix", "--format", "html", "--output", out, "../examples/broken")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		data, err := os.ReadFile(out)
		os.Remove(out)
		if err != nil {
			t.Fatal(err)
		}
		links := hrefRE.FindAllStringSubmatch(string(data), -1)
		if len(links) < 20 {
			t.Fatalf("%d links", len(links))
		}
		for _, l := range links {
			p, err := url.PathUnescape(l[1])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(out), filepath.FromSlash(p))); err != nil {
				t.Errorf("link %s from %s: %v", l[1], out, err)
			}
		}
		if strings.HasSuffix(out, "matrix-test-output.html") && !strings.Contains(string(data), `href="docs/requirements.rst#L4"`) {
			t.Errorf("a page inside the root should link docs/... directly")
		}
	}
	_, page, _ := run("matrix", "--format", "html", "--link-template", "https://git.example.com/x/blob/main/{file}#L{line}", "../examples/broken")
	if !strings.Contains(page, `<a href="https://git.example.com/x/blob/main/docs/requirements.rst#L4">SEG-SREQ-006</a>`) {
		t.Error("no template link")
	}
	if m := hrefRE.FindAllStringSubmatch(page, -1); len(m) == 0 || slices.ContainsFunc(m, func(l []string) bool { return !strings.HasPrefix(l[1], "https://") }) {
		t.Error("a relative link survives the template")
	}
}

// ---- the page in a real browser ----

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// chromiumPath finds Debian's Chromium.
func chromiumPath() string {
	for _, p := range []string{"/usr/bin/chromium"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium for the test, or skips the test when
// there is none (fails with SEG_REQUIRE_BROWSER=1).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		msg := "no Chromium found at /usr/bin/chromium or on PATH: apt-get install chromium to run the browser tests"
		if v := os.Getenv("SEG_REQUIRE_BROWSER"); v != "" && v != "0" {
			t.Fatal(msg + " (SEG_REQUIRE_BROWSER is set)")
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1500, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("allow-file-access-from-files", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

func fileURL(t *testing.T, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func mxEval[T any](t *testing.T, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func mxDo(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(tctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// mxSelect chooses an option of a select, as a user does: the value
// changes, then the change event fires.
func mxSelect(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	mxEval[chromedp.Void](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, id, value))
}

// mxCheckExplanationLinks expands row id (unless open) and checks that the
// requirement's and the outcome's links in its explanation are those of
// the table, and end as given.
func mxCheckExplanationLinks(t *testing.T, ctx context.Context, id, reqSuffix, outcomeSuffix string) {
	t.Helper()
	if !mxEval[bool](t, ctx, `document.getElementById("r-`+id+`").classList.contains("open")`) {
		mxDo(t, ctx, chromedp.Click(chromedp.CSS("#r-"+id+" button.x")))
	}
	got := mxEval[[]string](t, ctx, `(() => { const b = document.getElementById("r-`+id+`");
		return [b.querySelector("tr td a").href, b.querySelector(".ex p a").href, b.querySelector("a.o").href, b.querySelector(".ex ul ul a").href]; })()`)
	if got[0] != got[1] || got[2] != got[3] || !strings.HasSuffix(got[0], reqSuffix) || !strings.HasSuffix(got[2], outcomeSuffix) {
		t.Errorf("links of %s: table %s, explanation %s; outcome in the table %s, in the explanation %s", id, got[0], got[1], got[2], got[3])
	}
}

// mxPollCount waits until the page says how many rows it shows.
func mxPollCount(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	_, err := chromedp.Run(tctx, chromedp.Poll[chromedp.Void](`document.getElementById("count").textContent === `+strconv.Quote(want), chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("count").textContent + " | text " + JSON.stringify(document.getElementById("f-text").value) + " | verdict " + document.getElementById("f-verdict").value + " | kind " + document.getElementById("f-kind").value`))
		t.Fatalf("waiting for %q: %v; the page says %s", want, err, got)
	}
}

const jsVisibleIDs = `Array.from(document.querySelectorAll("#matrix > tbody")).filter(b => b.checkVisibility()).map(b => b.id.slice(2))`

func TestMatrixHTMLInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "out", "matrix.html")
	os.MkdirAll(filepath.Dir(page), 0o755)
	if code, _, stderr := run("matrix", "--format", "html", "--output", page, "--at", mxAt, "../examples/broken"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	// Record every request the page makes: only the page itself.
	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	mxDo(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return err
	}))
	mxDo(t, ctx, chromedp.Navigate(fileURL(t, page)), chromedp.WaitVisible(chromedp.CSS("#controls")))

	// The rows and their verdict badges.
	want := []string{"SEG-REQ-A", "SEG-REQ-B", "SEG-SREQ-006", "SEG-SREQ-007", "SEG-SREQ-008", "SEG-SYS-001"}
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); !cmp.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	badges := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#matrix > tbody > tr:first-child .b")).map(b => b.textContent + " " + getComputedStyle(b).backgroundColor)`)
	if len(badges) != 6 || slices.ContainsFunc(badges, func(b string) bool { return b != "unsatisfied rgb(198, 40, 40)" }) {
		t.Errorf("badges %v, want 6 × unsatisfied in #c62828", badges)
	}
	if got := mxEval[string](t, ctx, `document.querySelector("#r-SEG-SREQ-007 td:nth-child(7)").textContent`); got != "TS-007: failed" {
		t.Errorf("tests cell %q", got)
	}

	// Click the Title header: sorted by title; again: reversed.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#matrix thead th:nth-child(3)")))
	byTitle := []string{"SEG-REQ-A", "SEG-REQ-B", "SEG-SREQ-006", "SEG-SREQ-008", "SEG-SYS-001", "SEG-SREQ-007"}
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); !cmp.Equal(got, byTitle) {
		t.Errorf("sorted by title: %v, want %v", got, byTitle)
	}
	if got := mxEval[string](t, ctx, `document.querySelector("#matrix thead th:nth-child(3)").getAttribute("aria-sort")`); got != "ascending" {
		t.Errorf("aria-sort %q", got)
	}
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#matrix thead th:nth-child(3)")))
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); !cmp.Equal(got, reversed(byTitle)) {
		t.Errorf("sorted by title, descending: %v", got)
	}

	// Type a filter: only the matching rows stay visible.
	mxDo(t, ctx, chromedp.SendKeys(chromedp.CSS("#f-text"), "cycle"))
	mxPollCount(t, ctx, "3 of 6 requirements shown")
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); !cmp.Equal(got, []string{"SEG-SYS-001", "SEG-REQ-B", "SEG-REQ-A"}) {
		t.Errorf("filtered: %v", got)
	}
	// The kind select narrows further.
	mxSelect(t, ctx, "f-kind", "req")
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); len(got) != 3 {
		t.Errorf("kind req: %v", got)
	}
	mxSelect(t, ctx, "f-verdict", "satisfied")
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); len(got) != 0 {
		t.Errorf("satisfied: %v", got)
	}
	mxSelect(t, ctx, "f-verdict", "")
	mxSelect(t, ctx, "f-kind", "")
	mxEval[chromedp.Void](t, ctx, `document.getElementById("f-text").value = ""`)
	mxDo(t, ctx, chromedp.SendKeys(chromedp.CSS("#f-text"), "SREQ-008"))
	mxPollCount(t, ctx, "1 of 6 requirements shown")

	// Expand the row: the explanation shows, down to the outcomes.
	if mxEval[bool](t, ctx, `!!document.querySelector("#r-SEG-SREQ-008 .ex")?.checkVisibility()`) {
		t.Error("explanation visible before the click")
	}
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#r-SEG-SREQ-008 button.x")))
	if !mxEval[bool](t, ctx, `document.querySelector("#r-SEG-SREQ-008 .ex").checkVisibility()`) {
		t.Fatal("explanation not visible after the click")
	}
	ex := mxEval[string](t, ctx, `document.querySelector("#r-SEG-SREQ-008 .ex").innerText`)
	nested := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#r-SEG-SREQ-008 .ex > ul > li > ul > li")).map(li => li.textContent)`)
	if !cmp.Equal(nested, []string{"OUT-008 passed: excluded: witnesses no implementation"}) {
		t.Errorf("outcomes under their test: %q", nested)
	}
	for _, s := range []string{"Why unsatisfied", "no-confirming-outcome", "Verified by", "OUT-008", "excluded: witnesses no implementation", "Implemented by", "IMPL-EVAL", "Notes"} {
		if !strings.Contains(ex, s) {
			t.Errorf("explanation lacks %q:\n%s", s, ex)
		}
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-broken-expanded.png", shot)

	// Reset, expand a cycle member, screenshot the whole page.
	mxEval[chromedp.Void](t, ctx, `document.getElementById("f-text").value = ""`)
	mxDo(t, ctx, chromedp.SendKeys(chromedp.CSS("#f-text"), " "))
	mxPollCount(t, ctx, "6 of 6 requirements shown")

	// The explanation's links (made by the script) are the table's (made
	// by the template): relative here, and from a link template below.
	mxCheckExplanationLinks(t, ctx, "SEG-SREQ-007", "docs/requirements.rst#L9", "docs/tests.rst#L21")
	templated := filepath.Join(dir, "out", "templated.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", templated, "--at", mxAt,
		"--link-template", "https://git.example.com/b/blob/main/{file}?plain=1#L{line}-C{column}", "../examples/broken"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mxDo(t, ctx, chromedp.Navigate(fileURL(t, templated)), chromedp.WaitVisible(chromedp.CSS("#controls")))
	mxCheckExplanationLinks(t, ctx, "SEG-SREQ-007", "https://git.example.com/b/blob/main/docs/requirements.rst?plain=1#L9-C1", "https://git.example.com/b/blob/main/docs/tests.rst?plain=1#L21-C1")

	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Error("no request recorded: the network listener is not working")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") || !strings.HasSuffix(u, "/matrix.html") && !strings.HasSuffix(u, "/templated.html") {
			t.Errorf("the page requested %s", u)
		}
	}
}

// Without JavaScript the page is a plain table with badges, links and the
// first reason of each unsatisfied row; the controls that would not work
// are hidden, and a note says where the explanations are.
func TestMatrixHTMLWithoutJavaScript(t *testing.T) {
	ctx := browser(t)
	page := filepath.Join(t.TempDir(), "matrix.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", page, "--at", mxAt, "../examples/broken"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mxDo(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	}), chromedp.Navigate(fileURL(t, page)))
	if got := mxEval[string](t, ctx, `document.documentElement.className`); got != "" {
		t.Fatalf("scripts ran: class %q", got)
	}
	if got := mxEval[[]string](t, ctx, jsVisibleIDs); len(got) != 6 {
		t.Errorf("rows %v", got)
	}
	for _, sel := range []string{"#controls", "#matrix button.x"} {
		if mxEval[bool](t, ctx, `document.querySelector("`+sel+`").checkVisibility()`) {
			t.Errorf("%s shows without JavaScript", sel)
		}
	}
	// Rows skip rendering until Chromium decides they are on screen
	// (content-visibility: auto), and innerText leaves skipped rows out:
	// read the text once the first frame has laid the rows out.
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[chromedp.Void](`document.body.innerText.includes("Parent of a cycle")`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the rows never rendered: %v", err)
	}
	text := mxEval[string](t, ctx, `document.body.innerText`)
	for _, want := range []string{
		"need JavaScript; seg explain ID prints the same explanation",
		"TS-008 (invalid): passed (excluded)",
		"docs/tests.rst:21: outcome \"OUT-007\" of test \"TS-007\" failed; waiver \"WVR-007\" expired on 2026-10-01 [outcome-failed]",
		"0/6 (0.0%)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page without JavaScript lacks %q:\n%s", want, text)
		}
	}
	badges := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#matrix .b")).map(b => b.textContent + " " + getComputedStyle(b).backgroundColor)`)
	if len(badges) != 6 || badges[0] != "unsatisfied rgb(198, 40, 40)" {
		t.Errorf("badges %v", badges)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-broken-nojs.png", shot)
}

// At 10,000 requirements the page loads, sorts and filters in reasonable
// time (logged, not asserted: the machine is shared).
func TestMatrixHTMLTenThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ctx := browser(t)
	root := t.TempDir()
	mxWrite(t, root, mxTree(10000, 42))
	page := filepath.Join(t.TempDir(), "matrix.html")
	start := time.Now()
	if code, _, stderr := run("matrix", "--format", "html", "--output", page, "--at", mxAt, root); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	gen := time.Since(start)
	info, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}

	start = time.Now()
	mxDo(t, ctx, chromedp.Navigate(fileURL(t, page)), chromedp.WaitVisible(chromedp.CSS("#controls")))
	loaded := time.Since(start)
	timing := mxEval[map[string]float64](t, ctx, `(() => { const n = performance.getEntriesByType("navigation")[0]; return {dom: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()`)
	if n := mxEval[int](t, ctx, `document.querySelectorAll("#matrix > tbody").length`); n != 10000 {
		t.Fatalf("%d rows", n)
	}

	// Each step is timed in the page, from the event to the second frame
	// after it (so the layout and paint it caused are in).
	measure := func(action string) float64 {
		return mxEval[float64](t, ctx, `new Promise(done => { const t0 = performance.now(); `+action+
			`; requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0))); })`, chromedp.EvalAwaitPromise)
	}
	th := func(n int) string {
		return fmt.Sprintf(`document.querySelector("#matrix thead th:nth-child(%d)").click()`, n)
	}
	sortVerdict := measure(th(10))
	if first := mxEval[string](t, ctx, `document.querySelector("#matrix > tbody").dataset.v`); first != "satisfied" {
		t.Errorf("first row after sorting by verdict: %s", first)
	}
	sortTitle := measure(th(3))
	sortTitleDesc := measure(th(3))
	// A real click, and the order it gives.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#matrix thead th:nth-child(1)")))
	ids := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#matrix > tbody")).slice(0, 3).map(b => b.id)`)
	if !cmp.Equal(ids, []string{"r-REQ-00000", "r-REQ-00001", "r-REQ-00002"}) {
		t.Errorf("sorted by ID: %v", ids)
	}
	const visible = `document.getElementById("count").textContent`
	filterVerdict := measure(`const s = document.getElementById("f-verdict"); s.value = "unsatisfied"; s.dispatchEvent(new Event("change"))`)
	unsat := mxEval[string](t, ctx, visible)
	filterText := measure(`const f = document.getElementById("f-text"); f.value = "sreq-000"; f.dispatchEvent(new Event("input"))`)
	narrowed := mxEval[string](t, ctx, visible)
	if unsat == narrowed || !strings.HasSuffix(narrowed, " of 10000 requirements shown") {
		t.Errorf("filters: %q then %q", unsat, narrowed)
	}
	// A real keystroke into the filter box.
	start = time.Now()
	mxDo(t, ctx, chromedp.SendKeys(chromedp.CSS("#f-text"), "1"))
	mxDo(t, ctx, chromedp.Poll[chromedp.Void](visible+` !== "`+narrowed+`"`, chromedp.WithPollingTimeout(30*time.Second)))
	keystroke := time.Since(start)
	clearAll := measure(`const f = document.getElementById("f-text"); f.value = ""; f.dispatchEvent(new Event("input")); const s = document.getElementById("f-verdict"); s.value = ""; s.dispatchEvent(new Event("change"))`)
	if got := mxEval[string](t, ctx, visible); got != "10000 of 10000 requirements shown" {
		t.Errorf("cleared filters: %q", got)
	}
	expand := measure(`document.querySelector("#r-SREQ-00042 button.x").click()`)
	if !mxEval[bool](t, ctx, `document.querySelector("#r-SREQ-00042 .ex").checkVisibility()`) {
		t.Error("expanded explanation not visible")
	}
	mxDo(t, ctx, chromedp.ScrollIntoView(chromedp.CSS("#r-SREQ-00042")))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-10k.png", shot)

	t.Logf("10,000 requirements: seg matrix --format html %v, page %.1f MB", gen.Round(time.Millisecond), float64(info.Size())/1e6)
	t.Logf("load: navigate+visible %v (DOMContentLoaded %.0f ms, load %.0f ms)", loaded.Round(time.Millisecond), timing["dom"], timing["load"])
	t.Logf("sort by verdict %.0f ms, by title %.0f ms, by title descending %.0f ms; filter unsatisfied %.0f ms (%s), text filter %.0f ms (%s), keystroke to count change %v, clear filters %.0f ms, expand a row %.0f ms",
		sortVerdict, sortTitle, sortTitleDesc, filterVerdict, unsat, filterText, narrowed, keystroke.Round(time.Millisecond), clearAll, expand)
	if loaded > 90*time.Second {
		t.Errorf("the page took %v to load", loaded)
	}
}

// mxScreenshot saves a screenshot in the test's temp dir, and also in
// $SEG_SCREENSHOT_DIR when that is set (to look at it).
func mxScreenshot(t *testing.T, name string, png []byte) {
	t.Helper()
	if len(png) < 1000 {
		t.Errorf("screenshot %s: %d bytes", name, len(png))
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv("SEG_SCREENSHOT_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, name), png, 0o644); err != nil {
			t.Error(err)
		}
	}
}
