package check

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/glob"
	"github.com/seg-trace/seg/internal/lazyre"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// Project is the Sphinx project a tree is read as (docs/check.md, "Which
// files a check reads"): Sphinx's source folder and the settings of its
// conf.py that decide which files Sphinx reads and how it decodes them.
type Project struct {
	// Dir is the source folder, a slash path relative to the root ("" for
	// the root itself).
	Dir string
	// Conf is its conf.py, relative to the root, "" when there is none.
	Conf string
	// Found says how the source folder was found.
	Found string
	// Exclude are the paths Sphinx does not read documents from, relative
	// to Dir, in Sphinx's glob syntax: exclude_patterns, templates_path,
	// html_static_path and Sphinx's own; Include is include_patterns
	// (nil: every file).
	Exclude, Include []string
	// Suffixes are the suffixes of the documents seg reads (conf.py's
	// source_suffix, ".rst" by default), each with the sourcelink suffix
	// when the tree is a Sphinx HTML build's _sources folder.
	Suffixes []string
	// Encoding is the normalised source_encoding ("" for UTF-8).
	Encoding string
	// Notes are what seg could not honour of the conf.py (a computed
	// setting, an encoding it does not decode), for --list-files.
	Notes []string
	// Within is the root's slash path inside the source folder when the
	// root lies inside it (the source folder is above the root), "".
	Within string
}

// sphinxExcluded are the paths Sphinx itself never reads documents from
// (sphinx.project's EXCLUDE_PATHS).
var sphinxExcluded = []string{"**/_sources", ".#*", "**/.#*", "*.lproj/**"}

// confPyPlaces are where a tree's conf.py is looked for, in order: the
// root itself, then the usual source folders, as package needs looks.
var confPyPlaces = needs.ConfPyPlaces

// findProject finds the Sphinx project of the tree at root: the source
// folder of the sphinx-needs project np the configuration read, else, in an
// Eclipse S-CORE repository, the source_dir of the docs() macro of its
// BUILD file, else the folder of the first conf.py of confPyPlaces. It
// returns nil when the tree has none: then every folder of the tree is
// read. A conf.py it cannot read or whose settings have the wrong shape
// is an error (seg cannot tell what Sphinx reads).
func findProject(root string, np *needs.Project) (*Project, error) {
	p := &Project{}
	switch {
	case np != nil && np.SrcDir != "" && !tomlBesideNoConf(root, np):
		rel, err := filepath.Rel(root, np.SrcDir)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, nil // a project outside the root: the root is read whole
		}
		p.Dir = cleanRel(filepath.ToSlash(rel))
		p.Found = "the sphinx-needs project's source folder"
		if np.File != "" {
			if r, err := filepath.Rel(root, np.File); err == nil {
				p.Found += " (" + filepath.ToSlash(r) + ")"
			}
		}
	default:
		if dir, why, ok := scoreSourceDir(root); ok {
			p.Dir, p.Found = dir, why
			break
		}
		for _, c := range confPyPlaces {
			if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && st.Mode().IsRegular() {
				p.Dir, p.Found = cleanRel(path.Dir(c)), "the folder of "+c
				break
			}
		}
		if p.Found == "" {
			return enclosingProject(root)
		}
	}
	conf := path.Join(p.Dir, "conf.py")
	full := filepath.Join(root, filepath.FromSlash(conf))
	return p.readConf(conf, full)
}

