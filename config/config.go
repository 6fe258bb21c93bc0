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
}

// Config is the whole configuration.
type Config struct {
	// File is the config file read, "" when the tree has none.
	File    string
	Parser  *parser.Config
	Results []ResultsRule
	// Raw is the file's bytes, so a cache key can include them.
	Raw []byte
	// NeedsFile is the sphinx-needs project file read (ubproject.toml),
	// "" when none; NeedsRaw is its bytes. Parser.Needs is what was read
	// of it (config/ubproject.go).
	NeedsFile string
	NeedsRaw  []byte

	// Matrix is seg.toml's [matrix] table: the HTML page's columns and
	// the name of the tree in its heading (docs/matrix.md).
	Matrix MatrixConfig

	needs      *needsSection     // seg.toml's [needs] table
	directives map[string]string // seg.toml's [directives], lower-cased
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
	Results           []struct {
		Path      string   `toml:"path"`
		Witnesses []string `toml:"witnesses"`
		Config    string   `toml:"config"`
	} `toml:"results"`
	Needs  *needsSection `toml:"needs"`
	Matrix *struct {
		Columns []string `toml:"columns"`
		Title   string   `toml:"title"`
	} `toml:"matrix"`
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
			return nil, &Error{File: name, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, &Error{File: name, Line: lineOfError(data, err), Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0]
		return nil, &Error{File: name, Line: lineOfKey(data, key[len(key)-1]),
			Msg: fmt.Sprintf("unknown key %q (known: id_pattern, exclude, extra_options, literal_directives, [directives], [[results]], [needs], [matrix])", key.String())}
	}
	pc := parser.DefaultConfig()
	c := &Config{File: name, Parser: pc, Raw: data, needs: f.Needs, directives: map[string]string{}}
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
	if f.Matrix != nil {
		c.Matrix = MatrixConfig{Columns: f.Matrix.Columns, Title: f.Matrix.Title, ColumnsLine: lineOfKey(data, "columns")}
	}
	for _, r := range f.Results {
		if r.Path == "" {
			return nil, &Error{File: name, Line: lineOfKey(data, "[[results]]"), Msg: "a [[results]] table needs a path"}
		}
		c.Results = append(c.Results, ResultsRule{Path: r.Path, Witnesses: r.Witnesses, Config: r.Config})
	}
	return c, nil
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
