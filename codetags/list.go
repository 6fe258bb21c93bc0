package codetags

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/safefile"
)

// Listing says which files of a tree are scanned.
type Listing struct {
	Root string
	// Patterns are globs relative to the root (internal/glob: "*" within a
	// segment, "**" for any number of segments); a pattern without
	// wildcards that names a folder stands for every file under it.
	Patterns []string
	// Exclude are globs of files left out (a sphinx-codelinks project's
	// exclude, made relative to the root).
	Exclude []string
	// SCORE lists as S-CORE's source code linker does: besides hidden
	// names, folders and files whose names start with "_", folders whose
	// names start with "bazel-", and files ending in .pyc, .so, .exe, .bin,
	// .rst and .md are left out.
	SCORE bool
	// Skip, when not nil, leaves out the files and folders it reports
	// (the documentation tree).
	Skip func(rel string, dir bool) bool
}

// Listed is what a listing found.
type Listed struct {
	// Files are the slash paths, relative to the root, of the files to
	// scan, sorted.
	Files []string
	// Unmatched are the patterns that matched no file.
	Unmatched []string
	// Unreadable are the files and folders that could not be read (a link
	// that loops or leads nowhere, a folder without permission).
	Unreadable []Unreadable
}

// Unreadable is a path the listing could not read and why.
type Unreadable struct {
	Path string
	Err  error
}

// List walks the tree once. Hidden names (starting with ".") are not
// walked into unless a pattern names one; links to folders are not
// followed (so a link that loops ends nothing), links to files are read
// as the file; every .gitignore on the way is honoured, as git reads it.
// Patterns, exclusions and .gitignore rules are matched by the one glob
// (internal/glob.Match); the walk is the listing's own rather than a
// glob.Files per pattern, as it is one walk for every pattern, honours
// .gitignore and S-CORE's exclusions, and reports a link that leads
// nowhere where glob.Files passes over it.
func (l *Listing) List() Listed {
	var out Listed
	pats := make([]pattern, 0, len(l.Patterns))
	hidden := false
	for _, p := range l.Patterns {
		pp := pattern{text: p, clean: strings.TrimSuffix(path.Clean(p), "/")}
		if pp.clean == "." {
			pp.clean = "**"
		}
		segs := strings.Split(pp.clean, "/")
		for _, s := range segs {
			if strings.HasPrefix(s, ".") && s != "." && s != ".." {
				hidden = true
			}
		}
		i := 0
		for i < len(segs) && !glob.HasMeta(segs[i]) {
			i++
		}
		pp.lit = segs[:i]
		if i == len(segs) {
			pp.exact = true
		} else if i == len(segs)-1 && segs[i] == "**" {
			pp.all, pp.under = true, strings.Join(segs[:i], "/")
		}
		pats = append(pats, pp)
	}
	used := make([]bool, len(pats))
	ig := &ignores{}
	root := l.Root
	var walk func(dir string) // dir: slash path, "" for the root
	walk = func(dir string) {
		full := filepath.Join(root, filepath.FromSlash(dir))
		entries, err := os.ReadDir(full)
		if err != nil {
			out.Unreadable = append(out.Unreadable, Unreadable{Path: dir, Err: err})
			return
		}
		pushed := ig.push(dir, full)
		defer ig.pop(pushed)
		for _, e := range entries {
			name := e.Name()
			rel := name
			if dir != "" {
				rel = dir + "/" + name
			}
			isDir := e.IsDir()
			if strings.HasPrefix(name, ".") && (!hidden || name == ".git") {
				continue
			}
			if l.SCORE && (strings.HasPrefix(name, "_") || isDir && strings.HasPrefix(name, "bazel-")) {
				continue
			}
			if l.Skip != nil && l.Skip(rel, isDir) {
				continue
			}
			if isDir {
				if ig.ignored(rel, true) || !l.under(pats, rel) {
					continue
				}
				walk(rel)
				continue
			}
			if e.Type()&fs.ModeSymlink != 0 {
				st, err := os.Stat(filepath.Join(full, name))
				if err != nil {
					if l.matches(pats, used, rel, false) && !ig.ignored(rel, false) {
						out.Unreadable = append(out.Unreadable, Unreadable{Path: rel, Err: err})
					}
					continue
				}
				if !st.Mode().IsRegular() {
					continue // a link to a folder is not followed
				}
			} else if !e.Type().IsRegular() {
				continue
			}
			if l.SCORE && scoreSkipped(name) {
				continue
			}
			if ig.ignored(rel, false) || !l.matches(pats, used, rel, true) || l.excluded(rel) {
				continue
			}
			out.Files = append(out.Files, rel)
		}
	}
	walk("")
	slices.Sort(out.Files)
	for i, p := range pats {
		if !used[i] {
			out.Unmatched = append(out.Unmatched, p.text)
		}
	}
	return out
}

