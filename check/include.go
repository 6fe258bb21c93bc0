package check

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// The diagnostics of ".. include::" (docs/check.md, "Includes").
var (
	CodeIncludeNotFound = diag.NewError("include-not-found", "an .. include:: names a file that does not exist or cannot be read")
	CodeIncludeCycle    = diag.NewWarning("include-cycle", "an .. include:: that includes a file it is itself included from")
	CodeIncludeOption   = diag.NewError("include-option", "an .. include:: whose :start-line:, :end-line:, :start-after: or :end-before: docutils refuses")
)

// maxIncludeDepth bounds how deep includes nest (a chain that deep is a
// loop seg did not see, or a tree no one can read).
const maxIncludeDepth = 64

// incFile is a file that an include pulls in and that is not a document
// of the listing: its text, and the byte ranges of it the includes take.
type incFile struct {
	name string // slash path relative to the root
	sf   *source.File
	text []byte // UTF-8, BOM dropped
	keep [][2]int
}

// incDiag is a diagnostic of an include, in the file the directive is in.
type incDiag struct {
	file       string
	start, end int
	code       *diag.Code
	msg        string
}

// includer follows the includes of a tree's documents.
type includer struct {
	root  string
	l     *Listing
	cfg   *parser.Config
	enc   string
	fset  *source.FileSet
	docs  map[string]bool
	files map[string]*incFile
	order []string
	diags []incDiag
	seen  map[string]bool // target and range already scanned
}

// incDoc is a document whose text mentions an include, and how to read
// it (UTF-8, decoded).
type incDoc struct {
	path string
	read func() ([]byte, error)
}

// followIncludes follows the includes of the documents flagged (those
// whose text mentions one) as docutils does, and returns the parse of
// every file they pull in that is not a document itself (docs: a .inc
// file, one outside the source folder or excluded), parsed as the part
// of it the includes take, with positions in that file. A missing file,
// a loop and an option docutils refuses are diagnostics of the file that
// holds the directive: its entry of parsed is replaced by a copy that
// has them (a parse is never changed in place: the language server keeps
// its parses from run to run).
func followIncludes(root string, l *Listing, docs map[string]bool, flagged []incDoc, parsed []*parser.File, p Parser, fset *source.FileSet) []*parser.File {
	l.included = nil
	if len(flagged) == 0 {
		return nil
	}
	in := &includer{root: root, l: l, cfg: l.cfg, fset: fset, docs: docs,
		files: map[string]*incFile{}, seen: map[string]bool{}}
	if l.Project != nil {
		in.enc = l.Project.Encoding
	}
	for _, d := range flagged {
		b, err := d.read()
		if err != nil {
			continue // the parse reports it
		}
		in.scan(d.path, d.path, bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), []string{d.path})
	}
	l.included = map[string]bool{}
	var out []*parser.File
	for _, name := range in.order {
		inc := in.files[name]
		l.included[name] = true
		src := blankOutside(inc.text, inc.keep)
		out = append(out, p.Parse(inc.sf, nil, func() ([]byte, error) { return src, nil }))
	}
	if len(in.diags) == 0 {
		return out
	}
	at := map[string]*parser.File{}
	replace := func(f *parser.File) *parser.File {
		c := *f
		c.Diagnostics = slices.Clone(f.Diagnostics)
		for _, d := range in.diags {
			if d.file == f.Path && f.Source != nil {
				c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{Code: d.code, Message: d.msg,
					Span: f.Source.Span(d.start, d.end), Detail: includeDetail(d.code)})
			}
		}
		return &c
	}
	for _, d := range in.diags {
		at[d.file] = nil
	}
	for i, f := range parsed {
		if _, ok := at[f.Path]; ok {
			parsed[i] = replace(f)
		}
	}
	for i, f := range out {
		if _, ok := at[f.Path]; ok {
			out[i] = replace(f)
		}
	}
	return out
}

func includeDetail(c *diag.Code) string {
	switch c {
	case CodeIncludeNotFound:
		return "docutils and Sphinx stop at an include they cannot read, so no node of that file is read; fix the path (relative to the document, or to the source folder when it starts with /)."
	case CodeIncludeCycle:
		return "docutils and Sphinx warn of an include that loops back to a file that includes it, and stop there: each file of the loop is read once."
	}
	return "docutils and Sphinx refuse this include, so nothing of the file is read; fix the option."
}

