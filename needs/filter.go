package needs

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seg-trace/seg/diag"
)

// sphinx-needs filter strings (needextend's argument, needimport's
// :filter:, the filter argument of dynamic functions, seg's --filter) are
// Python expressions that sphinx-needs evaluates with eval() over a need's
// fields. seg never runs Python: it reads the subset filters use in
// practice and evaluates it itself, with Python's semantics:
//
//   - literals: strings (any quotes, r and u prefixes, Python's escapes),
//     integers, floats, True, False, None, lists and tuples;
//   - names: the need's fields (id, type, title, status, tags, docname,
//     every link type and its _back list, the extra options, ...), and
//     current_need, a need whose fields are read as current_need["f"];
//   - comparisons (==, !=, <, <=, >, >=, chained), in, not in, is, is not;
//     and, or, not (returning their operands, as Python does); + on
//     strings, lists and numbers; unary minus; x[i] on lists and strings;
//   - calls: len(x), search(pattern, text) (Python's re.search, read as an
//     RE2 expression), str, int, float, bool, any, all, c.this_doc(), and
//     the string methods startswith, endswith, upper, lower, strip,
//     lstrip, rstrip, isdigit, replace, split, count, find.
//
// Anything else (a lambda, a comprehension, an attribute other than these
// methods, a call to another function, a regular expression RE2 cannot
// read) is an UnsupportedError: seg cannot say what sphinx-needs would
// match. What sphinx-needs itself refuses (a syntax error, an unknown
// name, a value of the wrong type, a result that is not a bool) is an
// InvalidError, as sphinx-needs warns and matches nothing.

// The diagnostic codes of filter strings.
var (
	CodeUnsupportedFilter = diag.NewError("unsupported-filter", "a sphinx-needs filter string outside the subset of Python seg evaluates")
	CodeInvalidFilter     = diag.NewError("invalid-filter", "a sphinx-needs filter string sphinx-needs itself cannot evaluate")
)

// Fields is a need as a filter reads it: Field returns the value of a
// field (a string, a []string, nil, a bool, an int or a float64) and
// whether the need has it. A field sphinx-needs has and seg does not
// compute (sections, signature, ...) is NotComputed.
type Fields interface {
	Field(name string) (any, bool)
}

// NotComputed is the value of a field sphinx-needs computes and seg does
// not: a filter that reads it is unsupported.
type NotComputed struct{}

// FilterContext is what a filter reads besides the need it is applied to.
type FilterContext struct {
	// Doc is the document (docname) the filter is written in, for
	// c.this_doc(); "" when it has none (seg's --filter).
	Doc string
	// Docname is the docname of the need the filter is applied to.
	Docname string
	// Current is current_need; nil means the need itself.
	Current Fields
	// TextNumbers compares a text that reads as a number with a number
	// as that number (link conditions, condition.go).
	TextNumbers bool
	// Data are the project's needs_filter_data: names the filter reads
	// over the need's fields (sphinx-needs adds them to the context
	// after the fields). DataUnknown: the project computes them, so a
	// name that is no field may be one seg cannot know.
	Data        map[string]any
	DataUnknown bool
}

// FilterError is a filter string seg cannot evaluate, at src[Offset:End]
// of the filter string.
type FilterError struct {
	Offset, End int
	Msg         string
	// Unsupported: valid Python that seg does not evaluate (rather than a
	// filter sphinx-needs refuses too).
	Unsupported bool
}

func (e *FilterError) Error() string { return e.Msg }

// Code is the diagnostic code of the error.
func (e *FilterError) Code() *diag.Code {
	if e.Unsupported {
		return CodeUnsupportedFilter
	}
	return CodeInvalidFilter
}

// Filter is a parsed filter string.
type Filter struct {
	Source string
	root   *expr
}

// ParseFilter reads a filter string.
func ParseFilter(src string) (*Filter, *FilterError) {
	p := &fparser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	if len(p.toks) == 1 {
		return nil, &FilterError{Msg: "empty filter"}
	}
	e, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, false, "unexpected %q", t.text)
	}
	if err := p.regexps(e); err != nil {
		return nil, err
	}
	return &Filter{Source: src, root: e}, nil
}

// Match evaluates the filter on need n. A result that is not a bool is an
// error, as in sphinx-needs.
func (f *Filter) Match(n Fields, ctx FilterContext) (bool, *FilterError) {
	ev := evaluator{need: n, ctx: ctx}
	v, err := ev.eval(f.root)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, &FilterError{Offset: f.root.start, End: f.root.end,
			Msg: fmt.Sprintf("the filter gives %s, not True or False", pyRepr(v))}
	}
	return b, nil
}

