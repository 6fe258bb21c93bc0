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
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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
			_, out, stderr := run("matrix", "--format", f, "--at", mxAt, "--link-template", "https://h/r/blob/main/{file}#L{line}", "--title", "generated", dir)
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
		if len(links) < 15 {
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
	if !strings.Contains(page, `<a href="https://git.example.com/x/blob/main/docs/requirements.rst#L4">docs/requirements.rst:4</a>`) {
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

// browser gives the test a tab of its own in the package's headless
// Chromium, started by the first test that asks, or skips the test when
// there is none (fails with SEG_REQUIRE_BROWSER=1). A tab is what a test
// changes (its viewport, scripts off, the network watched); one browser
// for all of them spares a start of Chromium a test. TestMain stops it.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		msg := "no Chromium found at /usr/bin/chromium or on PATH: apt-get install chromium to run the browser tests"
		if v := os.Getenv("SEG_REQUIRE_BROWSER"); v != "" && v != "0" {
			t.Fatal(msg + " (SEG_REQUIRE_BROWSER is set)")
		}
		t.Skip(msg)
	}
	chromium.once.Do(func() { startBrowser(path) })
	if chromium.err != nil {
		t.Fatalf("starting %s: %v", path, chromium.err)
	}
	ctx, cancel := chromedp.NewContext(chromium.ctx)
	t.Cleanup(cancel)
	// The first Run opens the tab; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab in %s: %v", path, err)
	}
	return ctx
}

// chromium is the package's browser (browser, stopBrowser).
var chromium struct {
	once    sync.Once
	ctx     context.Context // the browser's first tab; tests open others
	stop    func()
	profile string
	err     error
}

