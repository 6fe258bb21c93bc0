package needs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/seg-trace/seg/internal/cfgfile"
)

// SphinxConf is what seg reads of any Sphinx conf.py, whether or not it
// loads sphinx-needs: the settings that decide which files Sphinx reads
// and how it decodes them. Patterns and paths are as written, relative to
// the conf.py's folder.
type SphinxConf struct {
	// Exclude and Include are exclude_patterns and include_patterns
	// (Sphinx's glob syntax); Include is nil when not set (Sphinx's
	// default, "**", reads every file).
	Exclude, Include []string
	// Templates and Static are templates_path and html_static_path:
	// folders Sphinx never reads documents from.
	Templates, Static []string
	// Encoding is source_encoding as written, "" when not set (Sphinx
	// reads utf-8-sig then); EncodingLine the line it is set on.
	Encoding     string
	EncodingLine int
	// Suffixes are the suffixes of source_suffix that Sphinx parses as
	// reStructuredText, nil when not set (".rst").
	Suffixes []string
	// Extensions are the extensions, when they are a literal list.
	Extensions []string
	// Computed names the settings above that are set by code seg does
	// not run, each with its line ("exclude_patterns (line 12)"): seg
	// then reads as if they were not set.
	Computed []string
}

// ReadSphinxConf reads the Sphinx settings of the conf.py whose text is
// data (path names it in errors). A setting of the wrong shape (a number
// for exclude_patterns) is an error naming its line.
func ReadSphinxConf(path string, data []byte) (*SphinxConf, error) {
	vars := readConfPy(string(data))
	c := &SphinxConf{}
	computed := func(name string, v pyVar) {
		c.Computed = append(c.Computed, fmt.Sprintf("%s (line %d)", name, v.line))
	}
	strList := func(name string, single bool) ([]string, bool, error) {
		v, ok := vars[name]
		if !ok {
			return nil, false, nil
		}
		if _, unknown := v.val.(pyUnknown); unknown {
			computed(name, v)
			return nil, false, nil
		}
		if s, isStr := v.val.(string); isStr && single {
			return []string{s}, true, nil
		}
		items, isList := v.val.([]any)
		if !isList {
			return nil, false, &cfgfile.Error{File: path, Line: v.line, Msg: name + " is not a list"}
		}
		out := []string{}
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				if _, unknown := it.(pyUnknown); unknown {
					computed(name, v)
					return nil, false, nil
				}
				return nil, false, &cfgfile.Error{File: path, Line: v.line, Msg: fmt.Sprintf("%s: entry %d is not a string", name, i+1)}
			}
			out = append(out, s)
		}
		return out, true, nil
	}
	var err error
	if c.Exclude, _, err = strList("exclude_patterns", false); err != nil {
		return nil, err
	}
	var set bool
	if c.Include, set, err = strList("include_patterns", false); err != nil {
		return nil, err
	} else if !set {
		c.Include = nil
	}
	if c.Templates, _, err = strList("templates_path", false); err != nil {
		return nil, err
	}
	if c.Static, _, err = strList("html_static_path", false); err != nil {
		return nil, err
	}
	if v, ok := vars["source_encoding"]; ok {
		switch e := v.val.(type) {
		case string:
			c.Encoding, c.EncodingLine = e, v.line
		case pyUnknown:
			computed("source_encoding", v)
		default:
			return nil, &cfgfile.Error{File: path, Line: v.line, Msg: "source_encoding is not a string"}
		}
	}
	if v, ok := vars["source_suffix"]; ok {
		switch s := v.val.(type) {
		case *pyDict:
			// {".rst": "restructuredtext", ".md": "markdown"}: only the
			// suffixes parsed as reStructuredText are seg's.
			for _, k := range s.keys {
				if p, _ := s.vals[k].(string); p == "restructuredtext" {
					c.Suffixes = append(c.Suffixes, k)
				}
			}
			if c.Suffixes == nil {
				c.Suffixes = []string{}
			}
		default:
			if c.Suffixes, _, err = strList("source_suffix", true); err != nil {
				return nil, err
			}
			// A list's suffixes other than .rst may belong to another
			// parser (MyST's .md): only the ones that are RST by name
			// are read.
			if c.Suffixes != nil {
				var rst []string
				for _, s := range c.Suffixes {
					if strings.HasSuffix(s, ".rst") || strings.HasSuffix(s, ".txt") || strings.HasSuffix(s, ".rest") {
						rst = append(rst, s)
					}
				}
				c.Suffixes = append([]string{}, rst...)
			}
		}
	}
	if v, ok := vars["extensions"]; ok {
		if items, isList := v.val.([]any); isList {
			for _, it := range items {
				if s, ok := it.(string); ok {
					c.Extensions = append(c.Extensions, s)
				}
			}
		}
	}
	sort.Strings(c.Computed)
	return c, nil
}
