package check

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/seg-trace/seg/evaluate"
	"github.com/seg-trace/seg/graph"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Live is a tree that is checked again after every change, for a client
// that keeps it open (the language server). It keeps every file's parse
// from one run to the next and reads again only the files it is told
// changed; the text of an editor's buffer stands in for the file on disk.
// Everything after the parse (results files, seg.lock, :source: files,
// the sphinx-needs post-processing, the graph and the evaluation) is done
// again on every run, by the code Run uses, so a run gives exactly what
// Run gives on the same text; the results stage, the :source: stage,
// seg.lock's reading, the graph build and the evaluation take shortcuts
// from the run before (liveMemo), each checked against the new input.
//
// A Live is used from one goroutine; the Checks it returns do not change
// and may be read from any number.
type Live struct {
	t    *Tree
	o    Options
	p    Parser
	base *source.FileSet // the tree's files: one per path read so far
	sfs  map[string]*source.File
	// files are the tree's files by path, with their parse; bad are the
	// folders the walk could not list.
	files  map[string]*parser.File
	bad    []*parser.File
	texts  map[string][]byte // open buffers
	dirty  map[string]bool
	listed bool // files holds what the walk lists now
	// listing is the last walk's (nil before the first).
	listing *Listing
	// incl holds the files whose text, as last parsed, mentions an
	// include directive.
	incl map[string]bool
	memo liveMemo
}

// liveMemo is what one run of a Live check hands the next.
type liveMemo struct {
	// graph is what the graph build keeps (most edits leave every ID
	// where it was); sources what the :source: stage does (most edits
	// leave every implementation and its source files as they were);
	// results what the results stage does (most edits leave the results
	// files, and what of the tree they are matched with, as they were).
	graph   graph.Memo
	sources sourceMemo
	results resultsMemo
	// lock is the seg.lock read last (most edits leave it as it was).
	lock lockMemo
	// external is the last run's outcomes, code tag implementations and
	// external needs, joined (extraNodes).
	external struct{ outcomes, code, needs, extra []parser.Node }
	// code is what the code tags stage of the last run gave (codeTags).
	code struct {
		key   string
		read  codeRead
		files []*source.File
		first int
	}
	// texts are the open buffers, which the code tags scan reads in
	// place of the disk.
	texts map[string][]byte
	// eval is the last run's evaluation (most edits are evaluated from
	// it: evaluate.Memo).
	eval evaluate.Memo
}

// Live starts a live check of t with o (o.At is not used: each run
// names its date). With o.Cache, files read from disk go through the
// parse cache, as Run reads them.
func (t *Tree) Live(o Options) *Live {
	p, _ := t.parser(o)
	l := &Live{t: t, o: o, p: p, base: source.NewFileSet(), sfs: map[string]*source.File{},
		files: map[string]*parser.File{}, texts: map[string][]byte{}, dirty: map[string]bool{}}
	l.memo.texts = l.texts
	return l
}

// SetText makes text the content of the file at path (a slash path
// relative to the root) in place of what is on disk; nil gives the disk
// its say again. A buffer of a file that does not exist yet counts where
// the walk would list the file once saved; one the walk would not list
// (an excluded folder, not .rst) is not part of the tree.
func (l *Live) SetText(path string, text []byte) {
	if text == nil {
		delete(l.texts, path)
	} else {
		l.texts[path] = text
	}
	l.Changed(path)
}

// Changed says that the file at path may have changed on disk, been
// created or been deleted.
func (l *Live) Changed(path string) {
	if l.files[path] == nil && !l.inTree(path) {
		// Not a file of the tree (seg.lock, a source file): every run
		// reads such files again anyway.
		return
	}
	l.dirty[path] = true
	if l.files[path] == nil || l.texts[path] == nil && !l.onDisk(path) {
		// The file may join or leave the tree: walk it again.
		l.listed = false
	}
}

func (l *Live) onDisk(path string) bool {
	_, err := os.Lstat(filepath.Join(l.t.Root, filepath.FromSlash(path)))
	return err == nil
}

// Run checks the tree as it is now, at the evaluation date at. Its error
// is Run's: the root cannot be read, nor a results file the command line
// names.
func (l *Live) Run(at time.Time) (*Check, error) {
	if !l.listed {
		if err := l.list(); err != nil {
			return nil, err
		}
	}
	var todo []string
	for p := range l.dirty {
		if _, ok := l.files[p]; ok {
			todo = append(todo, p)
		}
	}
	clear(l.dirty)
	slices.Sort(todo)
	sfs := make([]*source.File, len(todo))
	for i, p := range todo {
		sfs[i] = l.fresh(p)
	}
	parsed := make([]*parser.File, len(todo))
	mentions := make([]bool, len(todo))
	each(len(todo), func(i int, buf []byte) []byte {
		parsed[i], buf, mentions[i] = l.parse(sfs[i], buf)
		return buf
	})
	if l.incl == nil {
		l.incl = map[string]bool{}
	}
	for i, p := range todo {
		l.files[p] = parsed[i]
		if mentions[i] {
			l.incl[p] = true
		} else {
			delete(l.incl, p)
		}
	}
	if c, ok := l.p.(*cached); ok {
		c.c.Finish()
	}
	all := make([]*parser.File, 0, len(l.files)+len(l.bad))
	for _, f := range l.files {
		all = append(all, f)
	}
	all = append(all, l.bad...)
	slices.SortStableFunc(all, func(a, b *parser.File) int { return strings.Compare(a.Path, b.Path) })
	o := l.o
	o.At = at
	fset := l.base.Fork()
	if more := l.includes(all, fset); len(more) > 0 {
		all = append(all, more...)
		slices.SortStableFunc(all, func(a, b *parser.File) int { return strings.Compare(a.Path, b.Path) })
	}
	return l.t.finish(o, fset, all, &l.memo)
}

