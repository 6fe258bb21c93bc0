package lsp

import (
	"io"
	"net"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// Once a file's diagnostics are made, the snapshot forgets the views (the
// texts read to place them) of every file that is not open in the
// editor, that file's and those of the files they relate to: a server
// publishing every file of a large tree kept them all.
func TestPublishedViewsAreReleased(t *testing.T) {
	t.Parallel()
	e := newEngine("../examples/brake", Options{})
	snap0, err := e.load(nil)
	if err != nil {
		t.Fatal(err)
	}
	files := snap0.files()
	if len(files) < 3 {
		t.Fatalf("%d files, want a tree of several", len(files))
	}
	open := files[0]
	text := append([]byte(nil), snap0.text(open)...)
	snap, err := e.load(func() map[string][]byte { return map[string][]byte{open: text} })
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(Config{})
	s.docs[open] = &document{text: newText(text)}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go io.Copy(io.Discard, b)
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(a))
	ss := snap.(*segSnapshot)
	for _, f := range files {
		ss.view(f) // as a request about it would
		s.publishFile(snap, f, s.set, utf16, s.pubSeq, -1)
	}
	if _, ok := ss.views[open]; !ok {
		t.Errorf("the open document %s lost its view", open)
	}
	for _, f := range files[1:] {
		if _, ok := ss.views[f]; ok {
			t.Errorf("%s is not open and its diagnostics are out, but its view is kept", f)
		}
	}
	// A request after that works it out again, the same.
	for _, f := range files[1:] {
		if got, want := string(ss.text(f)), string(snap0.text(f)); got != want {
			t.Errorf("%s read again: %d bytes, want %d", f, len(got), len(want))
		}
	}
}
