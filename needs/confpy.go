package needs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/cfgfile"
)

// ConfPyPlaces are where a Sphinx project's conf.py is looked for when the
// root has no ubproject.toml: the root itself (the root is the Sphinx
// source folder) and the usual source folders under a repository's root.
var ConfPyPlaces = []string{"conf.py", "docs/conf.py", "doc/conf.py", "docs/source/conf.py", "doc/source/conf.py", "source/conf.py"}

// needsExtensions are the names under which a conf.py loads sphinx-needs.
var needsExtensions = []string{"sphinx_needs", "sphinxcontrib.needs"}

// ScoreExtensions are Eclipse S-CORE's Sphinx extensions that load
// sphinx-needs and define the project's need types from a metamodel.yaml
// (docs/score.md): a conf.py that loads one is a sphinx-needs project whose
// types seg reads from that metamodel.
var ScoreExtensions = []string{"score_metamodel", "score_sphinx_bundle"}

// findConfPy returns the first conf.py of ConfPyPlaces that loads
// sphinx-needs, and what it says; "" when none does. A conf.py that
// cannot be read (a FIFO, a link to a missing file) is an error: seg
// cannot tell whether it is the project's.
func findConfPy(root string) (string, *confPyNeeds, error) {
	for _, p := range ConfPyPlaces {
		full := filepath.Join(root, filepath.FromSlash(p))
		if !cfgfile.Present(full) {
			continue
		}
		if st, err := os.Stat(full); err == nil && st.IsDir() {
			continue
		}
		cp, err := readConfPyNeeds(full)
		if err != nil || cp != nil {
			return full, cp, err
		}
	}
	return "", nil, nil
}

// confPyNeeds is what a conf.py says of sphinx-needs.
type confPyNeeds struct {
	dir  string // the folder of conf.py: Sphinx's source folder
	toml string // needs_from_toml, resolved against dir; "" when not set
	// tomlLine is the line needs_from_toml is set on.
	tomlLine int
	ub       ubFile
	// linkOrder and fieldOrder are needs_links' and needs_fields' keys
	// in source order.
	linkOrder, fieldOrder []string
	data                  []byte
	// Sphinx's own settings: suppress_warnings, exclude_patterns,
	// extensions.
	suppress, exclude, extensions []string
	// filterDataUnknown and variantUnknown: needs_filter_data or the
	// variant data are computed, so seg does not know them.
	filterDataUnknown, variantUnknown bool
}

