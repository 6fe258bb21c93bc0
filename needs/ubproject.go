package needs

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/internal/lazyre"
)

// UBProjectFile is the file a sphinx-needs project keeps its configuration
// in (sphinx-needs' needs_from_toml, ubCode), looked for at the root.
const UBProjectFile = "ubproject.toml"

// ubFile is what seg reads of a ubproject.toml (or of a conf.py, which
// fills the same shape); every other key (layouts, flow configs, schemas,
// ...) is left alone.
type ubFile struct {
	Project struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
		// Srcdir is ubCode's documentation folder (where conf.py is),
		// relative to the file: Sphinx's document names start there.
		Srcdir string `toml:"srcdir"`
	} `toml:"project"`
	Needs ubNeeds `toml:"needs"`
}

// ubNeeds is what seg reads of the [needs] table.
type ubNeeds struct {
	Types        []ubType          `toml:"types"`
	ExtraLinks   []ubLink          `toml:"extra_links"`
	Links        map[string]ubLink `toml:"links"`
	ExtraOptions []any             `toml:"extra_options"`
	Fields       map[string]any    `toml:"fields"`
	IDRegex      *string           `toml:"id_regex"`
	IDRequired   *bool             `toml:"id_required"`
	// How sphinx-needs makes IDs and titles it is not given.
	IDLength         *int                    `toml:"id_length"`
	IDFromTitle      *bool                   `toml:"id_from_title"`
	TitleFromContent *bool                   `toml:"title_from_content"`
	MaxTitleLength   *int                    `toml:"max_title_length"`
	ExternalNeeds    []ubExternal            `toml:"external_needs"`
	StringLinks      map[string]ubStringLink `toml:"string_links"`
	// What needimport, filters and variant data references read.
	ImportKeys      map[string]string `toml:"import_keys"`
	FilterData      map[string]any    `toml:"filter_data"`
	VariantData     map[string]any    `toml:"variant_data"`
	VariantDataFile *string           `toml:"variant_data_file"`
}

type ubExternal struct {
	BaseURL  string `toml:"base_url"`
	JSONURL  string `toml:"json_url"`
	JSONPath string `toml:"json_path"`
	Version  string `toml:"version"`
	IDPrefix string `toml:"id_prefix"`
}

type ubStringLink struct {
	Regex    *string  `toml:"regex"`
	LinkURL  *string  `toml:"link_url"`
	LinkName *string  `toml:"link_name"`
	Options  []string `toml:"options"`
}

type ubType struct {
	Directive *string `toml:"directive"`
	Title     string  `toml:"title"`
	Prefix    string  `toml:"prefix"`
	Color     string  `toml:"color"`
	Style     string  `toml:"style"`
}

type ubLink struct {
	Option         *string `toml:"option"`
	Incoming       string  `toml:"incoming"`
	Outgoing       string  `toml:"outgoing"`
	Copy           *bool   `toml:"copy"`
	AllowDeadLinks *bool   `toml:"allow_dead_links"`
	// ParseConditions false: brackets after an ID are part of it.
	ParseConditions *bool `toml:"parse_conditions"`
}

// directiveRx is what docutils accepts as a directive name (simple
// reference names: alphanumerics and isolated - _ . : +).
var directiveRx = lazyre.New(`^[A-Za-z0-9]+([-_.:+][A-Za-z0-9]+)*$`)

