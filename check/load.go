package check

import (
	"bytes"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seg-trace/seg/config"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// A Parser turns one file of the tree into its nodes. The plain one calls
// parser.ParseFile; the parse cache's (package cache) first looks the file
// up by the hash of its bytes. The tree is listed, read and parsed by one
// loader (loadTree) whichever Parser it is given.
type Parser interface {
	// Parse returns the parse of sf. sum is the SHA-256 of the file's
	// bytes when a scan of the tree already took it, nil otherwise; read
	// reads the bytes (into a buffer that is reused: they must not be
	// kept). A file read fails with errNotRegular or errTooLarge, or an
	// *fs.PathError.
	Parse(sf *source.File, sum *[32]byte, read func() ([]byte, error)) *parser.File
}

// Plain is the Parser without a cache.
type Plain struct{ Config *parser.Config }

func (p Plain) Parse(sf *source.File, _ *[32]byte, read func() ([]byte, error)) *parser.File {
	src, err := read()
	if err != nil {
		return ReadFailure(sf, err)
	}
	return parser.ParseFile(sf, src, p.Config)
}

var (
	// errNotRegular is the reason for not reading a FIFO, a device or a
	// socket: reading one could block the whole run.
	errNotRegular = safefile.ErrNotRegular
	// errTooLarge is a file over parser.MaxFileSize, which is not read.
	errTooLarge = safefile.ErrTooLarge
)

// ReadFailure is the File of a tree file that could not be read.
func ReadFailure(sf *source.File, err error) *parser.File {
	var big *tooLarge
	if errors.As(err, &big) {
		return &parser.File{Path: sf.Name(), Source: sf, Diagnostics: diag.List{parser.TooLarge(sf, big.Size)}}
	}
	return parser.Unreadable(sf, err)
}

// tooLarge is errTooLarge with the file's size.
type tooLarge = safefile.TooLarge

// A file of the tree, as the walk found it.
type treeFile struct {
	listed Listed
	sf     *source.File
	full   string // its name on disk
	enc    string // the project's source encoding (normaliseEncoding's)
}

// listTree lists the tree as Sphinx reads it (listSphinx) and adds every
// file to fset, in path order, each with a reader that reads it again for
// snippets. The folders that could not be listed come last, with their
// errors.
func listTree(root string, cfg *parser.Config, np *needs.Project, fset *source.FileSet) (files []treeFile, unlisted []*parser.File, l *Listing, err error) {
	l, err = listSphinx(root, cfg, np)
	if err != nil {
		return nil, nil, nil, err
	}
	enc := ""
	if l.Project != nil {
		enc = l.Project.Encoding
	}
	files = make([]treeFile, len(l.Files))
	for i, lf := range l.Files {
		full := filepath.Join(root, filepath.FromSlash(lf.Path))
		sf := fset.Add(lf.Path, 0, source.Docutils)
		sf.SetReader(func() ([]byte, error) {
			b, _, err := readFile(full, nil)
			return bytes.TrimPrefix(decodeSource(b, enc), []byte("\xef\xbb\xbf")), err
		})
		files[i] = treeFile{listed: lf, sf: sf, full: full, enc: enc}
	}
	for _, u := range l.Unlisted {
		unlisted = append(unlisted, parser.Unreadable(fset.Add(u.Path, 0, source.Docutils), u.Err))
	}
	return files, unlisted, l, nil
}

// read reads one listed file into buf (grown as needed and returned for
// reuse), decoded to UTF-8 (decodeSource). A file the listing saw as a
// link is read only when it leads to a regular file.
func (t *treeFile) read(buf []byte) ([]byte, error) {
	data, _, err := readFile(t.full, buf)
	if err != nil {
		return data, err
	}
	// Decoded into new memory, the text becomes the caller's buffer.
	return decodeSource(data, t.enc), nil
}

// scanned is what a scan of the tree (RunReport) learnt of one file: the
// hash of its bytes, or why they could not be read.
type scanned struct {
	sum [32]byte
	err error
}

// loadTree reads and parses every file of the tree through p, on
// GOMAXPROCS workers, and returns the files sorted by path, whatever the
// order the file system lists them in. scan, when not nil, is what a scan
// of the tree found, by index in files: a file it could not read is not
// read again. A file or folder that cannot be read becomes an
// unreadable-file diagnostic and the rest of the tree is still read.
func loadTree(files []treeFile, unlisted []*parser.File, p Parser, scan []scanned) []*parser.File {
	return loadTreeIncl(files, unlisted, p, scan, nil)
}

// loadTreeIncl is loadTree that also marks, in incl (by index in files,
// when not nil), the files whose parse has an include directive.
func loadTreeIncl(files []treeFile, unlisted []*parser.File, p Parser, scan []scanned, incl []bool) []*parser.File {
	out := make([]*parser.File, len(files))
	each(len(files), func(i int, buf []byte) []byte {
		var sum *[32]byte
		read := func() ([]byte, error) {
			var err error
			buf, err = files[i].read(buf)
			return buf, err
		}
		if scan != nil {
			if err := scan[i].err; err != nil {
				out[i] = ReadFailure(files[i].sf, err)
				return buf
			}
			sum = &scan[i].sum
		}
		out[i] = p.Parse(files[i].sf, sum, read)
		if incl != nil {
			incl[i] = out[i].HasInclude
		}
		return buf
	})
	out = append(out, unlisted...)
	slices.SortStableFunc(out, func(a, b *parser.File) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// each runs f(i, buf) for i in [0, n) on GOMAXPROCS workers; buf is the
// worker's read buffer, which f returns for reuse: a run keeps no source,
// and fresh memory is what costs most on a busy machine.
func each(n int, f func(i int, buf []byte) []byte) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				buf = f(i, buf)
			}
		}()
	}
	wg.Wait()
}

