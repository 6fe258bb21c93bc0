package metamodel

import (
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Keys seg reads, by where they stand. A key that is none of these makes
// the file a bad metamodel: seg would otherwise silently skip a rule.
var (
	topKeys    = set("needs_types_base_options", "prohibited_words_checks", "needs_types", "needs_extra_links", "graph_checks")
	baseKeys   = set("mandatory_options", "optional_options")
	typeKeys   = set("title", "prefix", "color", "style", "mandatory_options", "optional_options", "mandatory_links", "optional_links", "tags", "parts", "description")
	linkKeys   = set("incoming", "outgoing", "copy", "allow_dead_links", "color", "style", "style_part", "style_start", "style_end")
	graphKeys  = set("needs", "check", "explanation", "new_check")
	selectKeys = set("include", "exclude", "condition")
)

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// ReadFile reads the metamodel at path. Its error means the file cannot be
// read at all; what is wrong inside it is in Problems.
func ReadFile(path string) (*Metamodel, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := Parse(data)
	m.File = path
	return m, nil
}

// Parse reads a metamodel's text. It always returns a metamodel: what is
// wrong with the text is in Problems, and what could be read is kept.
func Parse(data []byte) *Metamodel {
	m := &Metamodel{Raw: data, types: map[string]*Type{}, patterns: map[string]*Pattern{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		m.fail(yamlErrorLine(err), 0, "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return m
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return m
	}
	root := doc.Content[0]
	if !m.isMap(root, "the file") {
		return m
	}
	var typesNode, baseNode, linksNode, wordsNode, graphNode *yaml.Node
	m.each(root, "the file", topKeys, func(k, v *yaml.Node) {
		switch k.Value {
		case "needs_types":
			typesNode = v
		case "needs_types_base_options":
			baseNode = v
		case "needs_extra_links":
			linksNode = v
		case "prohibited_words_checks":
			wordsNode = v
		case "graph_checks":
			graphNode = v
		}
	})
	var baseMand, baseOpt []*Option
	if baseNode != nil && m.isMap(baseNode, "needs_types_base_options") {
		m.each(baseNode, "needs_types_base_options", baseKeys, func(k, v *yaml.Node) {
			opts := m.options(v, "needs_types_base_options."+k.Value)
			if k.Value == "mandatory_options" {
				baseMand = opts
			} else {
				baseOpt = opts
			}
		})
	}
	m.readLinks(linksNode)
	m.readTypes(typesNode, baseMand, baseOpt)
	m.readWords(wordsNode)
	m.readGraph(graphNode)
	return m
}

// compile compiles a pattern once per metamodel: S-CORE's repeats the
// same few patterns over its types.
func (m *Metamodel) compile(src string) (*Pattern, error) {
	if p := m.patterns[src]; p != nil {
		return p, nil
	}
	p, err := CompilePattern(src)
	if err == nil {
		m.patterns[src] = p
	}
	return p, err
}

func (m *Metamodel) fail(line, col int, format string, args ...any) {
	m.Problems = append(m.Problems, Problem{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (m *Metamodel) failAt(n *yaml.Node, format string, args ...any) {
	m.fail(n.Line, n.Column, format, args...)
}

// yamlErrorLine is the line a YAML error names ("yaml: line 3: ..."), 0
// when none.
func yamlErrorLine(err error) int {
	var line int
	s := err.Error()
	if i := strings.Index(s, "line "); i >= 0 {
		fmt.Sscanf(s[i:], "line %d", &line)
	}
	return line
}

// isMap reports whether n is a mapping (an empty value counts as an empty
// one), failing otherwise.
func (m *Metamodel) isMap(n *yaml.Node, what string) bool {
	if n.Kind == yaml.MappingNode || isNull(n) {
		return true
	}
	m.failAt(n, "%s must be a mapping", what)
	return false
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// each calls f for each key of a mapping with its value; a key not in
// known (nil: any) is a problem, as is a key written twice.
func (m *Metamodel) each(n *yaml.Node, what string, known map[string]bool, f func(k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			m.failAt(k, "%s: a key must be a word", what)
			continue
		}
		if seen[k.Value] {
			m.failAt(k, "%s: %q is written twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		if known != nil && !known[k.Value] {
			m.failAt(k, "%s: unknown key %q (seg reads %s)", what, k.Value, strings.Join(sortedKeys(known), ", "))
			continue
		}
		f(k, v)
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// str is a scalar's text; a problem when n is no scalar.
func (m *Metamodel) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		m.failAt(n, "%s must be a single value", what)
		return "", false
	}
	if isNull(n) {
		return "", true
	}
	return n.Value, true
}

// options reads a mapping of option names to patterns.
func (m *Metamodel) options(n *yaml.Node, what string) []*Option {
	var out []*Option
	if !m.isMap(n, what) {
		return nil
	}
	m.each(n, what, nil, func(k, v *yaml.Node) {
		src, ok := m.str(v, what+"."+k.Value)
		if !ok {
			return
		}
		p, err := m.compile(src)
		if err != nil {
			m.failAt(v, "%s.%s: %v", what, k.Value, err)
			return
		}
		out = append(out, &Option{Name: k.Value, Pattern: p, Line: v.Line})
	})
	return out
}

func (m *Metamodel) readLinks(n *yaml.Node) {
	if n == nil || !m.isMap(n, "needs_extra_links") {
		return
	}
	m.each(n, "needs_extra_links", nil, func(k, v *yaml.Node) {
		l := &LinkType{Option: k.Value, Line: k.Line}
		what := "needs_extra_links." + k.Value
		if m.isMap(v, what) {
			m.each(v, what, linkKeys, func(kk, vv *yaml.Node) {
				s, _ := m.str(vv, what+"."+kk.Value)
				switch kk.Value {
				case "incoming":
					l.Incoming = s
				case "outgoing":
					l.Outgoing = s
				}
			})
		}
		m.Links = append(m.Links, l)
	})
}

func (m *Metamodel) readTypes(n *yaml.Node, baseMand, baseOpt []*Option) {
	if n == nil || !m.isMap(n, "needs_types") {
		return
	}
	type pending struct {
		t     *Type
		links []*yaml.Node // value nodes of the link targets, by link
	}
	var all []pending
	m.each(n, "needs_types", nil, func(k, v *yaml.Node) {
		what := "needs_types." + k.Value
		t := &Type{Directive: strings.ToLower(k.Value), Parts: 3, Line: k.Line}
		var linkNodes []*yaml.Node
		hasTitle := false
		if !m.isMap(v, what) {
			return
		}
		m.each(v, what, typeKeys, func(kk, vv *yaml.Node) {
			key := what + "." + kk.Value
			switch kk.Value {
			case "title":
				t.Title, hasTitle = m.str(vv, key)
			case "prefix":
				t.Prefix, _ = m.str(vv, key)
			case "color":
				t.Color, _ = m.str(vv, key)
			case "style":
				t.Style, _ = m.str(vv, key)
			case "description":
			case "mandatory_options":
				t.Mandatory = m.options(vv, key)
			case "optional_options":
				t.Optional = m.options(vv, key)
			case "mandatory_links", "optional_links":
				links, nodes := m.links(vv, key)
				if kk.Value == "mandatory_links" {
					t.MandatoryLinks = links
				} else {
					t.OptionalLinks = links
				}
				linkNodes = append(linkNodes, nodes...)
			case "tags":
				if vv.Kind != yaml.SequenceNode {
					if !isNull(vv) {
						m.failAt(vv, "%s must be a list", key)
					}
					return
				}
				for _, it := range vv.Content {
					if s, ok := m.str(it, key); ok {
						t.Tags = append(t.Tags, s)
					}
				}
			case "parts":
				var p int
				if vv.Kind != yaml.ScalarNode || vv.Decode(&p) != nil || p < 1 {
					m.failAt(vv, "%s must be a whole number of 1 or more", key)
					return
				}
				t.Parts = p
			}
		})
		if !hasTitle {
			m.failAt(k, "%s has no title (S-CORE requires one)", what)
		}
		if t.Prefix == "" {
			t.Prefix = t.Directive + "__"
		}
		m.overlaps(t, baseMand, baseOpt)
		t.Mandatory = mergeOptions(t.Mandatory, baseMand)
		t.Optional = mergeOptions(t.Optional, baseOpt)
		if o := t.Option("id"); o != nil {
			t.id = o.Pattern
		} else {
			// S-CORE puts the prefix into the pattern as it is written.
			p, err := m.compile("^" + t.Prefix + "[0-9a-z_]+$")
			if err == nil {
				t.id = p
				t.Mandatory = append(t.Mandatory, &Option{Name: "id", Pattern: p, Line: k.Line})
			}
		}
		if _, dup := m.types[t.Directive]; !dup {
			m.types[t.Directive] = t
			m.Types = append(m.Types, t)
		}
		all = append(all, pending{t, linkNodes})
	})
	// Every target a type's link names must be a type of the metamodel.
	// (A link that needs_extra_links does not declare is no problem of
	// the file: S-CORE's own metamodel has one, dec_rec's affects; no
	// need can use it, since sphinx-needs has no such option.)
	for _, p := range all {
		i := 0
		for _, list := range [][]*Link{p.t.MandatoryLinks, p.t.OptionalLinks} {
			for _, l := range list {
				node := p.links[i]
				i++
				for _, target := range l.Targets {
					if m.types[target] == nil {
						m.failAt(node, "needs_types.%s: link %q names %q, which is no type of needs_types", p.t.Directive, l.Name, target)
					}
				}
			}
		}
	}
}

// overlaps are the options and links a type defines twice, which S-CORE
// refuses: in both its mandatory and optional options (or links), or in
// its own and the base options.
func (m *Metamodel) overlaps(t *Type, baseMand, baseOpt []*Option) {
	names := func(os []*Option) map[string]int {
		out := map[string]int{}
		for _, o := range os {
			out[o.Name] = o.Line
		}
		return out
	}
	linkNames := func(ls []*Link) map[string]int {
		out := map[string]int{}
		for _, l := range ls {
			out[l.Name] = l.Line
		}
		return out
	}
	base := names(baseMand)
	for k, v := range names(baseOpt) {
		base[k] = v
	}
	pairs := []struct {
		a, b   string
		am, bm map[string]int
	}{
		{"mandatory_options", "optional_options", names(t.Mandatory), names(t.Optional)},
		{"mandatory_options", "needs_types_base_options", names(t.Mandatory), base},
		{"optional_options", "needs_types_base_options", names(t.Optional), base},
		{"mandatory_links", "optional_links", linkNames(t.MandatoryLinks), linkNames(t.OptionalLinks)},
		{"mandatory_links", "needs_types_base_options", linkNames(t.MandatoryLinks), base},
		{"optional_links", "needs_types_base_options", linkNames(t.OptionalLinks), base},
	}
	for _, p := range pairs {
		for _, k := range sortedInts(p.am) {
			if _, both := p.bm[k]; both {
				m.fail(p.am[k], 0, "needs_types.%s: %q is in both %s and %s", t.Directive, k, p.a, p.b)
			}
		}
	}
}

func sortedInts(m map[string]int) []string {
	b := map[string]bool{}
	for k := range m {
		b[k] = true
	}
	return sortedKeys(b)
}

// mergeOptions is a type's options with the base ones it does not define.
func mergeOptions(own, base []*Option) []*Option {
	out := append([]*Option(nil), own...)
	for _, b := range base {
		dup := false
		for _, o := range own {
			dup = dup || o.Name == b.Name
		}
		if !dup {
			out = append(out, b)
		}
	}
	return out
}

// links reads a mapping of link options to their targets: "ANY", or
// type names separated by commas.
func (m *Metamodel) links(n *yaml.Node, what string) ([]*Link, []*yaml.Node) {
	var out []*Link
	var nodes []*yaml.Node
	if !m.isMap(n, what) {
		return nil, nil
	}
	m.each(n, what, nil, func(k, v *yaml.Node) {
		s, ok := m.str(v, what+"."+k.Value)
		if !ok {
			return
		}
		l := &Link{Name: k.Value, Line: v.Line}
		if strings.TrimSpace(s) == "ANY" {
			l.Any = true
		} else {
			for _, t := range strings.Split(s, ",") {
				if t = strings.TrimSpace(t); t != "" {
					l.Targets = append(l.Targets, t)
				}
			}
		}
		out = append(out, l)
		nodes = append(nodes, v)
	})
	return out, nodes
}

func (m *Metamodel) readWords(n *yaml.Node) {
	if n == nil || !m.isMap(n, "prohibited_words_checks") {
		return
	}
	m.each(n, "prohibited_words_checks", nil, func(k, v *yaml.Node) {
		what := "prohibited_words_checks." + k.Value
		c := &WordCheck{Name: k.Value, Line: k.Line}
		if !m.isMap(v, what) {
			return
		}
		m.each(v, what, nil, func(kk, vv *yaml.Node) {
			var words []string
			if vv.Kind != yaml.SequenceNode {
				m.failAt(vv, "%s.%s must be a list", what, kk.Value)
				return
			}
			for _, it := range vv.Content {
				if s, ok := m.str(it, what+"."+kk.Value); ok {
					words = append(words, s)
				}
			}
			if kk.Value == "types" {
				c.Tags = words
			} else {
				c.Words = append(c.Words, OptionWords{Option: kk.Value, Words: words})
			}
		})
		m.Prohibited = append(m.Prohibited, c)
	})
}

func (m *Metamodel) readGraph(n *yaml.Node) {
	if n == nil || !m.isMap(n, "graph_checks") {
		return
	}
	m.each(n, "graph_checks", nil, func(k, v *yaml.Node) {
		what := "graph_checks." + k.Value
		g := &GraphCheck{Name: k.Value, Line: k.Line}
		if !m.isMap(v, what) {
			return
		}
		ok := true
		var hasNeeds, hasCheck bool
		m.each(v, what, graphKeys, func(kk, vv *yaml.Node) {
			key := what + "." + kk.Value
			switch kk.Value {
			case "needs":
				hasNeeds = true
				ok = m.readSelect(vv, key, g) && ok
			case "check":
				hasCheck = true
				if !m.isMap(vv, key) {
					ok = false
					return
				}
				m.each(vv, key, nil, func(rk, rv *yaml.Node) {
					c, err := m.cond(rv, key+"."+rk.Value)
					if err != nil {
						ok = false
						return
					}
					g.Checks = append(g.Checks, LinkCond{Link: rk.Value, Cond: c, Line: rk.Line})
				})
			case "explanation":
				g.Explanation, _ = m.str(vv, key)
			case "new_check":
				if vv.Decode(&g.New) != nil {
					m.failAt(vv, "%s must be true or false", key)
				}
			}
		})
		if !hasNeeds || !hasCheck {
			m.failAt(k, "%s needs both needs and check", what)
			ok = false
		}
		if g.Explanation == "" {
			m.failAt(k, "%s has no explanation (S-CORE requires one)", what)
			ok = false
		}
		if ok {
			m.Graph = append(m.Graph, g)
		}
	})
}

func (m *Metamodel) readSelect(n *yaml.Node, what string, g *GraphCheck) bool {
	if !m.isMap(n, what) {
		return false
	}
	ok, sel := true, 0
	m.each(n, what, selectKeys, func(k, v *yaml.Node) {
		switch k.Value {
		case "include", "exclude":
			sel++
			g.Include = k.Value == "include"
			s, _ := m.str(v, what+"."+k.Value)
			for _, t := range strings.Split(s, ",") {
				if t = strings.TrimSpace(t); t != "" {
					g.Types = append(g.Types, t)
				}
			}
		case "condition":
			c, err := m.cond(v, what+".condition")
			if err != nil {
				ok = false
				return
			}
			g.Select = c
		}
	})
	if sel != 1 {
		m.failAt(n, "%s needs one of include and exclude", what)
		ok = false
	}
	if g.Select == nil && ok {
		m.failAt(n, "%s has no condition", what)
		ok = false
	}
	for _, t := range g.Types {
		if m.types[t] == nil {
			m.failAt(n, "%s: %q is no type of needs_types", what, t)
		}
	}
	return ok
}

// cond reads a condition: a comparison, or a mapping of one of and, or,
// xor, not to a list of conditions.
func (m *Metamodel) cond(n *yaml.Node, what string) (*Cond, error) {
	fail := func(n *yaml.Node, format string, args ...any) (*Cond, error) {
		err := fmt.Errorf(format, args...)
		m.failAt(n, "%s: %v", what, err)
		return nil, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		c, err := parseComparison(n.Value, n.Line)
		if err != nil {
			return fail(n, "%v", err)
		}
		return c, nil
	case yaml.MappingNode:
		if len(n.Content) != 2 {
			return fail(n, "a compound condition has exactly one operator")
		}
		op, args := n.Content[0].Value, n.Content[1]
		if op != "and" && op != "or" && op != "xor" && op != "not" {
			return fail(n.Content[0], "operator %q is none of and, or, xor, not", op)
		}
		if args.Kind != yaml.SequenceNode {
			return fail(args, "%s takes a list of conditions", op)
		}
		if op == "not" && len(args.Content) != 1 {
			return fail(args, "not takes exactly one condition")
		}
		if op != "not" && len(args.Content) < 2 {
			return fail(args, "%s takes two conditions or more", op)
		}
		c := &Cond{Op: op, Line: n.Line}
		for _, a := range args.Content {
			sub, err := m.cond(a, what)
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, sub)
		}
		return c, nil
	}
	return fail(n, "a condition is \"attribute operator value\" or a mapping of and, or, xor, not")
}