// startBrowser starts Chromium at path with a profile folder of its own.
func startBrowser(path string) {
	chromium.profile, chromium.err = os.MkdirTemp("", "seg-chromium-")
	if chromium.err != nil {
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(chromium.profile),
		chromedp.WindowSize(1500, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("allow-file-access-from-files", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	chromium.ctx, chromium.stop = ctx, func() { cancel(); cancelAlloc() }
	// The first Run starts the browser; it must not carry a timeout.
	chromium.err = chromedp.Do(ctx)
}

func stopBrowser() {
	if chromium.stop != nil {
		chromium.stop()
		os.RemoveAll(chromium.profile)
	}
}

func fileURL(t testing.TB, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func mxEval[T any](t testing.TB, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func mxDo(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
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

// mxRows is what the grid shows: each rendered row's ID, its depth in
// the tree (aria-level, 0 in the list) and whether it is a reference.
const jsRows = `Array.from(document.querySelectorAll("#_matrix tbody tr.r")).map(r => (r.classList.contains("ref") ? "~" : "") + r.querySelector("a.id").textContent + (r.getAttribute("aria-level") ? "@" + r.getAttribute("aria-level") : ""))`

// mxPollCount waits until the page says how many rows it shows.
func mxPollCount(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	mxPoll(t, ctx, `document.getElementById("_count").textContent === `+strconv.Quote(want), "the count to read "+want)
}

// mxPoll waits until expr is true. An evaluation that fails because a
// navigation replaced the page's context is tried again: the machine is
// shared, and a loaded one is slow to switch pages.
func mxPoll(t testing.TB, ctx context.Context, expr, what string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!(`+expr+`)`))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("_count") || {}).textContent + " | hash " + location.hash`))
	t.Fatalf("waiting for %s: %v; the page says %s", what, last, got)
}

// mxLoad opens a page and waits until the script has drawn the grid.
func mxLoad(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	mxDo(t, ctx, chromedp.Navigate(url))
	mxPoll(t, ctx, `document.readyState === "complete" && !!document.querySelector("#_matrix tbody tr.r")`, "the grid")
}

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
	url := fileURL(t, page)
	mxLoad(t, ctx, url)

	// The refinement tree: the cycle's members under the requirement
	// above it, the member reached twice shown again as a reference.
	tree := []string{"SEG-SREQ-006@1", "SEG-SREQ-007@1", "SEG-SREQ-008@1", "SEG-SYS-001@1", "SEG-REQ-A@2", "SEG-REQ-B@3", "~SEG-REQ-A@4"}
	if got := mxEval[[]string](t, ctx, jsRows); !cmp.Equal(got, tree) {
		t.Errorf("tree %v, want %v", got, tree)
	}
	badges := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#_matrix tbody tr.r:not(.ref) .b")).map(b => b.textContent + " " + getComputedStyle(b).backgroundColor)`)
	wantBadges := []string{"unproven rgb(138, 83, 0)", "failing rgb(198, 40, 40)", "unproven rgb(138, 83, 0)", "unproven rgb(138, 83, 0)", "unproven rgb(138, 83, 0)", "unproven rgb(138, 83, 0)"}
	if !cmp.Equal(badges, wantBadges) {
		t.Errorf("badges %v", badges)
	}
	if got := mxEval[string](t, ctx, `document.getElementById("SEG-SREQ-007").querySelector("td:nth-child(9)").textContent`); got != "TS-007: failed" {
		t.Errorf("tests cell %q", got)
	}
	// One line per row, whatever the text.
	if hs := mxEval[[]float64](t, ctx, `Array.from(document.querySelectorAll("#_matrix tbody tr.r")).map(r => r.getBoundingClientRect().height)`); slices.ContainsFunc(hs, func(h float64) bool { return h > 25 }) {
		t.Errorf("row heights %v, want one line (24 px)", hs)
	}

	// Close the cycle's branch, then open it again.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#SEG-SYS-001 .tw`)))
	if got := mxEval[[]string](t, ctx, jsRows); !cmp.Equal(got, tree[:4]) {
		t.Errorf("closed branch: %v", got)
	}
	if h := mxEval[string](t, ctx, `location.hash`); h != "#!tx=SEG-SYS-001" {
		t.Errorf("hash %q", h)
	}
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#SEG-SYS-001 .tw`)))

	// The flat list, sorted by a header click, and reversed by another.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#_v-list")))
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#_matrix thead button[data-col="title"]`)))
	byTitle := []string{"SEG-REQ-A", "SEG-REQ-B", "SEG-SREQ-006", "SEG-SREQ-008", "SEG-SYS-001", "SEG-SREQ-007"}
	if got := mxEval[[]string](t, ctx, jsRows); !cmp.Equal(got, byTitle) {
		t.Errorf("sorted by title: %v, want %v", got, byTitle)
	}
	if got := mxEval[string](t, ctx, `document.querySelector('#_matrix thead button[data-col="title"]').parentElement.getAttribute("aria-sort")`); got != "ascending" {
		t.Errorf("aria-sort %q", got)
	}
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#_matrix thead button[data-col="title"]`)))
	if got := mxEval[[]string](t, ctx, jsRows); !cmp.Equal(got, reversed(byTitle)) {
		t.Errorf("sorted by title, descending: %v", got)
	}

	// Filters: text, kind, status; each in the URL.
	mxDo(t, ctx, chromedp.SendKeys(chromedp.CSS("#_f-text"), "cycle"))
	mxPollCount(t, ctx, "3 of 6 requirements shown")
	if got := mxEval[[]string](t, ctx, jsRows); !cmp.Equal(got, []string{"SEG-SYS-001", "SEG-REQ-B", "SEG-REQ-A"}) {
		t.Errorf("filtered: %v", got)
	}
	mxSelect(t, ctx, "_f-kind", "req")
	mxSelect(t, ctx, "_f-status", "failing")
	mxPollCount(t, ctx, "0 of 6 requirements shown")
	mxSelect(t, ctx, "_f-status", "unproven")
	mxPollCount(t, ctx, "3 of 6 requirements shown")

	// Columns: hide Kind and Refined by.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#_cols summary")))
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#_cols-list input[value="kind"]`)), chromedp.Click(chromedp.CSS(`#_cols-list input[value="refined-by"]`)))
	heads := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("#_matrix thead button")).map(b => b.textContent)`)
	if slices.Contains(heads, "Kind") || slices.Contains(heads, "Refined by") || !slices.Contains(heads, "Title") {
		t.Errorf("headers %v", heads)
	}
	// Open a row's evidence.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#SEG-REQ-A button.xb`)))
	mxPoll(t, ctx, `!!document.querySelector("tr.xr")`, "the evidence row")

	// The whole view is in the URL: a reload (or the link sent to a
	// colleague) shows the same.
	hash := mxEval[string](t, ctx, `location.hash`)
	for _, part := range []string{"v=list", "s=unproven", "k=req", "q=cycle", "c=id,title,verdict,location,refines,tests,implemented-by,waivers,reason", "o=title-", "x=SEG-REQ-A"} {
		if !strings.Contains(hash, part) {
			t.Errorf("hash %q lacks %q", hash, part)
		}
	}
	before := mxEval[string](t, ctx, jsRows+`.join(" ") + " | " + document.querySelector("tr.xr").innerText`)
	mxDo(t, ctx, chromedp.Navigate("about:blank"))
	mxLoad(t, ctx, url+hash)
	if after := mxEval[string](t, ctx, jsRows+`.join(" ") + " | " + document.querySelector("tr.xr").innerText`); after != before {
		t.Errorf("after a reload:\n%s\nbefore:\n%s", after, before)
	}
	if v := mxEval[[]string](t, ctx, `[document.getElementById("_f-text").value, document.getElementById("_f-kind").value, document.getElementById("_f-status").value]`); !cmp.Equal(v, []string{"cycle", "req", "unproven"}) {
		t.Errorf("controls after reload: %v", v)
	}

	// An ID links to its row: a click in the Refines cell scrolls to the
	// parent and highlights it, and the URL names it.
	mxDo(t, ctx, chromedp.Click(chromedp.CSS("#_reset")))
	mxPollCount(t, ctx, "6 of 6 requirements shown")
	mxDo(t, ctx, chromedp.Click(chromedp.CSS(`#SEG-REQ-B td:nth-child(7) a[href="#SEG-REQ-A"]`)))
	mxPoll(t, ctx, `document.getElementById("SEG-REQ-A").classList.contains("hl") && document.activeElement.id === "SEG-REQ-A"`, "the highlighted parent")
	if h := mxEval[string](t, ctx, `location.hash`); !strings.Contains(h, "h=SEG-REQ-A") {
		t.Errorf("hash after the jump %q", h)
	}
	// A #ID address works from outside, and the source position is a
	// separate link.
	mxDo(t, ctx, chromedp.Navigate("about:blank"))
	mxLoad(t, ctx, url+"#SEG-SREQ-008")
	mxPoll(t, ctx, `document.getElementById("SEG-SREQ-008").classList.contains("hl")`, "#SEG-SREQ-008 highlighted")
	if got := mxEval[[]string](t, ctx, `Array.from(document.getElementById("SEG-SREQ-008").querySelectorAll("a")).map(a => a.getAttribute("href"))`); len(got) < 2 || got[0] != "#SEG-SREQ-008" || !strings.HasSuffix(got[1], "docs/requirements.rst#L12") {
		t.Errorf("links of a row: %v", got)
	}

	// Keyboard: arrows move between rows, Enter opens the evidence, right
	// and left close and open a branch.
	mxEval[chromedp.Void](t, ctx, `document.getElementById("SEG-SREQ-006").focus()`)
	mxDo(t, ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if id := mxEval[string](t, ctx, `document.activeElement.id`); id != "SEG-SYS-001" {
		t.Errorf("after three arrows down: %q", id)
	}
	mxDo(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	if got := mxEval[[]string](t, ctx, jsRows); len(got) != 4 {
		t.Errorf("left closes the branch: %v", got)
	}
	mxDo(t, ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	mxPoll(t, ctx, `document.getElementById("SEG-SYS-001").querySelector("button.xb").getAttribute("aria-expanded") === "true"`, "Enter to open the evidence")

	// The evidence: text, why, the outcomes with their waivers.
	mxEval[chromedp.Void](t, ctx, `location.hash = "#!v=list&x=SEG-SREQ-007,SEG-SREQ-008,SEG-SREQ-006"`)
	mxPoll(t, ctx, `document.querySelectorAll("tr.xr").length === 3`, "three open rows")
	ex := mxEval[string](t, ctx, `Array.from(document.querySelectorAll("tr.xr")).map(x => x.innerText).join("\n----\n")`)
	for _, s := range []string{
		"Verified by a test whose link has a typo, so nothing verifies it.", // a requirement's text
		"Why unsatisfied", "no-confirming-outcome", "Verified by (1)", "TS-007 Waiver expiry",
		"OUT-007 failed: counts against", "waiver WVR-007 Known flake: not in force: waiver \"WVR-007\" expired on 2026-10-01",
		"OUT-008 passed: excluded: witnesses no implementation [outcome-unwitnessed]", "Implemented by (1)", "IMPL-EVAL", "Notes",
	} {
		if !strings.Contains(ex, s) {
			t.Errorf("the evidence lacks %q:\n%s", s, ex)
		}
	}
	mxCheckExplanationLinks(t, ctx, "SEG-SREQ-007", "docs/requirements.rst#L9", "docs/tests.rst#L21")

	// Diagnostics: all seven, filterable.
	if n := mxEval[int](t, ctx, `document.querySelectorAll("#_dgrid tbody tr").length`); n != 7 {
		t.Errorf("%d diagnostics", n)
	}
	mxSelect(t, ctx, "_d-sev", "1")
	if got := mxEval[string](t, ctx, `document.getElementById("_dcount").textContent`); got != "3 of 7 shown" {
		t.Errorf("warnings: %q", got)
	}
	mxSelect(t, ctx, "_d-sev", "")

	mxAxe(t, ctx)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-broken-expanded.png", shot)

	templated := filepath.Join(dir, "out", "templated.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", templated, "--at", mxAt,
		"--link-template", "https://git.example.com/b/blob/main/{file}?plain=1#L{line}-C{column}", "../examples/broken"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mxLoad(t, ctx, fileURL(t, templated)+"#!v=list")
	mxCheckExplanationLinks(t, ctx, "SEG-SREQ-007", "https://git.example.com/b/blob/main/docs/requirements.rst?plain=1#L9-C1", "https://git.example.com/b/blob/main/docs/tests.rst?plain=1#L21-C1")

	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Error("no request recorded: the network listener is not working")
	}
	for _, u := range requests {
		if u != "about:blank" && (!strings.HasPrefix(u, "file://") || !strings.Contains(u, "/matrix.html") && !strings.Contains(u, "/templated.html")) {
			t.Errorf("the page requested %s", u)
		}
	}
}

// mxCheckExplanationLinks opens row id's evidence (unless open) and checks
// that the requirement's source link and the outcome's link in it are
// those of the grid, and end as given.
func mxCheckExplanationLinks(t *testing.T, ctx context.Context, id, reqSuffix, outcomeSuffix string) {
	t.Helper()
	if mxEval[string](t, ctx, `document.getElementById("`+id+`").querySelector("button.xb").getAttribute("aria-expanded")`) != "true" {
		mxDo(t, ctx, chromedp.Click(chromedp.CSS("#"+id+" button.xb")))
	}
	mxPoll(t, ctx, `!!document.querySelector('tr.xr[data-id="`+id+`"]')`, "the evidence of "+id)
	got := mxEval[[]string](t, ctx, `(() => { const r = document.getElementById("`+id+`"), x = document.querySelector('tr.xr[data-id="`+id+`"]');
		return [Array.from(r.querySelectorAll("a")).find(a => /:\d+$/.test(a.textContent)).href, x.querySelector(".ex p a").href,
			x.querySelector("a[href*='tests.rst']:not([href*='L6'])") ? Array.from(x.querySelectorAll("a")).filter(a => a.textContent.startsWith("OUT-"))[0].href : ""]; })()`)
	if got[0] != got[1] || !strings.HasSuffix(got[0], reqSuffix) || !strings.HasSuffix(got[2], outcomeSuffix) {
		t.Errorf("links of %s: grid %s, evidence %s; outcome %s", id, got[0], got[1], got[2])
	}
}

// axeJS finds axe-core's browser build (axe.min.js of the npm package
// axe-core) named by SEG_AXE_JS, or returns ""; with SEG_REQUIRE_AXE=1
// (CI, which installs it) a missing one fails the test.
func axeJS(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SEG_AXE_JS"); p != "" {
		if data, err := os.ReadFile(p); err == nil {
			return string(data)
		}
	}
	if os.Getenv("SEG_REQUIRE_AXE") == "1" {
		t.Fatal("set SEG_AXE_JS to axe-core's axe.min.js (npm install axe-core@4) to check the page's accessibility (SEG_REQUIRE_AXE=1)")
	}
	t.Log("SEG_AXE_JS not set: the accessibility check is skipped (npm install axe-core@4)")
	return ""
}

// mxAxe runs axe-core's WCAG 2 A and AA rules (contrast, table semantics,
// names of controls, ARIA) on the page as it is, and fails on any
// violation.
func mxAxe(t *testing.T, ctx context.Context) {
	t.Helper()
	js := axeJS(t)
	if js == "" {
		return
	}
	mxEval[chromedp.Void](t, ctx, js)
	out := mxEval[string](t, ctx, `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}).then(r => JSON.stringify(r.violations.map(v => v.id + " (" + v.impact + "): " + v.help + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))))`, chromedp.EvalAwaitPromise)
	var violations []string
	if err := json.Unmarshal([]byte(out), &violations); err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Errorf("axe-core: %s", v)
	}
}

