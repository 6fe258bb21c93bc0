package lsp_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seg-trace/seg/lsp"
	"go.lsp.dev/uri"
)

// rawClient writes frames by hand, to send what no well-behaved client
// library would. It reads on its own goroutine, as an editor does, so
// the server is never blocked on a write.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	wmu  sync.Mutex
	msgs chan rawMsg
	code chan int
}

func newRaw(t *testing.T, root string) *rawClient {
	a, b := net.Pipe()
	rc := &rawClient{t: t, conn: b, msgs: make(chan rawMsg, 1000), code: make(chan int, 1)}
	cfg := at
	cfg.Log = testLog{t}
	cfg.Root = root
	cfg.MemoryLimit = -1
	go func() { rc.code <- lsp.Serve(context.Background(), a, cfg) }()
	go rc.read(bufio.NewReader(b))
	t.Cleanup(func() { b.Close() })
	return rc
}

func (rc *rawClient) send(body string) {
	rc.t.Helper()
	rc.wmu.Lock()
	defer rc.wmu.Unlock()
	rc.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(rc.conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		rc.t.Errorf("write: %v", err)
	}
}

type rawMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (rc *rawClient) read(in *bufio.Reader) {
	defer close(rc.msgs)
	for {
		n := 0
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(in, buf); err != nil {
			return
		}
		var m rawMsg
		if err := json.Unmarshal(buf, &m); err != nil {
			rc.t.Errorf("the server sent %q: %v", buf, err)
			return
		}
		if m.Method != "" && m.ID != nil { // a request from the server
			rc.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
			continue
		}
		rc.msgs <- m
	}
}

// reply waits for the answer to request id, returning the notifications
// that came before it.
func (rc *rawClient) reply(id string) (rawMsg, []rawMsg) {
	rc.t.Helper()
	var notes []rawMsg
	timeout := time.After(time.Minute)
	for {
		select {
		case m, ok := <-rc.msgs:
			if !ok {
				rc.t.Fatalf("the server closed the stream before answering %s", id)
			}
			if m.Method != "" {
				notes = append(notes, m)
				continue
			}
			if string(m.ID) == id {
				return m, notes
			}
		case <-timeout:
			rc.t.Fatalf("no answer to %s", id)
		}
	}
}

func (rc *rawClient) errCode(id string) int {
	rc.t.Helper()
	m, _ := rc.reply(id)
	if m.Error == nil {
		rc.t.Errorf("request %s: result %s, want an error", id, m.Result)
		return 0
	}
	return m.Error.Code
}

func (rc *rawClient) exit() int {
	select {
	case code := <-rc.code:
		return code
	case <-time.After(time.Minute):
		rc.t.Fatal("the server did not exit")
	}
	return -1
}