// Tokens.

type ftokKind uint8

const (
	tEOF ftokKind = iota
	tName
	tString
	tInt
	tFloat
	tOp
)

type ftok struct {
	kind       ftokKind
	text       string // the source text; a string's value for tString
	start, end int
}

type fparser struct {
	src  string
	toks []ftok
	i    int
}

func (p *fparser) errAt(t ftok, unsupported bool, format string, args ...any) *FilterError {
	return &FilterError{Offset: t.start, End: max(t.end, t.start+1), Msg: fmt.Sprintf(format, args...), Unsupported: unsupported}
}

var fOps = []string{"**", "//", "==", "!=", "<=", ">=", "<<", ">>", ":=", "->", "(", ")", "[", "]", "{", "}", ",", ":", ".", "+", "-", "*", "/", "%", "<", ">", "=", "|", "&", "^", "~", "@", ";"}

func (p *fparser) lex() *FilterError {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
		case c == '#':
			return &FilterError{Offset: i, End: len(s), Msg: "a comment in a filter", Unsupported: true}
		case isPyNameStart(c) || c >= utf8.RuneSelf:
			j := i
			for j < len(s) && (isPyNameStart(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] >= utf8.RuneSelf) {
				j++
			}
			word := s[i:j]
			if j < len(s) && (s[j] == '"' || s[j] == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuf") == "" {
				lw := strings.ToLower(word)
				if strings.ContainsAny(lw, "fb") {
					return &FilterError{Offset: i, End: j + 1, Msg: "an f-string or bytes literal in a filter", Unsupported: true}
				}
				t, n, _ := pyString(s[j:], lw)
				if t.kind == 'f' || !strings.HasSuffix(s[j:j+n], s[j:j+1]) || n < 2 {
					return &FilterError{Offset: i, End: j + n, Msg: "unterminated string"}
				}
				p.toks = append(p.toks, ftok{tString, t.text, i, j + n})
				i = j + n
				continue
			}
			p.toks = append(p.toks, ftok{tName, word, i, j})
			i = j
		case c == '"' || c == '\'':
			t, n, _ := pyString(s[i:], "")
			if n < 2 || s[i+n-1] != c {
				return &FilterError{Offset: i, End: i + n, Msg: "unterminated string"}
			}
			p.toks = append(p.toks, ftok{tString, t.text, i, i + n})
			i += n
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			float := false
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == '_' || s[j] == 'e' || s[j] == 'E' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				if s[j] == '.' || s[j] == 'e' || s[j] == 'E' {
					float = true
				}
				j++
			}
			kind := tInt
			if float {
				kind = tFloat
			}
			p.toks = append(p.toks, ftok{kind, strings.ReplaceAll(s[i:j], "_", ""), i, j})
			i = j
		default:
			op := ""
			for _, o := range fOps {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return &FilterError{Offset: i, End: i + 1, Msg: fmt.Sprintf("unexpected %q", s[i:i+1])}
			}
			p.toks = append(p.toks, ftok{tOp, op, i, i + len(op)})
			i += len(op)
		}
	}
	p.toks = append(p.toks, ftok{kind: tEOF, start: len(s), end: len(s)})
	return nil
}

func (p *fparser) peek() ftok { return p.toks[p.i] }

func (p *fparser) next() ftok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *fparser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *fparser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tName && t.text == w
}

func (p *fparser) expect(op string) *FilterError {
	if !p.isOp(op) {
		t := p.peek()
		if t.kind == tEOF {
			return p.errAt(t, false, "expected %q at the end", op)
		}
		return p.errAt(t, false, "expected %q, found %q", op, t.text)
	}
	p.next()
	return nil
}

// Expressions.

type exprKind uint8

const (
	eLit exprKind = iota
	eName
	eList
	eNot
	eNeg
	eAnd
	eOr
	eCompare // args[0] op[0] args[1] op[1] args[2] ...
	eAdd
	eIndex
	eCall   // name(args)
	eMethod // args[0].name(args[1:])
	eThisDoc
)

type expr struct {
	kind       exprKind
	start, end int
	val        any    // eLit
	name       string // eName, eCall, eMethod
	ops        []string
	args       []*expr
	re         *regexp.Regexp // search() with a literal pattern
}