// Without JavaScript the page is a plain table with badges, links and the
// first reason of each row, and the diagnostics; the controls that would
// not work are hidden, and a note says where the evidence is. (The rows
// are plain table rows: nothing waits on the browser deciding what is on
// screen, so the test reads the page once it has loaded.)
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
	mxPoll(t, ctx, `document.readyState === "complete"`, "the page to load")
	if got := mxEval[string](t, ctx, `document.documentElement.className`); got != "" {
		t.Fatalf("scripts ran: class %q", got)
	}
	ids := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.plain:not(.diags) tbody tr")).map(r => r.id)`)
	if want := []string{"SEG-REQ-A", "SEG-REQ-B", "SEG-SREQ-006", "SEG-SREQ-007", "SEG-SREQ-008", "SEG-SYS-001"}; !cmp.Equal(ids, want) {
		t.Errorf("rows %v", ids)
	}
	for _, sel := range []string{"#_controls", "#_dcontrols", "#_hint"} {
		if mxEval[bool](t, ctx, `document.querySelector("`+sel+`").checkVisibility()`) {
			t.Errorf("%s shows without JavaScript", sel)
		}
	}
	text := mxEval[string](t, ctx, `document.body.innerText`)
	for _, want := range []string{
		"need JavaScript; seg explain ID prints the same evidence",
		"TS-008 (invalid): passed (excluded)",
		"docs/tests.rst:21: outcome \"OUT-007\" of test \"TS-007\" failed; waiver \"WVR-007\" expired on 2026-10-01 [outcome-failed]",
		"1/3 (33.3%)",
		"docs/tests.rst:6:15\terror\tunresolved-link\tunresolved link \"SEG-SREQ-06\"",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page without JavaScript lacks %q:\n%s", want, text)
		}
	}
	badges := mxEval[[]string](t, ctx, `Array.from(document.querySelectorAll("table.plain .b")).map(b => b.textContent + " " + getComputedStyle(b).backgroundColor)`)
	if len(badges) != 6 || badges[3] != "failing rgb(198, 40, 40)" {
		t.Errorf("badges %v", badges)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-broken-nojs.png", shot)
}