// tomlBesideNoConf reports a sphinx-needs project read from a
// ubproject.toml whose source folder holds no conf.py while one of the
// usual places does: Sphinx builds that conf.py's folder (which reads the
// toml with needs_from_toml), and a ubproject.toml is no Sphinx project,
// so the conf.py decides what is read rather than the toml's folder.
func tomlBesideNoConf(root string, n *needs.Project) bool {
	if !strings.HasSuffix(n.File, ".toml") {
		return false
	}
	if _, err := os.Stat(filepath.Join(n.SrcDir, "conf.py")); err == nil {
		return false
	}
	for _, c := range confPyPlaces {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// enclosingProject is the project of a root that lies inside a Sphinx
// source folder of a repository (seg check docs/source/reqs): the nearest
// folder above the root with a conf.py, up to the repository's root (the
// folder with .git). Outside a repository nothing above the root is
// looked at. Its settings apply with paths relative to its folder: Within
// is the root's path from there. nil when there is none.
func enclosingProject(root string) (*Project, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil
	}
	repo := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			repo = dir
			break
		}
		if filepath.Dir(dir) == dir {
			return nil, nil
		}
	}
	for dir := abs; dir != repo; {
		dir = filepath.Dir(dir)
		full := filepath.Join(dir, "conf.py")
		if st, err := os.Stat(full); err == nil && st.Mode().IsRegular() {
			within, _ := filepath.Rel(dir, abs)
			conf, _ := filepath.Rel(abs, full)
			conf = filepath.ToSlash(conf)
			p := &Project{Within: filepath.ToSlash(within), Found: "the folder of " + conf + ", which holds the root"}
			return p.readConf(conf, full)
		}
	}
	return nil, nil
}

// readConf reads the Sphinx settings of the project's conf.py (conf is
// its name in messages, full its path), when there is one.
func (p *Project) readConf(conf, full string) (*Project, error) {
	p.Suffixes = []string{".rst"}
	p.Exclude = append([]string(nil), sphinxExcluded...)
	if st, err := os.Stat(full); err != nil || !st.Mode().IsRegular() {
		return p, nil
	}
	p.Conf = conf
	data, err := cfgfile.Read(full)
	if err != nil {
		return nil, &cfgfile.Error{File: full, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	sc, err := needs.ReadSphinxConf(full, data)
	if err != nil {
		return nil, err
	}
	for _, list := range [][]string{sc.Exclude, sc.Templates, sc.Static} {
		for _, e := range list {
			if e = cleanRel(path.Clean(filepath.ToSlash(e))); e != "" {
				p.Exclude = append(p.Exclude, e)
			}
		}
	}
	if sc.Include != nil {
		p.Include = []string{}
		for _, e := range sc.Include {
			p.Include = append(p.Include, filepath.ToSlash(e))
		}
	}
	if sc.Suffixes != nil {
		p.Suffixes = sc.Suffixes
	}
	if sc.Encoding != "" {
		enc, ok := normaliseEncoding(sc.Encoding)
		if !ok {
			p.Notes = append(p.Notes, fmt.Sprintf("%s:%d: source_encoding %q is not one seg decodes: files are read as UTF-8 (a file that is not UTF-8 is invalid-encoding)", conf, sc.EncodingLine, sc.Encoding))
		}
		p.Encoding = enc
	}
	for _, c := range sc.Computed {
		p.Notes = append(p.Notes, conf+": "+c+" is computed by code seg does not run: seg reads as if it were not set")
	}
	return p, nil
}

// cleanRel is a slash path relative to the root with "." as "".
func cleanRel(p string) string {
	p = strings.TrimPrefix(p, "./")
	if p == "." {
		return ""
	}
	return strings.TrimSuffix(p, "/")
}

var (
	scoreDep      = lazyre.New(`\bscore_docs_as_code\b`)
	scoreConfPy   = lazyre.New(`\bscore_(metamodel|sphinx_bundle)\b`)
	docsCall      = lazyre.New(`(?m)^\s*docs\s*\(`)
	sourceDirWord = lazyre.New(`\bsource_dir\s*=\s*("[^"]*"|'[^']*')`)
)

// scoreSourceDir is the source folder of an Eclipse S-CORE repository:
// one whose MODULE.bazel depends on score_docs_as_code, or whose conf.py
// loads score_metamodel or score_sphinx_bundle. Its documentation is
// built by the docs() macro of the BUILD file at the root, whose
// source_dir is the source folder ("docs" when not given).
func scoreSourceDir(root string) (dir, why string, ok bool) {
	score := false
	if b, err := os.ReadFile(filepath.Join(root, "MODULE.bazel")); err == nil && scoreDep.Match(b) {
		score = true
	}
	if !score {
		for _, c := range confPyPlaces {
			if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c))); err == nil && scoreConfPy.Match(b) {
				score = true
				break
			}
		}
	}
	if !score {
		return "", "", false
	}
	for _, name := range []string{"BUILD", "BUILD.bazel"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			continue
		}
		loc := docsCall.FindIndex(b)
		if loc == nil {
			continue
		}
		args := callArgs(b[loc[1]:])
		if m := sourceDirWord.FindSubmatch(args); m != nil {
			d := cleanRel(path.Clean(string(m[1][1 : len(m[1])-1])))
			return d, "the source_dir of docs() in " + name, true
		}
		return "docs", "the default source_dir of docs() in " + name, true
	}
	return "docs", "S-CORE's default source folder (docs)", true
}

