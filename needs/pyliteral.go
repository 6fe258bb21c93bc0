package needs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Sphinx project's conf.py is Python, and seg never runs it. What a
// sphinx-needs project says in it is nearly always plain literals:
//
//	needs_types = [dict(directive="req", title="Requirement", prefix="R_"), ...]
//	needs_extra_links = [{"option": "tests", "incoming": "is tested by"}]
//	needs_id_regex = r"^[A-Z0-9_]{5,}"
//
// so seg reads the statements at the file's top level of the forms
// NAME = EXPR, NAME += EXPR, NAME.append(EXPR) and NAME.extend(EXPR),
// where EXPR is made of string literals (any quotes and prefixes but f),
// numbers, True, False, None, lists, tuples, dicts, dict(key=value)
// calls, names assigned before, and +. Anything else (a call, a
// comprehension, an import, code under if or def) leaves the names it
// assigns unknown: pyUnknown says where and why, and only a name seg
// needs makes that an error.

// pyDict is a dict literal with its keys in source order.
type pyDict struct {
	keys []string
	vals map[string]any
}

// set sets k, keeping the order in which keys first appeared.
func (d *pyDict) set(k string, v any) {
	if _, dup := d.vals[k]; !dup {
		d.keys = append(d.keys, k)
	}
	d.vals[k] = v
}

// pyUnknown is a value seg cannot know without running Python.
type pyUnknown struct {
	line int
	why  string
}

// pyVar is a top-level name's value and the line it was last set on.
type pyVar struct {
	val  any
	line int
}

type pyTok struct {
	kind byte // 'n' name, 's' string, '#' number, 'f' f-string, 'o' operator, '\n' end of a logical line, ';' end of a statement on it
	text string
	line int
	col  int // 0-based column of the first byte
}

// pyTokens splits Python source into tokens; newlines inside brackets and
// after a backslash do not end a logical line.
func pyTokens(src string) []pyTok {
	l := &pyLexer{src: src, line: 1}
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == '\n':
			if l.depth == 0 && len(l.toks) > 0 && l.toks[len(l.toks)-1].kind != '\n' {
				l.toks = append(l.toks, pyTok{kind: '\n', line: l.line})
			}
			l.i++
			l.line++
			l.lineStart = l.i
		case c == '\\' && l.i+1 < len(src) && src[l.i+1] == '\n':
			l.i += 2
			l.line++
			l.lineStart = l.i
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.i++
		case c == '#':
			for l.i < len(src) && src[l.i] != '\n' {
				l.i++
			}
		case isPyNameStart(c):
			l.name()
		case c == '"' || c == '\'':
			l.str(l.i, l.i, "")
		case c >= '0' && c <= '9' || c == '.' && l.i+1 < len(src) && src[l.i+1] >= '0' && src[l.i+1] <= '9':
			l.number()
		default:
			l.operator()
		}
	}
	if len(l.toks) > 0 && l.toks[len(l.toks)-1].kind != '\n' {
		l.toks = append(l.toks, pyTok{kind: '\n', line: l.line})
	}
	return l.toks
}

// pyLexer is pyTokens' state: i is the next byte of src, on line line,
// which starts at lineStart; depth is how many brackets are open.
type pyLexer struct {
	src                string
	i, line, lineStart int
	depth              int
	toks               []pyTok
}

// tok adds a token of kind with text that starts at byte at of the
// current line.
func (l *pyLexer) tok(kind byte, text string, at int) {
	l.toks = append(l.toks, pyTok{kind: kind, text: text, line: l.line, col: at - l.lineStart})
}