// readConfPyNeeds reads the sphinx-needs settings of the conf.py at path,
// or returns nil when it does not load sphinx-needs. A setting seg needs
// and cannot know without running Python is an error naming its line.
func readConfPyNeeds(path string) (*confPyNeeds, error) {
	data, err := cfgfile.Read(path)
	if err != nil {
		return nil, &cfgfile.Error{File: path, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	vars := readConfPy(string(data))
	if !loadsNeeds(vars, string(data)) {
		return nil, nil
	}
	cp := &confPyNeeds{dir: filepath.Dir(path), data: data}
	if cp.suppress, cp.exclude, cp.extensions, err = sphinxSettings(path, vars); err != nil {
		return nil, err
	}
	r := pyConf{path: path, vars: vars}
	if s, ok, err := r.str("needs_from_toml"); err != nil {
		return nil, err
	} else if ok {
		cp.toml = filepath.Join(cp.dir, filepath.FromSlash(s))
		cp.tomlLine = vars["needs_from_toml"].line
		return cp, nil
	}
	for _, read := range []func(*confPyNeeds) error{r.project, r.types, r.links, r.options, r.ids, r.external, r.stringLinks, r.data} {
		if err := read(cp); err != nil {
			return nil, err
		}
	}
	return cp, nil
}

// pyConf reads the settings of a conf.py, each as the shape it must have.
type pyConf struct {
	path string
	vars map[string]pyVar
}

func (r pyConf) fail(line int, format string, args ...any) error {
	return &cfgfile.Error{File: r.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// get returns a setting's value, nil when it is not set.
func (r pyConf) get(name string) (any, int, error) {
	v, ok := r.vars[name]
	if !ok {
		return nil, 0, nil
	}
	if u, unknown := v.val.(pyUnknown); unknown {
		return nil, u.line, r.fail(u.line, "%s: seg reads conf.py without running it, and %s; write the sphinx-needs configuration to a ubproject.toml (needs_from_toml) or name one in seg.toml's [needs] config", name, u.why)
	}
	return v.val, v.line, nil
}

func (r pyConf) str(name string) (string, bool, error) {
	v, line, err := r.get(name)
	if err != nil || v == nil {
		return "", false, err
	}
	s, ok := v.(string)
	if !ok {
		return "", false, r.fail(line, "%s is not a string", name)
	}
	return s, true, nil
}

// list and dict return a setting that must be a list or a dict; nil when
// it is not set.
func (r pyConf) list(name string) ([]any, int, error) {
	v, line, err := r.get(name)
	if err != nil || v == nil {
		return nil, line, err
	}
	items, ok := v.([]any)
	if !ok {
		return nil, line, r.fail(line, "%s is not a list", name)
	}
	return items, line, nil
}

func (r pyConf) dict(name string) (*pyDict, int, error) {
	v, line, err := r.get(name)
	if err != nil || v == nil {
		return nil, line, err
	}
	d, ok := v.(*pyDict)
	if !ok {
		return nil, line, r.fail(line, "%s is not a dict", name)
	}
	return d, line, nil
}

// dicts is a setting that must be a list of dicts.
func (r pyConf) dicts(name string) ([]*pyDict, error) {
	items, line, err := r.list(name)
	if err != nil {
		return nil, err
	}
	out := make([]*pyDict, 0, len(items))
	for i, it := range items {
		d, ok := it.(*pyDict)
		if !ok {
			return nil, r.fail(line, "%s: entry %d is not a dict", name, i+1)
		}
		out = append(out, d)
	}
	return out, nil
}

// project reads the project's name and version: Sphinx's project and
// version, which sphinx-needs writes into needs.json as "project" and
// "current_version" (release is another setting, which it does not
// write).
func (r pyConf) project(cp *confPyNeeds) error {
	for _, set := range []struct {
		name string
		to   *string
	}{{"project", &cp.ub.Project.Name}, {"version", &cp.ub.Project.Version}} {
		s, _, err := r.str(set.name)
		if err != nil {
			return err
		}
		*set.to = s
	}
	return nil
}

// confProject is what a conf.py's text sets as project and version, ""
// where it sets no string seg can read without running it: a project read
// from a ubproject.toml names itself there, or takes these.
func confProject(data []byte) (project, version string) {
	vars := readConfPy(string(data))
	project, _ = vars["project"].val.(string)
	version, _ = vars["version"].val.(string)
	return project, version
}

// types reads needs_types, a list of dicts.
func (r pyConf) types(cp *confPyNeeds) error {
	if _, set := r.vars["needs_types"]; !set {
		return nil
	}
	ds, err := r.dicts("needs_types")
	if err != nil {
		return err
	}
	cp.ub.Needs.Types = []ubType{}
	for _, d := range ds {
		var t ubType
		if s, ok := d.vals["directive"].(string); ok {
			t.Directive = &s
		}
		t.Title, t.Prefix, t.Color, t.Style = pyStr(d, "title"), pyStr(d, "prefix"), pyStr(d, "color"), pyStr(d, "style")
		cp.ub.Needs.Types = append(cp.ub.Needs.Types, t)
	}
	return nil
}

// links reads needs_extra_links (a list of dicts) and sphinx-needs 8's
// needs_links ({"name": {...}}), and the order of needs_fields.
func (r pyConf) links(cp *confPyNeeds) error {
	link := func(d *pyDict) ubLink {
		var l ubLink
		if s, ok := d.vals["option"].(string); ok {
			l.Option = &s
		}
		l.Incoming, l.Outgoing = pyStr(d, "incoming"), pyStr(d, "outgoing")
		if b, ok := d.vals["copy"].(bool); ok {
			l.Copy = &b
		}
		if b, ok := d.vals["allow_dead_links"].(bool); ok {
			l.AllowDeadLinks = &b
		}
		if b, ok := d.vals["parse_conditions"].(bool); ok {
			l.ParseConditions = &b
		}
		return l
	}
	ds, err := r.dicts("needs_extra_links")
	if err != nil {
		return err
	}
	for _, d := range ds {
		cp.ub.Needs.ExtraLinks = append(cp.ub.Needs.ExtraLinks, link(d))
	}
	if d, _, err := r.dict("needs_links"); err != nil {
		return err
	} else if d != nil {
		cp.ub.Needs.Links = map[string]ubLink{}
		for _, k := range d.keys {
			sub, _ := d.vals[k].(*pyDict)
			if sub == nil {
				sub = &pyDict{vals: map[string]any{}}
			}
			cp.ub.Needs.Links[k] = link(sub)
			cp.linkOrder = append(cp.linkOrder, k)
		}
	}
	if d, _, err := r.dict("needs_fields"); err != nil {
		return err
	} else if d != nil {
		cp.fieldOrder = slices.Clone(d.keys)
	}
	return nil
}

// options reads needs_extra_options: names, or dicts with a name.
func (r pyConf) options(cp *confPyNeeds) error {
	items, _, err := r.list("needs_extra_options")
	if err != nil {
		return err
	}
	for _, it := range items {
		switch x := it.(type) {
		case string:
			cp.ub.Needs.ExtraOptions = append(cp.ub.Needs.ExtraOptions, x)
		case *pyDict:
			cp.ub.Needs.ExtraOptions = append(cp.ub.Needs.ExtraOptions, map[string]any{"name": pyStr(x, "name")})
		default:
			cp.ub.Needs.ExtraOptions = append(cp.ub.Needs.ExtraOptions, nil)
		}
	}
	return nil
}

// ids reads what shapes IDs and titles: needs_id_regex, needs_id_required,
// needs_id_length, needs_max_title_length, needs_id_from_title and
// needs_title_from_content.
func (r pyConf) ids(cp *confPyNeeds) error {
	un := &cp.ub.Needs
	if s, ok, err := r.str("needs_id_regex"); err != nil {
		return err
	} else if ok {
		un.IDRegex = &s
	}
	// In order, so that the first bad setting is the one reported.
	for _, set := range []struct {
		name string
		to   **int
	}{{"needs_id_length", &un.IDLength}, {"needs_max_title_length", &un.MaxTitleLength}} {
		name, to := set.name, set.to
		if v, line, err := r.get(name); err != nil {
			return err
		} else if v != nil {
			i, ok := v.(int64)
			if !ok {
				return r.fail(line, "%s is not an integer", name)
			}
			n := int(i)
			*to = &n
		}
	}
	for _, set := range []struct {
		name string
		to   **bool
	}{{"needs_id_required", &un.IDRequired}, {"needs_id_from_title", &un.IDFromTitle}, {"needs_title_from_content", &un.TitleFromContent}} {
		name, to := set.name, set.to
		if v, line, err := r.get(name); err != nil {
			return err
		} else if v != nil {
			b, ok := v.(bool)
			if !ok {
				return r.fail(line, "%s is not True or False", name)
			}
			*to = &b
		}
	}
	return nil
}

// external reads needs_external_needs, a list of dicts.
func (r pyConf) external(cp *confPyNeeds) error {
	ds, err := r.dicts("needs_external_needs")
	if err != nil {
		return err
	}
	for _, d := range ds {
		cp.ub.Needs.ExternalNeeds = append(cp.ub.Needs.ExternalNeeds, ubExternal{
			BaseURL: pyStr(d, "base_url"), JSONURL: pyStr(d, "json_url"), JSONPath: pyStr(d, "json_path"),
			Version: pyStr(d, "version"), IDPrefix: pyStr(d, "id_prefix")})
	}
	return nil
}

// stringLinks reads needs_string_links, a dict of dicts.
func (r pyConf) stringLinks(cp *confPyNeeds) error {
	d, line, err := r.dict("needs_string_links")
	if err != nil || d == nil {
		return err
	}
	cp.ub.Needs.StringLinks = map[string]ubStringLink{}
	for _, k := range d.keys {
		sub, ok := d.vals[k].(*pyDict)
		if !ok {
			return r.fail(line, "needs_string_links: %q is not a dict", k)
		}
		var l ubStringLink
		str := func(key string) *string {
			if s, ok := sub.vals[key].(string); ok {
				return &s
			}
			return nil
		}
		l.Regex, l.LinkURL, l.LinkName = str("regex"), str("link_url"), str("link_name")
		if opts, ok := sub.vals["options"].([]any); ok {
			l.Options = []string{}
			for _, o := range opts {
				if s, ok := o.(string); ok {
					l.Options = append(l.Options, s)
				}
			}
		}
		cp.ub.Needs.StringLinks[k] = l
	}
	return nil
}

// data reads needs_import_keys (a dict of strings), needs_filter_data and
// needs_variant_data (dicts of literals) and needs_variant_data_file. A
// needs_filter_data seg cannot know without running Python is left out
// and marked: a filter that reads a name seg does not know is then
// unsupported rather than wrong.
func (r pyConf) data(cp *confPyNeeds) error {
	un := &cp.ub.Needs
	if d, line, err := r.dict("needs_import_keys"); err != nil {
		return err
	} else if d != nil {
		un.ImportKeys = map[string]string{}
		for _, k := range d.keys {
			s, ok := d.vals[k].(string)
			if !ok {
				return r.fail(line, "needs_import_keys: the value of %q is not a string", k)
			}
			un.ImportKeys[k] = s
		}
	}
	if v, ok := r.vars["needs_filter_data"]; ok {
		if _, unknown := v.val.(pyUnknown); unknown {
			cp.filterDataUnknown = true
		} else if d, line, err := r.dict("needs_filter_data"); err != nil {
			return err
		} else {
			un.FilterData = map[string]any{}
			for _, k := range d.keys {
				if _, unknown := d.vals[k].(pyUnknown); unknown {
					return r.fail(line, "needs_filter_data: seg cannot know the value of %q without running conf.py", k)
				}
				un.FilterData[k] = d.vals[k]
			}
		}
	}
	if v, ok := r.vars["needs_variant_data"]; ok {
		if _, unknown := v.val.(pyUnknown); unknown {
			cp.variantUnknown = true
		} else if d, _, err := r.dict("needs_variant_data"); err != nil {
			return err
		} else {
			un.VariantData = map[string]any{}
			for _, k := range d.keys {
				un.VariantData[k] = d.vals[k]
			}
		}
	}
	if v, ok := r.vars["needs_variant_data_file"]; ok {
		if s, isStr := v.val.(string); isStr {
			un.VariantDataFile = &s
		} else {
			cp.variantUnknown = true
		}
	}
	return nil
}

// loadsNeeds reports whether a conf.py loads sphinx-needs: its extensions
// list names it, or, when the list is not a literal, its text does.
func loadsNeeds(vars map[string]pyVar, src string) bool {
	v, ok := vars["extensions"]
	if list, isList := v.val.([]any); ok && isList {
		for _, e := range list {
			if s, _ := e.(string); slices.Contains(needsExtensions, s) || slices.Contains(ScoreExtensions, s) {
				return true
			}
		}
		return false
	}
	for _, e := range slices.Concat(needsExtensions, ScoreExtensions) {
		if strings.Contains(src, `"`+e+`"`) || strings.Contains(src, "'"+e+"'") {
			return true
		}
	}
	return false
}

func pyStr(d *pyDict, key string) string {
	s, _ := d.vals[key].(string)
	return s
}

// ConfPy is what seg can tell of a tree's Sphinx conf.py without running
// it, for the message of a tree whose needs seg cannot map.
type ConfPy struct {
	// Path is the first conf.py of the usual places, "" when none.
	Path string
	// Extensions are its extensions, when they are a literal list, and
	// Line the line they are set on.
	Extensions []string
	Line       int
	// LoadsNeeds: they name sphinx-needs.
	LoadsNeeds bool
}

// FindConfPy looks at the first conf.py of the usual places under root.
func FindConfPy(root string) ConfPy {
	for _, p := range ConfPyPlaces {
		full := filepath.Join(root, filepath.FromSlash(p))
		if st, err := os.Stat(full); err != nil || !st.Mode().IsRegular() {
			continue
		}
		data, err := cfgfile.Read(full)
		if err != nil {
			return ConfPy{Path: full}
		}
		vars := readConfPy(string(data))
		c := ConfPy{Path: full, LoadsNeeds: loadsNeeds(vars, string(data))}
		if v, ok := vars["extensions"]; ok {
			c.Line = v.line
			if items, isList := v.val.([]any); isList {
				for _, it := range items {
					if s, ok := it.(string); ok {
						c.Extensions = append(c.Extensions, s)
					}
				}
			}
		}
		return c
	}
	return ConfPy{}
}

// OtherExtensions are the extensions of a list that are neither Sphinx's
// own (sphinx.ext.*) nor sphinx-needs: any of them may register need
// types seg cannot see.
func OtherExtensions(exts []string) []string {
	var out []string
	for _, e := range exts {
		if strings.HasPrefix(e, "sphinx.ext.") || slices.Contains(needsExtensions, e) || slices.Contains(ScoreExtensions, e) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// sphinxSettings are the Sphinx settings of a conf.py seg reads besides
// sphinx-needs' own: suppress_warnings, exclude_patterns and extensions.
// One that is computed (exclude_patterns += os.getenv(...).split(","), as
// sphinx-needs' own documentation writes it) is left unset rather than
// refused: seg then reads the files Sphinx might leave out, and silences
// no warning.
func sphinxSettings(path string, vars map[string]pyVar) (suppress, exclude, extensions []string, err error) {
	strList := func(name string) ([]string, error) {
		v, ok := vars[name]
		if !ok {
			return nil, nil
		}
		items, isList := v.val.([]any)
		if !isList {
			if _, unknown := v.val.(pyUnknown); unknown {
				return nil, nil
			}
			return nil, &cfgfile.Error{File: path, Line: v.line, Msg: name + " is not a list"}
		}
		var out []string
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return nil, &cfgfile.Error{File: path, Line: v.line, Msg: fmt.Sprintf("%s: entry %d is not a string", name, i+1)}
			}
			out = append(out, s)
		}
		return out, nil
	}
	if suppress, err = strList("suppress_warnings"); err != nil {
		return
	}
	if exclude, err = strList("exclude_patterns"); err != nil {
		return
	}
	if v, ok := vars["extensions"]; ok {
		if items, isList := v.val.([]any); isList {
			for _, it := range items {
				if s, ok := it.(string); ok {
					extensions = append(extensions, s)
				}
			}
		}
	}
	return
}

// readSphinxSettings reads the Sphinx settings of the conf.py at path, when
// there is one (a project read from its ubproject.toml still has a conf.py
// beside it, which Sphinx reads first); data is its bytes, nil when none.
func readSphinxSettings(path string) (suppress, exclude, extensions []string, data []byte, err error) {
	if st, serr := os.Stat(path); serr != nil || !st.Mode().IsRegular() {
		return nil, nil, nil, nil, nil
	}
	data, err = cfgfile.Read(path)
	if err != nil {
		return nil, nil, nil, nil, &cfgfile.Error{File: path, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	suppress, exclude, extensions, err = sphinxSettings(path, readConfPy(string(data)))
	return suppress, exclude, extensions, data, err
}

// ConfPyValue is a top-level setting of the conf.py at path as seg reads
// it without running Python: its value (strings, numbers, lists, ...),
// the line it is set on, and whether seg could tell its value (known) and
// whether the file sets it at all (set). why says what seg could not tell.
func ConfPyValue(path, name string) (val any, line int, known, set bool, why string) {
	data, err := cfgfile.Read(path)
	if err != nil {
		return nil, 0, false, false, err.Error()
	}
	v, ok := readConfPy(string(data))[name]
	if !ok {
		return nil, 0, false, false, ""
	}
	if u, unknown := v.val.(pyUnknown); unknown {
		return nil, v.line, false, true, u.why
	}
	return v.val, v.line, true, true, ""
}