// Binding powers: or < and < not < comparisons < + < unary - < postfix.
func (p *fparser) expr(minPrec int) (*expr, *FilterError) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tName && t.text == "or" && minPrec <= 1:
			p.next()
			right, err := p.expr(2)
			if err != nil {
				return nil, err
			}
			left = &expr{kind: eOr, start: left.start, end: right.end, args: []*expr{left, right}}
		case t.kind == tName && t.text == "and" && minPrec <= 2:
			p.next()
			right, err := p.expr(3)
			if err != nil {
				return nil, err
			}
			left = &expr{kind: eAnd, start: left.start, end: right.end, args: []*expr{left, right}}
		case minPrec <= 4 && p.compareLen() > 0:
			cmp := &expr{kind: eCompare, start: left.start, args: []*expr{left}}
			for n := p.compareLen(); n > 0; n = p.compareLen() {
				op := p.toks[p.i].text
				if n == 2 {
					op += " " + p.toks[p.i+1].text
				}
				p.i += n
				right, err := p.expr(5)
				if err != nil {
					return nil, err
				}
				cmp.ops = append(cmp.ops, op)
				cmp.args = append(cmp.args, right)
				cmp.end = right.end
			}
			left = cmp
		case t.kind == tOp && (t.text == "+" || t.text == "-") && minPrec <= 5:
			if t.text == "-" {
				return nil, p.errAt(t, true, "subtraction in a filter")
			}
			p.next()
			right, err := p.expr(6)
			if err != nil {
				return nil, err
			}
			left = &expr{kind: eAdd, start: left.start, end: right.end, args: []*expr{left, right}}
		case t.kind == tOp && otherOps[t.text]:
			return nil, p.errAt(t, true, "the operator %q in a filter", t.text)
		case t.kind == tName && t.text == "if":
			return nil, p.errAt(t, true, "a conditional expression in a filter")
		case t.kind == tName && t.text == "for":
			return nil, p.errAt(t, true, "a comprehension in a filter")
		default:
			return left, nil
		}
	}
}

// compareLen is the number of tokens of the comparison operator at the
// parser's place ("not in" and "is not" are two), 0 when there is none.
func (p *fparser) compareLen() int {
	t := p.peek()
	n := p.toks[min(p.i+1, len(p.toks)-1)]
	switch {
	case t.kind == tOp:
		switch t.text {
		case "==", "!=", "<", "<=", ">", ">=":
			return 1
		}
	case t.kind != tName:
	case t.text == "in":
		return 1
	case t.text == "not" && n.kind == tName && n.text == "in", t.text == "is" && n.kind == tName && n.text == "not":
		return 2
	case t.text == "is":
		return 1
	}
	return 0
}

func (p *fparser) unary() (*expr, *FilterError) {
	t := p.peek()
	switch {
	case t.kind == tName && t.text == "not":
		p.next()
		x, err := p.expr(3)
		if err != nil {
			return nil, err
		}
		return &expr{kind: eNot, start: t.start, end: x.end, args: []*expr{x}}, nil
	case t.kind == tOp && t.text == "-":
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &expr{kind: eNeg, start: t.start, end: x.end, args: []*expr{x}}, nil
	case t.kind == tName && t.text == "lambda":
		return nil, p.errAt(t, true, "a lambda in a filter")
	}
	return p.postfix()
}

func (p *fparser) postfix() (*expr, *FilterError) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "[":
			p.next()
			if p.isOp(":") {
				return nil, p.errAt(p.peek(), true, "a slice in a filter")
			}
			i, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			if p.isOp(":") {
				return nil, p.errAt(p.peek(), true, "a slice in a filter")
			}
			end := p.peek().end
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &expr{kind: eIndex, start: x.start, end: end, args: []*expr{x, i}}
		case t.kind == tOp && t.text == ".":
			p.next()
			m := p.next()
			if m.kind != tName {
				return nil, p.errAt(m, false, "expected a name after \".\"")
			}
			if x.kind == eName && x.name == "c" && m.text == "this_doc" {
				if err := p.expect("("); err != nil {
					return nil, err
				}
				end := p.peek().end
				if err := p.expect(")"); err != nil {
					return nil, err
				}
				x = &expr{kind: eThisDoc, start: x.start, end: end}
				continue
			}
			if !stringMethods[m.text] {
				return nil, p.errAt(m, true, "the attribute %q in a filter (seg reads c.this_doc() and the string methods %s)", m.text, methodList)
			}
			if !p.isOp("(") {
				return nil, p.errAt(m, true, "the attribute %q used without a call", m.text)
			}
			args, end, err := p.callArgs()
			if err != nil {
				return nil, err
			}
			x = &expr{kind: eMethod, name: m.text, start: x.start, end: end, args: append([]*expr{x}, args...)}
		case t.kind == tOp && t.text == "(":
			if x.kind != eName {
				return nil, p.errAt(t, true, "calling something other than a function name")
			}
			if !functions[x.name] {
				return nil, p.errAt(ftok{start: x.start, end: x.end}, true, "the function %q in a filter (seg reads %s)", x.name, functionList)
			}
			args, end, err := p.callArgs()
			if err != nil {
				return nil, err
			}
			x = &expr{kind: eCall, name: x.name, start: x.start, end: end, args: args}
		default:
			return x, nil
		}
	}
}

