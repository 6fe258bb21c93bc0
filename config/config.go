// Package config reads seg.toml, the optional configuration at a tree's
// root, into what the parser and the results reader need.
package config

import (
	"fmt"
	"github.com/seg-trace/seg/rules/metamodel"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/seg-trace/seg/diag"
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
	// Flaky is the table's rerun policy: FlakyFailed (the default: every
	// run counts) or FlakyPassed.
	Flaky string
	// Line is the line of the table's [[results]] header, 0 when unknown.
	Line int
}

// The rerun policies of results files (docs/results.md, "Reruns").
const (
	// FlakyFailed: every run of a case is an outcome of its own, so a run
	// that failed before a rerun passed still counts. The default.
	FlakyFailed = "failed"
	// FlakyPassed: a case whose last run passed counts once, as passed;
	// its earlier runs are listed as excluded (flaky-rerun).
	FlakyPassed = "passed"
)

// Config is the whole configuration.
type Config struct {
	// File is the config file read, "" when the tree has none.
	File    string
	Parser  *parser.Config
	Results []ResultsRule
	// ResultsFlaky is the [results] table's flaky: the rerun policy of the
	// results files named on the command line (FlakyFailed when unset).
	ResultsFlaky string
	// Raw is the file's bytes, so a cache key can include them.
	Raw []byte
	// FailOn is [check] fail_on as written: --fail-on words (check owns
	// the vocabulary, check.ParseFailOn); nil when not set. FailOnLine is
	// the line it is on, for an error about it.
	FailOn     []string
	FailOnLine int
	// AllowEmpty is allow_empty: a tree with no requirement is no error.
	AllowEmpty bool
	// NeedsFile is the sphinx-needs project file read (ubproject.toml or
	// conf.py), "" when none; NeedsRaw is its bytes. Needs is what was
	// read of it (package needs), nil when the tree is no sphinx-needs
	// project; Parser.Needs holds its tables (&Needs.Tables), all the
	// parser reads of it.
	NeedsFile string
	NeedsRaw  []byte
	Needs     *needs.Project

	// RequirePins is [review] require-pins: an unpinned link counts as
	// stale (docs/revisions.md, "Strict review").
	RequirePins bool
	// MaxAgeDays is [evidence] max-age-days: the maximum age of every
	// test's outcomes (0: none).
	MaxAgeDays int
	// WaiverWarnDays is [check] waiver_warn_days: how many days before
	// its expiry a waiver gets expiring-waiver (30 unless set; 0: never).
	WaiverWarnDays int
	// Verification properties, full verification and the [policy]
	// table: evidence.go.
	EvidencePolicy

	// Ignores are the [[check.ignore]] tables: findings known and
	// accepted, by path and code (ignore.go).
	Ignores []Ignore

	// Matrix is seg.toml's [matrix] table: the HTML page's columns and
	// the name of the tree in its heading (docs/matrix.md).
	Matrix MatrixConfig

	// Code is the [code] table: the code tags scan (docs/codetags.md).
	Code CodeConfig

	// Metamodel is the S-CORE metamodel.yaml the tree is checked against
	// (docs/score.md), nil when none; MetamodelFound says where it was
	// found and what of conf.py its rules read.
	Metamodel      *metamodel.Metamodel
	MetamodelFound metamodel.Found
	// RuleSeverity is [rules] severity as written: a rule's code mapped to
	// "error", "warning" or "off" (package rules owns the vocabulary);
	// RuleSeverityLine is the line of a code in it.
	RuleSeverity     map[string]string
	RuleSeverityLine func(code string) int

	needsSettings *needs.Settings   // seg.toml's [needs] table
	directives    map[string]string // seg.toml's [directives], lower-cased
}

