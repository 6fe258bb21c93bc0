package check

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/fileid"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
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
// (writeDeps): a stored report of the run is good only while they are
// the same.
//
// The files given are not changed: a file with such an implementation is
// copied, in a copy of the list, which sources returns (the language
// server keeps the parse of a file from one run to the next). lm, when
// not nil, is what the last run of a Live check left (sourceMemo).
func (t *Tree) sources(parsed []*parser.File, sums *cache.Sums, lm *sourceMemo) (out []*parser.File, diags diag.List, deps string) {
	h := &fileHashes{root: t.Root, sums: map[string]string{}, memo: sums}
	if lm != nil {
		return lm.run(h, parsed)
	}
	patterns := map[string]bool{}
	resolve := func(p string) *matched {
		patterns[p] = true
		return h.resolve(p)
	}
	out = parsed
	cloned := false
	for fi, f := range parsed {
		cf, d := sourceFile(f, resolve)
		if cf == nil {
			continue
		}
		if !cloned {
			out, cloned = slices.Clone(parsed), true
		}
		out[fi] = cf
		diags = append(diags, d...)
	}
	return out, diags, writeDeps(slices.Sorted(maps.Keys(patterns)), h.resolve)
}

// sourceFile is f with the revision of each implementation that names
// source files finished, and the diagnostics of its :source: entries;
// nil when f has no such implementation. resolve gives what an entry
// matches.
func sourceFile(f *parser.File, resolve func(pattern string) *matched) (*parser.File, diag.List) {
	var out *parser.File
	var diags diag.List
	for i := range f.Nodes {
		o := sourceOption(&f.Nodes[i])
		if o == nil {
			continue
		}
		if out == nil {
			cf := *f
			cf.Nodes = slices.Clone(f.Nodes)
			out = &cf
		}
		n := &out.Nodes[i]
		var entries []revision.Source
		for _, entry := range o.Links {
			se := revision.Source{Entry: entry.ID}
			m := resolve(entry.ID)
			if m.err != nil {
				// Files under it may be missing from the revision: the
				// implementation cannot say what code it stands for.
				diags = append(diags, diag.Diagnostic{
					Code:    parser.CodeUnreadable,
					Message: fmt.Sprintf(":source: entry %q: %v", entry.ID, m.err),
					Detail:  "A folder the entry reaches cannot be listed, so the files in it are not in the implementation's revision; links pinned to it may not go stale when they change.",
					Span:    entry.Span,
				})
			}
			if len(m.files) == 0 && m.err == nil {
				diags = append(diags, diag.Diagnostic{
					Code:    CodeMissingSource,
					Message: fmt.Sprintf("no file matches :source: entry %q", entry.ID),
					Detail:  "A :source: entry is a path, a glob or a folder relative to the root. The implementation's revision records the entry as missing, so links to it go stale once the file exists.",
					Span:    entry.Span,
				})
			}
			for j, p := range m.files {
				sum := m.sums[j]
				se.Files = append(se.Files, revision.File{Path: p, Sum: sum})
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
		n.Revision = revision.OfImplementation(n.Revision, entries)
	}
	return out, diags
}

// sourceOption is n's :source: option when n is an implementation that
// names source files.
func sourceOption(n *parser.Node) *parser.Option {
	if n.Kind != parser.Implementation {
		return nil
	}
	if o := n.Option("source"); o != nil && len(o.Links) > 0 {
		return o
	}
	return nil
}

// sourcePatterns lists the :source: entries of f's implementations.
func sourcePatterns(f *parser.File) []string {
	var out []string
	for i := range f.Nodes {
		if o := sourceOption(&f.Nodes[i]); o != nil {
			for _, e := range o.Links {
				out = append(out, e.ID)
			}
		}
	}
	return out
}

// writeDeps writes, for each pattern, the files it matches and their
// hashes.
func writeDeps(patterns []string, resolve func(string) *matched) string {
	var b strings.Builder
	for _, p := range patterns {
		m := resolve(p)
		fmt.Fprintf(&b, "pattern %q\n", p)
		if m.err != nil {
			fmt.Fprintf(&b, "error %q\n", m.err.Error())
		}
		for i, f := range m.files {
			fmt.Fprintf(&b, "file %q %s\n", f, m.sums[i])
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
	return writeDeps(patterns, h.resolve) == deps
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
	matched map[string]*matched // by pattern (resolve)
}

// matched is what a pattern matched: the files, sorted, with their
// hashes, and why the list may be short.
type matched struct {
	files []string
	sums  []string
	err   error
}

// resolve lists and hashes the files pattern matches, each pattern
// once: an entry is matched for the revision and again for the report
// cache's record (deps), and many implementations name the same files.
func (h *fileHashes) resolve(pattern string) *matched {
	if m, ok := h.matched[pattern]; ok {
		return m
	}
	m := &matched{}
	m.files, m.err = SourceFiles(sourceTree(h.root), pattern)
	m.sums = make([]string, len(m.files))
	for i, f := range m.files {
		m.sums[i] = h.sum(f)
	}
	if h.matched == nil {
		h.matched = map[string]*matched{}
	}
	h.matched[pattern] = m
	return m
}

// sourceTree is where :source: entries are looked for (tests put a tree
// in its place that fails to list a folder, which root can always list).
var sourceTree = glob.Dir

// SourceFiles is the one resolver of a :source: entry, for the revision
// of the tree now and for those review works out at earlier commits: the
// files of t that pattern matches, sorted, as glob.Files lists them (none
// when the pattern is malformed). A folder the entry reaches that cannot
// be listed is a *glob.UnreadableError beside the files found: a caller
// must not take the list as whole.
func SourceFiles(t glob.Tree, pattern string) ([]string, error) {
	if !glob.Valid(pattern) {
		return nil, nil
	}
	return glob.Files(t, pattern)
}

// sum is the hash of the file at slash path p, read once a run (the first
// answer stands for the whole run).
func (h *fileHashes) sum(p string) string {
	h.mu.Lock()
	s, ok := h.sums[p]
	h.mu.Unlock()
	if ok {
		return s
	}
	return h.settle(p, h.read(p))
}

// settle records s as the hash of p for the rest of the run, unless an
// answer came first: then that one stands.
func (h *fileHashes) settle(p, s string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s0, ok := h.sums[p]; ok {
		return s0
	}
	h.sums[p] = s
	return s
}

// read hashes the file at slash path p (through the remembered sums when
// there are).
func (h *fileHashes) read(p string) string {
	name := filepath.Join(h.root, filepath.FromSlash(p))
	if h.memo != nil {
		if sum, ok := h.memo.Sum(name); ok {
			return sum
		}
		return unreadable
	}
	data, err := safefile.Read(name)
	if err != nil {
		return unreadable
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// sourceMemo is what the :source: stage of one Live run hands the next,
// so that a run redoes only the files whose parse, or whose source files,
// changed: a file given as the same parse as last run, whose entries
// match the same files with the same hashes, comes out as the same copy
// as last run, its revisions not worked out again.
//
// Nobody tells a Live check that a source file changed (an editor's
// watcher covers the tree's documents), so every run looks again: each
// entry is listed again (a path is one stat; a glob or a folder is walked
// again, so a file added or removed under it is seen, and a folder that
// cannot be listed), and each file it matches is stat'ed. A file is read
// again only when its identity (fileID: size, modification and change
// times, mode, device and inode) is not the one it had when it was last
// hashed, or when it had changed too recently then to be trusted
// (package fileid: one identity, one racy window).
type sourceMemo struct {
	// now is the clock the racy window is read on (time.Now; tests
	// move it on to make fresh files count as settled).
	now func() time.Time
	// files are the last run's results, by the parse they were made of
	// (every file given, those without such implementations too).
	files map[*parser.File]sourced
	// count is how many entries of those files name each pattern, list
	// the patterns sorted, and patterns what each matched last run.
	count    map[string]int
	list     []string
	patterns map[string]*matched
	// known are the hashes of last run that may stand while the file's
	// identity is the same.
	known map[string]knownSum
	deps  *string
}

// sourced is one file's outcome of the :source: stage.
type sourced struct {
	out      *parser.File
	diags    diag.List
	patterns []string // its entries, as sourcePatterns lists them
	fresh    bool     // a parse not seen last run: out not made yet
}

// knownSum is a file's hash and its identity when it was read; trusted
// says the identity may stand for the content in a later run.
type knownSum struct {
	id      fileid.ID
	sum     string
	trusted bool
}

// run is the sources stage of a Live run (Tree.sources).
func (m *sourceMemo) run(h *fileHashes, parsed []*parser.File) (out []*parser.File, diags diag.List, deps string) {
	now := time.Now()
	if m.now != nil {
		now = m.now()
	}
	if m.count == nil {
		m.count, m.patterns, m.known = map[string]int{}, map[string]*matched{}, map[string]knownSum{}
	}
	files, reset := m.entries(parsed)
	r := &sourceRun{m: m, h: h, now: now, seen: make(map[string]knownSum, len(m.known))}
	changed := m.rematch(r, reset)
	lookup := func(p string) *matched { return m.patterns[p] }
	out, diags = m.redo(parsed, files, changed, lookup)
	if len(changed) > 0 || reset || m.deps == nil {
		d := writeDeps(m.list, lookup)
		m.deps = &d
	}
	m.remember(r, reset)
	m.files = files
	return out, diags, *m.deps
}

// entries are the entries each file names: last run's for a parse seen
// then. count follows how many entries name each pattern, so that the
// patterns of the tree are not gathered again from every file; reset
// reports that the set of patterns changed.
func (m *sourceMemo) entries(parsed []*parser.File) (files map[*parser.File]sourced, reset bool) {
	files = make(map[*parser.File]sourced, len(parsed))
	for _, f := range parsed {
		s, ok := m.files[f]
		if !ok {
			s = sourced{patterns: sourcePatterns(f), fresh: true}
			for _, p := range s.patterns {
				m.count[p]++
				reset = reset || m.count[p] == 1
			}
		}
		files[f] = s
	}
	for f, s := range m.files {
		if _, ok := files[f]; ok {
			continue
		}
		for _, p := range s.patterns {
			if m.count[p]--; m.count[p] == 0 {
				delete(m.count, p)
				reset = true
			}
		}
	}
	if reset || m.list == nil {
		m.list = slices.Sorted(maps.Keys(m.count))
	}
	return files, reset
}

// rematch matches every pattern again (on every core) and returns those
// whose files, hashes or error differ from last run's.
func (m *sourceMemo) rematch(r *sourceRun, reset bool) map[string]bool {
	found := make([]*matched, len(m.list))
	each(len(m.list), func(i int, buf []byte) []byte {
		found[i] = r.match(m.list[i])
		return buf
	})
	changed := map[string]bool{}
	for i, p := range m.list {
		if old := m.patterns[p]; old == nil || !sameMatch(old, found[i]) {
			m.patterns[p] = found[i]
			changed[p] = true
		}
	}
	if reset {
		for p := range m.patterns {
			if m.count[p] == 0 {
				delete(m.patterns, p)
			}
		}
	}
	return changed
}

// redo works the revisions out again for the files first seen or naming
// a changed pattern; every other file keeps last run's copy.
func (m *sourceMemo) redo(parsed []*parser.File, files map[*parser.File]sourced, changed map[string]bool, lookup func(string) *matched) (out []*parser.File, diags diag.List) {
	out = parsed
	cloned := false
	for i, f := range parsed {
		s := files[f]
		if len(s.patterns) == 0 {
			continue
		}
		if s.fresh || slices.ContainsFunc(s.patterns, func(p string) bool { return changed[p] }) {
			s.out, s.diags = sourceFile(f, lookup)
			s.fresh = false
			files[f] = s
		}
		if !cloned {
			out, cloned = slices.Clone(parsed), true
		}
		out[i] = s.out
		diags = append(diags, s.diags...)
	}
	return out, diags
}

// remember keeps the identities of the files this run could trust, for
// the next.
func (m *sourceMemo) remember(r *sourceRun, reset bool) {
	for p, k := range r.seen {
		if k.trusted {
			m.known[p] = k
		} else {
			delete(m.known, p)
		}
	}
	if reset {
		for p := range m.known {
			if _, ok := r.seen[p]; !ok {
				delete(m.known, p)
			}
		}
	}
}

// sameMatch reports whether a pattern matched the same files with the
// same hashes, and failed the same way, in two runs.
func sameMatch(a, b *matched) bool {
	return slices.Equal(a.files, b.files) && slices.Equal(a.sums, b.sums) && errText(a.err) == errText(b.err)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// sourceRun is one run of a sourceMemo: the hash of each file it
// decided, with the identity the file had.
type sourceRun struct {
	m    *sourceMemo
	h    *fileHashes
	now  time.Time
	mu   sync.Mutex
	seen map[string]knownSum
}

// match lists what pattern matches now and hashes each file, or takes
// its hash from the last run when its identity is what it was.
func (r *sourceRun) match(pattern string) *matched {
	t := &statTree{Tree: sourceTree(r.h.root)}
	m := &matched{}
	if !glob.HasMeta(pattern) && path.Clean(pattern) == pattern && pattern != "." {
		// A path, as most entries are: when it names a regular file
		// (through links), glob.Files's answer is that file, and the
		// stat that says so gives its identity.
		if st, err := t.Stat(pattern); err == nil && st.Mode().IsRegular() {
			m.files, m.sums = []string{pattern}, []string{r.sum(pattern, st)}
			return m
		}
	}
	m.files, m.err = SourceFiles(t, pattern)
	m.sums = make([]string, len(m.files))
	for i, f := range m.files {
		st := t.info
		if t.name != f {
			st, _ = t.Tree.Stat(f)
		}
		m.sums[i] = r.sum(f, st)
	}
	return m
}

// sum is the hash of the file at p, whose stat (nil when it failed) is
// st: last run's while st shows the identity it had then and it was
// trusted, else read again.
func (r *sourceRun) sum(p string, st fs.FileInfo) string {
	r.mu.Lock()
	k, ok := r.seen[p]
	r.mu.Unlock()
	if ok {
		return k.sum
	}
	k = knownSum{}
	if st != nil {
		k.id = fileid.Of(st)
	}
	if last, hit := r.m.known[p]; hit && st != nil && last.id == k.id {
		k.sum = last.sum
	} else {
		k.sum = r.h.read(p)
	}
	// Taken before the read, the identity can only be older than the
	// content hashed: a file written meanwhile is read again next run.
	k.trusted = st != nil && k.sum != unreadable && k.id.Settled(r.now)
	r.mu.Lock()
	defer r.mu.Unlock()
	if k0, ok := r.seen[p]; ok {
		return k0.sum
	}
	r.seen[p] = k
	return k.sum
}

// statTree is a tree that remembers the last file it stat'ed: a path
// entry's match is that one stat.
type statTree struct {
	glob.Tree
	name string
	info fs.FileInfo
}

func (t *statTree) Stat(name string) (fs.FileInfo, error) {
	st, err := t.Tree.Stat(name)
	if err == nil {
		t.name, t.info = name, st
	}
	return st, err
}
