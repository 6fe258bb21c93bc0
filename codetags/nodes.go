package codetags

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// The codes of the scan (docs/codes.md).
var (
	CodeInvalidTag = diag.NewWarning("invalid-code-tag", "a code tag that names no ID, or a one-line need that cannot be read")
	CodeUnreadable = diag.NewWarning("unreadable-code-file", "a file the [code] paths name that cannot be read (a link that loops or leads nowhere, no permission)")
	CodeNoFiles    = diag.NewWarning("no-code-files", "a [code] paths entry that matches no file")
	CodeNotImpl    = diag.NewWarning("code-tag-not-implementation", "a one-line need in code whose type is a requirement or test type, which seg does not read from code")
)

// Directive is the directive name of the nodes made from code tags:
// never a seg directive nor a need type, so their implements links are
// seg's.
const Directive = "code-tag"

// ID is the ID of the node made from a tag of the file at path: the path,
// "::", the IDs the tag names joined with "+", and "#k" for the k-th tag
// (k >= 2) of the file naming the same IDs. It depends on the file and the
// tag's IDs only, so it stays when lines move or other tags come and go;
// it holds no blank or comma, so a link, a witness and seg.lock can name
// it.
func ID(path string, ids []string, k int) string {
	id := path + "::" + strings.Join(ids, "+")
	if k >= 2 {
		id += "#" + strconv.Itoa(k)
	}
	return id
}

// Made is the nodes a scan makes and what is reported of it.
type Made struct {
	Nodes []parser.Node
	Diags diag.List
}

// Nodes makes an implementation node of every tag the scan found, each
// file added to fset (its lines read again for snippets). kindOf, when
// not nil, is the kind of a one-line need's type (a need type of the
// project); a one-line need of a requirement or test type makes no node.
// config is where a [code] paths entry that matches nothing is reported.
func Nodes(fset *source.FileSet, root string, res Result, kindOf func(typ string) parser.Kind, config source.Span) Made {
	var m Made
	isLink := parser.LinkOptions(parser.Implementation)
	for _, f := range res.Files {
		sf := fset.Add(f.Path, 0, source.Newlines)
		full := filepath.Join(root, filepath.FromSlash(f.Path))
		sf.SetReader(func() ([]byte, error) { return readSmall(full) })
		count := map[string]int{}
		for _, t := range f.Tags {
			at := sf.Mark(t.Line, t.Col)
			if t.Problem != "" {
				m.Diags = append(m.Diags, diag.Diagnostic{
					Code:    CodeInvalidTag,
					Message: fmt.Sprintf("code tag %q: %s", strings.TrimSpace(t.Marker), t.Problem),
					Detail:  "A code tag makes an implementation of the requirements it names; this one names none, so it makes nothing. docs/codetags.md lists the forms seg reads.",
					Span:    source.At(at),
				})
				continue
			}
			if t.NeedID != "" && kindOf != nil {
				if k := kindOf(t.Type); k == parser.Requirement || k == parser.Test {
					m.Diags = append(m.Diags, diag.Diagnostic{
						Code:    CodeNotImpl,
						Message: fmt.Sprintf("one-line need %q is of type %q, %s type: seg reads only implementations from code", t.NeedID, t.Type, diag.Article(k.String())),
						Detail:  "A one-line need in code becomes an implementation node; one whose type the project maps onto requirements or tests is left out of the graph, so links to it do not resolve.",
						Span:    source.At(at),
					})
					continue
				}
			}
			links := make([]parser.Link, len(t.Refs))
			ids := make([]string, len(t.Refs))
			for i, r := range t.Refs {
				start := sf.Mark(r.Line, r.Col)
				links[i] = parser.Link{ID: r.ID, Span: source.Span{Start: start, End: sf.Mark(r.Line, r.Col+len(r.ID))}}
				ids[i] = r.ID
			}
			id, title := t.NeedID, t.Title
			if id == "" {
				key := strings.Join(ids, "+")
				count[key]++
				id = ID(f.Path, ids, count[key])
				title = strings.TrimSpace(t.Marker) + " " + strings.Join(ids, ", ")
			}
			opt := func(name, value string, ls []parser.Link) parser.Option {
				return parser.Option{Name: name, Value: value, Pos: at, ValuePos: at, Links: ls}
			}
			opts := []parser.Option{opt("id", id, nil)}
			if len(links) > 0 {
				opts = append(opts, opt("implements", strings.Join(ids, ", "), links))
			}
			n := parser.Node{Kind: parser.Implementation, Directive: Directive, ID: id, Title: title,
				Pos: at, Options: opts, Parent: -1}
			text := revision.Of(parser.Canonical(&n, isLink))
			n.Revision = revision.OfImplementation(text, []revision.Source{{Entry: f.Path,
				Files: []revision.File{{Path: f.Path, Sum: f.Sum}}}})
			m.Nodes = append(m.Nodes, n)
		}
	}
	for _, u := range res.Listed.Unreadable {
		sf := fset.Add(u.Path, 0, source.Newlines)
		m.Diags = append(m.Diags, diag.Diagnostic{
			Code:    CodeUnreadable,
			Message: fmt.Sprintf("cannot read %q: %v", u.Path, unwrap(u.Err)),
			Detail:  "The code tags in it, if any, are not read: the implementations they would make are missing from the graph.",
			Span:    source.At(sf.Whole()),
		})
	}
	for _, p := range res.Listed.Unmatched {
		m.Diags = append(m.Diags, diag.Diagnostic{
			Code:    CodeNoFiles,
			Message: fmt.Sprintf("no file matches [code] paths entry %q", p),
			Detail:  "A [code] paths entry is a glob relative to the root (\"**\" for any number of folders). Hidden, ignored (.gitignore) and documentation files are not scanned.",
			Span:    config,
		})
	}
	return m
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// quoteLimit is the largest code file whose lines a report may quote.
const quoteLimit = 8 << 20

func readSmall(name string) ([]byte, error) {
	f, _, err := safefile.Open(name) // never blocks on a FIFO
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, quoteLimit+1))
	if err != nil {
		return nil, err
	}
	if len(data) > quoteLimit {
		return nil, fmt.Errorf("too large to quote")
	}
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), nil
}
