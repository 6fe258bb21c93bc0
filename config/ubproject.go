package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/seg-trace/seg/diag"
	"github.com/seg-trace/seg/parser"
)

// UBProjectFile is the file a sphinx-needs project keeps its configuration
// in (sphinx-needs' needs_from_toml, ubCode), looked for at the root.
const UBProjectFile = "ubproject.toml"

// needsSection is seg.toml's [needs] table: where the sphinx-needs
// project's configuration is and how its need types and link types map
// onto seg's kinds and edges (docs/sphinx-needs.md).
type needsSection struct {
	// Config is the project's ubproject.toml, relative to the root;
	// default: ubproject.toml at the root, when there is one.
	Config *string `toml:"config"`
	// Enabled false ignores the project even when ubproject.toml exists.
	Enabled *bool `toml:"enabled"`
	// Project and Version name the project in needs.json, over the
	// ubproject.toml's [project] name and version.
	Project *string `toml:"project"`
	Version *string `toml:"version"`
	// Types maps a need type (its directive) to a seg kind.
	Types map[string]string `toml:"types"`
	// Links maps a link option to a seg link option.
	Links map[string]string `toml:"links"`
}

// What a need type and a link type may be mapped onto. Outcomes and
// waivers stay seg's own directives: a need is a requirement, a test
// specification or an implementation.
var (
	needKinds = map[string]parser.Kind{
		"requirement": parser.Requirement, "test": parser.Test, "implementation": parser.Implementation,
	}
	needEdges = map[string]bool{"refines": true, "verifies": true, "implements": true}
)

// ubFile is what seg reads of a ubproject.toml; every other key (layouts,
// flow configs, schemas, ...) is left alone.
type ubFile struct {
	Project struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
		// Srcdir is ubCode's documentation folder (where conf.py is),
		// relative to the file: Sphinx's document names start there.
		Srcdir string `toml:"srcdir"`
	} `toml:"project"`
	Needs struct {
		Types        []ubType          `toml:"types"`
		ExtraLinks   []ubLink          `toml:"extra_links"`
		Links        map[string]ubLink `toml:"links"`
		ExtraOptions []any             `toml:"extra_options"`
		Fields       map[string]any    `toml:"fields"`
		IDRegex      *string           `toml:"id_regex"`
		IDRequired   *bool             `toml:"id_required"`
	} `toml:"needs"`
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
}

// directiveRx is what docutils accepts as a directive name (simple
// reference names: alphanumerics and isolated - _ . : +).
var directiveRx = regexp.MustCompile(`^[A-Za-z0-9]+([-_.:+][A-Za-z0-9]+)*$`)