// pdfText prints the page to PDF in headless Chromium, as a reviewer's
// browser does (the page's own @page size and margins), and returns the
// PDF's text (pdftotext -layout, from Debian's poppler-utils) and page
// count.
func pdfText(t *testing.T, ctx context.Context) (string, int, []byte) {
	t.Helper()
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("SEG_REQUIRE_BROWSER") == "1" {
			t.Fatal("no pdftotext: apt-get install poppler-utils (SEG_REQUIRE_BROWSER=1)")
		}
		t.Skip("no pdftotext: apt-get install poppler-utils to check the printed matrix")
	}
	yes := true
	var pdf []byte
	mxDo(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &yes, PrintBackground: &yes})
		pdf = res.Data
		return err
	}))
	f := filepath.Join(t.TempDir(), "matrix.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-layout", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	return text, strings.Count(text, "\f"), pdf
}

// The printed page is a review record: landscape, each page headed with
// the tree and the evaluation date and numbered, every requirement and
// its status readable with IDs and paths whole, the open evidence
// printed, and no more pages than the rows need.
func TestMatrixHTMLPrint(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "review-tree")
	mxWrite(t, root, mxTree(300, 5))
	out := filepath.Join(dir, "matrix.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", out, "--at", mxAt, root); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, js, _ := run("matrix", "--format", "json", "--at", mxAt, root)
	var m struct{ Rows []struct{ ID, Status string } }
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	mxLoad(t, ctx, fileURL(t, out)+"#!v=list&x=REQ-00003")
	text, pages, pdf := pdfText(t, ctx)
	if err := os.WriteFile(filepath.Join(t.TempDir(), "x.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv("SEG_SCREENSHOT_DIR"); d != "" {
		os.WriteFile(filepath.Join(d, "matrix-300.pdf"), pdf, 0o644)
	}
	// Every page has its header and number.
	if n := strings.Count(text, "Traceability matrix · review-tree · evaluated "+mxAt); n != pages {
		t.Errorf("%d page headers on %d pages", n, pages)
	}
	if !strings.Contains(text, fmt.Sprintf("page %d of %d", pages, pages)) {
		t.Errorf("no page numbers of %d", pages)
	}
	// Every requirement, whole, with its status on its line.
	lines := strings.Split(text, "\n")
	for _, r := range m.Rows {
		// The ID starts its row's first line (the ID column is first).
		i := slices.IndexFunc(lines, func(l string) bool { return regexp.MustCompile(`^` + regexp.QuoteMeta(r.ID) + `(\s|$)`).MatchString(l) })
		if i < 0 {
			t.Errorf("%s is not in the PDF whole", r.ID)
			continue
		}
		if !strings.Contains(lines[i], r.Status) && !slices.ContainsFunc(lines[i:min(i+3, len(lines))], func(l string) bool { return strings.Contains(l, r.Status) }) {
			t.Errorf("%s: status %s not on its line: %q", r.ID, r.Status, lines[i])
		}
	}
	if !strings.Contains(text, "docs/req/part-000.rst:") {
		t.Error("no whole source path in the PDF")
	}
	// The open row's evidence is printed; the controls are not.
	if !strings.Contains(text, "Refined by (") || strings.Contains(text, "Expand all") || strings.Contains(text, "Columns") {
		t.Errorf("evidence or controls wrong in print")
	}
	// Readable density: about 30 requirements a page or better (300 rows,
	// the coverage on its own page, the diagnostics after).
	if pages < 3 || pages > 20 {
		t.Errorf("%d pages for 300 requirements", pages)
	}
	t.Logf("300 requirements: %d pages, %d KB of PDF", pages, len(pdf)/1024)
}