// callArgs is the text up to the parenthesis that closes the call whose
// arguments b starts with (strings skipped), or all of b.
func callArgs(b []byte) []byte {
	depth := 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"', '\'':
			for i++; i < len(b) && b[i] != c; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return b[:i]
			}
		}
	}
	return b
}

// A Listing is what a run reads of the tree and what it leaves out, each
// with why (seg check --list-files prints it).
type Listing struct {
	// Project is the Sphinx project the tree is read as, nil when it has
	// none.
	Project *Project
	// Files are the files read, sorted by path; Unlisted the folders that
	// could not be listed.
	Files, Unlisted []Listed
	// Left are the documents left out, sorted by path.
	Left []LeftOut
	// sourcelink is the suffix a Sphinx HTML build's _sources copy adds
	// to every file name ("" when the tree is the sources).
	sourcelink string
	// nested are the folders below the root with a conf.py of their own,
	// besides the project's.
	nested []string
	cfg    *parser.Config
	// included are the files includes pulled in (set by the run).
	included map[string]bool
}

// LeftOut is one document the listing leaves out, and why.
type LeftOut struct {
	Path string
	// Why is outside (not under the source folder), Nested (another
	// Sphinx project, Other names its folder) or Excluded (a pattern of
	// conf.py or Sphinx's own: Other names it).
	Why   LeftReason
	Other string
}

// LeftReason is why a document is left out.
type LeftReason uint8

const (
	Outside LeftReason = iota + 1
	Nested
	Excluded
	NotIncluded
)

// listSphinx lists the tree at root as Sphinx reads its project: the
// walk of the whole tree (walkTree: hidden names, _build, node_modules,
// vendor, seg.toml's exclude globs and linked folders are never read),
// narrowed to the source folder, less the folders that are Sphinx projects of
// their own and what Sphinx's exclusions name.
func listSphinx(root string, cfg *parser.Config, np *needs.Project) (*Listing, error) {
	if cfg == nil {
		cfg = parser.DefaultConfig()
	}
	p, err := findProject(root, np)
	if err != nil {
		return nil, err
	}
	l := &Listing{Project: p, cfg: cfg, sourcelink: cfg.SourcelinkSuffix}
	all, bad, confDirs, err := walkTree(root, cfg, l.isDoc)
	if err != nil {
		return nil, err
	}
	l.Unlisted = bad
	for _, d := range confDirs {
		if p == nil || d != p.Dir {
			l.nested = append(l.nested, d)
		}
	}
	for _, f := range all {
		lo := l.leftOut(f.Path)
		if lo.Why == 0 {
			l.Files = append(l.Files, f)
		} else {
			l.Left = append(l.Left, lo)
		}
	}
	return l, nil
}

// isDoc reports whether a file name has a document suffix.
func (l *Listing) isDoc(name string) bool {
	for _, s := range l.suffixes() {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return true
		}
	}
	return false
}

func (l *Listing) suffixes() []string {
	sfx := []string{".rst"}
	if l.Project != nil {
		sfx = l.Project.Suffixes
	}
	if l.sourcelink == "" {
		return sfx
	}
	out := make([]string, len(sfx))
	for i, s := range sfx {
		out[i] = s + l.sourcelink
	}
	return out
}