// callArgs reads "(a, b, ...)"; keyword arguments and * are not read.
func (p *fparser) callArgs() ([]*expr, int, *FilterError) {
	p.next() // (
	var args []*expr
	for !p.isOp(")") {
		if t := p.peek(); t.kind == tName && p.toks[p.i+1].kind == tOp && p.toks[p.i+1].text == "=" {
			return nil, 0, p.errAt(t, true, "a keyword argument in a filter")
		}
		if p.isOp("*") || p.isOp("**") {
			return nil, 0, p.errAt(p.peek(), true, "argument unpacking in a filter")
		}
		a, err := p.expr(0)
		if err != nil {
			return nil, 0, err
		}
		args = append(args, a)
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	end := p.peek().end
	if err := p.expect(")"); err != nil {
		return nil, 0, err
	}
	return args, end, nil
}

func (p *fparser) atom() (*expr, *FilterError) {
	t := p.next()
	switch t.kind {
	case tEOF:
		return nil, p.errAt(t, false, "the filter ends too early")
	case tString:
		s := &expr{kind: eLit, start: t.start, end: t.end, val: t.text}
		// Adjacent literals are one string.
		for p.peek().kind == tString {
			n := p.next()
			s.val = s.val.(string) + n.text
			s.end = n.end
		}
		return s, nil
	case tInt:
		v, err := strconv.ParseInt(t.text, 0, 64)
		if err != nil {
			return nil, p.errAt(t, true, "the number %s in a filter", t.text)
		}
		return &expr{kind: eLit, start: t.start, end: t.end, val: v}, nil
	case tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errAt(t, false, "invalid number %s", t.text)
		}
		return &expr{kind: eLit, start: t.start, end: t.end, val: v}, nil
	case tName:
		switch t.text {
		case "True":
			return &expr{kind: eLit, start: t.start, end: t.end, val: true}, nil
		case "False":
			return &expr{kind: eLit, start: t.start, end: t.end, val: false}, nil
		case "None":
			return &expr{kind: eLit, start: t.start, end: t.end, val: nil}, nil
		case "and", "or", "in", "is", "if", "else", "for", "lambda", "not":
			return nil, p.errAt(t, false, "unexpected %q", t.text)
		}
		return &expr{kind: eName, name: t.text, start: t.start, end: t.end}, nil
	case tOp:
		switch t.text {
		case "(", "[":
			closer := map[string]string{"(": ")", "[": "]"}[t.text]
			l := &expr{kind: eList, start: t.start}
			tuple := false
			for !p.isOp(closer) {
				e, err := p.expr(0)
				if err != nil {
					return nil, err
				}
				if p.isWord("for") {
					return nil, p.errAt(p.peek(), true, "a comprehension in a filter")
				}
				l.args = append(l.args, e)
				if !p.isOp(",") {
					break
				}
				tuple = true
				p.next()
			}
			l.end = p.peek().end
			if err := p.expect(closer); err != nil {
				return nil, err
			}
			if t.text == "(" && !tuple && len(l.args) == 1 {
				return l.args[0], nil // a parenthesised expression
			}
			return l, nil
		case "{":
			return nil, p.errAt(t, true, "a dict or set in a filter")
		}
	}
	return nil, p.errAt(t, false, "unexpected %q", t.text)
}

// regexps compiles the literal patterns of search(), so that a pattern RE2
// cannot read is refused before anything is evaluated.
func (p *fparser) regexps(e *expr) *FilterError {
	for _, a := range e.args {
		if err := p.regexps(a); err != nil {
			return err
		}
	}
	if e.kind == eCall && e.name == "search" && len(e.args) >= 1 && e.args[0].kind == eLit {
		pat, ok := e.args[0].val.(string)
		if !ok {
			return nil
		}
		re, err := compilePyRegexp(pat)
		if err != nil {
			return &FilterError{Offset: e.args[0].start, End: e.args[0].end, Unsupported: true,
				Msg: fmt.Sprintf("the regular expression %q, which seg cannot read as RE2: %v", pat, err)}
		}
		e.re = re
	}
	return nil
}