// A generated tree of 10,000 requirements: the page builds only the rows
// in view, and loading, filtering, sorting, opening and jumping work
// (times logged; BenchmarkMatrixHTMLChromium measures them).
func TestMatrixHTMLTenThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ctx := browser(t)
	root := t.TempDir()
	mxWrite(t, root, mxTree(10000, 42))
	out := filepath.Join(t.TempDir(), "matrix.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", out, "--at", mxAt, root); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	start := time.Now()
	mxLoad(t, ctx, fileURL(t, out)+"#!v=list")
	loaded := time.Since(start)
	if got := mxEval[string](t, ctx, `document.getElementById("_count").textContent`); got != "10000 of 10000 requirements shown" {
		t.Errorf("count %q", got)
	}
	if n := mxEval[int](t, ctx, `document.querySelectorAll("#_matrix tbody tr").length`); n > 150 {
		t.Errorf("%d rows in the DOM: rows are meant to be built as they come into view", n)
	}
	// Rows on a 1080-pixel screen.
	mxDo(t, ctx, chromedp.EmulateViewport(1920, 1080))
	mxEval[chromedp.Void](t, ctx, `document.getElementById("_matrix").scrollIntoView()`)
	fit := mxEval[int](t, ctx, `Array.from(document.querySelectorAll("#_matrix tbody tr.r")).filter(r => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }).length`)
	if fit < 25 {
		t.Errorf("%d rows fit on a 1080-pixel screen, want 25 or more", fit)
	}
	measure := func(action string) float64 {
		return mxEval[float64](t, ctx, `new Promise(done => { const t0 = performance.now(); `+action+
			`; requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0))); })`, chromedp.EvalAwaitPromise)
	}
	filterText := measure(`const f = document.getElementById("_f-text"); f.value = "sreq-000"; f.dispatchEvent(new Event("input"))`)
	mxPoll(t, ctx, `/^[1-9]\d* of 10000 requirements shown$/.test(document.getElementById("_count").textContent) && document.getElementById("_count").textContent !== "10000 of 10000 requirements shown"`, "the text filter")
	filterStatus := measure(`const s = document.getElementById("_f-status"); s.value = "failing"; s.dispatchEvent(new Event("change"))`)
	sortTitle := measure(`document.getElementById("_f-text").value = ""; document.getElementById("_f-text").dispatchEvent(new Event("input")); document.querySelector('#_matrix thead button[data-col="title"]').click()`)
	tree := measure(`document.getElementById("_v-tree").click()`)
	// Jump to a row deep in the list, and scroll to the end.
	mxEval[chromedp.Void](t, ctx, `location.hash = "#SREQ-05999"`)
	mxPoll(t, ctx, `!!document.getElementById("SREQ-05999") && document.getElementById("SREQ-05999").classList.contains("hl")`, "the jump to SREQ-05999")
	if y := mxEval[float64](t, ctx, `document.getElementById("SREQ-05999").getBoundingClientRect().top`); y < 0 || y > 1080 {
		t.Errorf("SREQ-05999 at y=%v, not on screen", y)
	}
	expand := measure(`document.querySelector("#SREQ-05999 button.xb").click()`)
	// Scroll to the end of the grid: its last rows are drawn there.
	mxEval[chromedp.Void](t, ctx, `window.scrollTo(0, document.getElementById("_matrix").getBoundingClientRect().bottom + scrollY - innerHeight)`)
	mxPoll(t, ctx, `(() => { const r = document.querySelectorAll("#_matrix tbody tr.r"); if (!r.length) return false; const b = r[r.length - 1].getBoundingClientRect(); return b.bottom <= innerHeight + 1 && b.bottom > innerHeight - 100; })()`, "rows at the end")
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	mxScreenshot(t, "matrix-10k.png", shot)
	info, _ := os.Stat(out)
	t.Logf("10,000 requirements: page %.1f MB; load %v; text filter %.0f ms, status filter %.0f ms, sort by title %.0f ms, tree view %.0f ms, open a row %.0f ms; %d rows on a 1080-pixel screen",
		float64(info.Size())/1e6, loaded.Round(time.Millisecond), filterText, filterStatus, sortTitle, tree, expand, fit)
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