// scan follows the includes of text, the part of the file name that is
// read; doc is the document being built and chain the files being
// included, from doc down to name.
func (in *includer) scan(doc, name string, text []byte, chain []string) {
	for _, inc := range parser.Includes(text, in.cfg) {
		in.follow(doc, name, inc, chain)
	}
}

func (in *includer) fail(file string, inc parser.Include, code *diag.Code, format string, args ...any) {
	in.diags = append(in.diags, incDiag{file: file, start: inc.Start, end: inc.End, code: code, msg: fmt.Sprintf(format, args...)})
}

// follow follows one include of the file name.
func (in *includer) follow(doc, name string, inc parser.Include, chain []string) {
	arg := inc.Path
	if strings.HasPrefix(arg, "<") && strings.HasSuffix(arg, ">") {
		return // docutils' own standard includes (substitutions): no nodes
	}
	target, full := in.resolve(doc, name, arg)
	if slices.Contains(chain, target) {
		in.fail(name, inc, CodeIncludeCycle, "include of %s loops: %s", arg, strings.Join(append(slices.Clone(chain), target), " → "))
		return
	}
	if len(chain) >= maxIncludeDepth {
		in.fail(name, inc, CodeIncludeNotFound, "cannot include %s: includes nest deeper than %d files", arg, maxIncludeDepth)
		return
	}
	rst := !inc.Literal && (inc.Parser == "" || inc.Parser == "rst" || inc.Parser == "restructuredtext")
	if in.docs[target] && rst && inc.StartLine == "" && inc.EndLine == "" && !inc.HasStartAfter && !inc.HasEnding {
		return // a document: read whole already
	}
	f := in.files[target]
	if f == nil {
		data, _, err := readFile(full, nil)
		if err != nil {
			msg := err.Error()
			var pe *fs.PathError
			if errors.As(err, &pe) {
				msg = pe.Err.Error()
			}
			in.fail(name, inc, CodeIncludeNotFound, "cannot include %s: %s", arg, msg)
			return
		}
		if !rst {
			return // a literal include: read, not parsed
		}
		enc := in.enc
		if inc.Encoding != "" {
			e, ok := normaliseEncoding(inc.Encoding)
			if !ok {
				in.fail(name, inc, CodeIncludeOption, "include of %s: :encoding: %q is not one seg decodes", arg, inc.Encoding)
				return
			}
			enc = e
		}
		text := bytes.TrimPrefix(decodeSource(data, enc), []byte("\xef\xbb\xbf"))
		f = &incFile{name: target, text: text}
		f.sf = in.fset.Add(target, 0, source.Docutils)
		f.sf.SetReader(func() ([]byte, error) { return text, nil })
		if !in.docs[target] {
			in.files[target] = f
			in.order = append(in.order, target)
		}
	} else if !rst {
		return
	}
	lo, hi, bad := includedRange(f.text, inc)
	if bad != "" {
		in.fail(name, inc, CodeIncludeOption, "include of %s: %s", arg, bad)
		return
	}
	if in.docs[target] {
		return // part of a document: its nodes are read with it
	}
	f.keep = append(f.keep, [2]int{lo, hi})
	key := fmt.Sprintf("%s\x00%d\x00%d", target, lo, hi)
	if in.seen[key] {
		return
	}
	in.seen[key] = true
	in.scan(doc, target, blankOutside(f.text, [][2]int{{lo, hi}}), append(slices.Clone(chain), target))
}

// resolve is the file an include argument names, as a slash path
// relative to the root and as a path on disk. In a Sphinx project a
// relative path is relative to the folder of the document being built
// and one starting with "/" to the source folder (Sphinx's Include); in
// a tree without one, relative to the file the directive is in
// (docutils').
func (in *includer) resolve(doc, name, arg string) (string, string) {
	arg = filepath.ToSlash(arg)
	// A Sphinx build's _sources copy is a Sphinx source folder too.
	sphinx, dir := in.l.Project != nil || in.l.sourcelink != "", ""
	if in.l.Project != nil {
		dir = in.l.Project.Dir
	}
	var rel string
	switch {
	case sphinx && strings.HasPrefix(arg, "/"):
		rel = path.Join(dir, arg[1:])
	case sphinx:
		rel = path.Join(path.Dir(doc), arg)
	case path.IsAbs(arg):
		if r, err := filepath.Rel(in.root, filepath.FromSlash(arg)); err == nil {
			rel = filepath.ToSlash(r)
		} else {
			rel = arg
		}
	default:
		rel = path.Join(path.Dir(name), arg)
	}
	rel = path.Clean(rel)
	full := filepath.Join(in.root, filepath.FromSlash(rel))
	if path.IsAbs(rel) {
		full = filepath.FromSlash(rel)
	}
	if sl := in.l.sourcelink; sl != "" {
		// A Sphinx build's _sources copy names every file it holds with
		// the sourcelink suffix: an included document is there by it.
		if _, err := os.Stat(full + sl); err == nil {
			return rel + sl, full + sl
		}
	}
	return rel, full
}

