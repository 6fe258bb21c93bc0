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
//   - memory: the server's peak and final resident set (Linux /proc);
//   - the open document first: the document is opened right after
//     initialized with unsaved text that adds a requirement, and the time
//     from starting the process to the first publishDiagnostics of that
//     document that has the new requirement's status, and how many other
//     files' diagnostics came before it;
//   - what is sent: the bytes and publishDiagnostics received in the first
//     10 s (-window);
//   - new-ID edits: from a didChange that renames the new requirement
//     to the publishDiagnostics of the document, and all edits together
//     (median, p95).
//
// See bench/README.md.
//
//	lspbench -seg BIN -root DIR [-edits 40] [-at 2026-11-29] [-no-cache] [-window 10s]
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

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("lspbench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	bin := fl.String("seg", "seg", "the seg binary")
	root := fl.String("root", "", "the tree (required)")
	edits := fl.Int("edits", 40, "edits to time, of each kind")
	at := fl.String("at", "2026-11-29", "evaluation date")
	noCache := fl.Bool("no-cache", false, "start the server with --no-cache (a cold start-up)")
	window := fl.Duration("window", 10*time.Second, "count what the server sends in this long after it starts")
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
	s, err := startServer(*bin, append(args, abs), filepath.Join(abs, filepath.FromSlash(file)), stderr)
	if err != nil {
		fmt.Fprintln(stderr, "lspbench:", err)
		return 1
	}
	inWindow := make(chan [2]int64, 1)
	time.AfterFunc(*window-time.Since(s.start), func() {
		n, m := s.counted()
		inWindow <- [2]int64{n, int64(m)}
	})
	// The document is opened at once, with unsaved text that adds a
	// requirement: its diagnostics are right when they hold its status.
	text += newReq(1)
	s.conn.Notify(s.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "rst", "version": 1, "text": text}})
	var opened time.Duration
	var before int
	select {
	case o := <-s.b.opened:
		opened, before = o.at.Sub(s.start), o.before
	case <-time.After(5 * time.Minute):
		fmt.Fprintln(stderr, "lspbench: the open document's diagnostics never showed its new requirement")
		return 1
	}
	s.published()
	ready := time.Since(s.start)
	first := (<-s.b.first).Sub(s.start)
	pid := s.cmd.Process.Pid
	peakStart, cpuStart := memory(pid), cpuTime(pid)
	w := <-inWindow
	sentBytes, sentMsgs := w[0], w[1]
	cpu0 := cpuTime(pid)
	breaks, mends, err := s.linkEdits(text, line, *edits)
	if err != nil {
		fmt.Fprintln(stderr, "lspbench:", err)
		return 1
	}
	quiet := s.quietEdits(text, *edits)
	ids, err := s.idEdits(text, *edits)
	if err != nil {
		fmt.Fprintln(stderr, "lspbench:", err)
		return 1
	}
	cpu := cpuTime(pid) - cpu0
	peak := memory(pid)
	code := s.stop()

	links := append(slices.Clone(breaks), mends...)
	fmt.Fprintf(stdout, "tree: %s (edited: %s)\n", abs, file)
	fmt.Fprintf(stdout, "start-up to first publishDiagnostics: %s\n", first.Round(time.Millisecond))
	fmt.Fprintf(stdout, "start-up to the open document's diagnostics with its unsaved new ID: %s (%d other files' diagnostics before them)\n", opened.Round(time.Millisecond), before)
	fmt.Fprintf(stdout, "start-up to every file's diagnostics: %s (server CPU time %s)\n", ready.Round(time.Millisecond), cpuStart.Round(10*time.Millisecond))
	fmt.Fprintf(stdout, "sent in the first %s: %.2f MB in %d publishDiagnostics\n", *window, float64(sentBytes)/1e6, sentMsgs)
	fmt.Fprintf(stdout, "didChange -> publishDiagnostics (link broken/mended, %d edits): %s\n", len(links), stats(links))
	fmt.Fprintf(stdout, "  of which breaking it (an unresolved link, with its did-you-mean): %s\n", stats(breaks))
	fmt.Fprintf(stdout, "  of which mending it: %s\n", stats(mends))
	fmt.Fprintf(stdout, "didChange -> analysed (body text, %d edits): %s\n", len(quiet), stats(quiet))
	fmt.Fprintf(stdout, "didChange -> publishDiagnostics (a new ID, %d edits): %s\n", len(ids), stats(ids))
	both := append(slices.Clone(quiet), ids...)
	fmt.Fprintf(stdout, "body text and new ID together (%d edits): %s\n", len(both), stats(both))
	fmt.Fprintf(stdout, "server CPU time per edit (user+system, all threads): %s\n", (cpu / time.Duration(len(links)+len(quiet))).Round(100*time.Microsecond))
	fmt.Fprintf(stdout, "resident memory: after start-up %s, peak %s\n", peakStart, peak)
	fmt.Fprintf(stdout, "exit code after shutdown and exit: %d\n", code)
	return 0
}

// session is the server process and the connection to it, with the one
// document the benchmark edits.
type session struct {
	cmd     *exec.Cmd
	conn    jsonrpc2.Conn
	b       *bench
	ctx     context.Context
	start   time.Time
	uri     string
	version int
	count   *counter
}

// counter counts the bytes read from the server.
type counter struct {
	r  io.Reader
	mu sync.Mutex
	n  int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.mu.Lock()
	c.n += int64(n)
	c.mu.Unlock()
	return n, err
}

// counted is what the server sent so far: bytes, publishDiagnostics.
func (s *session) counted() (int64, int) {
	s.count.mu.Lock()
	n := s.count.n
	s.count.mu.Unlock()
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	return n, s.b.msgs
}

