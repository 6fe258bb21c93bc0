package check

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/parser"
)

// CodeMissingSource is an implementation's :source: entry that names no
// file: the implementation's revision cannot say what code it stands for.
var CodeMissingSource = diag.NewError("missing-source", "an implementation's :source: entry matches no file")

// sources finishes the revision of every implementation that names its
// source files (docs/revisions.md): its text revision, then each file
// its :source: entries match (a path relative to the root, a glob, or a
// folder for every file under it), sorted by path, with the SHA-256 of
// its bytes; an entry that matches nothing is missing-source, and the
// revision says so, so it changes once the file exists. A file named by
// several implementations is read once.
//
// deps is every entry with what it matched and their hashes
// (sourceDeps): a stored report of the run is good only while they are
// the same.
//
// The files given are not changed: a file with such an implementation is
// copied, in a copy of the list, which sources returns (the language
// server keeps the parse of a file from one run to the next).
func (t *Tree) sources(parsed []*parser.File, memo *cache.Sums) (out []*parser.File, diags diag.List, deps string) {
	h := &fileHashes{root: t.Root, sums: map[string]string{}, memo: memo}
	patterns := map[string]bool{}
	out = parsed
	cloned := false
	for fi, f := range parsed {
		copied := false
		for i := range f.Nodes {
			if f.Nodes[i].Kind != parser.Implementation {
				continue
			}
			o := f.Nodes[i].Option("source")
			if o == nil || len(o.Links) == 0 {
				continue
			}
			if !copied {
				if !cloned {
					out, cloned = slices.Clone(parsed), true
				}
				cf := *f
				cf.Nodes = slices.Clone(f.Nodes)
				out[fi], f, copied = &cf, &cf, true
			}
			n := &f.Nodes[i]
			var entries []parser.SourceEntry
			for _, entry := range o.Links {
				patterns[entry.ID] = true
				se := parser.SourceEntry{Entry: entry.ID}
				files, err := h.match(entry.ID)
				if err != nil {
					// Files under it may be missing from the revision: the
					// implementation cannot say what code it stands for.
					diags = append(diags, diag.Diagnostic{
						Code:    parser.CodeUnreadable,
						Message: fmt.Sprintf(":source: entry %q: %v", entry.ID, err),
						Detail:  "A folder the entry reaches cannot be listed, so the files in it are not in the implementation's revision; links pinned to it may not go stale when they change.",
						Span:    entry.Span,
					})
				}
				if len(files) == 0 && err == nil {
					diags = append(diags, diag.Diagnostic{
						Code:    CodeMissingSource,
						Message: fmt.Sprintf("no file matches :source: entry %q", entry.ID),
						Detail:  "A :source: entry is a path, a glob or a folder relative to the root. The implementation's revision records the entry as missing, so links to it go stale once the file exists.",
						Span:    entry.Span,
					})
				}
				for _, p := range files {
					sum := h.sum(p)
					se.Files = append(se.Files, parser.SourceFile{Path: p, Sum: sum})
					if sum == unreadable {
						diags = append(diags, diag.Diagnostic{
							Code:    parser.CodeUnreadable,
							Message: fmt.Sprintf("cannot read %q, which :source: entry %q names", p, entry.ID),
							Detail:  "The implementation's revision cannot say what code it stands for, so links pinned to it count as stale.",
							Span:    entry.Span,
						})
					}
				}
				entries = append(entries, se)
			}
			n.Revision = parser.ImplementationRevision(n.Revision, entries)
		}
	}
	return out, diags, h.deps(slices.Sorted(maps.Keys(patterns)))
}

// deps writes, for each pattern, the files it matches and their hashes.
func (h *fileHashes) deps(patterns []string) string {
	var b strings.Builder
	for _, p := range patterns {
		fmt.Fprintf(&b, "pattern %q\n", p)
		files, err := h.match(p)
		if err != nil {
			fmt.Fprintf(&b, "error %q\n", err.Error())
		}
		for _, f := range files {
			fmt.Fprintf(&b, "file %q %s\n", f, h.sum(f))
		}
	}
	return b.String()
}

// depsHold reports whether the source files a stored report was made
// from are still what they were: the same patterns match the same files,
// with the same bytes.
func depsHold(root, deps string, memo *cache.Sums) bool {
	if deps == "" {
		return true
	}
	var patterns []string
	for _, line := range strings.Split(deps, "\n") {
		if q, ok := strings.CutPrefix(line, "pattern "); ok {
			p, err := strconv.Unquote(q)
			if err != nil {
				return false
			}
			patterns = append(patterns, p)
		}
	}
	h := &fileHashes{root: root, sums: map[string]string{}, memo: memo}
	return h.deps(patterns) == deps
}

// unreadable stands for a hash in a revision where the file cannot be read.
const unreadable = "unreadable"

// fileHashes reads and hashes the source files of one run, each once.
type fileHashes struct {
	root string
	mu   sync.Mutex
	sums map[string]string // slash path -> hex SHA-256, "unreadable" when it cannot be read
	// memo, when not nil, remembers sums across runs by file identity
	// (the parse cache's Sums).
	memo    *cache.Sums
	matched map[string]matched // by pattern
}

// matched is what a pattern matched, and why the list may be short.
type matched struct {
	files []string
	err   error
}

// match lists the files pattern matches, each pattern listed once: an
// entry is matched for the revision and again for the report cache's
// record (deps), and many implementations name the same files.
func (h *fileHashes) match(pattern string) ([]string, error) {
	h.mu.Lock()
	m, ok := h.matched[pattern]
	h.mu.Unlock()
	if ok {
		return m.files, m.err
	}
	if glob.Valid(pattern) {
		m.files, m.err = glob.Files(glob.Dir(h.root), pattern)
	}
	h.mu.Lock()
	if h.matched == nil {
		h.matched = map[string]matched{}
	}
	h.matched[pattern] = m
	h.mu.Unlock()
	return m.files, m.err
}

func (h *fileHashes) sum(p string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.sums[p]; ok {
		return s
	}
	s := unreadable
	name := filepath.Join(h.root, filepath.FromSlash(p))
	if h.memo != nil {
		if sum, ok := h.memo.Sum(name); ok {
			s = sum
		}
	} else if data, err := os.ReadFile(name); err == nil {
		sum := sha256.Sum256(data)
		s = hex.EncodeToString(sum[:])
	}
	h.sums[p] = s
	return s
}
