package segtest

import (
	"maps"
	"slices"
	"strings"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Parsed is a tree written as text (path -> content, as RSTFiles makes
// it) parsed as the language server parses it: into one file set, each
// file read again only when it is edited, so that the parse of a file
// not edited is the same value from one build to the next.
type Parsed struct {
	Text  map[string]string
	cfg   *parser.Config
	base  *source.FileSet
	sfs   map[string]*source.File
	files map[string]*parser.File
}

// Parse parses every .rst file of text.
func Parse(text map[string]string) *Parsed { return ParseWith(text, nil) }

// ParseWith parses every .rst file of text with cfg (nil: the default
// configuration), and reads edited files with it too.
func ParseWith(text map[string]string, cfg *parser.Config) *Parsed {
	p := &Parsed{Text: text, cfg: cfg, base: source.NewFileSet(), sfs: map[string]*source.File{}, files: map[string]*parser.File{}}
	for path := range text {
		p.Changed(path)
	}
	return p
}

// Changed reads the file at path again: its text now, or nothing when
// it is gone from Text.
func (p *Parsed) Changed(path string) {
	src, ok := p.Text[path]
	if !ok {
		delete(p.files, path)
		return
	}
	if !strings.HasSuffix(path, ".rst") {
		return
	}
	sf := p.sfs[path]
	if sf == nil {
		sf = p.base.Add(path, 0, source.Docutils)
	} else {
		sf = p.base.Replace(sf, 0)
	}
	p.sfs[path] = sf
	sf.SetSource([]byte(src), false)
	p.files[path] = parser.ParseFile(sf, []byte(src), p.cfg)
}

// Files are the parsed files by path, and a file set for one build.
func (p *Parsed) Files() (*source.FileSet, []*parser.File) {
	var out []*parser.File
	for _, path := range slices.Sorted(maps.Keys(p.files)) {
		out = append(out, p.files[path])
	}
	return p.base.Fork(), out
}