func compilePyRegexp(pat string) (*regexp.Regexp, error) {
	// Python's named groups (?P<name>...) are RE2's too; \Z is RE2's \z.
	return regexp.Compile(strings.ReplaceAll(pat, `\Z`, `\z`))
}

// otherOps are Python's binary operators a filter does not use.
var otherOps = map[string]bool{"*": true, "/": true, "//": true, "%": true, "**": true, "@": true, "|": true, "&": true, "^": true, "<<": true, ">>": true}

var functions = map[string]bool{"len": true, "search": true, "str": true, "int": true, "float": true, "bool": true, "any": true, "all": true}

const functionList = "len, search, str, int, float, bool, any, all and c.this_doc"

var stringMethods = map[string]bool{
	"startswith": true, "endswith": true, "upper": true, "lower": true, "strip": true, "lstrip": true,
	"rstrip": true, "isdigit": true, "replace": true, "split": true, "count": true, "find": true,
}

const methodList = "startswith, endswith, upper, lower, strip, lstrip, rstrip, isdigit, replace, split, count, find"

// Evaluation.

type evaluator struct {
	need Fields
	ctx  FilterContext
}

// currentNeed is current_need: a need whose fields are read by index.
type currentNeed struct{ f Fields }

func (ev *evaluator) fail(e *expr, format string, args ...any) *FilterError {
	return &FilterError{Offset: e.start, End: e.end, Msg: fmt.Sprintf(format, args...)}
}

func (ev *evaluator) eval(e *expr) (any, *FilterError) {
	switch e.kind {
	case eLit:
		return e.val, nil
	case eName:
		if e.name == "current_need" {
			if ev.ctx.Current != nil {
				return currentNeed{ev.ctx.Current}, nil
			}
			return currentNeed{ev.need}, nil
		}
		if v, ok := ev.ctx.Data[e.name]; ok {
			return v, nil
		}
		v, ok := ev.need.Field(e.name)
		if !ok && ev.ctx.DataUnknown {
			return nil, &FilterError{Offset: e.start, End: e.end, Unsupported: true,
				Msg: fmt.Sprintf("name %q is no need field, and may be one of needs_filter_data, which conf.py computes", e.name)}
		}
		if !ok {
			return nil, ev.fail(e, "name %q is not defined (no need field of that name)", e.name)
		}
		if _, nc := v.(NotComputed); nc {
			return nil, &FilterError{Offset: e.start, End: e.end, Unsupported: true,
				Msg: fmt.Sprintf("the field %q, which sphinx-needs computes while it renders and seg does not", e.name)}
		}
		return norm(v), nil
	case eList:
		out := make([]any, 0, len(e.args))
		for _, a := range e.args {
			v, err := ev.eval(a)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case eNot:
		v, err := ev.eval(e.args[0])
		if err != nil {
			return nil, err
		}
		return !truthy(v), nil
	case eNeg:
		v, err := ev.eval(e.args[0])
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			return -x, nil
		case float64:
			return -x, nil
		}
		return nil, ev.fail(e, "bad operand type for unary -: %s", pyType(v))
	case eAnd, eOr:
		l, err := ev.eval(e.args[0])
		if err != nil {
			return nil, err
		}
		if truthy(l) == (e.kind == eOr) {
			return l, nil
		}
		return ev.eval(e.args[1])
	case eCompare:
		return ev.compare(e)
	case eAdd:
		return ev.add(e)
	case eIndex:
		return ev.index(e)
	case eCall:
		return ev.call(e)
	case eMethod:
		return ev.method(e)
	case eThisDoc:
		if ev.ctx.Doc == "" {
			return nil, &FilterError{Offset: e.start, End: e.end, Unsupported: true,
				Msg: "c.this_doc() where the filter has no document (it names the document a needextend or a need's function is written in)"}
		}
		return ev.ctx.Docname == ev.ctx.Doc, nil
	}
	return nil, ev.fail(e, "cannot evaluate")
}