// ParseTree reads and parses the tree under root without a cache, into a
// new FileSet: what `seg check` with the configuration c reads (nil:
// the default configuration), for tests and tools.
func ParseTree(root string, c *config.Config) ([]*parser.File, *source.FileSet, error) {
	cfg, np := split(c)
	fset := source.NewFileSet()
	files, unlisted, l, err := listTree(root, cfg, np, fset)
	if err != nil {
		return nil, nil, err
	}
	return loadWithIncludes(root, l, files, unlisted, Plain{cfg}, fset), fset, nil
}

// loadWithIncludes reads and parses the listed files (loadTree), then
// the files their includes pull in (followIncludes), all sorted by path.
func loadWithIncludes(root string, l *Listing, files []treeFile, unlisted []*parser.File, p Parser, fset *source.FileSet) []*parser.File {
	incl := make([]bool, len(files))
	parsed := loadTreeIncl(files, unlisted, p, nil, incl)
	return withIncluded(parsed, followFlagged(root, l, files, incl, parsed, p, fset))
}

// followFlagged follows the includes of the files incl marks (by index
// in files) and returns the files they pull in (followIncludes).
func followFlagged(root string, l *Listing, files []treeFile, incl []bool, parsed []*parser.File, p Parser, fset *source.FileSet) []*parser.File {
	docs := make(map[string]bool, len(files))
	var flagged []incDoc
	for i := range files {
		f := &files[i]
		docs[f.listed.Path] = true
		if incl[i] {
			flagged = append(flagged, incDoc{f.listed.Path, func() ([]byte, error) { return f.read(nil) }})
		}
	}
	return followIncludes(root, l, docs, flagged, parsed, p, fset)
}

// withIncluded adds the included files more to parsed, sorted by path.
func withIncluded(parsed, more []*parser.File) []*parser.File {
	if len(more) == 0 {
		return parsed
	}
	parsed = append(parsed, more...)
	slices.SortStableFunc(parsed, func(a, b *parser.File) int { return strings.Compare(a.Path, b.Path) })
	return parsed
}
