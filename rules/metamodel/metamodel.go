// Package metamodel reads Eclipse S-CORE's metamodel.yaml (docs/score.md):
// the need types of a project with their options and links and the
// patterns their values must match, the link types, the prohibited words
// and the graph checks. It finds the file (Find), reads it with the line of
// every value (Read), and lays its types and links into a sphinx-needs
// project (Apply) before any document is parsed; package rules turns what
// it read into rule values.
//
// The YAML is read with go.yaml.in/yaml/v3, the YAML organisation's
// maintained line of yaml.v3: its yaml.Node keeps the line and column of
// every key and value, which the problems of a metamodel and the rules'
// messages point at, and it is already in seg's module graph.
package metamodel

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/seg-trace/seg/internal/lazyre"
)

// Metamodel is one metamodel.yaml as read.
type Metamodel struct {
	// File is the file's path on disk; Raw its bytes (for cache keys).
	File string
	Raw  []byte
	// Types are the need types in file order, each with the base options
	// (needs_types_base_options) merged in.
	Types []*Type
	// Links are needs_extra_links in file order.
	Links []*LinkType
	// Prohibited are prohibited_words_checks, Graph graph_checks.
	Prohibited []*WordCheck
	Graph      []*GraphCheck
	// Problems are what makes the file a bad metamodel (bad-metamodel);
	// what could be read of it is still used.
	Problems []Problem

	types    map[string]*Type
	patterns map[string]*Pattern
}

// Problem is one fault of the file, at a line and column (1-based; 0 when
// the whole file).
type Problem struct {
	Line, Col int
	Msg       string
}

// Type is one entry of needs_types.
type Type struct {
	Directive, Title, Prefix, Color, Style string
	// Mandatory and Optional are the options with their patterns;
	// MandatoryLinks and OptionalLinks the link options with the types
	// their targets may have.
	Mandatory, Optional           []*Option
	MandatoryLinks, OptionalLinks []*Link
	Tags                          []string
	// Parts is how many "__"-separated parts an ID has (default 3).
	Parts int
	// Line is the line of the type's key.
	Line int
	// id is the pattern of the type's IDs: its mandatory id option, else
	// one made of the prefix (S-CORE's default).
	id *Pattern
}

// Option is one option of a type and the pattern its values must match.
type Option struct {
	Name    string
	Pattern *Pattern
	Line    int
}

// Link is one link option of a type: its targets' types, or any type.
type Link struct {
	Name    string
	Targets []string
	Any     bool
	Line    int
}

// LinkType is one entry of needs_extra_links.
type LinkType struct {
	Option, Incoming, Outgoing string
	Line                       int
}

// WordCheck is one entry of prohibited_words_checks: for the needs whose
// type has one of Tags (all needs when none), the words each option must
// not hold.
type WordCheck struct {
	Name  string
	Tags  []string
	Words []OptionWords
	Line  int
}

// OptionWords are the words one option must not hold.
type OptionWords struct {
	Option string
	Words  []string
}

// GraphCheck is one entry of graph_checks: the needs it selects (their
// types, included or excluded, and a condition on them) and, for each
// link option, the condition every need they link to must fulfil.
type GraphCheck struct {
	Name        string
	Include     bool
	Types       []string
	Select      *Cond
	Checks      []LinkCond
	Explanation string
	// New: the check is new in S-CORE (new_check), which reports it
	// without failing the build.
	New  bool
	Line int
}

// LinkCond is the condition on the needs a link option names.
type LinkCond struct {
	Link string
	Cond *Cond
	Line int
}

// Type returns the need type of a directive, or nil.
func (m *Metamodel) Type(directive string) *Type {
	if m == nil {
		return nil
	}
	return m.types[directive]
}

// IDPattern is the pattern a need's ID must match to be of type t (what a
// link to a need of this type is checked against).
func (t *Type) IDPattern() *Pattern { return t.id }

// Option returns the type's option called name (mandatory or optional),
// or nil.
func (t *Type) Option(name string) *Option {
	for _, list := range [][]*Option{t.Mandatory, t.Optional} {
		for _, o := range list {
			if o.Name == name {
				return o
			}
		}
	}
	return nil
}

