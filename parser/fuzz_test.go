package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/source"
)

// FuzzParseFile: no panic, no hang, every position inside the file, every
// diagnostic with a code, and never an internal error. Crashers found are
// kept in testdata/fuzz/FuzzParseFile as regression cases.
func FuzzParseFile(f *testing.F) {
	for _, dir := range []string{"testdata/golden", "testdata/diag"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.rst"))
		for _, fn := range files {
			if src, err := os.ReadFile(fn); err == nil {
				f.Add(src)
			}
		}
	}
	for _, s := range []string{
		"", "..", "::", ".. sreq::", ".. sreq:: x\n   :id: A\n   :verifies: B (suspect),\n     C\n\n   body\n",
		"+--+\n| .. sreq:: x |\n+--+\n", "=== ===\na   b\n=== ===\n", "- - - .. test:: x\n        :id: T\n",
		"\ufeff.. SREQ:: x\r\n\t:id: A\r\n", ".. |s| sreq:: x\n   :id: A\n", "1. a\n2. b\n#. c\n", "Title\n=====\n",
	} {
		f.Add([]byte(s))
	}
	cfg := DefaultConfig()
	f.Fuzz(func(t *testing.T, src []byte) {
		check(t, src, cfg)
		if v := []byte(strings.ToValidUTF8(string(src), "\uFFFD")); string(v) != string(src) {
			check(t, v, cfg)
		}
	})
}

func check(t *testing.T, src []byte, cfg *Config) {
	done := make(chan *File, 1)
	go func() { done <- parseBytes("f.rst", src, cfg) }()
	var file *File
	select {
	case file = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("ParseFile did not return in 20s on %q", src)
	}
	if file == nil {
		t.Fatal("nil File")
	}
	// Line lengths as the scanner cuts lines: a position may be at most one
	// past the end of its line.
	s := newScanner(source.NewFileSet().Add("f.rst", len(src), source.Docutils), src, cfg)
	inFile := func(what string, pos source.Pos) {
		p := file.Position(pos)
		if p.Filename != "f.rst" || p.Line < 1 || p.Line > s.nMain || p.Column < 1 {
			t.Fatalf("%s: position %+v outside the file (%d lines)", what, p, s.nMain)
		}
		ln := s.lines[p.Line-1]
		lineEnd := len(src)
		if p.Line < s.nMain {
			lineEnd = int(s.lines[p.Line].start)
		}
		if int(ln.start)+p.Column-1 > lineEnd {
			t.Fatalf("%s: position %+v past the end of its line", what, p)
		}
	}
	for i, n := range file.Nodes {
		inFile("node", n.Pos)
		if n.Parent >= i || n.Parent < -1 {
			t.Fatalf("node %d has parent %d", i, n.Parent)
		}
		for _, o := range n.Options {
			inFile("option", o.Pos)
			inFile("value", o.ValuePos)
			for _, l := range o.Links {
				inFile("link", l.Span.Start)
				inFile("link end", l.Span.End)
			}
		}
	}
	for _, d := range file.Diagnostics {
		if d.Code == nil || d.Message == "" || d.Severity() != diag.Error && d.Severity() != diag.Warning {
			t.Fatalf("incomplete diagnostic %+v", d)
		}
		if d.Code == CodeInternal {
			t.Fatalf("internal error: %+v", d)
		}
		inFile("diagnostic "+d.Code.Name, d.Span.Start)
		if d.Span.End.IsValid() {
			inFile("diagnostic end "+d.Code.Name, d.Span.End)
		}
	}
}
