//go:build lspbench

// Command lspbench times `seg lsp` as an editor drives it: it starts the
// server as a process, speaks LSP to it over a pipe, and reports
//
//   - start-up: from starting the process to the first publishDiagnostics,
//     and to the end of the first analysis (every file's diagnostics sent);
//   - edit latency: from a didChange that breaks or mends a link to the
//     publishDiagnostics of the edited file, over many edits (median, p90,
//     max); and from a didChange that changes no finding (a word of body
//     text) to the answer of a request that waits for its analysis;
//   - memory: the server's peak and final resident set (Linux /proc).
//
// See bench/README.md.
//
//	lspbench -seg BIN -root DIR [-edits 40] [-at 2026-11-29] [-no-cache]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type pipe struct {
	io.Reader
	io.WriteCloser
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("lspbench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	bin := fl.String("seg", "seg", "the seg binary")
	root := fl.String("root", "", "the tree (required)")
	edits := fl.Int("edits", 40, "edits to time, of each kind")
	at := fl.String("at", "2026-11-29", "evaluation date")
	noCache := fl.Bool("no-cache", false, "start the server with --no-cache (a cold start-up)")
	if err := fl.Parse(args); err != nil || *root == "" {
		fl.Usage()
		return 2
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	file, text, line, err := pickFile(abs)
	if err != nil {
		fmt.Fprintln(stderr, "lspbench:", err)
		return 1
	}

	args = []string{"lsp", "--at", *at}
	if *noCache {
		args = append(args, "--no-cache")
	}
	cmd := exec.Command(*bin, append(args, abs)...)
	cmd.Stderr = stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "lspbench:", err)
		return 1
	}
	b := &bench{published: map[string]chan time.Time{}}
	b.first = make(chan time.Time, 1)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(readWriteCloser{bufio.NewReaderSize(out, 1<<20), in}))
	conn.Go(context.Background(), b.handle)
	ctx := context.Background()
	call := func(method string, params any) error {
		var res jsonrpc2.RawMessage
		_, err := conn.Call(ctx, method, params, &res)
		return err
	}
	if err := call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": string(uri.File(abs)),
		"capabilities": map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}},
	}); err != nil {
		fmt.Fprintln(stderr, "lspbench: initialize:", err)
		return 1
	}
	conn.Notify(ctx, "initialized", map[string]any{})
	u := string(uri.File(filepath.Join(abs, filepath.FromSlash(file))))
	// A request that waits for the analysis of everything sent so far,
	// and costs next to nothing itself.
	settle := func() {
		call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 0, "character": 0}})
	}
	settle()
	ready := time.Since(start)
	first := (<-b.first).Sub(start)
	peakStart := memory(cmd.Process.Pid)
	cpuStart := cpuTime(cmd.Process.Pid)

	conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "rst", "version": 1, "text": text}})
	settle()

	lines := strings.SplitAfter(text, "\n")
	col := strings.Index(lines[line], ":verifies: ") + len(":verifies: ")
	word := strings.Index(text, "\n\n") // a blank line: typing there changes no finding
	wl, wc := lineCol(text, word+1)
	version := 1
	change := func(l, c1, c2 int, s string) {
		version++
		conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": u, "version": version},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": l, "character": c1}, "end": map[string]any{"line": l, "character": c2}},
				"text":  s}}})
	}
	var linkLat, breakLat, mendLat, quietLat []time.Duration
	cpu0 := cpuTime(cmd.Process.Pid)
	orig := lines[line][col : col+1]
	for i := 0; i < 2*(*edits); i++ {
		ch := b.expect(u)
		t0 := time.Now()
		if i%2 == 0 {
			change(line, col, col+1, "#") // breaks the link: unresolved-link
		} else {
			change(line, col, col+1, orig) // mends it
		}
		select {
		case t1 := <-ch:
			linkLat = append(linkLat, t1.Sub(t0))
			if i%2 == 0 {
				breakLat = append(breakLat, t1.Sub(t0))
			} else {
				mendLat = append(mendLat, t1.Sub(t0))
			}
		case <-time.After(2 * time.Minute):
			fmt.Fprintln(stderr, "lspbench: no publishDiagnostics after an edit")
			return 1
		}
		settle()
	}
	for i := 0; i < *edits; i++ {
		t0 := time.Now()
		if i%2 == 0 {
			change(wl, wc, wc, "x")
		} else {
			change(wl, wc, wc+1, "")
		}
		settle()
		quietLat = append(quietLat, time.Since(t0))
	}
	cpu := cpuTime(cmd.Process.Pid) - cpu0
	peak := memory(cmd.Process.Pid)
	call("shutdown", nil)
	conn.Notify(ctx, "exit", nil)
	err = cmd.Wait()
	code := 0
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}

	fmt.Fprintf(stdout, "tree: %s (edited: %s)\n", abs, file)
	fmt.Fprintf(stdout, "start-up to first publishDiagnostics: %s\n", first.Round(time.Millisecond))
	fmt.Fprintf(stdout, "start-up to every file's diagnostics: %s (server CPU time %s)\n", ready.Round(time.Millisecond), cpuStart.Round(10*time.Millisecond))
	fmt.Fprintf(stdout, "didChange -> publishDiagnostics (link broken/mended, %d edits): %s\n", len(linkLat), stats(linkLat))
	fmt.Fprintf(stdout, "  of which breaking it (an unresolved link, with its did-you-mean): %s\n", stats(breakLat))
	fmt.Fprintf(stdout, "  of which mending it: %s\n", stats(mendLat))
	fmt.Fprintf(stdout, "didChange -> analysed (body text, %d edits): %s\n", len(quietLat), stats(quietLat))
	fmt.Fprintf(stdout, "server CPU time per edit (user+system, all threads): %s\n", (cpu / time.Duration(len(linkLat)+len(quietLat))).Round(100*time.Microsecond))
	fmt.Fprintf(stdout, "resident memory: after start-up %s, peak %s\n", peakStart, peak)
	fmt.Fprintf(stdout, "exit code after shutdown and exit: %d\n", code)
	return 0
}

