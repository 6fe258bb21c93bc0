package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/seg-trace/seg/check"
	"github.com/seg-trace/seg/internal/gitrev"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/revision"
	"github.com/seg-trace/seg/source"
)

// History finds what a node said at an earlier revision in the git
// repository the tree is in. It runs the git command and reads objects
// only (git log, git ls-tree, git cat-file): never the index or the work
// tree, which stay exactly as they are. git itself, rather than a Go
// implementation of it, reads every repository the user's git reads
// (packs, alternates, partial clones, its configuration) and adds no
// dependency to seg.
type History struct {
	top    string // the repository's top folder
	prefix string // the tree's root relative to top: "" or "docs/"
	cfg    *parser.Config

	cat   *gitrev.Objects
	trees map[string]*commitTree // by commit: its files, Sys the blob name
	sums  map[string]string      // by blob name: the hex SHA-256 of its bytes
}

// MaxCommits bounds the commits walked for one target.
const MaxCommits = 10000

// OpenHistory opens the repository root is in. Its error says why there
// is no history to read (no git, not a repository).
func OpenHistory(root string, cfg *parser.Config) (*History, error) {
	if err := gitrev.Installed(); err != nil {
		return nil, errors.New("git is not installed")
	}
	h := &History{cfg: cfg, trees: map[string]*commitTree{}, sums: map[string]string{}}
	out, err := h.run(root, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git repository", root)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	h.top = lines[0]
	if len(lines) > 1 {
		h.prefix = lines[1]
	}
	h.cat, err = gitrev.StartObjects(h.top)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// Close stops the git process History reads objects through.
func (h *History) Close() {
	if h != nil && h.cat != nil {
		h.cat.Close()
	}
}

func (h *History) run(dir string, args ...string) ([]byte, error) {
	// In the one environment seg runs git in (gitrev.Command): no lock,
	// not even the optional ones, and the repository dir is in.
	cmd := gitrev.Command(dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Found is a node's text as it was at a pinned revision.
type Found struct {
	// Commit is the newest commit at which the node had that revision.
	Commit string
	// Document is its canonical document then, and Sources the bytes of
	// an implementation's source files then, by path.
	Document string
	Sources  map[string][]byte
}

// Find walks back, newest first, the commits that touched the node id's
// file (following renames) or, for an implementation, its :source: files,
// and returns the node as it was at the first commit where its revision
// is rev. file is the node's file relative to the root; ok is false when
// no commit has it (walked says how many were looked at).
func (h *History) Find(id string, kind parser.Kind, file string, sources []string, rev uint64) (f Found, walked int, ok bool, err error) {
	follow, err := h.follow(h.prefix + file)
	if err != nil {
		return Found{}, 0, false, err
	}
	commits := follow
	if len(sources) > 0 {
		specs := []string{}
		seen := map[string]bool{}
		for _, c := range follow {
			if !seen[c.path] {
				seen[c.path] = true
				specs = append(specs, ":(literal)"+c.path)
			}
		}
		for _, s := range sources {
			if p := path.Join(h.prefix, s); fsPath(p) {
				specs = append(specs, ":(glob)"+p)
			}
		}
		commits, err = h.log(specs)
		if err != nil {
			return Found{}, 0, false, err
		}
	}
	// The file's path at a commit: its name in the newest commit of the
	// follow walk at or before it (a rename changes the name at the
	// rename commit), or the one before that.
	at := map[string]int{}
	for i, c := range follow {
		at[c.hash] = i
	}
	k := -1
	for _, c := range commits {
		walked++
		if i, ok := at[c.hash]; ok {
			k = i
		}
		var names []string
		switch {
		case k < 0:
			names = []string{h.prefix + file}
		case k+1 < len(follow):
			names = []string{follow[k].path, follow[k+1].path}
		default:
			names = []string{follow[k].path}
		}
		for _, name := range names {
			found, ok, err := h.at(c.hash, name, id, kind, sources, rev)
			if err != nil {
				return Found{}, walked, false, err
			}
			if ok {
				return found, walked, true, nil
			}
		}
	}
	return Found{}, walked, false, nil
}

// fsPath reports whether p stays inside the repository.
func fsPath(p string) bool { return p != ".." && !strings.HasPrefix(p, "../") }

type commitPath struct{ hash, path string }

// follow lists the commits that touched name, newest first, each with the
// file's name in it, following renames.
func (h *History) follow(name string) ([]commitPath, error) {
	out, err := h.run(h.top, "log", "--follow", "--name-only", "--format=%x00%H", fmt.Sprintf("--max-count=%d", MaxCommits), "HEAD", "--", ":(literal)"+name)
	if err != nil {
		return nil, err
	}
	var cs []commitPath
	for _, rec := range strings.Split(string(out), "\x00")[1:] {
		// "HASH\n\nPATH\n": the name the file had in that commit.
		lines := strings.FieldsFunc(rec, func(r rune) bool { return r == '\n' })
		if len(lines) == 0 {
			continue
		}
		c := commitPath{hash: lines[0], path: name}
		if len(lines) > 1 {
			c.path = lines[1]
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// log lists the commits that touched any of the pathspecs, newest first.
func (h *History) log(specs []string) ([]commitPath, error) {
	out, err := h.run(h.top, append([]string{"log", "--format=%H", fmt.Sprintf("--max-count=%d", MaxCommits), "HEAD", "--"}, specs...)...)
	if err != nil {
		return nil, err
	}
	var cs []commitPath
	for _, line := range strings.Fields(string(out)) {
		cs = append(cs, commitPath{hash: line})
	}
	return cs, nil
}

// at reads the node id from the file name at commit, and returns it when
// its revision there is rev.
func (h *History) at(commit, name, id string, kind parser.Kind, sources []string, rev uint64) (Found, bool, error) {
	src, ok, err := h.cat.Read(commit + ":" + name)
	if err != nil || !ok {
		return Found{}, false, err
	}
	fset := source.NewFileSet()
	sf := fset.Add(strings.TrimPrefix(name, h.prefix), len(src), source.Docutils)
	pf := parser.ParseFile(sf, src, h.cfg)
	for i := range pf.Nodes {
		n := &pf.Nodes[i]
		if n.ID != id || n.Kind != kind {
			continue
		}
		doc := h.cfg.Document(n)
		r := n.Revision
		var files map[string][]byte
		if o := n.Option("source"); n.Kind == parser.Implementation && o != nil && len(o.Links) > 0 {
			var entries []revision.Source
			entries, files, err = h.sources(commit, o.Links)
			if err != nil {
				return Found{}, false, err
			}
			impl := revision.Implementation(r, entries)
			r = revision.Of(impl)
			doc += impl
		}
		if r == rev {
			return Found{Commit: commit, Document: doc, Sources: files}, true, nil
		}
	}
	return Found{}, false, nil
}

// sources lists and hashes, at commit, the files an implementation's
// :source: entries match.
func (h *History) sources(commit string, entries []parser.Link) ([]revision.Source, map[string][]byte, error) {
	tree, err := h.tree(commit)
	if err != nil {
		return nil, nil, err
	}
	dir := strings.TrimSuffix(h.prefix, "/")
	if dir == "" {
		dir = "."
	}
	return readSources(glob.FS(tree, dir), entries, func(p string) ([]byte, string, error) {
		blob := tree.blobs[path.Join(dir, p)]
		data, _, err := h.cat.Read(blob)
		if err != nil {
			return nil, "", err
		}
		sum, ok := h.sums[blob]
		if !ok {
			sum = sha256Hex(data)
			h.sums[blob] = sum
		}
		return data, sum, nil
	})
}

// readSources lists the files of t each :source: entry matches
// (check.SourceFiles, the resolver of the check), and reads and hashes
// them with read, as check does for the revision. A folder an entry
// reaches that cannot be listed is an error: a revision worked out
// without its files could match a commit it does not belong to.
func readSources(t glob.Tree, entries []parser.Link, read func(p string) (data []byte, sum string, err error)) ([]revision.Source, map[string][]byte, error) {
	files := map[string][]byte{}
	var out []revision.Source
	for _, e := range entries {
		se := revision.Source{Entry: e.ID}
		matched, err := check.SourceFiles(t, e.ID)
		if err != nil {
			return nil, nil, fmt.Errorf(":source: entry %q: %w", e.ID, err)
		}
		for _, p := range matched {
			data, sum, err := read(p)
			if err != nil {
				return nil, nil, err
			}
			files[p] = data
			se.Files = append(se.Files, revision.File{Path: p, Sum: sum})
		}
		out = append(out, se)
	}
	return out, files, nil
}

func sha256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// tree lists the files of commit (links and submodules left out: a link
// in a commit has no target to read).
func (h *History) tree(commit string) (*commitTree, error) {
	if t, ok := h.trees[commit]; ok {
		return t, nil
	}
	out, err := h.run(h.top, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	blobs := map[string]string{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue
		}
		blobs[name] = f[2]
	}
	t := newCommitTree(blobs)
	h.trees[commit] = t
	return t, nil
}
