package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// guardedStream sits between the byte stream and the JSON-RPC
// connection. The connection gives up on a frame whose body is not JSON
// (and so on the whole session); the guard answers such a frame with
// JSON-RPC's parse error itself and passes only well-formed frames on,
// so that one bad message costs one error response, never the session.
// It also serializes writes: the connection writes each frame in one
// call, and the guard's own error responses must not interleave with it.
type guardedStream struct {
	in      *bufio.Reader
	out     io.Writer
	closer  io.Closer
	mu      sync.Mutex
	pending []byte
	logf    func(format string, args ...any)
}

// maxFrame bounds a message body; a larger one is refused unread.
const maxFrame = 256 << 20

func newGuardedStream(rwc io.ReadWriteCloser, logf func(string, ...any)) *guardedStream {
	return &guardedStream{in: bufio.NewReaderSize(rwc, 1<<16), out: rwc, closer: rwc, logf: logf}
}

func (g *guardedStream) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		frame, err := g.frame()
		if err != nil {
			return 0, err
		}
		g.pending = frame
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// frame reads the next well-formed frame, answering the others.
func (g *guardedStream) frame() ([]byte, error) {
	for {
		length, ok, err := g.header()
		if err != nil {
			return nil, err
		}
		if !ok {
			g.refuse("message header without a valid Content-Length")
			continue
		}
		if length > maxFrame {
			if _, err := io.CopyN(io.Discard, g.in, int64(length)); err != nil {
				return nil, err
			}
			g.refuse(fmt.Sprintf("message of %d bytes is over the limit of %d", length, maxFrame))
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(g.in, body); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if !json.Valid(body) {
			g.refuse("message body is not JSON")
			continue
		}
		return append([]byte("Content-Length: "+strconv.Itoa(length)+"\r\n\r\n"), body...), nil
	}
}

// header reads one header block; ok is false when it names no length.
func (g *guardedStream) header() (length int, ok bool, err error) {
	length = -1
	lines := 0
	for {
		line, err := g.in.ReadString('\n')
		if err != nil {
			if err == io.EOF && lines > 0 || err == io.EOF && line != "" {
				err = io.ErrUnexpectedEOF
			}
			return 0, false, err
		}
		lines++
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if lines == 1 {
				continue // a stray blank line between frames
			}
			return length, length >= 0, nil
		}
		name, value, found := strings.Cut(line, ":")
		if found && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err == nil && n >= 0 {
				length = n
			}
		}
	}
}

// refuse answers a message that could not be read with a parse error,
// whose id is null as JSON-RPC asks when the id cannot be known.
func (g *guardedStream) refuse(why string) {
	g.logf("refused a message: %s", why)
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32700, "message": "parse error: " + why},
	})
	g.Write(append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...))
}

func (g *guardedStream) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.out.Write(p)
}

func (g *guardedStream) Close() error { return g.closer.Close() }