func stats(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(p float64) time.Duration {
		return s[min(len(s)-1, int(p*float64(len(s))))].Round(100 * time.Microsecond)
	}
	return fmt.Sprintf("median %s, p90 %s, max %s", q(0.5), q(0.9), s[len(s)-1].Round(100*time.Microsecond))
}

type readWriteCloser struct {
	io.Reader
	io.WriteCloser
}

type bench struct {
	mu        sync.Mutex
	first     chan time.Time
	once      sync.Once
	published map[string]chan time.Time
}

func (b *bench) expect(u string) chan time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan time.Time, 1)
	b.published[u] = ch
	return ch
}

func (b *bench) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() == "textDocument/publishDiagnostics" {
		now := time.Now()
		b.once.Do(func() { b.first <- now })
		var p struct {
			URI string `json:"uri"`
		}
		json.Unmarshal(req.Params(), &p)
		b.mu.Lock()
		if ch := b.published[p.URI]; ch != nil {
			ch <- now
			delete(b.published, p.URI)
		}
		b.mu.Unlock()
	}
	return nil, nil
}

// pickFile finds a file with a :verifies: line to edit.
func pickFile(root string) (string, string, int, error) {
	var found string
	var text string
	var line int
	filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || found != "" || d.IsDir() || !strings.HasSuffix(p, ".rst") {
			return nil
		}
		data, _ := os.ReadFile(p)
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "   :verifies: ") && strings.Contains(l, "-") {
				rel, _ := filepath.Rel(root, p)
				found, text, line = filepath.ToSlash(rel), string(data), i
				return filepath.SkipAll
			}
		}
		return nil
	})
	if found == "" {
		return "", "", 0, fmt.Errorf("no file under %s/docs has a :verifies: line", root)
	}
	return found, text, line, nil
}

func lineCol(text string, off int) (int, int) {
	l := strings.Count(text[:off], "\n")
	c := off - (strings.LastIndex(text[:off], "\n") + 1)
	return l, c
}

// cpuTime reads a process's user and system time (Linux /proc).
func cpuTime(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// memory reads a process's peak and current resident set.
func memory(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	var hwm, rss string
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			hwm = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			rss = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("%s (now %s)", mb(hwm), mb(rss))
}

func mb(kb string) string {
	n, err := strconv.Atoi(strings.TrimSuffix(kb, " kB"))
	if err != nil {
		return kb
	}
	return fmt.Sprintf("%d MB", n/1024)
}