// name reads a name, or the prefix of a string (r, b, u, f and their
// pairs) and the string.
func (l *pyLexer) name() {
	src, i := l.src, l.i
	j := i
	for j < len(src) && (isPyNameStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	word := src[i:j]
	if j < len(src) && (src[j] == '"' || src[j] == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
		l.str(i, j, strings.ToLower(word))
		return
	}
	l.tok('n', word, i)
	l.i = j
}

// str reads the string whose quote is at byte quote, and whose token
// (with its prefix) starts at byte start.
func (l *pyLexer) str(start, quote int, prefix string) {
	t, n, nl := pyString(l.src[quote:], prefix)
	t.line, t.col = l.line, start-l.lineStart
	l.toks = append(l.toks, t)
	l.line += nl
	l.i = quote + n
	if nl > 0 {
		l.lineStart = strings.LastIndexByte(l.src[:l.i], '\n') + 1
	}
}

// number reads a number: decimal, hexadecimal, or with a fraction or an
// exponent.
func (l *pyLexer) number() {
	src, i := l.src, l.i
	j := i
	hex := strings.HasPrefix(strings.ToLower(src[i:]), "0x")
	for j < len(src) && (isPyNameStart(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
		if (src[j] == 'e' || src[j] == 'E') && !hex && j+1 < len(src) && (src[j+1] == '+' || src[j+1] == '-') {
			j++ // an exponent's sign
		}
		j++
	}
	l.tok('#', src[i:j], i)
	l.i = j
}

// operator reads an operator or a bracket (counting open brackets), a
// top-level semicolon, or any other character as an operator of its own.
func (l *pyLexer) operator() {
	src, i := l.src, l.i
	c := src[i]
	if c >= utf8.RuneSelf {
		_, n := utf8.DecodeRuneInString(src[i:])
		l.tok('o', src[i:i+n], i)
		l.i += n
		return
	}
	op := string(c)
	if i+1 < len(src) && src[i+1] == '=' && strings.IndexByte("+-*/%&|^<>=!", c) >= 0 {
		op = src[i : i+2]
	}
	switch c {
	case ';':
		if l.depth == 0 {
			// statements on one line: the ones after the first are
			// at the top level when the first is
			l.toks = append(l.toks, pyTok{kind: ';', line: l.line})
			l.i++
			return
		}
	case '(', '[', '{':
		l.depth++
	case ')', ']', '}':
		if l.depth > 0 {
			l.depth--
		}
	}
	l.tok('o', op, i)
	l.i += len(op)
}

func isPyNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// pyString reads the string literal at the start of s (after its prefix,
// lower-cased in prefix) and returns it, its length in bytes and the
// newlines it spans. An f-string is kind 'f': its value is unknown.
func pyString(s, prefix string) (pyTok, int, int) {
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	raw := strings.Contains(prefix, "r")
	var b strings.Builder
	i := len(q)
	for i < len(s) {
		if strings.HasPrefix(s[i:], q) {
			i += len(q)
			break
		}
		c := s[i]
		if c == '\n' && len(q) == 1 {
			break // an unterminated string: what there is of it
		}
		if c == '\\' && i+1 < len(s) {
			if raw {
				b.WriteString(s[i : i+2])
				i += 2
				continue
			}
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				n := 1
				for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
					n++
				}
				r, _ := strconv.ParseUint(s[i:i+n], 8, 32)
				b.WriteRune(rune(r))
				i += n
				continue
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if i+1+n <= len(s) {
					if r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil {
						b.WriteRune(rune(r))
						i += 1 + n
						continue
					}
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	kind := byte('s')
	if strings.Contains(prefix, "f") {
		kind = 'f'
	}
	return pyTok{kind: kind, text: b.String()}, i, strings.Count(s[:i], "\n")
}

// readConfPy evaluates the top-level literal assignments of a conf.py.
func readConfPy(src string) map[string]pyVar {
	// Python reads source with universal newlines.
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	vars := map[string]pyVar{}
	toks := pyTokens(src)
	top := false // the statement before a ';' was at the top level
	for start := 0; start < len(toks); {
		end := start
		for end < len(toks) && toks[end].kind != '\n' && toks[end].kind != ';' {
			end++
		}
		stmt := toks[start:end]
		afterSemicolon := start > 0 && toks[start-1].kind == ';'
		start = end + 1
		if len(stmt) == 0 {
			continue
		}
		if !afterSemicolon {
			top = stmt[0].col == 0
		}
		if len(stmt) < 2 || stmt[0].kind != 'n' || !top {
			continue
		}
		name := stmt[0].text
		line := stmt[0].line
		switch {
		case stmt[1].text == "=":
			// a = b = value assigns both
			names := []string{name}
			rest := stmt[2:]
			for len(rest) >= 2 && rest[0].kind == 'n' && rest[1].text == "=" {
				names = append(names, rest[0].text)
				rest = rest[2:]
			}
			v := pyEval(rest, vars, line)
			for _, n := range names {
				vars[n] = pyVar{v, line}
			}
		case stmt[1].text == "+=":
			vars[name] = pyVar{pyAdd(vars[name].val, pyEval(stmt[2:], vars, line), line), line}
		case len(stmt) >= 4 && stmt[1].text == "." && (stmt[2].text == "append" || stmt[2].text == "extend") &&
			stmt[3].text == "(" && stmt[len(stmt)-1].text == ")":
			arg := pyEval(stmt[4:len(stmt)-1], vars, line)
			if stmt[2].text == "append" {
				if _, unknown := arg.(pyUnknown); !unknown {
					arg = []any{arg}
				}
			}
			vars[name] = pyVar{pyAdd(vars[name].val, arg, line), line}
		default:
			// a call, an import, a def or class header, an if: the names
			// assigned under it are not known.
		}
	}
	return vars
}

// pyAdd is a + b for the values seg knows.
func pyAdd(a, b any, line int) any {
	if u, ok := a.(pyUnknown); ok {
		return u
	}
	if u, ok := b.(pyUnknown); ok {
		return u
	}
	switch x := a.(type) {
	case []any:
		if y, ok := b.([]any); ok {
			return append(append([]any(nil), x...), y...)
		}
	case string:
		if y, ok := b.(string); ok {
			return x + y
		}
	case nil:
		return pyUnknown{line, "it is extended before it is set"}
	}
	return pyUnknown{line, "it adds values of different types"}
}

// pyEval evaluates an expression's tokens.
func pyEval(toks []pyTok, vars map[string]pyVar, line int) any {
	p := &pyParser{toks: toks, vars: vars, line: line}
	v := p.expr()
	if p.err == "" && p.peek() == "," {
		// a tuple without parentheses: a = "x", "y"
		p.i++
		items := []any{v}
		for p.err == "" && p.i < len(p.toks) {
			items = append(items, p.expr())
			if p.peek() != "," {
				break
			}
			p.i++
		}
		v = items
	}
	if p.i < len(p.toks) && p.err == "" {
		p.fail("it is not a literal (%q)", p.toks[p.i].text)
	}
	if p.err != "" {
		return pyUnknown{p.errLine, p.err}
	}
	return v
}

type pyParser struct {
	toks    []pyTok
	i       int
	vars    map[string]pyVar
	line    int
	err     string
	errLine int
}

func (p *pyParser) fail(format string, args ...any) any {
	if p.err == "" {
		p.err = fmt.Sprintf(format, args...)
		p.errLine = p.line
		if p.i < len(p.toks) {
			p.errLine = p.toks[p.i].line
		}
	}
	return nil
}

// peek is the next token when it is an operator (a string "}" is no
// closing brace), else "".
func (p *pyParser) peek() string {
	if p.i < len(p.toks) && p.toks[p.i].kind == 'o' {
		return p.toks[p.i].text
	}
	return ""
}

func (p *pyParser) expr() any {
	v := p.atom()
	for p.err == "" && p.peek() == "+" {
		p.i++
		w := p.atom()
		if p.err != "" {
			return nil
		}
		sum := pyAdd(v, w, p.line)
		if u, ok := sum.(pyUnknown); ok {
			return p.fail("%s", u.why)
		}
		v = sum
	}
	return v
}

func (p *pyParser) atom() any {
	if p.i >= len(p.toks) {
		return p.fail("the value is missing")
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case 's', 'f':
		return p.joinedStrings(t)
	case '#':
		if n, err := strconv.ParseInt(strings.ReplaceAll(t.text, "_", ""), 0, 64); err == nil {
			return n
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(t.text, "_", ""), 64); err == nil {
			return f
		}
		return p.fail("%q is not a number seg reads", t.text)
	case 'n':
		return p.name(t)
	}
	switch t.text {
	case "[":
		return p.list("]")
	case "(":
		return p.parenthesized()
	case "{":
		return p.dict()
	case "-":
		switch v := p.atom().(type) {
		case int64:
			return -v
		case float64:
			return -v
		}
		return p.fail("it negates something that is no number")
	}
	return p.fail("it is not a literal (%q)", t.text)
}

// joinedStrings is the string t and those written right after it, joined as
// Python joins them; one f-string among them makes the value unknown.
func (p *pyParser) joinedStrings(t pyTok) any {
	s, f := t.text, t.kind == 'f'
	for p.i < len(p.toks) && (p.toks[p.i].kind == 's' || p.toks[p.i].kind == 'f') {
		s += p.toks[p.i].text
		f = f || p.toks[p.i].kind == 'f'
		p.i++
	}
	if f {
		return p.fail("it holds an f-string")
	}
	return s
}

// name is the value of the name t: a constant, a dict(...) call, or a
// variable set before it with a known value; calling or indexing
// anything else is not a literal.
func (p *pyParser) name(t pyTok) any {
	switch t.text {
	case "True":
		return true
	case "False":
		return false
	case "None":
		return nil
	case "dict":
		if p.peek() == "(" {
			return p.dictCall()
		}
	}
	if p.peek() == "(" || p.peek() == "." || p.peek() == "[" {
		return p.fail("it calls or indexes %s", t.text)
	}
	v, ok := p.vars[t.text]
	if !ok {
		return p.fail("%s is not set before it", t.text)
	}
	if u, ok := v.val.(pyUnknown); ok {
		return p.fail("%s is not known (line %d: %s)", t.text, u.line, u.why)
	}
	return v.val
}

// parenthesized is what follows an opening parenthesis: an empty tuple,
// an expression in parentheses, or a tuple (as a list).
func (p *pyParser) parenthesized() any {
	if p.peek() == ")" {
		p.i++
		return []any{}
	}
	v := p.expr()
	if p.peek() == ")" {
		p.i++
		return v
	}
	if p.peek() != "," {
		return p.fail("it is not a literal")
	}
	p.i++
	rest := p.list(")")
	if l, ok := rest.([]any); ok {
		return append([]any{v}, l...)
	}
	return nil
}

// list reads items up to close.
func (p *pyParser) list(close string) any {
	if p.comprehension() {
		return p.fail("it is a comprehension")
	}
	out := []any{}
	for p.err == "" {
		if p.peek() == close {
			p.i++
			return out
		}
		out = append(out, p.expr())
		switch p.peek() {
		case ",":
			p.i++
		case close:
		default:
			return p.fail("it is not a literal list")
		}
	}
	return nil
}

// comprehension reports whether the brackets just opened hold a "for"
// of their own.
func (p *pyParser) comprehension() bool {
	depth := 0
	for _, t := range p.toks[p.i:] {
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			if depth == 0 {
				return false
			}
			depth--
		case t.kind == 'n' && t.text == "for" && depth == 0:
			return true
		}
	}
	return false
}

func (p *pyParser) dict() any {
	if p.comprehension() {
		return p.fail("it is a comprehension")
	}
	d := &pyDict{vals: map[string]any{}}
	for p.err == "" {
		if p.peek() == "}" {
			p.i++
			return d
		}
		k := p.expr()
		if p.peek() != ":" {
			return p.fail("it is a set or a comprehension, not a dict")
		}
		p.i++
		v := p.expr()
		ks, ok := k.(string)
		if !ok && p.err == "" {
			return p.fail("a dict key is not a string")
		}
		d.set(ks, v)
		switch p.peek() {
		case ",":
			p.i++
		case "}":
		default:
			return p.fail("it is not a literal dict")
		}
	}
	return nil
}

// dictCall reads dict(key=value, ...).
func (p *pyParser) dictCall() any {
	p.i++ // (
	d := &pyDict{vals: map[string]any{}}
	for p.err == "" {
		if p.peek() == ")" {
			p.i++
			return d
		}
		if p.i+1 >= len(p.toks) || p.toks[p.i].kind != 'n' || p.toks[p.i+1].text != "=" {
			return p.fail("dict(...) has an argument that is not key=value")
		}
		k := p.toks[p.i].text
		p.i += 2
		v := p.expr()
		d.set(k, v)
		switch p.peek() {
		case ",":
			p.i++
		case ")":
		default:
			return p.fail("dict(...) is not a literal")
		}
	}
	return nil
}