// optionRx is an option name: anything a field marker can hold that a
// TOML key can sensibly name.
var optionRx = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+!-]*$`)

// loadNeeds sets c.Parser.Needs when the tree is a sphinx-needs project:
// seg.toml's [needs] table names one, or ubproject.toml is at the root.
func loadNeeds(root string, c *Config) error {
	sec := c.needs
	if sec != nil && sec.Enabled != nil && !*sec.Enabled {
		return nil
	}
	path := ""
	var found *confPyNeeds // the conf.py found, read
	switch {
	case sec != nil && sec.Config != nil:
		path = filepath.Join(root, filepath.FromSlash(*sec.Config))
		// A link to a missing file is there, and refused as such when read.
		if _, err := os.Lstat(path); err != nil {
			return &Error{File: c.File, Line: lineInSection(c.Raw, "needs", "config"),
				Msg: fmt.Sprintf("[needs] config %q: cannot read it: %v", *sec.Config, errors.Unwrap(err))}
		}
	default:
		p := filepath.Join(root, UBProjectFile)
		if st, err := os.Stat(p); present(p) && (err != nil || !st.IsDir()) {
			path = p
		} else {
			var err error
			if path, found, err = findConfPy(root); err != nil {
				return err
			}
		}
	}
	n := parser.NewNeeds()
	var ub ubFile
	var md toml.MetaData
	var data []byte
	var linkOrder, fieldOrder []string
	// A conf.py is read when it enables sphinx-needs; one whose
	// needs_from_toml names a ubproject.toml hands over to that file.
	srcdir, readTOML := "", path != ""
	if strings.HasSuffix(path, ".py") {
		readTOML = false
		cp, err := found, error(nil)
		if cp == nil {
			cp, err = readConfPyNeeds(path)
		}
		switch {
		case err != nil:
			return err
		case cp == nil:
			path = ""
		case cp.toml != "":
			path, srcdir, readTOML = cp.toml, cp.dir, true
		default:
			ub, linkOrder, fieldOrder, data = cp.ub, cp.linkOrder, cp.fieldOrder, cp.data
			c.NeedsFile, c.NeedsRaw = path, data
			setDocRoot(root, cp.dir, n)
		}
	}
	if path == "" && sec == nil {
		return nil
	}
	if readTOML {
		var err error
		data, err = ReadFile(path)
		if err != nil {
			return &Error{File: path, Msg: fmt.Sprintf("cannot read: %v", err)}
		}
		md, err = toml.Decode(string(data), &ub)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return &Error{File: path, Line: pe.Position.Line, Msg: pe.Message}
			}
			return &Error{File: path, Line: lineOfError(data, err), Msg: err.Error()}
		}
		c.NeedsFile = path
		c.NeedsRaw = data
		if srcdir == "" {
			srcdir = filepath.Join(filepath.Dir(path), filepath.FromSlash(ub.Project.Srcdir))
		}
		setDocRoot(root, srcdir, n)
		linkOrder, fieldOrder = tableKeys(md, "needs", "links"), tableKeys(md, "needs", "fields")
	}
	if err := readUBProject(path, data, linkOrder, fieldOrder, &ub, n); err != nil {
		return err
	}
	n.Project, n.Version = ub.Project.Name, ub.Project.Version
	if sec != nil {
		if sec.Project != nil {
			n.Project = *sec.Project
		}
		if sec.Version != nil {
			n.Version = *sec.Version
		}
		if err := mapNeeds(c, sec, n); err != nil {
			return err
		}
	}
	pc := c.Parser
	for _, t := range n.Types {
		if _, own := c.directives[t.Directive]; own {
			return &Error{File: c.File, Line: lineInSection(c.Raw, "directives", t.Directive),
				Msg: fmt.Sprintf("directive %q is a need type of the sphinx-needs project; map it in [needs.types] instead", t.Directive)}
		}
		pc.Directives[t.Directive] = t.Kind
	}
	// sphinx-needs' needextend takes no content, and these take none that
	// is RST: nothing inside them is a node.
	for _, d := range []string{"needextend", "needimport", "needservice", "needreport"} {
		pc.Literal[d] = true
	}
	pc.Needs = n
	return nil
}

// setDocRoot sets the folder needs.json's docnames start at: Sphinx's
// source folder, relative to the root ("" for the root itself).
func setDocRoot(root, srcdir string, n *parser.Needs) {
	if rel, err := filepath.Rel(root, srcdir); err == nil && !strings.HasPrefix(rel, "..") {
		if n.DocRoot = filepath.ToSlash(rel); n.DocRoot == "." {
			n.DocRoot = ""
		}
	}
}

// readUBProject fills n from a decoded ubproject.toml or conf.py (path ""
// for none: sphinx-needs' defaults). linkOrder and fieldOrder are the keys
// of [needs.links] and [needs.fields] in file order.
func readUBProject(path string, data []byte, linkOrder, fieldOrder []string, ub *ubFile, n *parser.Needs) error {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	un := &ub.Needs
	if un.Types == nil {
		for _, t := range parser.DefaultNeedTypes() {
			n.AddType(t)
		}
	}
	seen := map[string]bool{}
	for i, t := range un.Types {
		if t.Directive == nil || *t.Directive == "" {
			return fail(nthLine(data, "types", "directive", i), "[needs] types: entry %d has no directive", i+1)
		}
		d := strings.ToLower(*t.Directive)
		line := lineOfValue(data, "types", *t.Directive)
		if !directiveRx.MatchString(d) {
			return fail(line, "[needs] types: %q is not a directive name", *t.Directive)
		}
		if seen[d] {
			return fail(line, "[needs] types: directive %q is defined twice", *t.Directive)
		}
		seen[d] = true
		n.AddType(parser.NeedType{Directive: d, Title: t.Title, Prefix: t.Prefix, Color: t.Color, Style: t.Style})
	}

	addLink := func(where string, i int, name string, l ubLink) error {
		line := lineOfValue(data, where, name)
		if name == "" {
			return fail(nthLine(data, where, "option", i), "[needs] %s: entry %d has no option", where, i+1)
		}
		if !optionRx.MatchString(name) {
			return fail(line, "[needs] %s: %q is not an option name", where, name)
		}
		if o := strings.ToLower(name); o == "id" || contains(parser.NeedOptions, o) {
			return fail(line, "[needs] %s: %q is one of sphinx-needs' own options", where, name)
		}
		n.AddLink(parser.LinkType{
			Option: name, Incoming: l.Incoming, Outgoing: l.Outgoing,
			Copy: l.Copy != nil && *l.Copy, AllowDead: l.AllowDeadLinks != nil && *l.AllowDeadLinks,
		})
		return nil
	}
	for i, l := range un.ExtraLinks {
		name := ""
		if l.Option != nil {
			name = *l.Option
		}
		if err := addLink("extra_links", i, name, l); err != nil {
			return err
		}
	}
	// sphinx-needs 8's [needs.links.NAME] tables, in file order.
	for i, name := range linkOrder {
		if err := addLink("links", i, name, un.Links[name]); err != nil {
			return err
		}
	}

	for i, o := range un.ExtraOptions {
		name := ""
		switch v := o.(type) {
		case string:
			name = v
		case map[string]any:
			name, _ = v["name"].(string)
		}
		if name == "" {
			return fail(lineOfKey(data, "extra_options"), "[needs] extra_options: entry %d is neither a name nor a table with a name", i+1)
		}
		if !optionRx.MatchString(name) {
			return fail(lineOfValue(data, "extra_options", name), "[needs] extra_options: %q is not an option name", name)
		}
		n.AddOption(name)
	}
	for _, name := range fieldOrder {
		if !optionRx.MatchString(name) {
			return fail(lineOfValue(data, "fields", name), "[needs] fields: %q is not an option name", name)
		}
		n.AddOption(name)
	}

	n.IDRequired = un.IDRequired != nil && *un.IDRequired
	pat := parser.DefaultNeedsIDPattern
	if un.IDRegex != nil {
		pat = *un.IDRegex
	}
	re, err := compileIDRegex(pat)
	if err != nil {
		return fail(lineOfKey(data, "id_regex"), "[needs] id_regex is not a regular expression seg can use (Go RE2 syntax): %v", err)
	}
	n.IDPattern = re
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

// mapNeeds applies seg.toml's [needs.types] and [needs.links].
func mapNeeds(c *Config, sec *needsSection, n *parser.Needs) error {
	fail := func(section, key, format string, args ...any) error {
		return &Error{File: c.File, Line: lineInSection(c.Raw, section, key), Msg: fmt.Sprintf(format, args...)}
	}
	var types, links []string
	for _, t := range n.Types {
		types = append(types, t.Directive)
	}
	for _, l := range n.Links {
		links = append(links, l.Option)
	}
	for _, k := range sortedKeys(sec.Types) {
		t := n.Type(strings.ToLower(k))
		if t == nil {
			return fail("needs.types", k, "[needs.types] %q is not a need type of the project%s (its types: %s)", k, diag.DidYouMean(k, types), strings.Join(types, ", "))
		}
		kind, ok := needKinds[sec.Types[k]]
		if !ok {
			return fail("needs.types", k, "[needs.types] %s = %q: a need type maps onto requirement, test or implementation", k, sec.Types[k])
		}
		t.Kind = kind
	}
	for _, k := range sortedKeys(sec.Links) {
		l := n.Link(strings.ToLower(k))
		if l == nil {
			return fail("needs.links", k, "[needs.links] %q is not a link type of the project%s (its link types: %s)", k, diag.DidYouMean(k, links), strings.Join(links, ", "))
		}
		if !needEdges[sec.Links[k]] {
			return fail("needs.links", k, "[needs.links] %s = %q: a link type maps onto refines, verifies or implements", k, sec.Links[k])
		}
		l.Edge = sec.Links[k]
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tableKeys lists the keys of the table at path, in file order.
func tableKeys(md toml.MetaData, path ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		if len(k) <= len(path) {
			continue
		}
		match := true
		for i, p := range path {
			if k[i] != p {
				match = false
				break
			}
		}
		if name := k[len(path)]; match && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// Finding lines for errors the TOML decoder cannot place. Each helper
// returns 0 (no line) rather than a wrong guess.

// lineInSection is the line of key inside the [section] table (or the
// section's header when the key is not found).
func lineInSection(data []byte, section, key string) int {
	lines := strings.Split(string(data), "\n")
	in, header := false, 0
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = t == "["+section+"]"
			if in {
				header = i + 1
			}
			continue
		}
		if in && (strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") || strings.HasPrefix(t, `"`+key+`"`)) {
			return i + 1
		}
		if !in && strings.HasPrefix(t, section+"."+key) {
			return i + 1
		}
	}
	return header
}

// lineOfValue is the first line, from the one naming where on, that holds
// the quoted value (or a table header ending in .value]); else where's.
func lineOfValue(data []byte, where, value string) int {
	lines := strings.Split(string(data), "\n")
	start := lineOfKey(data, where)
	if start == 0 {
		for i, line := range lines {
			if strings.Contains(line, where) {
				start = i + 1
				break
			}
		}
	}
	if start == 0 {
		start = 1
	}
	for i := start - 1; i < len(lines); i++ {
		if strings.Contains(lines[i], `"`+value+`"`) || strings.Contains(lines[i], "'"+value+"'") ||
			strings.HasSuffix(strings.TrimSpace(lines[i]), "."+value+"]") {
			return i + 1
		}
	}
	return lineOfKey(data, where)
}

// nthLine is the line of the i-th entry of the array where (an inline
// table per line, or an [[needs.where]] header), or where's own line.
func nthLine(data []byte, where, _ string, i int) int {
	lines := strings.Split(string(data), "\n")
	start := lineOfKey(data, where)
	n := 0
	for k, line := range lines {
		t := strings.TrimSpace(line)
		if t == "[[needs."+where+"]]" || (start > 0 && k+1 > start && strings.HasPrefix(t, "{")) ||
			(start > 0 && k+1 == start && strings.Contains(t, "{")) {
			if n == i {
				return k + 1
			}
			n++
		}
	}
	return start
}