func TestMalformedMessages(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	rc := newRaw(t, root)
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}`)
	if code := rc.errCode("1"); code != -32002 {
		t.Errorf("a request before initialize: code %d, want -32002", code)
	}
	rc.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	rc.reply("2")
	rc.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	rc.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}`)
	if code := rc.errCode("3"); code != -32600 {
		t.Errorf("a second initialize: code %d, want -32600", code)
	}
	// Not JSON at all: a parse error, and the server goes on.
	rc.send(`{"jsonrpc":"2.0","id":4,"method":`)
	if code := rc.errCode("null"); code != -32700 {
		t.Errorf("broken JSON: code %d, want -32700", code)
	}
	rc.send(`{"jsonrpc":"2.0","id":5,"method":"no/such/method","params":{}}`)
	if code := rc.errCode("5"); code != -32601 {
		t.Errorf("an unknown method: code %d, want -32601", code)
	}
	rc.send(`{"jsonrpc":"2.0","method":"$/no/such/notification","params":{}}`)
	rc.send(`{"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":"not an object"}`)
	if code := rc.errCode("6"); code != -32602 && code != -32700 {
		t.Errorf("bad params: code %d, want -32602", code)
	}
	// Notifications with bad params, or about documents never opened.
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[1,2,3]}`)
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere/x.rst","version":2},"contentChanges":[{"text":"x"}]}}`)
	rc.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":"x"}]}}`, uri.File(filepath.Join(root, "docs/never.rst"))))
	rc.send(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"not a uri"}}}`)
	// A question about a document the server never saw.
	rc.send(`{"jsonrpc":"2.0","id":7,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///nowhere/x.rst"},"position":{"line":0,"character":0}}}`)
	if m, _ := rc.reply("7"); m.Error != nil || string(m.Result) != "null" {
		t.Errorf("definition in an unknown document: %s %+v", m.Result, m.Error)
	}
	// Every request about a document, on one the server never saw (outside
	// the root, and inside it but not in the tree): an empty answer, or
	// for rename a refusal (RequestFailed) that says why.
	for i, m := range []string{"textDocument/definition", "textDocument/references", "textDocument/hover",
		"textDocument/completion", "textDocument/prepareRename", "textDocument/rename",
		"textDocument/documentSymbol", "textDocument/codeAction"} {
		for j, u := range []string{"file:///nowhere/x.rst", string(uri.File(filepath.Join(root, "docs/never.rst")))} {
			id := fmt.Sprint(100 + 2*i + j)
			rc.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"textDocument":{"uri":%q},"position":{"line":0,"character":0},`+
				`"context":{"includeDeclaration":true,"diagnostics":[]},"newName":"X-1","range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}}}}`, id, m, u))
			r, _ := rc.reply(id)
			empty := string(r.Result) == "null" || string(r.Result) == "[]" || string(r.Result) == `{"isIncomplete":false,"items":[]}`
			refused := r.Error != nil && r.Error.Code == -32803 && r.Error.Message != "" && strings.Contains(m, "ename")
			if (r.Error != nil || !empty) && !refused {
				t.Errorf("%s on %s: %s %+v", m, u, r.Result, r.Error)
			}
		}
	}
	rc.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":%q},"position":{"line":99999,"character":99999}}}`, uri.File(filepath.Join(root, "docs/req.rst"))))
	if m, _ := rc.reply("8"); m.Error != nil {
		t.Errorf("hover past the end of a document: %+v", m.Error)
	}
	// The server still works.
	rc.send(`{"jsonrpc":"2.0","id":9,"method":"workspace/symbol","params":{"query":"SYS"}}`)
	if m, _ := rc.reply("9"); !strings.Contains(string(m.Result), `"SYS-1"`) {
		t.Errorf("after the bad messages: %s", m.Result)
	}
	rc.send(`{"jsonrpc":"2.0","id":10,"method":"shutdown"}`)
	rc.reply("10")
	rc.send(`{"jsonrpc":"2.0","id":11,"method":"workspace/symbol","params":{"query":"SYS"}}`)
	if code := rc.errCode("11"); code != -32600 {
		t.Errorf("a request after shutdown: code %d, want -32600", code)
	}
	rc.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if code := rc.exit(); code != 0 {
		t.Errorf("exit after shutdown: %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	rc := newRaw(t, writeTree(t, fixture))
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	rc.reply("1")
	rc.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if code := rc.exit(); code != 1 {
		t.Errorf("exit without shutdown: %d, want 1", code)
	}
	// The client closing the stream is an exit without shutdown too.
	rc = newRaw(t, writeTree(t, fixture))
	rc.conn.Close()
	if code := rc.exit(); code != 1 {
		t.Errorf("end of stream: %d, want 1", code)
	}
}

func TestNotUTF8(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"docs/bad.rst":  "Title é\n=======\n\nLatin-1 here: caf\xe9\n",
		"docs/good.rst": ".. sreq:: Fine\n   :id: REQ-1\n",
		"docs/bmp.rst":  ".. sreq:: 𝄞\xff\n   :id: REQ-2\n",
	})
	c := start(t, root, at, "")
	got := brief(c, c.diagnostics("docs/bad.rst"))
	// The bad byte is at byte 17 of line 3; "é" before it is earlier on
	// another line, so UTF-16 and bytes agree here.
	if diff := fmt.Sprint(got); diff != "[3:17-3:18 invalid-encoding 1]" {
		t.Errorf("invalid-encoding: %v", got)
	}
	if len(c.diagnostics("docs/good.rst")) != 1 {
		t.Error("the rest of the tree is not read")
	}
	// A bad byte after a character outside the BMP counts as one
	// character, after the two UTF-16 units of the other.
	if got := brief(c, c.diagnostics("docs/bmp.rst")); fmt.Sprint(got) != "[0:12-0:13 invalid-encoding 1]" {
		t.Errorf("invalid-encoding after a surrogate pair: %v", got)
	}
}