type pattern struct {
	text, clean string
	lit         []string // the segments before the first wildcard
	exact       bool     // no wildcard: a file, or a folder for all under it
	// under, when all is set, is the pattern "under/**" (or "**": every
	// file), which a prefix decides.
	under string
	all   bool
}

// under reports whether a file under the folder rel may match a pattern.
func (l *Listing) under(pats []pattern, rel string) bool {
	segs := strings.Split(rel, "/")
	for _, p := range pats {
		n := min(len(segs), len(p.lit))
		if slices.Equal(segs[:n], p.lit[:n]) {
			return true
		}
	}
	return false
}

// matches reports whether the file rel matches a pattern; mark records
// which patterns did.
func (l *Listing) matches(pats []pattern, used []bool, rel string, mark bool) bool {
	any := false
	for i, p := range pats {
		ok := false
		if p.all {
			ok = p.under == "" || strings.HasPrefix(rel, p.under+"/")
		} else if p.exact {
			ok = rel == p.clean || strings.HasPrefix(rel, p.clean+"/")
		} else {
			ok = glob.Match(p.clean, rel)
		}
		if ok {
			any = true
			if mark {
				used[i] = true
			} else {
				return true
			}
		}
	}
	return any
}

func (l *Listing) excluded(rel string) bool {
	for _, x := range l.Exclude {
		if glob.Match(x, rel) || !glob.HasMeta(x) && strings.HasPrefix(rel, strings.TrimSuffix(x, "/")+"/") {
			return true
		}
	}
	return false
}

// scoreSkipped are the files S-CORE's linker does not read.
func scoreSkipped(name string) bool {
	switch path.Ext(name) {
	case ".pyc", ".so", ".exe", ".bin", ".rst", ".md":
		return true
	}
	return false
}

// ignores are the .gitignore rules of the folders being walked, outermost
// first.
type ignores struct {
	rules []ignoreRule
}

type ignoreRule struct {
	base     string // the folder of the .gitignore, "" for the root
	pat      string
	neg      bool
	dirOnly  bool
	anchored bool // the pattern holds a slash: it matches from base
}

// push reads the .gitignore of the folder dir (full on disk) and returns
// how many rules it added.
func (g *ignores) push(dir, full string) int {
	f, _, err := safefile.Open(filepath.Join(full, ".gitignore")) // never blocks on a FIFO
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if r, ok := ignoreLine(dir, sc.Bytes()); ok {
			g.rules = append(g.rules, r)
			n++
		}
	}
	return n
}

func (g *ignores) pop(n int) { g.rules = g.rules[:len(g.rules)-n] }

// ignoreLine reads one line of a .gitignore (git's gitignore(5)): blank
// lines and lines starting with "#" say nothing; "!" negates; a trailing
// "/" matches folders only; a slash at the start or in the middle anchors
// the pattern to the file's folder; trailing blanks go unless escaped.
func ignoreLine(base string, line []byte) (ignoreRule, bool) {
	s := strings.TrimSuffix(string(line), "\r")
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	if s == "" || strings.HasPrefix(s, "#") {
		return ignoreRule{}, false
	}
	r := ignoreRule{base: base}
	if strings.HasPrefix(s, "!") {
		r.neg, s = true, s[1:]
	} else if strings.HasPrefix(s, `\!`) || strings.HasPrefix(s, `\#`) {
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") {
		r.dirOnly, s = true, strings.TrimRight(s, "/")
	}
	if strings.Contains(s, "/") {
		r.anchored, s = true, strings.TrimPrefix(s, "/")
	}
	if s == "" {
		return ignoreRule{}, false
	}
	r.pat = s
	return r, true
}

// ignored reports whether the last rule that matches rel ignores it.
func (g *ignores) ignored(rel string, dir bool) bool {
	out := false
	for i := range g.rules {
		r := &g.rules[i]
		if r.dirOnly && !dir || r.neg != out {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok = glob.Match(r.pat, sub)
		} else {
			ok = glob.Match(r.pat, path.Base(sub))
		}
		if ok {
			out = !r.neg
		}
	}
	return out
}

// isBinary reports whether data looks like a binary file, as git decides:
// a NUL byte in its first 8000 bytes.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}
