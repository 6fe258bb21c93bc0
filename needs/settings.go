package needs

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/internal/cfgfile"
)

// Settings is seg.toml's [needs] table: where the sphinx-needs project's
// configuration is and how its need types and link types map onto seg's
// kinds and edges (docs/sphinx-needs.md).
type Settings struct {
	// Config is the project's ubproject.toml (or conf.py), relative to
	// the root; default: ubproject.toml at the root, when there is one,
	// else the first conf.py that loads sphinx-needs.
	Config *string `toml:"config"`
	// Enabled false ignores the project even when ubproject.toml exists.
	Enabled *bool `toml:"enabled"`
	// Project and Version name the project in needs.json, over the
	// ubproject.toml's [project] name and version.
	Project *string `toml:"project"`
	Version *string `toml:"version"`
	// SphinxNeeds is the sphinx-needs version the project targets
	// ("8.2"), for how needs.json is written; default: the version the
	// project pins (target.go).
	SphinxNeeds *string `toml:"sphinx_needs"`
	// Types maps a need type (its directive) to a seg kind.
	Types map[string]string `toml:"types"`
	// Links maps a link option to seg edges (LinkMap).
	Links map[string]LinkMap `toml:"links"`
	// External maps the json_url of an external needs source (or a
	// needimport's URL) to a local copy, relative to the root: seg never
	// fetches anything.
	External map[string]string `toml:"external"`
}

// What a need type and a link type may be mapped onto. Outcomes and
// waivers stay seg's own directives: a need is a requirement, a test
// specification or an implementation.
var (
	needKinds = map[string]bool{"requirement": true, "test": true, "implementation": true}
	needEdges = map[string]bool{"refines": true, "verifies": true, "implements": true}
)

// Load reads the sphinx-needs project of the tree at root, or returns nil
// when the tree is none: seg.toml's [needs] table (s, nil when seg.toml
// has none; segFile and segRaw are seg.toml's name and bytes, for the
// lines of errors) names the project file, else ubproject.toml at the
// root, else the first conf.py that loads sphinx-needs
// (docs/sphinx-needs.md, "Where the project comes from"). Its error is a
// *cfgfile.Error: exit 2.
func Load(root string, s *Settings, segFile string, segRaw []byte) (*Project, error) {
	if s != nil && s.Enabled != nil && !*s.Enabled {
		return nil, nil
	}
	path, found, err := locate(root, s, segFile, segRaw)
	if err != nil {
		return nil, err
	}
	n := NewProject()
	src := projectSource{path: path, readTOML: path != ""}
	if strings.HasSuffix(path, ".py") {
		if err := src.confPy(root, found, n); err != nil {
			return nil, err
		}
	}
	if src.path == "" && s == nil {
		return nil, nil
	}
	if n.SrcDir == "" {
		n.SrcDir = root
	}
	if src.readTOML {
		if err := src.ubProject(root, n); err != nil {
			return nil, err
		}
	}
	if src.confRaw != nil {
		// conf.py's Sphinx settings (suppress_warnings, exclude_patterns)
		// count too: a cache key must hold them.
		n.Raw = append(append(append([]byte(nil), src.data...), 0), src.confRaw...)
	}
	if err := readUBProject(src.path, src.data, src.linkOrder, src.fieldOrder, &src.ub, n); err != nil {
		return nil, err
	}
	n.FilterDataUnknown = src.filterDataUnknown
	if src.variantUnknown {
		n.VariantData, n.VariantKnown = nil, false
	}
	n.Project, n.Version = src.ub.Project.Name, src.ub.Project.Version
	if src.confRaw != nil {
		// A project read from a ubproject.toml still has its conf.py,
		// whose project and version are what sphinx-needs writes into
		// needs.json; the file's [project] stands in where conf.py sets
		// none seg can read.
		name, version := confProject(src.confRaw)
		n.Project = cmp.Or(name, n.Project)
		n.Version = cmp.Or(version, n.Version)
	}
	var target *string
	if s != nil {
		if err := s.apply(root, segFile, segRaw, n); err != nil {
			return nil, err
		}
		target = s.SphinxNeeds
	}
	n.SortLinks = targetsSortedLinks(target, root, n.SrcDir)
	return n, nil
}

// projectSource is where a project's sphinx-needs settings are read
// from: the file at path (none when ""), decoded into ub (data is its
// text; linkOrder and fieldOrder its link and field keys in file order).
// A conf.py is read when it enables sphinx-needs; one whose
// needs_from_toml names a ubproject.toml hands over to that file
// (readTOML), and the source folder is then the conf.py's (srcdir).
// confRaw is the text of the conf.py that holds Sphinx's own settings
// beside a ubproject.toml.
type projectSource struct {
	path, srcdir          string
	readTOML              bool
	confRaw               []byte
	ub                    ubFile
	data                  []byte
	linkOrder, fieldOrder []string
	// filterDataUnknown, variantUnknown: conf.py computes them.
	filterDataUnknown, variantUnknown bool
}