// leftOut says why the document at rel is left out (Why 0: it is read).
func (l *Listing) leftOut(rel string) LeftOut {
	// The innermost folder with a conf.py of its own is the project the
	// file belongs to.
	owner := ""
	for _, d := range l.nested {
		if under(rel, d) && len(d) >= len(owner) {
			owner = d
		}
	}
	p := l.Project
	if owner != "" && (p == nil || len(owner) > len(p.Dir) || !under(rel, p.Dir)) {
		return LeftOut{Path: rel, Why: Nested, Other: owner}
	}
	if p == nil {
		return LeftOut{Path: rel}
	}
	if !under(rel, p.Dir) {
		return LeftOut{Path: rel, Why: Outside}
	}
	in := strings.TrimPrefix(strings.TrimPrefix(rel, p.Dir), "/")
	if l.sourcelink != "" {
		in = strings.TrimSuffix(in, l.sourcelink)
	}
	if p.Within != "" {
		in = path.Join(p.Within, in)
	}
	// A folder Sphinx's exclusions name is not walked: nothing in it is
	// read, whatever the include patterns say.
	segs := strings.Split(in, "/")
	for i := 1; i < len(segs); i++ {
		dir := strings.Join(segs[:i], "/")
		for _, e := range p.Exclude {
			if glob.SphinxMatch(e, dir) {
				return LeftOut{Path: rel, Why: Excluded, Other: e}
			}
		}
	}
	if p.Include != nil {
		keep := false
		for _, pat := range p.Include {
			if glob.SphinxMatch(pat, in) {
				keep = true
				break
			}
		}
		if !keep {
			return LeftOut{Path: rel, Why: NotIncluded}
		}
	}
	for _, e := range p.Exclude {
		if glob.SphinxMatch(e, in) {
			return LeftOut{Path: rel, Why: Excluded, Other: e}
		}
	}
	return LeftOut{Path: rel}
}

// InTree reports whether the listing would read a document at rel (a
// slash path relative to the root) by its path alone, whether or not it
// exists (the language server asks it of a buffer not saved yet).
func (l *Listing) InTree(rel string) bool {
	if !l.isDoc(path.Base(rel)) {
		return false
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if s == "" || s == "." || s == ".." || strings.HasPrefix(s, ".") || i < len(segs)-1 && skippedDir(s) {
			return false
		}
		if excludedBySeg(l.cfg.Exclude, strings.Join(segs[:i+1], "/")) {
			return false
		}
	}
	return l.leftOut(rel).Why == 0
}

// under reports whether the slash path rel is in the folder dir ("" is
// the root).
func under(rel, dir string) bool {
	return dir == "" || strings.HasPrefix(rel, dir+"/")
}

// skippedDir are the folders a walk of the tree never enters: build
// output and other people's files.
func skippedDir(name string) bool {
	return name == "_build" || name == "node_modules" || name == "vendor"
}

func excludedBySeg(globs []string, rel string) bool {
	for _, g := range globs {
		if glob.Match(strings.Trim(strings.TrimPrefix(g, "./"), "/"), rel) {
			return true
		}
	}
	return false
}

// walkTree walks the tree without reading a file, listing every file
// isDoc accepts, and the folders that hold a conf.py.
func walkTree(root string, cfg *parser.Config, isDoc func(string) bool) (files, unlisted []Listed, confDirs []string, err error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, nil, err
	}
	if !st.IsDir() {
		return nil, nil, nil, fmt.Errorf("%s: not a folder", root)
	}
	walkRoot := root
	if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		walkRoot = root + string(filepath.Separator) + "."
	}
	err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			unlisted = append(unlisted, Listed{Path: rel, Type: fs.ModeDir, Err: err})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			rel = ""
		}
		name := d.Name()
		if rel != "" && (strings.HasPrefix(name, ".") || d.IsDir() && skippedDir(name) || excludedBySeg(cfg.Exclude, rel)) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if name == "conf.py" && d.Type().IsRegular() {
			confDirs = append(confDirs, cleanRel(path.Dir(rel)))
		}
		if !isDoc(name) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if t, err := os.Stat(p); err == nil && t.IsDir() {
				return nil
			}
		}
		files = append(files, Listed{Path: rel, Type: d.Type()})
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	sort.Strings(confDirs)
	return files, unlisted, confDirs, nil
}