// The grid never cuts an ID or a path at its end (issue 27): one too
// long for its column loses its middle (its tail, a path's file name,
// stays on screen), a list shows whole entries only, the cell's title has
// the whole value, and the printed page has every ID and path whole.
func TestMatrixHTMLLongIDs(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	long := "comp_req__tc8_conformance_of_the_transport_layer_checks_42"
	child := "comp_req__tc8_conformance_of_the_transport_layer_checks_43"
	deep := "docs/requirements/transport/conformance/tc8/very/deep/folder/specification_of_layer.rst"
	mxWrite(t, filepath.Join(dir, "tree"), map[string]string{
		deep: ".. sreq:: Parent\n   :id: " + long + "\n\n" +
			".. sreq:: Child\n   :id: " + child + "\n   :refines: " + long + "\n\n" +
			".. sreq:: Other child\n   :id: comp_req__tc8_conformance_of_the_transport_layer_checks_44\n   :refines: " + long + "\n",
	})
	page := filepath.Join(dir, "m.html")
	if code, _, stderr := run("matrix", "--format", "html", "--output", page, "--at", mxAt, filepath.Join(dir, "tree")); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mxDo(t, ctx, chromedp.EmulateViewport(1280, 900))
	mxLoad(t, ctx, fileURL(t, page)+"#!v=list")
	type cut struct {
		Text, Title  string
		Elided       bool    // the head is shorter than its text
		TailRight    float64 // the tail's right edge
		CellRight    float64 // the cell's content box's right edge
		Visible      int     // list entries on the line shown
		Clipped      int     // list entries cut at the cell's edge
		TailFileName string  // the tail's text
	}
	probe := `(sel) => Array.from(document.querySelectorAll("#_matrix tbody tr.r " + sel)).map(td => {
		const r = td.getBoundingClientRect(), pad = parseFloat(getComputedStyle(td).paddingRight);
		const m = td.querySelector(".mid"), h = m && m.querySelector(".h"), tl = m && m.querySelector(".t");
		const out = {Text: td.textContent, Title: td.title, Elided: !!h && h.scrollWidth > h.clientWidth,
			TailRight: tl ? tl.getBoundingClientRect().right : 0, CellRight: r.right - pad + 0.5, Visible: 0, Clipped: 0,
			TailFileName: tl ? tl.textContent : ""};
		const box = td.querySelector(".list");
		if (box) {
			const b = box.getBoundingClientRect();
			box.querySelectorAll(".it").forEach(it => {
				const x = it.getBoundingClientRect();
				if (x.top >= b.bottom - 0.5) { return; } // on the line not shown
				out.Visible++;
				if (x.right > out.CellRight) { out.Clipped++; }
			});
		}
		return out;
	})`
	cells := func(sel string) []cut { return mxEval[[]cut](t, ctx, "("+probe+")("+strconv.Quote(sel)+")") }
	ids := cells("td.c-id")
	if len(ids) != 3 {
		t.Fatalf("%d ID cells", len(ids))
	}
	for _, c := range ids {
		if !strings.HasPrefix(c.Text, "comp_req__tc8_") || !strings.HasPrefix(c.Title, c.Text) {
			t.Errorf("ID cell text %q, title %q: want the whole ID in both", c.Text, c.Title)
		}
		if !c.Elided {
			t.Errorf("%s: not elided in the middle (the column holds it whole?)", c.Text)
		}
		if c.TailRight > c.CellRight {
			t.Errorf("%s: its end is cut (tail ends at %.1f, the cell at %.1f)", c.Text, c.TailRight, c.CellRight)
		}
	}
	for _, c := range cells("td.c-location") {
		if !strings.HasPrefix(c.Text, deep+":") || c.Title != c.Text {
			t.Errorf("location %q, title %q", c.Text, c.Title)
		}
		if c.TailFileName == "" || !strings.HasSuffix(c.Text, c.TailFileName) || c.TailRight > c.CellRight {
			t.Errorf("location %q: the file name %q is cut (tail ends at %.1f, the cell at %.1f)", c.Text, c.TailFileName, c.TailRight, c.CellRight)
		}
	}
	for _, c := range cells("td.c-refined-by") {
		if c.Clipped > 0 {
			t.Errorf("refined-by %q: %d of %d entries shown are cut at the cell's edge", c.Text, c.Clipped, c.Visible)
		}
		if strings.Contains(c.Text, child) && c.Visible == 0 {
			t.Errorf("refined-by %q shows no entry", c.Text)
		}
	}
	// Printed: every ID and the path whole.
	text, _, _ := pdfText(t, ctx)
	flat := strings.Join(strings.Fields(text), "")
	for _, want := range []string{long, child, "comp_req__tc8_conformance_of_the_transport_layer_checks_44", deep} {
		if !strings.Contains(flat, want) {
			t.Errorf("the printed page lacks %q whole", want)
		}
	}
}