// confPy reads the conf.py at src.path (found, when locate has read it
// already): its Sphinx settings into n, and either its sphinx-needs
// settings or the ubproject.toml it hands over to.
func (src *projectSource) confPy(root string, found *confPyNeeds, n *Project) error {
	src.readTOML = false
	cp, err := found, error(nil)
	if cp == nil {
		cp, err = readConfPyNeeds(src.path)
	}
	if cp != nil {
		n.Suppress, n.ExcludePatterns, n.Extensions = cp.suppress, cp.exclude, cp.extensions
	}
	switch {
	case err != nil:
		return err
	case cp == nil:
		src.path = ""
	case cp.toml != "":
		if !cfgfile.Present(cp.toml) {
			return &cfgfile.Error{File: src.path, Line: cp.tomlLine,
				Msg: fmt.Sprintf("needs_from_toml names %s, which is not there: if your build generates it (some toolchains write it from a metamodel), generate it before running seg, or commit it; [needs] config in seg.toml can name it", filepath.Base(cp.toml))}
		}
		src.path, src.srcdir, src.readTOML = cp.toml, cp.dir, true
		src.confRaw = cp.data
	default:
		src.ub, src.linkOrder, src.fieldOrder, src.data = cp.ub, cp.linkOrder, cp.fieldOrder, cp.data
		src.filterDataUnknown, src.variantUnknown = cp.filterDataUnknown, cp.variantUnknown
		n.File, n.Raw = src.path, src.data
		n.SrcDir = cp.dir
		n.setDocRoot(root, cp.dir)
	}
	return nil
}

// ubProject reads the ubproject.toml at src.path, its source folder, and
// (unless a conf.py handed over to it) the Sphinx settings of the
// conf.py in that folder.
func (src *projectSource) ubProject(root string, n *Project) error {
	var err error
	if src.data, src.linkOrder, src.fieldOrder, err = decodeUBProject(src.path, &src.ub); err != nil {
		return err
	}
	n.File, n.Raw = src.path, src.data
	if src.srcdir == "" {
		src.srcdir = filepath.Join(filepath.Dir(src.path), filepath.FromSlash(src.ub.Project.Srcdir))
	}
	n.SrcDir = src.srcdir
	n.setDocRoot(root, src.srcdir)
	if src.confRaw == nil {
		// Read from ubproject.toml first: the conf.py beside it still
		// holds Sphinx's own settings.
		n.Suppress, n.ExcludePatterns, n.Extensions, src.confRaw, err = readSphinxSettings(filepath.Join(src.srcdir, "conf.py"))
		if err != nil {
			return err
		}
	}
	return nil
}

// locate is the project file: seg.toml's [needs] config, else
// ubproject.toml at the root, else the first conf.py that loads
// sphinx-needs (read: found), else "".
func locate(root string, s *Settings, segFile string, segRaw []byte) (path string, found *confPyNeeds, err error) {
	if s != nil && s.Config != nil {
		path = filepath.Join(root, filepath.FromSlash(*s.Config))
		// A link to a missing file is there, and refused as such when read.
		if _, err := os.Lstat(path); err != nil {
			return "", nil, &cfgfile.Error{File: segFile, Line: cfgfile.LineInSection(segRaw, "needs", "config"),
				Msg: fmt.Sprintf("[needs] config %q: cannot read it: %v", *s.Config, errors.Unwrap(err))}
		}
		return path, nil, nil
	}
	p := filepath.Join(root, UBProjectFile)
	if st, err := os.Stat(p); cfgfile.Present(p) && (err != nil || !st.IsDir()) {
		return p, nil, nil
	}
	return findConfPy(root)
}

// setDocRoot sets the folder needs.json's docnames start at: Sphinx's
// source folder, relative to the root ("" for the root itself).
func (n *Project) setDocRoot(root, srcdir string) {
	if rel, err := filepath.Rel(root, srcdir); err == nil && !strings.HasPrefix(rel, "..") {
		if n.DocRoot = filepath.ToSlash(rel); n.DocRoot == "." {
			n.DocRoot = ""
		}
	}
}

// apply sets what seg.toml's [needs] table says of the project: its name
// and version, the local copies of URLs, and the mapping of its types and
// links ([needs.types], [needs.links]).
func (s *Settings) apply(root, segFile string, segRaw []byte, n *Project) error {
	if s.Project != nil {
		n.Project = *s.Project
	}
	if s.Version != nil {
		n.Version = *s.Version
	}
	n.Fetched = map[string]string{}
	for url, local := range s.External {
		n.Fetched[url] = filepath.Join(root, filepath.FromSlash(local))
	}
	fail := func(section, key, format string, args ...any) error {
		return &cfgfile.Error{File: segFile, Line: cfgfile.LineInSection(segRaw, section, key), Msg: fmt.Sprintf(format, args...)}
	}
	var types, links []string
	for _, t := range n.Types {
		types = append(types, t.Directive)
	}
	for _, l := range n.Links {
		links = append(links, l.Option)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Types)) {
		t := n.Type(strings.ToLower(k))
		if t == nil {
			return fail("needs.types", k, "[needs.types] %q is not a need type of the project%s (its types: %s)", k, diag.DidYouMean(k, types), strings.Join(types, ", "))
		}
		if !needKinds[s.Types[k]] {
			return fail("needs.types", k, "[needs.types] %s = %q: a need type maps onto requirement, test or implementation", k, s.Types[k])
		}
		t.Kind = s.Types[k]
	}
	for _, k := range slices.Sorted(maps.Keys(s.Links)) {
		l := n.Link(strings.ToLower(k))
		if l == nil {
			return fail("needs.links", k, "[needs.links] %q is not a link type of the project%s (its link types: %s)", k, diag.DidYouMean(k, links), strings.Join(links, ", "))
		}
		if err := s.Links[k].check(); err != nil {
			return fail("needs.links", k, "[needs.links] %s = %s: %v", k, s.Links[k], err)
		}
		s.Links[k].apply(l)
	}
	return nil
}
