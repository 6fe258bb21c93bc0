package parser

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/seg-trace/seg/source"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the parser's output")

// TestGolden parses each testdata/golden/*.rst and compares the whole
// result (nodes with every position, option, link and body, and the
// diagnostics) with the .json file beside it. Run with -update to rewrite
// them, then read the diff.
func TestGolden(t *testing.T) {
	eachTestFile(t, "testdata/golden/*.rst", func(t *testing.T, fn string, src []byte, f *File) {
		got, err := json.MarshalIndent(golden(f), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		golden := strings.TrimSuffix(fn, ".rst") + ".json"
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -run TestGolden -update)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s differs (-want +got):\n%s", golden, diff)
		}
	})
}

// eachTestFile parses every file the glob names, with the default config,
// in a subtest of its own.
func eachTestFile(t *testing.T, glob string, check func(t *testing.T, fn string, src []byte, f *File)) {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no files match %s", glob)
	}
	for _, fn := range files {
		t.Run(filepath.Base(fn), func(t *testing.T) {
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			check(t, fn, src, parseBytes(filepath.Base(fn), src, DefaultConfig()))
		})
	}
}

// The golden files keep the shape the parser's structures had when
// positions carried their file, line and column: goldenFile is that shape,
// with every position resolved.
type goldenPos struct {
	File      string
	Line, Col int
}

type goldenSpan struct{ Start, End goldenPos }

type goldenLink struct {
	ID        string
	State     State
	StateText string
	Span      goldenSpan
	Part      string `json:",omitempty"`
	Condition string `json:",omitempty"`
}

type goldenOption struct {
	Name, Value   string
	Pos, ValuePos goldenPos
	Links         []goldenLink
}

type goldenNode struct {
	Kind                 Kind
	Directive, ID, Title string
	Pos                  goldenPos
	Options              []goldenOption
	Body                 string
	Parent               int
}

type goldenRelated struct {
	Span    goldenSpan
	Message string
}

type goldenDiag struct {
	Severity              int
	Code, Message, Detail string
	Span                  goldenSpan
	Related               []goldenRelated
}

type goldenFile struct {
	Path        string
	Nodes       []goldenNode
	Diagnostics []goldenDiag
}

func golden(f *File) goldenFile {
	pos := func(p source.Pos) goldenPos {
		if !p.IsValid() {
			return goldenPos{}
		}
		q := f.Position(p)
		return goldenPos{q.Filename, q.Line, q.Column}
	}
	span := func(s source.Span) goldenSpan { return goldenSpan{pos(s.Start), pos(s.End)} }
	g := goldenFile{Path: f.Path}
	for _, n := range f.Nodes {
		gn := goldenNode{Kind: n.Kind, Directive: n.Directive, ID: n.ID, Title: n.Title, Pos: pos(n.Pos), Body: n.Body, Parent: n.Parent}
		for _, o := range n.Options {
			gopt := goldenOption{Name: o.Name, Value: o.Value, Pos: pos(o.Pos), ValuePos: pos(o.ValuePos)}
			for _, l := range o.Links {
				gopt.Links = append(gopt.Links, goldenLink{l.ID, l.State, l.StateText, span(l.Span), l.Part, l.Condition})
			}
			gn.Options = append(gn.Options, gopt)
		}
		g.Nodes = append(g.Nodes, gn)
	}
	for _, d := range f.Diagnostics {
		gd := goldenDiag{Severity: int(d.Code.Severity), Code: d.Code.Name, Message: d.Message, Detail: d.Detail, Span: span(d.Span)}
		for _, r := range d.Related {
			gd.Related = append(gd.Related, goldenRelated{span(r.Span), r.Message})
		}
		g.Diagnostics = append(g.Diagnostics, gd)
	}
	return g
}