// MatrixConfig is the [matrix] table.
type MatrixConfig struct {
	Columns []string
	Title   string
	// ColumnsLine is the line of the columns key, for an error about a
	// name (checked by the command, which knows the column names).
	ColumnsLine int
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
	// Results is either [results] (resultsTable) or [[results]] tables
	// (resultsRule each): TOML allows one of the two in a file.
	Results toml.Primitive  `toml:"results"`
	Needs   *needs.Settings `toml:"needs"`
	// AllowEmpty: a tree without any requirement passes (no-requirements).
	AllowEmpty bool `toml:"allow_empty"`
	Matrix     *struct {
		Columns []string `toml:"columns"`
		Title   string   `toml:"title"`
	} `toml:"matrix"`
	Check *struct {
		// FailOn is a list of words, or one string of words separated by
		// commas, as --fail-on takes them.
		FailOn any `toml:"fail_on"`
		// WaiverWarnDays is how many days before its expiry a waiver
		// gets expiring-waiver.
		WaiverWarnDays *int64 `toml:"waiver_warn_days"`
		// Ignore are the [[check.ignore]] tables (ignore.go).
		Ignore []ignoreRule `toml:"ignore"`
	} `toml:"check"`
	Review   *reviewSection   `toml:"review"`
	Evidence *evidenceSection `toml:"evidence"`
	// SourcelinkSuffix: the tree is a Sphinx HTML build's _sources
	// folder, whose file names carry this suffix (docs/check.md).
	SourcelinkSuffix string `toml:"sourcelink_suffix"`
	// Policy is the [policy] table (evidence.go).
	Policy map[string]any `toml:"policy"`
	Code   *codeSection   `toml:"code"`

	Rules *rulesSection `toml:"rules"`
}

// rulesSection is seg.toml's [rules] table (docs/score.md).
type rulesSection struct {
	Severity map[string]string `toml:"severity"`
}

// DefaultWaiverWarnDays is how early a waiver's expiry is warned of when
// seg.toml does not say.
const DefaultWaiverWarnDays = 30

// reviewSection is seg.toml's [review] table (docs/revisions.md).
type reviewSection struct {
	RequirePins bool `toml:"require-pins"`
}

// evidenceSection is seg.toml's [evidence] table.
type evidenceSection struct {
	MaxAgeDays *int64 `toml:"max-age-days"`
	// Properties and FullVerification: evidence.go.
	Properties       map[string]string `toml:"properties"`
	FullVerification bool              `toml:"full-verification"`
}

type resultsRule struct {
	Path      string   `toml:"path"`
	Witnesses []string `toml:"witnesses"`
	Config    string   `toml:"config"`
	Flaky     *string  `toml:"flaky"`
}

type resultsTable struct {
	Flaky *string `toml:"flaky"`
}

