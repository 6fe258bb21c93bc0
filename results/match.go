package results

import (
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/parser"
	"github.com/seg-trace/seg/source"
)

// Match reports whether a :cases: pattern matches a case name. A pattern
// matches a name equal to it; otherwise it is a shell-style wildcard
// pattern over the whole name:
//
//   - '*' matches any run of characters, '/', '.' and ':' included (case
//     names are not file paths: TestLeaf/* takes every subtest, pkg/...*
//     every package below);
//   - '?' matches one character;
//   - '[abc]', '[a-z]' match one character of the class, '[!...]' or
//     '[^...]' one character outside it;
//   - '\' makes the next character literal;
//   - a '[' with no closing ']' is a literal '[' (as in the shell).
//
// The plain equality comes first so that a pytest parameterised ID such as
// tests/test_x.py::test_p[1-2] matches itself without escaping.
func Match(pattern, name string) bool {
	return pattern == name || glob(pattern, name, false)
}

// matchPrefix reports whether some name that starts with prefix matches
// the pattern: whether the pattern could name a test of a package.
func matchPrefix(pattern, prefix string) bool {
	return strings.HasPrefix(pattern, prefix) || glob(pattern, prefix, true)
}

// glob matches s against the wildcard pattern p. With prefix set it
// reports instead whether s is a prefix of some string p matches.
func glob(p, s string, prefix bool) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for {
		if sx == len(s) {
			if prefix {
				return true
			}
			for px < len(p) && p[px] == '*' {
				px++
			}
			if px == len(p) {
				return true
			}
		} else if px < len(p) {
			if p[px] == '*' {
				if prefix {
					return true
				}
				starP, starS = px, sx
				px++
				continue
			}
			if pw, sw, ok := matchOne(p[px:], s[sx:]); ok {
				px += pw
				sx += sw
				continue
			}
		}
		// Mismatch: let the last '*' take one more character.
		if starP < 0 || starS >= len(s) {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[starS:])
		starS += w
		px, sx = starP+1, starS
	}
}

// matchOne matches the first pattern item of p (not '*') against the first
// character of s, which is not empty, and returns the widths consumed.
func matchOne(p, s string) (pw, sw int, ok bool) {
	r, sw := utf8.DecodeRuneInString(s)
	switch p[0] {
	case '?':
		return 1, sw, true
	case '\\':
		if len(p) > 1 {
			lit, w := utf8.DecodeRuneInString(p[1:])
			return 1 + w, sw, lit == r
		}
	case '[':
		if n, in, valid := class(p, r); valid {
			return n, sw, in
		}
	}
	lit, w := utf8.DecodeRuneInString(p)
	return w, sw, lit == r
}

// class matches r against the bracket expression at the start of p. It
// returns the expression's width, whether r is in it, and whether p starts
// with a closed bracket expression at all.
func class(p string, r rune) (n int, in bool, valid bool) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return i + 1, in != negate, true
		}
		first = false
		lo, w := classChar(p[i:])
		if w == 0 {
			return 0, false, false
		}
		i += w
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			var w2 int
			hi, w2 = classChar(p[i+1:])
			if w2 == 0 {
				return 0, false, false
			}
			i += 1 + w2
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
	return 0, false, false
}

func classChar(p string) (rune, int) {
	if p[0] == '\\' {
		if len(p) < 2 {
			return 0, 0
		}
		r, w := utf8.DecodeRuneInString(p[1:])
		return r, 1 + w
	}
	return utf8.DecodeRuneInString(p)
}

// hasMeta reports whether p holds a wildcard character.
func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// literalPrefix is the part of p before its first wildcard character: a
// name p matches by wildcard starts with it.
func literalPrefix(p string) string {
	if i := strings.IndexAny(p, `*?[\`); i >= 0 {
		return p[:i]
	}
	return p
}

// Pattern is one entry of a test specification's :cases: option.
type Pattern struct {
	Text string
	Test string // the ID of the test specification
	// Span is the entry's place in the RST source (see patternsOf).
	Span source.Span
}

// Patterns lists the :cases: entries of the test specifications among
// nodes. A test specification with no ID is passed over (the parser
// reports missing-id).
func Patterns(nodes []parser.Node) []Pattern {
	var out []Pattern
	for i := range nodes {
		n := &nodes[i]
		if n.Kind != parser.Test || n.ID == "" {
			continue
		}
		for j := range n.Options {
			if n.Options[j].Name == "cases" {
				out = append(out, patternsOf(n, j)...)
			}
		}
	}
	return out
}

// patternsOf splits the :cases: option n.Options[j] like a link list and
// places each entry. When the parser split it (Links set: every node it
// read), its spans are used. Otherwise (a node built in memory, whose
// value is on one line) an entry's place is the value's plus the entry's
// offset.
func patternsOf(n *parser.Node, j int) []Pattern {
	o := &n.Options[j]
	var out []Pattern
	if len(o.Links) > 0 {
		for _, l := range o.Links {
			out = append(out, Pattern{Text: l.ID, Test: n.ID, Span: l.Span})
		}
		return out
	}
	for _, e := range splitList(o.Value) {
		sp := source.At(o.Pos)
		if o.ValuePos.HasOffset() {
			sp = source.Span{Start: o.ValuePos.Add(e.off), End: o.ValuePos.Add(e.off + len(e.text))}
		}
		out = append(out, Pattern{Text: e.text, Test: n.ID, Span: sp})
	}
	return out
}

type entry struct {
	text string
	off  int
}

// splitList splits a list value on ',', ';' and '|', trims white space and
// drops empty entries, as link options are split.
func splitList(s string) []entry {
	var out []entry
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ',' && s[i] != ';' && s[i] != '|' {
			continue
		}
		part := s[start:i]
		trimmed := strings.TrimLeft(part, " \t\r\n")
		off := start + len(part) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, " \t\r\n")
		if trimmed != "" {
			out = append(out, entry{trimmed, off})
		}
		start = i + 1
	}
	return out
}