// optionRx is an option name: anything a field marker can hold that a
// TOML key can sensibly name.
var optionRx = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9_.+!-]*$`)

// decodeUBProject reads the ubproject.toml at path into ub; linkOrder and
// fieldOrder are the keys of its [needs.links] and [needs.fields] in file
// order.
func decodeUBProject(path string, ub *ubFile) (data []byte, linkOrder, fieldOrder []string, err error) {
	data, err = cfgfile.Read(path)
	if err != nil {
		return nil, nil, nil, &cfgfile.Error{File: path, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	md, err := toml.Decode(string(data), ub)
	if err != nil {
		return nil, nil, nil, cfgfile.DecodeError(path, data, err)
	}
	return data, cfgfile.TableKeys(md, "needs", "links"), cfgfile.TableKeys(md, "needs", "fields"), nil
}

// readUBProject fills n from a decoded ubproject.toml or conf.py (path ""
// for none: sphinx-needs' defaults). linkOrder and fieldOrder are the keys
// of [needs.links] and [needs.fields] in file order.
func readUBProject(path string, data []byte, linkOrder, fieldOrder []string, ub *ubFile, n *Project) error {
	r := ubReader{path: path, data: data, n: n}
	un := &ub.Needs
	if err := r.types(un.Types); err != nil {
		return err
	}
	for i, l := range un.ExtraLinks {
		name := ""
		if l.Option != nil {
			name = *l.Option
		}
		if err := r.link("extra_links", i, name, l); err != nil {
			return err
		}
	}
	// sphinx-needs 8's [needs.links.NAME] tables, in file order.
	for i, name := range linkOrder {
		if err := r.link("links", i, name, un.Links[name]); err != nil {
			return err
		}
	}
	if err := r.extraOptions(un.ExtraOptions); err != nil {
		return err
	}
	if err := r.fields(fieldOrder, un.Fields); err != nil {
		return err
	}
	return readIDs(path, data, un, n)
}

// ubReader adds what a ubproject.toml (or conf.py) at path, whose text is
// data, declares to n.
type ubReader struct {
	path string
	data []byte
	n    *Project
}

// fail is an error at line of the file.
func (r ubReader) fail(line int, format string, args ...any) error {
	return &cfgfile.Error{File: r.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// types adds the need types, sphinx-needs' defaults when none are set;
// each needs a directive name of its own.
func (r ubReader) types(types []ubType) error {
	if types == nil {
		for _, t := range DefaultTypes() {
			r.n.AddType(t)
		}
	}
	seen := map[string]bool{}
	for i, t := range types {
		if t.Directive == nil || *t.Directive == "" {
			return r.fail(cfgfile.NthLine(r.data, "types", i), "[needs] types: entry %d has no directive", i+1)
		}
		d := strings.ToLower(*t.Directive)
		line := cfgfile.LineOfValue(r.data, "types", *t.Directive)
		if !directiveRx.MatchString(d) {
			return r.fail(line, "[needs] types: %q is not a directive name", *t.Directive)
		}
		if seen[d] {
			return r.fail(line, "[needs] types: directive %q is defined twice", *t.Directive)
		}
		seen[d] = true
		r.n.AddType(NeedType{Directive: d, Title: t.Title, Prefix: t.Prefix, Color: t.Color, Style: t.Style})
	}
	return nil
}

// link adds the link type name, entry i of where (extra_links or links),
// which must be an option name and not one of sphinx-needs' own.
func (r ubReader) link(where string, i int, name string, l ubLink) error {
	line := cfgfile.LineOfValue(r.data, where, name)
	if name == "" {
		return r.fail(cfgfile.NthLine(r.data, where, i), "[needs] %s: entry %d has no option", where, i+1)
	}
	if !optionRx.MatchString(name) {
		return r.fail(line, "[needs] %s: %q is not an option name", where, name)
	}
	if o := strings.ToLower(name); o == "id" || slices.Contains(CoreOptions, o) {
		return r.fail(line, "[needs] %s: %q is one of sphinx-needs' own options", where, name)
	}
	r.n.AddLink(LinkType{
		Option: name, Incoming: l.Incoming, Outgoing: l.Outgoing,
		Copy: l.Copy != nil && *l.Copy, AllowDead: l.AllowDeadLinks != nil && *l.AllowDeadLinks,
		NoConditions: l.ParseConditions != nil && !*l.ParseConditions,
	})
	return nil
}

// extraOptions adds the extra_options entries: names, or tables with a
// name (and nullable).
func (r ubReader) extraOptions(opts []any) error {
	for i, o := range opts {
		name := ""
		switch v := o.(type) {
		case string:
			name = v
		case map[string]any:
			name, _ = v["name"].(string)
		}
		if name == "" {
			return r.fail(cfgfile.LineOfKey(r.data, "extra_options"), "[needs] extra_options: entry %d is neither a name nor a table with a name", i+1)
		}
		if !optionRx.MatchString(name) {
			return r.fail(cfgfile.LineOfValue(r.data, "extra_options", name), "[needs] extra_options: %q is not an option name", name)
		}
		r.n.AddOption(name)
		if t, ok := o.(map[string]any); ok && t["nullable"] == true {
			r.n.SetNullable(name)
		}
	}
	return nil
}

// fields adds the [needs.fields] options, in file order (order).
func (r ubReader) fields(order []string, fields map[string]any) error {
	for _, name := range order {
		if !optionRx.MatchString(name) {
			return r.fail(cfgfile.LineOfValue(r.data, "fields", name), "[needs] fields: %q is not an option name", name)
		}
		r.n.AddOption(name)
		if t, ok := fields[name].(map[string]any); ok && t["nullable"] == true {
			r.n.SetNullable(name)
		}
	}
	return nil
}

// readIDs reads what shapes IDs and titles, the external needs and the
// string links of a decoded file.
func readIDs(path string, data []byte, un *ubNeeds, n *Project) error {
	fail := func(line int, format string, args ...any) error {
		return &cfgfile.Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	n.IDRequired = un.IDRequired != nil && *un.IDRequired
	n.IDRequiredSet, n.IDPatternSet = un.IDRequired != nil, un.IDRegex != nil
	pat := DefaultIDPattern
	if un.IDRegex != nil {
		pat = *un.IDRegex
	}
	re, err := compileIDRegex(pat)
	if err != nil {
		return fail(cfgfile.LineOfKey(data, "id_regex"), "[needs] id_regex is not a regular expression seg can use (Go RE2 syntax): %v", err)
	}
	n.IDPattern = re
	if un.IDLength != nil {
		n.IDLength = *un.IDLength
	}
	n.IDFromTitle = un.IDFromTitle != nil && *un.IDFromTitle
	n.TitleFromContent = un.TitleFromContent != nil && *un.TitleFromContent
	if un.MaxTitleLength != nil {
		n.MaxTitleLength = *un.MaxTitleLength
	}
	// A relative json_path starts at the folder of the file that names
	// it (sphinx-needs reads a needs_from_toml file's paths from its own
	// folder); "" is the source folder (conf.py's), filled in later.
	base := ""
	if path != "" && !strings.HasSuffix(path, ".py") {
		base = filepath.Dir(path)
	}
	for i, e := range un.ExternalNeeds {
		line := cfgfile.NthLine(data, "external_needs", i)
		switch {
		case e.JSONPath != "" && e.JSONURL != "":
			return fail(line, "[needs] external_needs: entry %d has both json_path and json_url; sphinx-needs takes one", i+1)
		case e.JSONPath == "" && e.JSONURL == "":
			return fail(line, "[needs] external_needs: entry %d has neither json_path nor json_url", i+1)
		}
		n.External = append(n.External, ExternalSource{JSONPath: e.JSONPath, JSONURL: e.JSONURL, Version: e.Version,
			IDPrefix: strings.ToUpper(e.IDPrefix), BaseURL: e.BaseURL, Line: line, Base: base})
	}
	if err := readData(path, data, un, n); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(un.StringLinks)) {
		l := un.StringLinks[name]
		line := cfgfile.LineOfValue(data, "string_links", name)
		if l.Regex == nil || l.LinkURL == nil || l.LinkName == nil || l.Options == nil {
			return fail(line, "[needs] string_links %q: it needs regex, link_url, link_name and options", name)
		}
		rx, err := regexp.Compile(*l.Regex)
		if err != nil {
			return fail(line, "[needs] string_links %q: the regex is not one seg can use (Go RE2 syntax): %v", name, err)
		}
		n.StringLinks = append(n.StringLinks, StringLink{Name: name, Regex: rx, LinkURL: *l.LinkURL, LinkName: *l.LinkName, Options: l.Options})
	}
	return nil
}

// compileIDRegex compiles sphinx-needs' id_regex, which it applies with
// Python's re.match: anchored at the start only.
func compileIDRegex(pat string) (*regexp.Regexp, error) {
	if _, err := regexp.Compile(pat); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(pat, "^") || strings.Contains(pat, "|") {
		pat = "^(?:" + pat + ")"
	}
	return regexp.Compile(pat)
}