// Load reads the config: explicit when it is not "", else seg.toml at the
// root when it exists, else the defaults.
func Load(root, explicit string) (*Config, error) {
	path := explicit
	if path == "" {
		path = filepath.Join(root, FileName)
		if !cfgfile.Present(path) {
			c := &Config{Parser: parser.DefaultConfig(), WaiverWarnDays: DefaultWaiverWarnDays}
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
	if err := c.checkPolicies(); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse reads config text; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	var f fileFormat
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		e := cfgfile.DecodeError(name, data, err)
		if strings.Contains(e.Msg, "'results'") {
			e.Msg += resultsBothHint
		}
		return nil, e
	}
	c := &Config{File: name, Parser: parser.DefaultConfig(), Raw: data, needsSettings: f.Needs, directives: map[string]string{}, WaiverWarnDays: DefaultWaiverWarnDays, AllowEmpty: f.AllowEmpty}
	if err := c.readResults(name, data, md, f.Results); err != nil {
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, undecodedKey(name, data, md, und[0])
	}
	if err := c.readWaiverWarnDays(&f); err != nil {
		return nil, err
	}
	if f.Review != nil {
		c.RequirePins = f.Review.RequirePins
	}
	if err := c.readMaxAge(&f); err != nil {
		return nil, err
	}
	if err := c.readEvidence(&f); err != nil {
		return nil, err
	}
	if err := c.readFailOn(&f); err != nil {
		return nil, err
	}
	if err := c.readIgnores(&f); err != nil {
		return nil, err
	}
	if err := c.readParserOptions(&f); err != nil {
		return nil, err
	}
	if err := c.readDirectives(f.Directives); err != nil {
		return nil, err
	}
	if err := c.readCode(&f); err != nil {
		return nil, err
	}
	if f.Rules != nil {
		c.RuleSeverity = f.Rules.Severity
		c.RuleSeverityLine = func(code string) int {
			if l := cfgfile.LineInSection(data, "rules.severity", code); l > 0 {
				return l
			}
			return cfgfile.LineInSection(data, "rules", "severity")
		}
	}
	if f.Matrix != nil {
		c.Matrix = MatrixConfig{Columns: f.Matrix.Columns, Title: f.Matrix.Title, ColumnsLine: cfgfile.LineOfKey(data, "columns")}
	}
	return c, nil
}

// undecodedKey is the error for a key of the file that seg does not know.
func undecodedKey(name string, data []byte, md toml.MetaData, key toml.Key) error {
	if len(key) == 2 && key[0] == "results" && md.Type("results") == "Hash" {
		return &Error{File: name, Line: cfgfile.LineOfKey(data, key[1]),
			Msg: fmt.Sprintf("unknown key %q ([results] holds flaky only; results files are named in [[results]] tables (two brackets): path, witnesses, config, flaky)", key.String())}
	}
	return unknownKey(name, data, key)
}

// readWaiverWarnDays reads [check] waiver_warn_days: 0 or more days.
func (c *Config) readWaiverWarnDays(f *fileFormat) error {
	if f.Check == nil || f.Check.WaiverWarnDays == nil {
		return nil
	}
	d := *f.Check.WaiverWarnDays
	if d < 0 || d > 1<<20 {
		return &Error{File: c.File, Line: cfgfile.LineInSection(c.Raw, "check", "waiver_warn_days"), Msg: fmt.Sprintf("[check] waiver_warn_days must be a whole number of days, 0 or more, not %d", d)}
	}
	c.WaiverWarnDays = int(d)
	return nil
}

// readMaxAge reads [evidence] max-age-days: 1 day or more.
func (c *Config) readMaxAge(f *fileFormat) error {
	if f.Evidence == nil || f.Evidence.MaxAgeDays == nil {
		return nil
	}
	d := *f.Evidence.MaxAgeDays
	if d < 1 || d > 1<<20 {
		return &Error{File: c.File, Line: cfgfile.LineInSection(c.Raw, "evidence", "max-age-days"), Msg: fmt.Sprintf("[evidence] max-age-days must be a positive whole number of days, not %d", d)}
	}
	c.MaxAgeDays = int(d)
	return nil
}

// readFailOn reads [check] fail_on, a string or a list of strings; an
// empty list is kept (and refused later), not taken as unset.
func (c *Config) readFailOn(f *fileFormat) error {
	if f.Check == nil || f.Check.FailOn == nil {
		return nil
	}
	c.FailOnLine = cfgfile.LineInSection(c.Raw, "check", "fail_on")
	notWords := &Error{File: c.File, Line: c.FailOnLine, Msg: "[check] fail_on is a list of words (strings), such as [\"errors\", \"failing\"]"}
	switch v := f.Check.FailOn.(type) {
	case string:
		c.FailOn = []string{v}
	case []any:
		c.FailOn = []string{}
		for _, w := range v {
			s, ok := w.(string)
			if !ok {
				return notWords
			}
			c.FailOn = append(c.FailOn, s)
		}
	default:
		return notWords
	}
	return nil
}

// readParserOptions reads what the parser is told: the ID pattern, the
// globs of files left out, extra options and literal directives.
func (c *Config) readParserOptions(f *fileFormat) error {
	pc := c.Parser
	if f.IDPattern != nil {
		re, err := regexp.Compile(*f.IDPattern)
		if err != nil {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "id_pattern"), Msg: fmt.Sprintf("id_pattern is not a valid regular expression: %v", err)}
		}
		pc.IDPattern = re
	}
	for _, g := range f.Exclude {
		if _, err := filepath.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "exclude"), Msg: fmt.Sprintf("exclude glob %q is malformed", g)}
		}
	}
	pc.Exclude = f.Exclude
	if f.SourcelinkSuffix != "" && (!strings.HasPrefix(f.SourcelinkSuffix, ".") || strings.ContainsAny(f.SourcelinkSuffix, "/\\*?[")) {
		return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, "sourcelink_suffix"), Msg: fmt.Sprintf("sourcelink_suffix %q is not a file name suffix (such as \".txt\")", f.SourcelinkSuffix)}
	}
	pc.SourcelinkSuffix = f.SourcelinkSuffix
	for _, o := range f.ExtraOptions {
		pc.ExtraOptions[strings.ToLower(o)] = true
	}
	for _, d := range f.LiteralDirectives {
		pc.Literal[strings.ToLower(d)] = true
	}
	return nil
}

// NoDirective is the value of a [directives] entry that gives a name away:
// seg reads no node from a directive of that name (a built-in one such as
// test included), so another extension's directive of that name is not
// seg's.
const NoDirective = "none"