func (ev *evaluator) compare(e *expr) (any, *FilterError) {
	left, err := ev.eval(e.args[0])
	if err != nil {
		return nil, err
	}
	for i, op := range e.ops {
		right, err := ev.eval(e.args[i+1])
		if err != nil {
			return nil, err
		}
		var ok bool
		l, r := left, right
		if ev.ctx.TextNumbers {
			l, r = textNumbers(left, right)
		}
		switch op {
		case "==":
			ok = pyEqual(l, r)
		case "!=":
			ok = !pyEqual(l, r)
		case "is":
			ok = left == nil && right == nil || isSingleton(left) && pyEqual(left, right)
		case "is not":
			ok = !(left == nil && right == nil || isSingleton(left) && pyEqual(left, right))
		case "in", "not in":
			in, ferr := ev.contains(e.args[i+1], right, left)
			if ferr != nil {
				return nil, ferr
			}
			ok = in == (op == "in")
		default:
			c, cerr := pyCompare(l, r)
			if cerr != "" {
				return nil, ev.fail(e, "'%s' not supported between %s and %s", op, pyType(left), pyType(right))
			}
			switch op {
			case "<":
				ok = c < 0
			case "<=":
				ok = c <= 0
			case ">":
				ok = c > 0
			case ">=":
				ok = c >= 0
			}
		}
		if !ok {
			return false, nil
		}
		left = right
	}
	return true, nil
}

func isSingleton(v any) bool {
	switch v.(type) {
	case nil, bool:
		return true
	}
	return false
}

