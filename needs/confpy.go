package needs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/cfgfile"
)

// confPyPlaces are where a Sphinx project's conf.py is looked for when the
// root has no ubproject.toml: the root itself (the root is the Sphinx
// source folder) and the usual source folders under a repository's root.
var confPyPlaces = []string{"conf.py", "docs/conf.py", "doc/conf.py", "docs/source/conf.py", "doc/source/conf.py", "source/conf.py"}

// needsExtensions are the names under which a conf.py loads sphinx-needs.
var needsExtensions = []string{"sphinx_needs", "sphinxcontrib.needs"}

// findConfPy returns the first conf.py of confPyPlaces that loads
// sphinx-needs, and what it says; "" when none does. A conf.py that
// cannot be read (a FIFO, a link to a missing file) is an error: seg
// cannot tell whether it is the project's.
func findConfPy(root string) (string, *confPyNeeds, error) {
	for _, p := range confPyPlaces {
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
	ub   ubFile
	// linkOrder and fieldOrder are needs_links' and needs_fields' keys
	// in source order.
	linkOrder, fieldOrder []string
	data                  []byte
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
	fail := func(line int, format string, args ...any) error {
		return &cfgfile.Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	// get returns a setting's value, nil when it is not set.
	get := func(name string) (any, int, error) {
		v, ok := vars[name]
		if !ok {
			return nil, 0, nil
		}
		if u, unknown := v.val.(pyUnknown); unknown {
			return nil, u.line, fail(u.line, "%s: seg reads conf.py without running it, and %s; write the sphinx-needs configuration to a ubproject.toml (needs_from_toml) or name one in seg.toml's [needs] config", name, u.why)
		}
		return v.val, v.line, nil
	}
	str := func(name string) (string, bool, error) {
		v, line, err := get(name)
		if err != nil || v == nil {
			return "", false, err
		}
		s, ok := v.(string)
		if !ok {
			return "", false, fail(line, "%s is not a string", name)
		}
		return s, true, nil
	}

	// list and dict return a setting that must be a list or a dict; nil
	// when it is not set.
	list := func(name string) ([]any, int, error) {
		v, line, err := get(name)
		if err != nil || v == nil {
			return nil, line, err
		}
		items, ok := v.([]any)
		if !ok {
			return nil, line, fail(line, "%s is not a list", name)
		}
		return items, line, nil
	}
	dict := func(name string) (*pyDict, int, error) {
		v, line, err := get(name)
		if err != nil || v == nil {
			return nil, line, err
		}
		d, ok := v.(*pyDict)
		if !ok {
			return nil, line, fail(line, "%s is not a dict", name)
		}
		return d, line, nil
	}

	if s, ok, err := str("needs_from_toml"); err != nil {
		return nil, err
	} else if ok {
		cp.toml = filepath.Join(cp.dir, filepath.FromSlash(s))
		return cp, nil
	}
	ub := &cp.ub
	if s, _, err := str("project"); err != nil {
		return nil, err
	} else {
		ub.Project.Name = s
	}
	for _, name := range []string{"version", "release"} {
		if s, ok, err := str(name); err != nil {
			return nil, err
		} else if ok && ub.Project.Version == "" {
			ub.Project.Version = s
		}
	}

	// needs_types: a list of dicts.
	if items, line, err := list("needs_types"); err != nil {
		return nil, err
	} else if items != nil {
		ub.Needs.Types = []ubType{}
		for i, it := range items {
			d, ok := it.(*pyDict)
			if !ok {
				return nil, fail(line, "needs_types: entry %d is not a dict", i+1)
			}
			var t ubType
			if s, ok := d.vals["directive"].(string); ok {
				t.Directive = &s
			}
			t.Title = pyStr(d, "title")
			t.Prefix = pyStr(d, "prefix")
			t.Color = pyStr(d, "color")
			t.Style = pyStr(d, "style")
			ub.Needs.Types = append(ub.Needs.Types, t)
		}
	}

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
		return l
	}
	if items, line, err := list("needs_extra_links"); err != nil {
		return nil, err
	} else {
		for i, it := range items {
			d, ok := it.(*pyDict)
			if !ok {
				return nil, fail(line, "needs_extra_links: entry %d is not a dict", i+1)
			}
			ub.Needs.ExtraLinks = append(ub.Needs.ExtraLinks, link(d))
		}
	}
	// sphinx-needs 8: needs_links = {"name": {...}}, needs_fields = {"name": {...}}.
	if d, _, err := dict("needs_links"); err != nil {
		return nil, err
	} else if d != nil {
		ub.Needs.Links = map[string]ubLink{}
		for _, k := range d.keys {
			sub, _ := d.vals[k].(*pyDict)
			if sub == nil {
				sub = &pyDict{vals: map[string]any{}}
			}
			ub.Needs.Links[k] = link(sub)
			cp.linkOrder = append(cp.linkOrder, k)
		}
	}
	if d, _, err := dict("needs_fields"); err != nil {
		return nil, err
	} else if d != nil {
		cp.fieldOrder = slices.Clone(d.keys)
	}
	if items, _, err := list("needs_extra_options"); err != nil {
		return nil, err
	} else {
		for _, it := range items {
			switch x := it.(type) {
			case string:
				ub.Needs.ExtraOptions = append(ub.Needs.ExtraOptions, x)
			case *pyDict:
				ub.Needs.ExtraOptions = append(ub.Needs.ExtraOptions, map[string]any{"name": pyStr(x, "name")})
			default:
				ub.Needs.ExtraOptions = append(ub.Needs.ExtraOptions, nil)
			}
		}
	}
	if s, ok, err := str("needs_id_regex"); err != nil {
		return nil, err
	} else if ok {
		ub.Needs.IDRegex = &s
	}
	if v, line, err := get("needs_id_required"); err != nil {
		return nil, err
	} else if v != nil {
		b, ok := v.(bool)
		if !ok {
			return nil, fail(line, "needs_id_required is not True or False")
		}
		ub.Needs.IDRequired = &b
	}
	return cp, nil
}

// loadsNeeds reports whether a conf.py loads sphinx-needs: its extensions
// list names it, or, when the list is not a literal, its text does.
func loadsNeeds(vars map[string]pyVar, src string) bool {
	v, ok := vars["extensions"]
	if list, isList := v.val.([]any); ok && isList {
		for _, e := range list {
			if s, _ := e.(string); slices.Contains(needsExtensions, s) {
				return true
			}
		}
		return false
	}
	for _, e := range needsExtensions {
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