// Link returns the type's link option called name, or nil.
func (t *Type) Link(name string) *Link {
	for _, list := range [][]*Link{t.MandatoryLinks, t.OptionalLinks} {
		for _, l := range list {
			if l.Name == name {
				return l
			}
		}
	}
	return nil
}

// HasTag reports whether the type carries the tag.
func (t *Type) HasTag(tag string) bool {
	for _, g := range t.Tags {
		if g == tag {
			return true
		}
	}
	return false
}

// Pattern is a regular expression of the metamodel, matched as S-CORE
// matches it: with Python's re.match, anchored at the start of the value
// only.
type Pattern struct {
	// Source is the pattern as written.
	Source string
	expr   string
	once   sync.Once
	re     *regexp.Regexp
	// words, when set, are the words of a pattern "^(a|b|...)$": a value
	// of one line matches when it is one of them. anyLine and nonEmpty
	// mark "^.*$" and "^.+$" (a value of one line matches, an empty one
	// too for the first), anyText "^[\s\S]+$" (any value but "").
	words                      map[string]bool
	anyLine, nonEmpty, anyText bool
	// simple, when set, is a pattern "^LITERAL", followed by "$",
	// "[CLASS]+$", "[CLASS]*$" or ".*" (ID patterns and the like).
	simple *simplePattern
}

// simplePattern is "^prefix" and a tail: tail 0 ends the pattern there
// (no "$": any rest), '$' the end, '+' or '*' a run of class and the end.
type simplePattern struct {
	prefix string
	// wild are the places of the prefix written "." (any character).
	wild  []int
	tail  byte
	class [256]bool
}

// match reports whether v matches; decided is false when only the regular
// expression can tell (a non-ASCII character where "." stands).
func (s *simplePattern) match(v string) (ok, decided bool) {
	if len(v) < len(s.prefix) {
		return false, true
	}
	for _, w := range s.wild {
		if v[w] >= 0x80 {
			return false, false
		}
	}
	for i := 0; i < len(s.prefix); i++ {
		if s.prefix[i] != v[i] && !slices.Contains(s.wild, i) {
			return false, true
		}
	}
	return s.matchRest(v[len(s.prefix):]), true
}

func (s *simplePattern) matchRest(rest string) bool {
	switch s.tail {
	case 0:
		return true
	case '$':
		return rest == ""
	case '+':
		if rest == "" {
			return false
		}
	}
	for i := 0; i < len(rest); i++ {
		if !s.class[rest[i]] {
			return false
		}
	}
	return true
}

// parseSimple reads a pattern of simplePattern's shape, or returns nil.
func parseSimple(src string) *simplePattern {
	if !strings.HasPrefix(src, "^") {
		return nil
	}
	s := &simplePattern{}
	var prefix strings.Builder
	i := 1
	lit := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/' || c == ':' || c == '-' || c == ' '
	}
	for i < len(src) {
		c := src[i]
		switch {
		case lit(c):
			prefix.WriteByte(c)
			i++
			continue
		case c == '\\' && i+1 < len(src) && strings.IndexByte("./-_", src[i+1]) >= 0:
			prefix.WriteByte(src[i+1])
			i += 2
			continue
		case c == '.' && src[i:] != ".*":
			s.wild = append(s.wild, prefix.Len())
			prefix.WriteByte('.')
			i++
			continue
		}
		break
	}
	s.prefix = prefix.String()
	rest := src[i:]
	switch {
	case rest == "" || rest == ".*":
		s.tail = 0
	case rest == "$":
		s.tail = '$'
	case strings.HasPrefix(rest, "[") && (strings.HasSuffix(rest, "]+$") || strings.HasSuffix(rest, "]*$")):
		s.tail = rest[len(rest)-2]
		class := rest[1 : len(rest)-3]
		if class == "" || class[0] == '^' {
			return nil
		}
		for j := 0; j < len(class); j++ {
			c := class[j]
			if !lit(c) || c == '/' || c == ':' || c == ' ' {
				return nil
			}
			if j+2 < len(class) && class[j+1] == '-' {
				lo, hi := c, class[j+2]
				if lo > hi || !lit(hi) {
					return nil
				}
				for k := int(lo); k <= int(hi); k++ {
					s.class[k] = true
				}
				j += 2
				continue
			}
			s.class[c] = true
		}
	default:
		return nil
	}
	return s
}