func (ev *evaluator) contains(at *expr, container, item any) (bool, *FilterError) {
	switch c := container.(type) {
	case string:
		s, ok := item.(string)
		if !ok {
			return false, ev.fail(at, "'in <string>' requires a string as left operand, not %s", pyType(item))
		}
		return strings.Contains(c, s), nil
	case []any:
		for _, x := range c {
			if pyEqual(x, item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, ev.fail(at, "argument of type %s is not iterable", pyType(container))
}

func (ev *evaluator) add(e *expr) (any, *FilterError) {
	l, err := ev.eval(e.args[0])
	if err != nil {
		return nil, err
	}
	r, err := ev.eval(e.args[1])
	if err != nil {
		return nil, err
	}
	switch a := l.(type) {
	case string:
		if b, ok := r.(string); ok {
			return a + b, nil
		}
	case []any:
		if b, ok := r.([]any); ok {
			return append(append([]any{}, a...), b...), nil
		}
	case int64, float64, bool:
		if x, y, ok := numbers(l, r); ok {
			if ai, ok1 := l.(int64); ok1 {
				if bi, ok2 := r.(int64); ok2 {
					return ai + bi, nil
				}
			}
			return x + y, nil
		}
	}
	return nil, ev.fail(e, "unsupported operand types for +: %s and %s", pyType(l), pyType(r))
}

func (ev *evaluator) index(e *expr) (any, *FilterError) {
	x, err := ev.eval(e.args[0])
	if err != nil {
		return nil, err
	}
	k, err := ev.eval(e.args[1])
	if err != nil {
		return nil, err
	}
	if cn, ok := x.(currentNeed); ok {
		name, ok := k.(string)
		if !ok {
			return nil, ev.fail(e.args[1], "a need's fields are named by strings")
		}
		v, ok := cn.f.Field(name)
		if !ok {
			return nil, ev.fail(e.args[1], "KeyError: %s", pyRepr(name))
		}
		return norm(v), nil
	}
	i, ok := k.(int64)
	if !ok {
		return nil, ev.fail(e.args[1], "indices must be integers, not %s", pyType(k))
	}
	var n int
	switch c := x.(type) {
	case []any:
		n = len(c)
	case string:
		n = utf8.RuneCountInString(c)
	default:
		return nil, ev.fail(e, "%s is not subscriptable", pyType(x))
	}
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return nil, ev.fail(e, "index out of range")
	}
	if c, ok := x.([]any); ok {
		return c[i], nil
	}
	return string([]rune(x.(string))[i]), nil
}

func (ev *evaluator) args(e *expr, from int) ([]any, *FilterError) {
	out := make([]any, 0, len(e.args)-from)
	for _, a := range e.args[from:] {
		v, err := ev.eval(a)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (ev *evaluator) call(e *expr) (any, *FilterError) {
	args, err := ev.args(e, 0)
	if err != nil {
		return nil, err
	}
	want := func(n int) *FilterError {
		if len(args) != n {
			return ev.fail(e, "%s() takes %d arguments (%d given)", e.name, n, len(args))
		}
		return nil
	}
	switch e.name {
	case "len":
		if err := want(1); err != nil {
			return nil, err
		}
		switch v := args[0].(type) {
		case string:
			return int64(utf8.RuneCountInString(v)), nil
		case []any:
			return int64(len(v)), nil
		}
		return nil, ev.fail(e, "object of type %s has no len()", pyType(args[0]))
	case "search":
		if len(args) != 2 {
			return nil, ev.fail(e, "search() takes a pattern and a string (%d arguments given)", len(args))
		}
		pat, ok1 := args[0].(string)
		s, ok2 := args[1].(string)
		if !ok1 || !ok2 {
			return nil, ev.fail(e, "search() takes a pattern and a string, not %s and %s", pyType(args[0]), pyType(args[1]))
		}
		re := e.re
		if re == nil {
			var rerr error
			if re, rerr = compilePyRegexp(pat); rerr != nil {
				return nil, &FilterError{Offset: e.start, End: e.end, Unsupported: true,
					Msg: fmt.Sprintf("the regular expression %q, which seg cannot read as RE2: %v", pat, rerr)}
			}
		}
		return re.MatchString(s), nil
	case "str":
		if err := want(1); err != nil {
			return nil, err
		}
		return pyStrOf(args[0]), nil
	case "bool":
		if err := want(1); err != nil {
			return nil, err
		}
		return truthy(args[0]), nil
	case "int", "float":
		if err := want(1); err != nil {
			return nil, err
		}
		return ev.number(e, args[0])
	case "any", "all":
		if err := want(1); err != nil {
			return nil, err
		}
		l, ok := args[0].([]any)
		if !ok {
			return nil, ev.fail(e, "%s is not iterable", pyType(args[0]))
		}
		for _, x := range l {
			if truthy(x) == (e.name == "any") {
				return e.name == "any", nil
			}
		}
		return e.name == "all", nil
	}
	return nil, ev.fail(e, "unknown function %q", e.name)
}

// number is int(v) or float(v), as Python converts a string or a number.
func (ev *evaluator) number(e *expr, v any) (any, *FilterError) {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case bool:
		if x {
			f = 1
		}
	case string:
		t := strings.TrimSpace(x)
		var perr error
		if e.name == "int" {
			var i int64
			i, perr = strconv.ParseInt(t, 10, 64)
			f = float64(i)
		} else {
			f, perr = strconv.ParseFloat(t, 64)
		}
		if perr != nil {
			return nil, ev.fail(e, "invalid literal for %s(): %s", e.name, pyRepr(x))
		}
	default:
		return nil, ev.fail(e, "%s() argument must be a string or a number, not %s", e.name, pyType(v))
	}
	if e.name == "int" {
		return int64(math.Trunc(f)), nil
	}
	return f, nil
}

func (ev *evaluator) method(e *expr) (any, *FilterError) {
	vals, err := ev.args(e, 0)
	if err != nil {
		return nil, err
	}
	s, ok := vals[0].(string)
	if !ok {
		return nil, ev.fail(e, "%s has no attribute %q", pyType(vals[0]), e.name)
	}
	m := strMethod{ev: ev, e: e, s: s, args: vals[1:]}
	switch e.name {
	case "startswith", "endswith":
		return m.affix()
	case "upper":
		return strings.ToUpper(s), nil
	case "lower":
		return strings.ToLower(s), nil
	case "strip", "lstrip", "rstrip":
		return m.strip()
	case "isdigit":
		return s != "" && strings.Trim(s, "0123456789") == "", nil
	case "replace":
		a, err := m.arg(0)
		if err != nil {
			return nil, err
		}
		b, err := m.arg(1)
		if err != nil {
			return nil, err
		}
		return strings.ReplaceAll(s, a, b), nil
	case "split":
		return m.split()
	case "count", "find":
		return m.search()
	}
	return nil, ev.fail(e, "unknown method %q", e.name)
}

// strMethod is a call of a string method: s.name(args).
type strMethod struct {
	ev   *evaluator
	e    *expr
	s    string
	args []any
}

// arg is the i-th argument, which must be a string.
func (m strMethod) arg(i int) (string, *FilterError) {
	if i >= len(m.args) {
		return "", m.ev.fail(m.e, "%s() needs more arguments", m.e.name)
	}
	a, ok := m.args[i].(string)
	if !ok {
		return "", m.ev.fail(m.e, "%s() argument must be str, not %s", m.e.name, pyType(m.args[i]))
	}
	return a, nil
}

// affix is startswith and endswith, of a string or a tuple of them.
func (m strMethod) affix() (any, *FilterError) {
	if len(m.args) != 1 {
		return nil, m.ev.fail(m.e, "%s() takes one argument here", m.e.name)
	}
	var affixes []string
	switch a := m.args[0].(type) {
	case string:
		affixes = []string{a}
	case []any:
		for _, x := range a {
			xs, ok := x.(string)
			if !ok {
				return nil, m.ev.fail(m.e, "%s() tuple items must be str, not %s", m.e.name, pyType(x))
			}
			affixes = append(affixes, xs)
		}
	default:
		return nil, m.ev.fail(m.e, "%s() argument must be str or a tuple of str, not %s", m.e.name, pyType(m.args[0]))
	}
	for _, x := range affixes {
		if m.e.name == "startswith" && strings.HasPrefix(m.s, x) || m.e.name == "endswith" && strings.HasSuffix(m.s, x) {
			return true, nil
		}
	}
	return false, nil
}

func (m strMethod) strip() (any, *FilterError) {
	cut := " \t\n\r\v\f"
	if len(m.args) > 0 {
		c, err := m.arg(0)
		if err != nil {
			return nil, err
		}
		cut = c
	}
	switch m.e.name {
	case "strip":
		return strings.Trim(m.s, cut), nil
	case "lstrip":
		return strings.TrimLeft(m.s, cut), nil
	}
	return strings.TrimRight(m.s, cut), nil
}

func (m strMethod) split() (any, *FilterError) {
	var parts []string
	if len(m.args) == 0 {
		parts = strings.Fields(m.s)
	} else {
		sep, err := m.arg(0)
		if err != nil {
			return nil, err
		}
		if sep == "" {
			return nil, m.ev.fail(m.e, "empty separator")
		}
		parts = strings.Split(m.s, sep)
	}
	out := make([]any, len(parts))
	for i, x := range parts {
		out[i] = x
	}
	return out, nil
}

// search is count and find.
func (m strMethod) search() (any, *FilterError) {
	a, err := m.arg(0)
	if err != nil {
		return nil, err
	}
	if m.e.name == "count" {
		if a == "" {
			return int64(utf8.RuneCountInString(m.s) + 1), nil
		}
		return int64(strings.Count(m.s, a)), nil
	}
	i := strings.Index(m.s, a)
	if i < 0 {
		return int64(-1), nil
	}
	return int64(utf8.RuneCountInString(m.s[:i])), nil
}

// Python values.

// norm turns a field's Go value into a filter value.
func norm(v any) any {
	switch x := v.(type) {
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case int:
		return int64(x)
	}
	return v
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int64:
		return x != 0
	case float64:
		return x != 0
	case []any:
		return len(x) > 0
	}
	return true
}

func numbers(a, b any) (float64, float64, bool) {
	f := func(v any) (float64, bool) {
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, true
		case bool:
			if x {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	x, ok1 := f(a)
	y, ok2 := f(b)
	return x, y, ok1 && ok2
}

func pyEqual(a, b any) bool {
	if x, y, ok := numbers(a, b); ok {
		return x == y
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case currentNeed:
		y, ok := b.(currentNeed)
		return ok && x == y
	}
	return false
}

// pyCompare orders two values as Python's < does; the error is a
// TypeError's text.
func pyCompare(a, b any) (int, string) {
	if x, y, ok := numbers(a, b); ok {
		switch {
		case x < y:
			return -1, ""
		case x > y:
			return 1, ""
		}
		return 0, ""
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), ""
		}
	case []any:
		if y, ok := b.([]any); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if pyEqual(x[i], y[i]) {
					continue
				}
				return pyCompare(x[i], y[i])
			}
			switch {
			case len(x) < len(y):
				return -1, ""
			case len(x) > len(y):
				return 1, ""
			}
			return 0, ""
		}
	}
	return 0, "type"
}

func pyType(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case int64:
		return "int"
	case float64:
		return "float"
	case []any:
		return "list"
	case currentNeed:
		return "need"
	}
	return fmt.Sprintf("%T", v)
}

// pyRepr is Python's repr() of a value.
func pyRepr(v any) string {
	switch x := v.(type) {
	case string:
		return pyQuote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return pyStrOf(v)
}

// pyStrOf is Python's str() of a value.
func pyStrOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return PyFloat(x)
	case []any:
		return pyRepr(x)
	}
	return fmt.Sprint(v)
}

// pyQuote quotes a string as Python's repr does: single quotes unless the
// string holds one and no double quote.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// PyFloat is Python's repr() of a float: the shortest text that reads
// back to the same float, with ".0" on whole numbers and Python's
// exponent form (1e+16, 1e-05) outside [1e-4, 1e16).
func PyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-4 || abs >= 1e16) {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+16, 1.5e-05
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		if len(exp) < 2 {
			exp = strings.Repeat("0", 2-len(exp)) + exp
		}
		return mant + "e" + string(sign) + exp
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
