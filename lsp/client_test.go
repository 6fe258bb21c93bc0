package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seg-trace/seg/lsp"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"
)

// The protocol tests drive the server as an editor does: over a stream
// (an in-memory pipe), with JSON messages, and compare what comes back
// with exact positions. The client side is written against the wire
// format, not the server's types, so it checks what goes over the wire.

type pos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type rng struct {
	Start pos `json:"start"`
	End   pos `json:"end"`
}

func (r rng) String() string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

type location struct {
	URI   string `json:"uri"`
	Range rng    `json:"range"`
}

type diagnostic struct {
	Range           rng    `json:"range"`
	Severity        int    `json:"severity"`
	Code            string `json:"code"`
	Source          string `json:"source"`
	Message         string `json:"message"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	RelatedInformation []struct {
		Location location `json:"location"`
		Message  string   `json:"message"`
	} `json:"relatedInformation"`
}

type published struct {
	URI         string       `json:"uri"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// client is a test's editor.
type client struct {
	t    *testing.T
	root string
	conn jsonrpc2.Conn
	code chan int

	mu    sync.Mutex
	diags map[string][]diagnostic // by file, root-relative
	seen  chan string             // a file whose diagnostics arrived
	msgs  []string                // window/showMessage and logMessage
	// msgErr holds the messages of type error, without "seg: ".
	msgErr map[string]bool
}

// writeTree writes files (root-relative slash paths) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

// writeFiles writes files (root-relative slash paths) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// start runs a server on root and initializes it with the given client
// capabilities (JSON). Statuses are shown as seg check lists them (every
// file, as warnings: the settings unsatisfiedScope "workspace" and
// unsatisfiedSeverity "warning"), so that what the client has can be
// compared with seg check; startWith passes other settings.
func start(t *testing.T, root string, cfg lsp.Config, capabilities string) *client {
	t.Helper()
	return startWith(t, root, cfg, capabilities, `{"codesBaseURL":"https://example.org/codes#","unsatisfiedScope":"workspace","unsatisfiedSeverity":"warning"}`)
}

// startWith is start with the given initializationOptions (JSON).
func startWith(t *testing.T, root string, cfg lsp.Config, capabilities, options string) *client {
	t.Helper()
	c := newClient(t, root, cfg)
	if capabilities == "" {
		capabilities = "{}"
	}
	var res json.RawMessage
	c.callRaw("initialize", fmt.Sprintf(`{"processId":null,"rootUri":%q,"capabilities":%s,"initializationOptions":%s}`,
		string(uri.File(root)), capabilities, options), &res)
	c.notify("initialized", `{}`)
	return c
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (c *client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p published
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
			return nil, nil
		}
		f := c.rel(p.URI)
		c.mu.Lock()
		c.diags[f] = p.Diagnostics
		c.mu.Unlock()
		c.seen <- f
	case "window/showMessage", "window/logMessage":
		var p struct {
			Type    int
			Message string
		}
		json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.msgs = append(c.msgs, p.Message)
		if p.Type == 1 {
			c.msgErr[strings.TrimPrefix(p.Message, "seg: ")] = true
		}
		c.mu.Unlock()
	case "client/registerCapability":
		return nil, nil
	}
	return nil, nil
}

func (c *client) uri(file string) string {
	return string(uri.File(filepath.Join(c.root, filepath.FromSlash(file))))
}

func (c *client) rel(u string) string {
	p := uri.URI(u).FsPath()
	r, err := filepath.Rel(c.root, filepath.FromSlash(p))
	if err != nil {
		return u
	}
	return filepath.ToSlash(r)
}

// callRaw sends a request with params written as JSON and decodes the
// result into res; it fails the test on an error response.
func (c *client) callRaw(method, params string, res any) {
	c.t.Helper()
	if err := c.try(method, params, res); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// try sends a request and returns the error response, if any.
func (c *client) try(method, params string, res any) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var raw jsonrpc2.RawMessage
	var p any
	if params != "" {
		p = jsonrpc2.RawMessage(params)
	}
	if _, err := c.conn.Call(ctx, method, p, &raw); err != nil {
		return err
	}
	if res != nil {
		if err := json.Unmarshal(raw, res); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, raw, err)
		}
	}
	return nil
}

func (c *client) notify(method, params string) {
	c.t.Helper()
	var p any
	if params != "" {
		p = jsonrpc2.RawMessage(params)
	}
	if err := c.conn.Notify(context.Background(), method, p); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// sync waits until every message sent so far has been analysed and its
// diagnostics published, those the server publishes in the background
// included (seg's own request, lsp.MethodPublished).
func (c *client) sync() {
	c.t.Helper()
	c.callRaw(lsp.MethodPublished, "{}", nil)
}

// diagnostics returns the diagnostics last published for a file, once
// every change sent so far is analysed and published.
func (c *client) diagnostics(file string) []diagnostic {
	c.t.Helper()
	c.sync()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[file]
}

func (c *client) open(file, text string) {
	c.t.Helper()
	b, _ := json.Marshal(text)
	c.notify("textDocument/didOpen", fmt.Sprintf(`{"textDocument":{"uri":%q,"languageId":"rst","version":1,"text":%s}}`, c.uri(file), b))
}

// edit replaces a range of an open document.
func (c *client) edit(file string, version int, r rng, newText string) {
	c.t.Helper()
	b, _ := json.Marshal(newText)
	rb, _ := json.Marshal(r)
	c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"range":%s,"text":%s}]}`, c.uri(file), version, rb, b))
}

func (c *client) at(file string, line, char int) string {
	return fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}`, c.uri(file), line, char)
}

// shutdown ends the session as an editor does and returns the exit code.
func (c *client) shutdown() int {
	c.t.Helper()
	c.callRaw("shutdown", "", nil)
	c.notify("exit", "")
	select {
	case code := <-c.code:
		return code
	case <-time.After(time.Minute):
		c.t.Fatal("the server did not exit")
	}
	return -1
}

func r(l1, c1, l2, c2 int) rng { return rng{pos{l1, c1}, pos{l2, c2}} }

// newClient runs a server on root without initializing it.
func newClient(t *testing.T, root string, cfg lsp.Config) *client {
	t.Helper()
	a, b := net.Pipe()
	c := &client{t: t, root: root, code: make(chan int, 1), diags: map[string][]diagnostic{}, seen: make(chan string, 10000), msgErr: map[string]bool{}}
	if cfg.Log == nil {
		cfg.Log = testLog{t}
	}
	cfg.MemoryLimit = -1
	go func() { c.code <- lsp.Serve(context.Background(), a, cfg) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() {
		c.conn.Close()
		b.Close()
	})
	return c
}
