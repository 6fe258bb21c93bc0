package check

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/cache"
	"github.com/seg-trace/seg/codetags"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/safefile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/rules/metamodel"
	"github.com/seg-trace/seg/source"
)

// codeRead is what the code tags scan of a run gave: implementation
// nodes at the tags, and the scan's diagnostics.
type codeRead struct {
	nodes []parser.Node
	diags diag.List
	// key identifies what the scan found (files, sums, tags), so that a
	// live run whose scan found the same can hand the last run's nodes on.
	key string
}

// ScansCode reports whether a run scans source files for code tags
// (docs/codetags.md): seg.toml has a [code] table, the tree is an S-CORE
// tree, or ubproject.toml has sphinx-codelinks projects.
func (t *Tree) ScansCode() bool {
	_, ok := t.codeInput()
	return ok
}

// codeInput is the scan a run of t makes, and whether it makes one.
func (t *Tree) codeInput() (codetags.Input, bool) {
	cfg := t.Config
	st := codetags.DefaultSettings()
	if len(cfg.Code.Tags) > 0 {
		st.Syntaxes = map[string]bool{}
		for _, n := range cfg.Code.Tags {
			st.Syntaxes[n] = true
		}
	}
	for _, e := range cfg.Code.Custom {
		if re, err := codetags.CompileCustom(e); err == nil {
			st.Custom = append(st.Custom, re)
		}
	}
	projects := t.codelinksProjects()
	score, confDir := isSCORE(t.Root, cfg.Needs)
	st.Codelinks = projects
	in := codetags.Input{Root: t.Root, Settings: st}
	l := &in.Listing
	l.Root = t.Root
	switch {
	case cfg.Code.Paths != nil:
		l.Patterns = cfg.Code.Paths
	case cfg.Code.Set:
		l.Patterns = []string{"**"}
	case score:
		l.Patterns, l.SCORE = []string{"**"}, true
	case len(projects) > 0:
		for _, p := range projects {
			l.Patterns = append(l.Patterns, cmpOr(p.Dir, "**"))
			for _, x := range p.Exclude {
				if p.Dir != "" {
					x = p.Dir + "/" + x
				}
				l.Exclude = append(l.Exclude, x)
			}
		}
	default:
		return in, false
	}
	// The documentation tree: Sphinx's source folder (the sphinx-needs
	// project's, else that of the conf.py that made the tree an S-CORE
	// one), unless it is the root.
	docRoot := confDir
	if cfg.Needs != nil && cfg.Needs.DocRoot != "" {
		docRoot = cfg.Needs.DocRoot
	}
	pc := cfg.Parser
	l.Skip = func(rel string, dir bool) bool {
		if docRoot != "" && (rel == docRoot || strings.HasPrefix(rel, docRoot+"/")) {
			return true
		}
		return !dir && inTree(rel, pc)
	}
	return in, true
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// codelinksProjects are the [codelinks] projects of the tree's
// ubproject.toml (the project file, else the one at the root), nil when
// there are none or the file cannot be read as such (sphinx-needs'
// reading of it reports that).
func (t *Tree) codelinksProjects() []codetags.CodelinksProject {
	name := ""
	if f := t.Config.NeedsFile; strings.HasSuffix(f, needs.UBProjectFile) {
		name = f
	} else if p := filepath.Join(t.Root, needs.UBProjectFile); fileExists(p) {
		name = p
	}
	if name == "" {
		return nil
	}
	data, err := safefile.Read(name)
	if err != nil || !bytes.Contains(data, []byte("codelinks")) {
		return nil
	}
	dir := ""
	if r, err := filepath.Rel(t.Root, filepath.Dir(name)); err == nil && r != "." && !strings.HasPrefix(r, "..") {
		dir = filepath.ToSlash(r)
	}
	ps, err := codetags.ReadCodelinks(dir, data)
	if err != nil {
		return nil
	}
	return ps
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// isSCORE reports whether the tree is an Eclipse S-CORE tree: its conf.py
// loads S-CORE's docs-as-code extensions, or MODULE.bazel depends on
// score_docs_as_code. confDir is the folder, relative to the root, of the
// conf.py that said so ("" for none or the root).
func isSCORE(root string, p *needs.Project) (score bool, confDir string) {
	if p != nil {
		for _, e := range p.Extensions {
			if e == "score_metamodel" || e == "score_sphinx_bundle" {
				score = true
			}
		}
		if bytes.Contains(p.Raw, []byte("score_metamodel")) || bytes.Contains(p.Raw, []byte("score_sphinx_bundle")) {
			score = true
		}
	}
	// S-CORE's conf.py need not load sphinx-needs by name (the bundle
	// does): the usual places of a conf.py are read too.
	places := slices.Clone(confPyPlaces)
	if p != nil && p.SrcDir != "" {
		places = append(places, filepath.Join(p.SrcDir, "conf.py"))
	}
	for _, c := range places {
		if !filepath.IsAbs(c) {
			c = filepath.Join(root, c)
		}
		if data, err := safefile.Read(c); err == nil && (bytes.Contains(data, []byte("score_metamodel")) || bytes.Contains(data, []byte("score_sphinx_bundle"))) {
			if r, err := filepath.Rel(root, filepath.Dir(c)); err == nil && r != "." && !strings.HasPrefix(r, "..") {
				confDir = filepath.ToSlash(r)
			}
			return true, confDir
		}
	}
	if score {
		return true, ""
	}
	return metamodel.DependsOnDocsAsCode(root), ""
}

// codeTags scans the tree's code and makes an implementation node of
// every tag (package codetags). Through the parse cache, a file whose
// identity is what it was is not read again. lm, when not nil, is the
// last live run's: a scan that found what the last one found gives the
// last run's nodes (the same slice), so the graph can be patched.
func (t *Tree) codeTags(o Options, fset *source.FileSet, overlay func(string) ([]byte, bool), lm *liveMemo) codeRead {
	in, ok := t.codeInput()
	if !ok {
		return codeRead{}
	}
	var store *cache.CodeTags
	if o.Cache != nil && !o.Cache.Overlaps(t.Root) {
		store = o.Cache.CodeTags(in.Settings.Key())
		in.Store = store
		defer store.Save()
	}
	in.Overlay = overlay
	res := codetags.Scan(in)
	key := scanKey(res)
	first := len(fset.Files())
	if lm != nil && lm.code.key == key && lm.code.key != "" && lm.code.first == first {
		// Keep the files the last run added, for the positions of its nodes.
		for _, f := range lm.code.files {
			fset.Keep(f)
		}
		return lm.code.read
	}
	var cfgSpan source.Span
	if t.Config.File != "" {
		cf := fset.Add(configName(t.Root, t.Config.File), len(t.Config.Raw), source.Newlines)
		raw := t.Config.Raw
		cf.SetReader(func() ([]byte, error) { return raw, nil })
		if t.Config.Code.Line > 0 {
			cfgSpan = source.At(cf.Mark(t.Config.Code.Line, 1))
		} else {
			cfgSpan = source.At(cf.Whole())
		}
	}
	// A one-line need's type is a need type of the project or one of
	// seg's directives.
	p := t.Config.Needs
	kindOf := func(typ string) parser.Kind {
		if p != nil {
			if nt := p.Type(typ); nt != nil {
				k, _ := parser.KindByName(nt.Kind)
				return k
			}
		}
		return t.Config.Parser.Directives[strings.ToLower(typ)]
	}
	made := codetags.Nodes(fset, t.Root, res, kindOf, cfgSpan)
	out := codeRead{nodes: made.Nodes, diags: made.Diags, key: key}
	if lm != nil {
		lm.code.key, lm.code.read, lm.code.first = key, out, first
		lm.code.files = slices.Clone(fset.Files()[first:])
	}
	return out
}

// scanKey writes what a scan found, every file with its sum and tags.
func scanKey(res codetags.Result) string {
	var b strings.Builder
	for _, f := range res.Files {
		b.WriteString(f.Path)
		b.WriteByte(0)
		b.WriteString(f.Sum)
		b.WriteByte('\n')
	}
	for _, u := range res.Listed.Unreadable {
		b.WriteString("unreadable " + u.Path + "\n")
	}
	for _, u := range res.Listed.Unmatched {
		b.WriteString("unmatched " + u + "\n")
	}
	return b.String()
}