// includes follows the includes of the tree's files (followIncludes):
// a buffer's text is read as it is in the editor, a file's from disk.
func (l *Live) includes(all []*parser.File, fset *source.FileSet) []*parser.File {
	if l.listing == nil || len(l.incl) == 0 {
		return nil
	}
	docs := make(map[string]bool, len(l.files))
	for p := range l.files {
		docs[p] = true
	}
	var flagged []incDoc
	enc := l.encoding()
	for _, p := range slices.Sorted(maps.Keys(l.incl)) {
		if !docs[p] {
			continue
		}
		read := func() ([]byte, error) {
			if text, ok := l.texts[p]; ok {
				return text, nil
			}
			b, _, err := readFile(filepath.Join(l.t.Root, filepath.FromSlash(p)), nil)
			if err != nil {
				return nil, err
			}
			return decodeSource(b, enc), nil
		}
		flagged = append(flagged, incDoc{p, read})
	}
	return followIncludes(l.t.Root, l.listing, docs, flagged, all, l.p, fset)
}

// list walks the tree: the files it lists, and the buffers of files not
// saved yet where it would list them, are the tree.
func (l *Live) list() error {
	lst, err := listSphinx(l.t.Root, l.t.Config.Parser, l.t.Config.Needs)
	if err != nil {
		return err
	}
	l.listing = lst
	listed, bad := lst.Files, lst.Unlisted
	in := make(map[string]bool, len(listed))
	for _, f := range listed {
		in[f.Path] = true
	}
	for p := range l.texts {
		if !in[p] && lst.InTree(p) && !l.onDisk(p) {
			in[p] = true
		}
	}
	for p := range l.files {
		if !in[p] {
			delete(l.files, p)
			delete(l.incl, p)
		}
	}
	for p := range in {
		if _, ok := l.files[p]; !ok {
			l.files[p] = nil
			l.dirty[p] = true
		}
	}
	l.bad = l.bad[:0]
	for _, f := range bad {
		l.bad = append(l.bad, parser.Unreadable(l.fresh(f.Path), f.Err))
	}
	l.listed = true
	return nil
}

// fresh is a new file of the base set for path, in the place of the one
// it had.
func (l *Live) fresh(path string) *source.File {
	sf := l.sfs[path]
	if sf == nil {
		sf = l.base.Add(path, 0, source.Docutils)
	} else {
		sf = l.base.Replace(sf, 0)
	}
	l.sfs[path] = sf
	return sf
}

// parse reads and parses one file: its buffer's text when it has one,
// else the disk's, through the run's Parser.
func (l *Live) parse(sf *source.File, buf []byte) (*parser.File, []byte, bool) {
	if text, ok := l.texts[sf.Name()]; ok {
		src := bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
		if len(src) <= parser.MaxFileSize {
			sf.SetSource(src, false)
		}
		f := parser.ParseFile(sf, text, l.t.Config.Parser)
		return f, buf, f.HasInclude
	}
	full := filepath.Join(l.t.Root, filepath.FromSlash(sf.Name()))
	enc := l.encoding()
	sf.SetReader(func() ([]byte, error) {
		b, _, err := readFile(full, nil)
		return bytes.TrimPrefix(decodeSource(b, enc), []byte("\xef\xbb\xbf")), err
	})
	f := l.p.Parse(sf, nil, func() ([]byte, error) {
		var err error
		buf, _, err = readFile(full, buf)
		if err == nil {
			buf = decodeSource(buf, enc)
		}
		return buf, err
	})
	return f, buf, f.HasInclude
}

// inTree reports whether the last walk's listing would read a file at
// path (before the first walk, the listing is made).
func (l *Live) inTree(path string) bool {
	if l.listing == nil {
		lst, err := listSphinx(l.t.Root, l.t.Config.Parser, l.t.Config.Needs)
		if err != nil {
			return inTree(path, l.t.Config.Parser)
		}
		l.listing = lst
	}
	return l.listing.InTree(path)
}

// encoding is the source encoding of the last walk's project.
func (l *Live) encoding() string {
	if l.listing == nil || l.listing.Project == nil {
		return ""
	}
	return l.listing.Project.Encoding
}

// extraNodes is the outcomes of results files followed by the
// implementations at code tags and the needs of other projects, the extra
// nodes of the graph build. The post-processing reads external needs anew
// every run; when they are what the last run read, and the outcomes and
// code tag nodes are the last run's, the last run's slice is given again,
// so that the graph build can patch the last graph (it knows extra nodes
// by their place in memory).
func (lm *liveMemo) extraNodes(outcomes, code, needs []parser.Node) []parser.Node {
	if len(code) == 0 && len(needs) == 0 {
		return outcomes
	}
	if lm != nil && sameNodes(outcomes, lm.external.outcomes) && sameNodes(code, lm.external.code) && reflect.DeepEqual(needs, lm.external.needs) {
		return lm.external.extra
	}
	extra := append(append(slices.Clip(outcomes), code...), needs...)
	if lm != nil {
		lm.external.outcomes, lm.external.code, lm.external.needs, lm.external.extra = outcomes, code, needs, extra
	}
	return extra
}

// codeOverlay is the open buffers of a live check, for the code tags
// scan; nil for a plain run.
func (lm *liveMemo) codeOverlay() func(string) ([]byte, bool) {
	if lm == nil || lm.texts == nil {
		return nil
	}
	texts := lm.texts
	return func(p string) ([]byte, bool) {
		t, ok := texts[p]
		return t, ok
	}
}

// sameNodes reports whether a and b are the same nodes in memory.
func sameNodes(a, b []parser.Node) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