// readDirectives reads [directives], which maps directive names to seg's
// kinds (need is not one: need types come from sphinx-needs), or to
// NoDirective, in the order of the names.
func (c *Config) readDirectives(directives map[string]string) error {
	names := make([]string, 0, len(directives))
	for d := range directives {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if directives[d] == NoDirective {
			delete(c.Parser.Directives, strings.ToLower(d))
			continue
		}
		k, ok := parser.KindByName(directives[d])
		if !ok {
			kinds := []string{"requirement", "test", "implementation", "outcome", "waiver", NoDirective}
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, d),
				Msg: fmt.Sprintf("directive %q maps to unknown kind %q%s (want requirement, test, implementation, outcome or waiver, or none to give the name away)", d, directives[d], diag.DidYouMean(directives[d], kinds))}
		}
		if k == parser.Need {
			return &Error{File: c.File, Line: cfgfile.LineOfKey(c.Raw, d),
				Msg: fmt.Sprintf("directive %q maps to kind \"need\": need types come from the sphinx-needs project (see [needs])", d)}
		}
		c.Parser.Directives[strings.ToLower(d)] = k
		c.directives[strings.ToLower(d)] = directives[d]
	}
	return nil
}

const resultsBothHint = " ([results] and [[results]] cannot both be in one file: put flaky in each [[results]] table instead)"

// readResults reads seg.toml's results key: a [results] table (the rerun
// policy of the files named on the command line) or [[results]] tables
// (files, their witnesses, config and rerun policy).
func (c *Config) readResults(name string, data []byte, md toml.MetaData, prim toml.Primitive) error {
	c.ResultsFlaky = FlakyFailed
	switch md.Type("results") {
	case "":
		return nil
	case "Hash":
		var t resultsTable
		if err := md.PrimitiveDecode(prim, &t); err != nil {
			return &Error{File: name, Line: cfgfile.LineOfKey(data, "[results]"), Msg: fmt.Sprintf("[results]: %v", err)}
		}
		if t.Flaky != nil {
			f, err := flakyValue(*t.Flaky)
			if err != nil {
				return &Error{File: name, Line: cfgfile.LineOfKey(data, "flaky"), Msg: "[results] " + err.Error()}
			}
			c.ResultsFlaky = f
		}
		return nil
	case "ArrayHash", "Array":
		// [[results]] tables, or results = [{...}, ...]: the same list.
		var rules []resultsRule
		if err := md.PrimitiveDecode(prim, &rules); err != nil {
			return &Error{File: name, Line: cfgfile.LineOfKey(data, "results"),
				Msg: "results must be [[results]] tables or a list of tables (path, witnesses, config, flaky)"}
		}
		headers := tableLines(data, "results")
		if len(headers) == 0 {
			for range rules {
				headers = append(headers, cfgfile.LineOfKey(data, "results"))
			}
		}
		for i, r := range rules {
			line := 0
			if i < len(headers) {
				line = headers[i]
			}
			if r.Path == "" {
				return &Error{File: name, Line: line, Msg: "a [[results]] table needs a path"}
			}
			rule := ResultsRule{Path: r.Path, Witnesses: r.Witnesses, Config: r.Config, Flaky: FlakyFailed, Line: line}
			if r.Flaky != nil {
				f, err := flakyValue(*r.Flaky)
				if err != nil {
					return &Error{File: name, Line: line, Msg: "[[results]] " + err.Error()}
				}
				rule.Flaky = f
			}
			c.Results = append(c.Results, rule)
		}
		return nil
	}
	return &Error{File: name, Line: cfgfile.LineOfKey(data, "results"),
		Msg: "results must be a [results] table (flaky) or [[results]] tables (path, witnesses, config, flaky)"}
}

func flakyValue(v string) (string, error) {
	switch v {
	case FlakyFailed, FlakyPassed:
		return v, nil
	}
	return "", fmt.Errorf("flaky = %q: want %q (every run counts, the default) or %q (a case whose last run passed counts once, as passed)",
		v, FlakyFailed, FlakyPassed)
}

// tableLines lists the lines of every [[name]] header, in file order.
func tableLines(data []byte, name string) []int {
	var out []int
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "[[") {
			continue
		}
		h, _, ok := strings.Cut(t[2:], "]]")
		if ok && strings.Trim(strings.TrimSpace(h), `"'`) == name {
			out = append(out, i+1)
		}
	}
	return out
}

// unknownKey is the error for a key seg.toml does not know, at whatever
// level: the top, [check], [needs] or a [[results]] table. It suggests the
// nearest known key of that table and lists them all.
func unknownKey(name string, data []byte, key toml.Key) error {
	table, known := knownKeys(reflect.TypeOf(fileFormat{}), key[:len(key)-1])
	line := lineOfPath(data, key)
	var names []string
	for _, k := range known {
		names = append(names, strings.Trim(k, "[]"))
	}
	hint := ""
	if s := diag.Closest(key[len(key)-1], names); s != "" {
		full := append(append(toml.Key{}, key[:len(key)-1]...), s)
		hint = fmt.Sprintf(" (did you mean %q?)", full.String())
	}
	where := "known"
	if table != "" {
		where = "known in " + table
	}
	return &Error{File: name, Line: line, Msg: fmt.Sprintf("unknown key %q%s (%s: %s)", key.String(), hint, where, strings.Join(known, ", "))}
}

