// Package config reads seg.toml, the optional configuration at a tree's
// root, into what the parser and the results reader need.
package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
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
	// NeedsFile is the sphinx-needs project file read (ubproject.toml),
	// "" when none; NeedsRaw is its bytes. Parser.Needs is what was read
	// of it (config/ubproject.go).
	NeedsFile string
	NeedsRaw  []byte

	needs      *needsSection     // seg.toml's [needs] table
	directives map[string]string // seg.toml's [directives], lower-cased
}

// Error is a problem with the config file, with the line it is on (0 when
// unknown). It always means exit code 2.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

type fileFormat struct {
	IDPattern         *string           `toml:"id_pattern"`
	Exclude           []string          `toml:"exclude"`
	ExtraOptions      []string          `toml:"extra_options"`
	LiteralDirectives []string          `toml:"literal_directives"`
	Directives        map[string]string `toml:"directives"`
	// Results is either [results] (resultsTable) or [[results]] tables
	// (resultsRule each): TOML allows one of the two in a file.
	Results toml.Primitive `toml:"results"`
	Needs   *needsSection  `toml:"needs"`
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
		if !present(path) {
			c := &Config{Parser: parser.DefaultConfig()}
			if err := loadNeeds(root, c); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	data, err := readFile(path)
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
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if strings.Contains(msg, "'results'") {
				msg += resultsBothHint
			}
			return nil, &Error{File: name, Line: pe.Position.Line, Msg: msg}
		}
		msg := err.Error()
		if strings.Contains(msg, "'results'") {
			msg += resultsBothHint
		}
		return nil, &Error{File: name, Line: lineOfError(data, err), Msg: msg}
	}
	pc := parser.DefaultConfig()
	c := &Config{File: name, Parser: pc, Raw: data, needs: f.Needs, directives: map[string]string{}}
	if err := c.readResults(name, data, md, f.Results); err != nil {
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0]
		known := "id_pattern, exclude, extra_options, literal_directives, [directives], [results], [[results]], [needs]"
		switch {
		case len(key) == 2 && key[0] == "results" && md.Type("results") == "Hash":
			known = "[results] holds flaky only; results files are named in [[results]] tables (two brackets): path, witnesses, config, flaky"
		case len(key) == 2 && key[0] == "results":
			known = "a [[results]] table holds path, witnesses, config, flaky"
		}
		return nil, &Error{File: name, Line: lineOfKey(data, key[len(key)-1]),
			Msg: fmt.Sprintf("unknown key %q (known: %s)", key.String(), known)}
	}
	if f.IDPattern != nil {
		re, err := regexp.Compile(*f.IDPattern)
		if err != nil {
			return nil, &Error{File: name, Line: lineOfKey(data, "id_pattern"), Msg: fmt.Sprintf("id_pattern is not a valid regular expression: %v", err)}
		}
		pc.IDPattern = re
	}
	for _, g := range f.Exclude {
		if _, err := filepath.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil {
			return nil, &Error{File: name, Line: lineOfKey(data, "exclude"), Msg: fmt.Sprintf("exclude glob %q is malformed", g)}
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
			return nil, &Error{File: name, Line: lineOfKey(data, d),
				Msg: fmt.Sprintf("directive %q maps to unknown kind %q (want requirement, test, implementation, outcome or waiver)", d, f.Directives[d])}
		}
		if k == parser.Need {
			return nil, &Error{File: name, Line: lineOfKey(data, d),
				Msg: fmt.Sprintf("directive %q maps to kind \"need\": need types come from the sphinx-needs project (see [needs])", d)}
		}
		pc.Directives[strings.ToLower(d)] = k
		c.directives[strings.ToLower(d)] = f.Directives[d]
	}
	return c, nil
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
			return &Error{File: name, Line: lineOfKey(data, "[results]"), Msg: fmt.Sprintf("[results]: %v", err)}
		}
		if t.Flaky != nil {
			f, err := flakyValue(*t.Flaky)
			if err != nil {
				return &Error{File: name, Line: lineOfKey(data, "flaky"), Msg: "[results] " + err.Error()}
			}
			c.ResultsFlaky = f
		}
		return nil
	case "ArrayHash":
		var rules []resultsRule
		if err := md.PrimitiveDecode(prim, &rules); err != nil {
			return &Error{File: name, Line: lineOfKey(data, "[[results]]"), Msg: fmt.Sprintf("[[results]]: %v", err)}
		}
		headers := tableLines(data, "results")
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
	return &Error{File: name, Line: lineOfKey(data, "results"),
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

// lineOfKey finds the first line that assigns key (or is the table header
// key), so a semantic error can point at a line. TOML libraries give
// positions only for syntax errors.
func lineOfKey(data []byte, key string) int {
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == key || strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") ||
			strings.HasPrefix(t, `"`+key+`"`) {
			return i + 1
		}
	}
	return 0
}

var lineRx = regexp.MustCompile(`line (\d+)`)

func lineOfError(data []byte, err error) int {
	if m := lineRx.FindStringSubmatch(err.Error()); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	return 0
}