// literalWords matches a pattern that is a choice of plain words.
var literalWords = lazyre.New(`^\^\(([A-Za-z0-9_ -]+(?:\|[A-Za-z0-9_ -]+)*)\)\$$`)

// shortcut sets the fast ways to match S-CORE's most common patterns,
// which give what the regular expression gives.
func (p *Pattern) shortcut() {
	switch p.Source {
	case "^.*$":
		p.anyLine = true
	case "^.+$":
		p.anyLine, p.nonEmpty = true, true
	case `^[\s\S]+$`:
		p.anyText = true
	}
	p.simple = parseSimple(p.Source)
	if m := literalWords.FindStringSubmatch(p.Source); m != nil {
		p.words = map[string]bool{}
		for _, w := range strings.Split(m[1], "|") {
			p.words[w] = true
		}
	}
}

// CompilePattern translates a Python pattern for RE2: re.match anchors it
// at the start (\A), and Python's "$" (the end, or before a newline that
// ends the value) and "\Z" (the very end) get RE2's spelling. A pattern
// RE2 cannot express (backreferences, lookaround) is an error.
//
// The pattern is parsed (which is where RE2 refuses what it cannot
// express) at once, and compiled when it first matches a value that no
// shortcut decides: a metamodel names many patterns a tree never uses.
func CompilePattern(src string) (*Pattern, error) {
	expr := `\A(?:` + pythonToRE2(src) + `)`
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		msg := err.Error()
		if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "error parsing regexp") {
			msg = msg[i+2:]
		}
		return nil, fmt.Errorf("pattern %q is not one RE2 can compile (%s); seg matches patterns with RE2, which has no backreferences or lookaround", src, msg)
	}
	p := &Pattern{Source: src, expr: expr}
	p.shortcut()
	return p, nil
}

// regexp is the compiled expression.
func (p *Pattern) regexp() *regexp.Regexp {
	p.once.Do(func() { p.re = regexp.MustCompile(p.expr) })
	return p.re
}

// Match reports whether the value matches, as re.match(pattern, value)
// would.
func (p *Pattern) Match(value string) bool {
	switch {
	case p.anyText:
		return value != ""
	case strings.Contains(value, "\n"):
		// Python's "$" before a final newline, "." and newlines: the
		// regular expression says.
	case p.words != nil:
		return p.words[value]
	case p.anyLine:
		return !p.nonEmpty || value != ""
	case p.simple != nil:
		if ok, decided := p.simple.match(value); decided {
			return ok
		}
	}
	return p.regexp().MatchString(value)
}

// pythonToRE2 rewrites what Python's re and RE2 spell differently outside
// character classes: "$" becomes "(?:\n?\z)" (Python's end of string
// also matches before one final newline; matching only asks whether the
// value matches, so consuming that newline is the same) and "\Z" becomes
// "\z". Everything else is the same syntax in both, or fails to compile.
func pythonToRE2(src string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			if !inClass && src[i+1] == 'Z' {
				b.WriteString(`\z`)
			} else {
				b.WriteString(src[i : i+2])
			}
			i++
			continue
		}
		if inClass {
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
			continue
		}
		switch c {
		case '[':
			// "[]...]" and "[^]...]" take the first "]" as a member.
			inClass = true
			b.WriteByte(c)
			j := i + 1
			if j < len(src) && src[j] == '^' {
				b.WriteByte('^')
				j++
			}
			if j < len(src) && src[j] == ']' {
				b.WriteString(`\]`)
				j++
			}
			i = j - 1
		case '$':
			b.WriteString(`(?:\n?\z)`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