// lineOfPath finds the line that writes key: a table header [a.b] or
// [[a.b]], an assignment b = ... under the header of its table (a plain
// or an array table), or a dotted a.b = ... ; 0 when none is found.
func lineOfPath(data []byte, key toml.Key) int {
	full := strings.Join(key, ".")
	parent := strings.Join(key[:len(key)-1], ".")
	last := key[len(key)-1]
	assigns := func(t, k string) bool {
		return strings.HasPrefix(t, k+" ") || strings.HasPrefix(t, k+"=") || strings.HasPrefix(t, `"`+k+`"`)
	}
	section := ""
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t"))
			if name == full {
				return i + 1
			}
			section = name
			continue
		}
		if section == parent && assigns(t, last) || section == "" && assigns(t, full) {
			return i + 1
		}
	}
	return 0
}

// knownKeys lists the keys of the table at path in the config's structure
// (fileFormat's toml tags, so the list cannot fall out of step), a table
// written [name] and an array of tables [[name]]; and the table's name as
// a header ("[needs]", "[[results]]", "" at the top).
func knownKeys(t reflect.Type, path toml.Key) (string, []string) {
	table := ""
	for i, p := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return table, nil
		}
		f, ok := fieldByTag(t, p)
		if !ok {
			return table, nil
		}
		t = declared(f.Type)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		name := strings.Join(path[:i+1], ".")
		if t.Kind() == reflect.Slice {
			t = t.Elem()
			table = "[[" + name + "]]"
		} else {
			table = "[" + name + "]"
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return table, nil
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" {
			continue
		}
		ft := declared(f.Type)
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Map:
			name = "[" + name + "]"
		case ft.Kind() == reflect.Struct:
			name = "[" + name + "]"
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			name = "[[" + name + "]]"
		}
		out = append(out, name)
	}
	return table, out
}

// declared is the type a key is written as: the results key, decoded in
// two steps (readResults), is written as [[results]] tables.
func declared(t reflect.Type) reflect.Type {
	if t == reflect.TypeOf(toml.Primitive{}) {
		return reflect.TypeOf([]resultsRule{})
	}
	return t
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("toml"), ","); tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// loadNeeds sets c.Needs (and c.Parser.Needs, its tables) when the tree
// is a sphinx-needs project (needs.Load says where the project comes
// from). A need type may not also be one of seg.toml's own [directives].
func loadNeeds(root string, c *Config) error {
	o := needs.LoadOptions{Force: metamodel.Wanted(root, c.needsSettings), Extend: func(p *needs.Project) error {
		return c.useMetamodel(root, p)
	}}
	p, err := needs.LoadWith(root, c.needsSettings, c.File, c.Raw, o)
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
	c.Needs = p
	c.Parser.UseNeeds(&p.Tables)
	// Sphinx's exclude_patterns are applied by the listing of the tree,
	// with Sphinx's glob syntax (package check, sphinx.go).
	return nil
}

// useMetamodel finds the tree's S-CORE metamodel, when the tree has one,
// reads it and lays its types and links into the project (docs/score.md).
// A metamodel the tree wants and seg cannot find refuses the run; what is
// wrong inside a metamodel is reported by the check (bad-metamodel).
func (c *Config) useMetamodel(root string, p *needs.Project) error {
	confPy := ""
	if strings.HasSuffix(p.File, ".py") {
		confPy = p.File
	} else if cp := needs.FindConfPy(root); cp.Path != "" {
		confPy = cp.Path
	} else if p.SrcDir != "" && cfgfile.Present(filepath.Join(p.SrcDir, "conf.py")) {
		confPy = filepath.Join(p.SrcDir, "conf.py")
	}
	found, err := metamodel.Find(root, c.needsSettings, c.File, c.Raw, confPy)
	if err != nil || found.Path == "" {
		return err
	}
	m, err := metamodel.ReadFile(found.Path)
	if err != nil {
		return &Error{File: found.Path, Msg: fmt.Sprintf("cannot read the metamodel (%s): %v", found.How, err)}
	}
	m.Apply(p)
	// A cache key must hold the metamodel too.
	p.Raw = append(append(append([]byte(nil), p.Raw...), 0), m.Raw...)
	c.Metamodel, c.MetamodelFound = m, found
	return nil
}