func TestUnreadableRoot(t *testing.T) {
	t.Parallel()
	c := newClient(t, filepath.Join(t.TempDir(), "missing"), at)
	c.callRaw("initialize", fmt.Sprintf(`{"processId":null,"rootUri":%q,"capabilities":{}}`, c.uri("")), nil)
	c.notify("initialized", `{}`)
	var syms []json.RawMessage
	c.callRaw("workspace/symbol", `{"query":""}`, &syms)
	if len(syms) != 0 {
		t.Errorf("symbols of a missing root: %s", syms)
	}
	c.mu.Lock()
	msgs := strings.Join(c.msgs, "\n")
	c.mu.Unlock()
	if !strings.Contains(msgs, "cannot read root") {
		t.Errorf("no message about the root: %q", msgs)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestBadConfig(t *testing.T) {
	t.Parallel()
	files := map[string]string{"seg.toml": "id_pattern = \"^[A-Z\"\n"}
	for k, v := range fixture {
		files[k] = v
	}
	root := writeTree(t, files)
	c := start(t, root, at, `{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}`)
	got := brief(c, c.diagnostics("seg.toml"))
	if fmt.Sprint(got) != "[0:0-0:20 bad-config 1]" {
		t.Errorf("bad config: %v", got)
	}
	os.WriteFile(filepath.Join(root, "seg.toml"), []byte("id_pattern = \"^[A-Z]\"\n"), 0o644)
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":2}]}`, c.uri("seg.toml")))
	if got := c.diagnostics("seg.toml"); len(got) != 0 {
		t.Errorf("after fixing the config: %v", got)
	}
	if got := c.diagnostics("docs/tests.rst"); len(got) != 6 {
		t.Errorf("the tree after fixing the config: %v", brief(c, got))
	}
}

// treeSum hashes every file under root with its mode and time.
func treeSum(t *testing.T, root string) string {
	h := sha256.New()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		fmt.Fprintf(h, "%s %v %v %d\n", p, info.Mode(), info.ModTime().UnixNano(), info.Size())
		if !d.IsDir() {
			data, _ := os.ReadFile(p)
			h.Write(data)
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// A whole session, edits, code actions and rename included, writes
// nothing into the tree.
func TestNothingWritten(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	before := treeSum(t, root)
	c := start(t, root, at, "")
	c.open("docs/tests.rst", fixture["docs/tests.rst"])
	c.edit("docs/tests.rst", 2, r(2, 30, 2, 35), "REQ-2")
	c.diagnostics("docs/tests.rst")
	c.callRaw("textDocument/codeAction", fmt.Sprintf(`{"textDocument":{"uri":%q},"range":%s,"context":{"diagnostics":[]}}`,
		c.uri("docs/tests.rst"), `{"start":{"line":0,"character":0},"end":{"line":20,"character":0}}`), nil)
	c.callRaw("textDocument/rename", strings.TrimSuffix(c.at("docs/tests.rst", 6, 18), "}")+`,"newName":"BRK-REQ-1"}`, nil)
	c.callRaw("textDocument/hover", c.at("docs/tests.rst", 6, 18), nil)
	c.notify("textDocument/didClose", fmt.Sprintf(`{"textDocument":{"uri":%q}}`, c.uri("docs/tests.rst")))
	c.shutdown()
	if after := treeSum(t, root); after != before {
		t.Error("the session changed the tree")
	}
}

// The root goes away during a session: the analysis after the change
// cannot run, and the editor is told so in an error message rather than
// left with the last findings as if they still held.
func TestRootGoneDuringSession(t *testing.T) {
	t.Parallel()
	root := writeTree(t, fixture)
	c := start(t, root, at, "")
	c.sync()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":3}]}`, c.uri("docs/tests.rst")))
	c.sync()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.msgErr) == 0 {
		t.Errorf("no error message once the root is gone: %q", c.msgs)
	}
}
