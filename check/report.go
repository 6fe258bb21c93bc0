package check

import (
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/pins"
	"github.com/seg-trace/seg/source"
)

// RunReport runs the check and renders its report into w, or writes the
// report a run of the same tree with the same key parts stored, without
// parsing anything: the idea of `go test`'s cached results
// (docs/performance.md, "The result cache"). parts are what the report
// depends on besides the tree, the configuration, the evaluation date and
// the working folder, which RunReport adds (the command, the format, the
// flags that change what is shown). render returns the exit code; a report
// is stored only for exit codes 0 and 1, and only when no file of the tree
// changed while the run read it.
//
// Without a cache, with results files to read (they are not in the key,
// and a CI run reads new ones every time), with code to scan for tags, or
// on a tree that holds the cache, it is Run then render.
func (t *Tree) RunReport(o Options, parts []string, w io.Writer, render func(*Check, io.Writer) (int, error)) (int, Stats, error) {
	// A tree whose code is scanned for tags depends on every file the
	// scan reads, which the key does not hold: such a run is made anew
	// (the tags of unchanged files come from the cache's memory).
	if o.Cache == nil || t.ReadsResults(o) || t.ScansCode() || o.Cache.Overlaps(t.Root) {
		c, stats, err := t.Run(o)
		if err != nil {
			return 0, stats, err
		}
		code, err := render(c, w)
		return code, stats, err
	}
	sc, err := t.scan()
	if err != nil {
		return 0, Stats{}, err
	}
	wd, _ := os.Getwd()
	abs, _ := filepath.Abs(t.Root)
	// seg.lock is read as it is. A lock that cannot be read (a folder, no
	// permission) must never match a run that had none: its error is in
	// the key, and the run made for it reports the error.
	lock, err := safefile.Read(filepath.Join(t.Root, pins.FileName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		lock = []byte("unreadable: " + err.Error())
	}
	parts = append(parts,
		"wd", wd, "root", abs,
		"at", o.At.UTC().Format(time.DateOnly),
		"config", t.Config.File, string(t.Config.Raw),
		"needs", t.Config.NeedsFile, string(t.Config.NeedsRaw),
		"lock", string(lock))
	parts = append(parts, t.needsFiles()...)
	key := o.Cache.ResultKey(sc.tree, parts...)
	// A stored report holds only while the source files its run hashed
	// (the implementations' :source:) are what they were.
	memo := o.Cache.Sums()
	held := func(deps []byte) bool {
		defer memo.Save()
		return depsHold(t.Root, string(deps), memo)
	}
	if code, report, deps, ok := o.Cache.LoadResult(key); ok && code <= 1 && held(deps) {
		if _, err := w.Write(report); err != nil {
			return 0, Stats{}, err
		}
		return code, o.Cache.Stats(0), nil
	}

	cp := &cached{c: o.Cache, cfg: t.Config.Parser}
	incl := make([]bool, len(sc.files))
	parsed := loadTreeIncl(sc.files, sc.unlisted, cp, sc.sums, incl)
	// A needimport reads a needs.json the tree names in an .rst file, and
	// an include a file that is not in the listing: the key holds neither's
	// bytes, so such a report is made every time and never stored. A
	// stored report is only ever one of a tree with neither (its files'
	// bytes, and so their parses, are in the key): a run that finds one
	// needs to know nothing of what the files hold.
	more := followFlagged(t.Root, t.listed, sc.files, incl, parsed, cp, sc.fset)
	storable := len(more) == 0 && !slices.Contains(incl, true) && !importsNeeds(parsed)
	parsed = withIncluded(parsed, more)
	c, err := t.finish(o, sc.fset, parsed, nil)
	o.Cache.Finish()
	stats := o.Cache.Stats(len(sc.files))
	if err != nil {
		return 0, stats, err
	}
	if !storable {
		code, err := render(c, w)
		return code, stats, err
	}
	rw := o.Cache.NewResult(key, &cp.changed, []byte(c.deps))
	defer rw.Discard()
	code, err := render(c, io.MultiWriter(w, rw))
	if err == nil && code >= 0 && code <= 1 {
		rw.Commit(code)
	}
	return code, stats, err
}

// importsNeeds reports whether a file of parsed holds a needimport.
func importsNeeds(parsed []*parser.File) bool {
	for _, f := range parsed {
		for i := range f.Nodes {
			if n := &f.Nodes[i]; n.Kind == parser.Instruction && n.Directive == "needimport" {
				return true
			}
		}
	}
	return false
}

// scan is a tree listed, read and hashed, but not parsed.
type scan struct {
	fset     *source.FileSet
	files    []treeFile
	unlisted []*parser.File
	sums     []scanned
	tree     []cache.TreeFile
}

// needsFiles are the needs.json files the project names (external needs
// and the local copies of URLs), each with its bytes, for the result
// cache's key: a report depends on them.
func (t *Tree) needsFiles() []string {
	p := t.Config.Needs
	if p == nil {
		return nil
	}
	var names []string
	for _, e := range p.External {
		if e.JSONPath != "" {
			local := e.JSONPath
			if !filepath.IsAbs(local) {
				local = filepath.Join(p.SrcDir, filepath.FromSlash(local))
			}
			names = append(names, local)
		}
	}
	for _, u := range slices.Sorted(maps.Keys(p.Fetched)) {
		names = append(names, u, p.Fetched[u])
	}
	var parts []string
	for _, n := range names {
		data, err := safefile.Read(n)
		if err != nil {
			data = []byte("unreadable: " + err.Error())
		}
		parts = append(parts, "needs-file", n, string(data))
	}
	return parts
}

// scan lists the tree and hashes every file. The sources are not kept:
// most runs end at a stored report, and after an edit only the changed
// files are read again. Only a cold run reads every file twice. It looks
// for nothing in the files (an include, a needimport): the parses say
// that, and a stored report's tree has neither (RunReport).
func (t *Tree) scan() (*scan, error) {
	sc := &scan{fset: source.NewFileSet()}
	var err error
	sc.files, sc.unlisted, t.listed, err = listTree(t.Root, t.Config.Parser, t.Config.Needs, sc.fset)
	if err != nil {
		return nil, err
	}
	sc.sums = make([]scanned, len(sc.files))
	each(len(sc.files), func(i int, buf []byte) []byte {
		buf, err := sc.files[i].read(buf)
		if err != nil {
			sc.sums[i].err = err
		} else {
			sc.sums[i].sum = sha256.Sum256(buf)
		}
		return buf
	})
	sc.tree = make([]cache.TreeFile, 0, len(sc.files)+len(sc.unlisted))
	for i, f := range sc.files {
		tf := cache.TreeFile{Path: f.listed.Path, Sum: sc.sums[i].sum}
		if err := sc.sums[i].err; err != nil {
			tf.Bad = ReadFailure(f.sf, err).Diagnostics[0].Message
		}
		sc.tree = append(sc.tree, tf)
	}
	for _, f := range sc.unlisted {
		sc.tree = append(sc.tree, cache.TreeFile{Path: f.Path, Bad: "unlisted: " + f.Diagnostics[0].Message})
	}
	return sc, nil
}
