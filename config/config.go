// Package config reads seg.toml, the optional configuration at a tree's
// root, into what the parser and the results reader need.
package config

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/seg-trace/seg/internal/cfgfile"
	"github.com/seg-trace/seg/needs"
	"github.com/seg-trace/seg/parser"
)

// FileName is the config file seg looks for at the root.
const FileName = "seg.toml"

// ResultsRule applies witnesses and a configuration name to the results
// files a glob names (a [[results]] table).
type ResultsRule struct {
	Path      string
	Witnesses []string
	Config    string
}

// Config is the whole configuration.
type Config struct {
	// File is the config file read, "" when the tree has none.
	File    string
	Parser  *parser.Config
	Results []ResultsRule
	// Raw is the file's bytes, so a cache key can include them.
	Raw []byte
	// AllowEmpty is allow_empty: a tree with no requirement is no error.
	AllowEmpty bool
	// NeedsFile is the sphinx-needs project file read (ubproject.toml or
	// conf.py), "" when none; NeedsRaw is its bytes. Parser.Needs is what
	// was read of it (package needs).
	NeedsFile string
	NeedsRaw  []byte

	needs      *needs.Settings   // seg.toml's [needs] table
	directives map[string]string // seg.toml's [directives], lower-cased
}

// Error is a problem with the config file, with the line it is on (0 when
// unknown). It always means exit code 2.
type Error = cfgfile.Error

type fileFormat struct {
	IDPattern         *string           `toml:"id_pattern"`
	Exclude           []string          `toml:"exclude"`
	ExtraOptions      []string          `toml:"extra_options"`
	LiteralDirectives []string          `toml:"literal_directives"`
	Directives        map[string]string `toml:"directives"`
	Results           []struct {
		Path      string   `toml:"path"`
		Witnesses []string `toml:"witnesses"`
		Config    string   `toml:"config"`
	} `toml:"results"`
	Needs *needs.Settings `toml:"needs"`
	// AllowEmpty: a tree without any requirement passes (no-requirements).
	AllowEmpty bool `toml:"allow_empty"`
}

// Load reads the config: explicit when it is not "", else seg.toml at the
// root when it exists, else the defaults.
func Load(root, explicit string) (*Config, error) {
	path := explicit
	if path == "" {
		path = filepath.Join(root, FileName)
		if !cfgfile.Present(path) {
			c := &Config{Parser: parser.DefaultConfig()}
			if err := loadNeeds(root, c); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	data, err := cfgfile.Read(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read config: %v", err)}
	}
	c, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if err := loadNeeds(root, c); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse reads config text; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	var f fileFormat
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, cfgfile.DecodeError(name, data, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0]
		return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, key[len(key)-1]),
			Msg: fmt.Sprintf("unknown key %q (known: id_pattern, exclude, extra_options, literal_directives, allow_empty, [directives], [[results]], [needs])", key.String())}
	}
	pc := parser.DefaultConfig()
	c := &Config{File: name, Parser: pc, Raw: data, needs: f.Needs, directives: map[string]string{}, AllowEmpty: f.AllowEmpty}
	if f.IDPattern != nil {
		re, err := regexp.Compile(*f.IDPattern)
		if err != nil {
			return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, "id_pattern"), Msg: fmt.Sprintf("id_pattern is not a valid regular expression: %v", err)}
		}
		pc.IDPattern = re
	}
	for _, g := range f.Exclude {
		if _, err := filepath.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil {
			return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, "exclude"), Msg: fmt.Sprintf("exclude glob %q is malformed", g)}
		}
	}
	pc.Exclude = f.Exclude
	for _, o := range f.ExtraOptions {
		pc.ExtraOptions[strings.ToLower(o)] = true
	}
	for _, d := range f.LiteralDirectives {
		pc.Literal[strings.ToLower(d)] = true
	}
	names := make([]string, 0, len(f.Directives))
	for d := range f.Directives {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		k, ok := parser.KindByName(f.Directives[d])
		if !ok {
			return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, d),
				Msg: fmt.Sprintf("directive %q maps to unknown kind %q (want requirement, test, implementation, outcome or waiver)", d, f.Directives[d])}
		}
		if k == parser.Need {
			return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, d),
				Msg: fmt.Sprintf("directive %q maps to kind \"need\": need types come from the sphinx-needs project (see [needs])", d)}
		}
		pc.Directives[strings.ToLower(d)] = k
		c.directives[strings.ToLower(d)] = f.Directives[d]
	}
	for _, r := range f.Results {
		if r.Path == "" {
			return nil, &Error{File: name, Line: cfgfile.LineOfKey(data, "[[results]]"), Msg: "a [[results]] table needs a path"}
		}
		c.Results = append(c.Results, ResultsRule{Path: r.Path, Witnesses: r.Witnesses, Config: r.Config})
	}
	return c, nil
}

// loadNeeds sets c.Parser.Needs when the tree is a sphinx-needs project
// (needs.Load says where the project comes from). A need type may not also
// be one of seg.toml's own [directives].
func loadNeeds(root string, c *Config) error {
	p, err := needs.Load(root, c.needs, c.File, c.Raw)
	if err != nil || p == nil {
		return err
	}
	for _, t := range p.Types {
		if _, own := c.directives[t.Directive]; own {
			return &Error{File: c.File, Line: cfgfile.LineInSection(c.Raw, "directives", t.Directive),
				Msg: fmt.Sprintf("directive %q is a need type of the sphinx-needs project; map it in [needs.types] instead", t.Directive)}
		}
	}
	c.NeedsFile, c.NeedsRaw = p.File, p.Raw
	c.Parser.UseNeeds(p)
	// Sphinx's exclude_patterns are relative to its source folder and
	// match as seg's exclude globs do (a folder excludes what is in it).
	for _, pat := range p.ExcludePatterns {
		c.Parser.Exclude = append(c.Parser.Exclude, path.Join(p.DocRoot, pat))
	}
	return nil
}