// newID is the ID of the requirement the benchmark adds to the document
// (the i-th name it gives it).
func newID(i int) string { return fmt.Sprintf("LSPBENCH-NEW-%d", i) }

// newReq is the text of that requirement, at the end of the document.
func newReq(i int) string {
	return fmt.Sprintf("\n.. sreq:: A requirement typed in the editor\n   :id: %s\n", newID(i))
}

// published waits for every file's diagnostics (seg's own request; a
// server without it answers with an error at once) and the analysis.
func (s *session) published() {
	s.call("seg/published", map[string]any{})
	s.settle()
}

// idEdits renames the added requirement (its last digit, so the length
// stays) n times, and times each edit to the publishDiagnostics of the
// document (its status names the ID).
func (s *session) idEdits(text string, n int) ([]time.Duration, error) {
	l, c := lineCol(text, strings.LastIndex(text, newID(1))+len(newID(1))-1)
	var out []time.Duration
	for i := range n {
		ch := s.b.expect(s.uri)
		t0 := time.Now()
		s.change(l, c, c+1, strconv.Itoa((i+2)%10))
		select {
		case t1 := <-ch:
			out = append(out, t1.Sub(t0))
		case <-time.After(2 * time.Minute):
			return nil, fmt.Errorf("no publishDiagnostics after renaming an ID")
		}
		s.settle()
	}
	return out, nil
}

// startServer starts seg with args and initializes it.
func startServer(bin string, args []string, doc string, stderr io.Writer) (*session, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	s := &session{cmd: cmd, ctx: context.Background(), start: time.Now(), uri: string(uri.File(doc)), version: 1,
		b: &bench{published: map[string]chan time.Time{}, first: make(chan time.Time, 1),
			doc: string(uri.File(doc)), want: newID(1), opened: make(chan openedAt, 1)}}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.count = &counter{r: out}
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(readWriteCloser{bufio.NewReaderSize(s.count, 1<<20), in}))
	s.conn.Go(s.ctx, s.b.handle)
	root := args[len(args)-1]
	if err := s.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": string(uri.File(root)),
		"capabilities": map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}},
	}); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s.conn.Notify(s.ctx, "initialized", map[string]any{})
	return s, nil
}

func (s *session) call(method string, params any) error {
	var res jsonrpc2.RawMessage
	_, err := s.conn.Call(s.ctx, method, params, &res)
	return err
}

// settle is a request that waits for the analysis of everything sent so
// far, and costs next to nothing itself.
func (s *session) settle() {
	s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.uri}, "position": map[string]any{"line": 0, "character": 0}})
}

// change replaces columns c1 to c2 of line l with text.
func (s *session) change(l, c1, c2 int, text string) {
	s.version++
	s.conn.Notify(s.ctx, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": l, "character": c1}, "end": map[string]any{"line": l, "character": c2}},
			"text":  text}}})
}

// linkEdits breaks the first ID of the :verifies: on line (its first
// character made "#") and mends it again, n times each, and times each
// edit to the publishDiagnostics of the document.
func (s *session) linkEdits(text string, line, n int) (breaks, mends []time.Duration, err error) {
	lines := strings.SplitAfter(text, "\n")
	col := strings.Index(lines[line], ":verifies: ") + len(":verifies: ")
	orig := lines[line][col : col+1]
	for i := range 2 * n {
		ch := s.b.expect(s.uri)
		t0 := time.Now()
		if i%2 == 0 {
			s.change(line, col, col+1, "#") // an unresolved link
		} else {
			s.change(line, col, col+1, orig)
		}
		select {
		case t1 := <-ch:
			if i%2 == 0 {
				breaks = append(breaks, t1.Sub(t0))
			} else {
				mends = append(mends, t1.Sub(t0))
			}
		case <-time.After(2 * time.Minute):
			return nil, nil, fmt.Errorf("no publishDiagnostics after an edit")
		}
		s.settle()
	}
	return breaks, mends, nil
}

// quietEdits types and deletes a character on the first blank line (no
// finding changes, so nothing is published) n times, and times each edit
// to the answer of a request that waits for its analysis.
func (s *session) quietEdits(text string, n int) []time.Duration {
	wl, wc := lineCol(text, strings.Index(text, "\n\n")+1)
	var out []time.Duration
	for i := range n {
		t0 := time.Now()
		if i%2 == 0 {
			s.change(wl, wc, wc, "x")
		} else {
			s.change(wl, wc, wc+1, "")
		}
		s.settle()
		out = append(out, time.Since(t0))
	}
	return out
}

// stop shuts the server down and returns its exit code.
func (s *session) stop() int {
	s.call("shutdown", nil)
	s.conn.Notify(s.ctx, "exit", nil)
	if err := s.cmd.Wait(); err != nil {
		return s.cmd.ProcessState.ExitCode()
	}
	return 0
}

func stats(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(p float64) time.Duration {
		return s[min(len(s)-1, int(p*float64(len(s))))].Round(100 * time.Microsecond)
	}
	return fmt.Sprintf("median %s, p90 %s, p95 %s, max %s", q(0.5), q(0.9), q(0.95), s[len(s)-1].Round(100*time.Microsecond))
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
	// doc is the opened document, want the ID its first right
	// diagnostics name; opened receives when they came, and how many
	// other files' diagnostics came before.
	doc, want  string
	opened     chan openedAt
	openedOnce bool
	msgs       int // publishDiagnostics received
	others     int // of which of other files
}

type openedAt struct {
	at     time.Time
	before int
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
		b.msgs++
		if p.URI == b.doc && !b.openedOnce && strings.Contains(string(req.Params()), b.want) {
			b.openedOnce = true
			b.opened <- openedAt{now, b.others}
		}
		if p.URI != b.doc {
			b.others++
		}
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