// includedRange is the byte range of text an include takes, as docutils
// cuts it: the lines :start-line: and :end-line: slice (Python slice
// indices: from 0, negative from the end), then after the first
// :start-after: text and before the first :end-before: text that
// follows. bad says why docutils refuses the options.
func includedRange(text []byte, inc parser.Include) (lo, hi int, bad string) {
	lo, hi = 0, len(text)
	if inc.StartLine != "" || inc.EndLine != "" {
		starts, ends := pyLines(text)
		n := len(starts)
		s, e := 0, n
		var err error
		if inc.StartLine != "" {
			if s, err = pyInt(inc.StartLine); err != nil {
				return 0, 0, fmt.Sprintf(":start-line: %q is not a whole number", inc.StartLine)
			}
		}
		if inc.EndLine != "" {
			if e, err = pyInt(inc.EndLine); err != nil {
				return 0, 0, fmt.Sprintf(":end-line: %q is not a whole number", inc.EndLine)
			}
		}
		s, e = pySlice(s, n), pySlice(e, n)
		switch {
		case s >= e:
			lo, hi = len(text), len(text)
			if s < n {
				lo, hi = starts[s], starts[s]
			}
		default:
			lo, hi = starts[s], ends[e-1]
		}
	}
	if inc.HasStartAfter {
		k := bytes.Index(text[lo:hi], []byte(inc.StartAfter))
		if inc.StartAfter == "" || k < 0 {
			return 0, 0, fmt.Sprintf(":start-after: text %q not found", inc.StartAfter)
		}
		lo += k + len(inc.StartAfter)
	}
	if inc.HasEnding {
		k := bytes.Index(text[lo:hi], []byte(inc.EndBefore))
		if inc.EndBefore == "" || k < 0 {
			return 0, 0, fmt.Sprintf(":end-before: text %q not found", inc.EndBefore)
		}
		hi = lo + k
	}
	return lo, hi, ""
}

// pyLines are the starts and ends (line break excluded) of the lines of
// text as Python's str.splitlines cuts them.
func pyLines(text []byte) (starts, ends []int) {
	i := 0
	for i < len(text) {
		j := i
		w := 0
		for j < len(text) {
			if w = source.LineBreak(text, j, source.Docutils); w > 0 {
				break
			}
			j++
		}
		starts, ends = append(starts, i), append(ends, j)
		i = j + w
		if w == 0 {
			break
		}
	}
	return starts, ends
}

// pyInt reads a whole number as Python's int() does (spaces around it,
// a sign, underscores between digits).
func pyInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "__") || strings.HasSuffix(s, "_") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "_") {
		return 0, strconv.ErrSyntax
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	return n, err
}

// pySlice is a Python slice index i of a sequence of n, clamped.
func pySlice(i, n int) int {
	if i < 0 {
		i += n
	}
	return max(0, min(i, n))
}

// blankOutside is text with every byte outside the ranges keep made a
// space, line breaks kept: offsets and lines stay those of the file.
func blankOutside(text []byte, keep [][2]int) []byte {
	if len(keep) == 1 && keep[0][0] == 0 && keep[0][1] == len(text) {
		return text
	}
	out := bytes.Clone(text)
	in := make([]bool, len(text))
	for _, r := range keep {
		for i := r[0]; i < r[1]; i++ {
			in[i] = true
		}
	}
	for i := range out {
		if !in[i] && out[i] != '\n' && out[i] != '\r' && out[i] != '\f' && out[i] != '\v' {
			out[i] = ' '
		}
	}
	return out
}
