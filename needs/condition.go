package needs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seg-trace/seg/internal/lazyre"
)

// Link conditions (sphinx-needs 8: "ID[condition]") are filter strings
// that sphinx-needs evaluates against the link's target; seg evaluates
// them with the filter evaluator (filter.go), with one difference that
// FilterContext.TextNumbers turns on: seg reads every field as text, where
// sphinx-needs gives a field its schema's type, and a condition such as
// version==1 (S-CORE pins every link that way) names a number. With
// TextNumbers, a comparison (==, !=, <, <=, >, >=) of a text that reads
// as a decimal number with a number compares the two numbers. The
// decision is recorded in docs/revisions.md ("Link conditions").

// numberText is a decimal number as a field's text may hold one.
var numberText = lazyre.New(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// textNumber is s as a number, when it reads as one.
func textNumber(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if !numberText.MatchString(t) {
		return nil, false
	}
	if i, err := strconv.ParseInt(t, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

// textNumbers is a and b with a text that reads as a number made that
// number, where the other is a number (not a bool).
func textNumbers(a, b any) (any, any) {
	isNum := func(v any) bool {
		switch v.(type) {
		case int64, float64:
			return true
		}
		return false
	}
	if s, ok := a.(string); ok && isNum(b) {
		if n, ok := textNumber(s); ok {
			return n, b
		}
	}
	if s, ok := b.(string); ok && isNum(a) {
		if n, ok := textNumber(s); ok {
			return a, n
		}
	}
	return a, b
}

// Equality is a condition of the form FIELD == LITERAL (or LITERAL ==
// FIELD), the only form seg review --accept rewrites: Field is the
// field's name, and Start and End delimit the literal in the condition's
// text.
type Equality struct {
	Field      string
	Start, End int
	// Number: the literal is a number (else a string).
	Number bool
	// Quote is a string literal's opening quote character.
	Quote byte
}

// ParseEquality reads cond as FIELD == LITERAL or LITERAL == FIELD; ok is
// false when it is anything else.
func ParseEquality(cond string) (eq Equality, ok bool) {
	p := &fparser{src: cond}
	if p.lex() != nil || len(p.toks) != 4 {
		return eq, false
	}
	a, op, b := p.toks[0], p.toks[1], p.toks[2]
	if op.kind != tOp || op.text != "==" {
		return eq, false
	}
	isLit := func(t ftok) bool { return t.kind == tString || t.kind == tInt || t.kind == tFloat }
	name, lit := a, b
	if a.kind != tName {
		name, lit = b, a
	}
	if name.kind != tName || !isLit(lit) || isKeyword(name.text) {
		return eq, false
	}
	eq = Equality{Field: name.text, Start: lit.start, End: lit.end, Number: lit.kind != tString}
	if lit.kind == tString {
		q := cond[lit.start]
		if q != '"' && q != '\'' {
			return eq, false // a prefixed string (r"...", u"...")
		}
		eq.Quote = q
	}
	return eq, true
}

func isKeyword(w string) bool {
	switch w {
	case "True", "False", "None", "and", "or", "not", "in", "is":
		return true
	}
	return false
}

// Literal is the text of the literal that makes eq hold for a field
// whose value is v: a number literal stays a number where v reads as
// one, else a string literal in eq's quotes. It fails for a value that
// is no text or number, or holds a character a one-line link entry
// cannot (a line end, or "]", which would close the condition).
func (eq Equality) Literal(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return PyFloat(x), nil
	default:
		return "", fmt.Errorf("the field's value %s is no text or number", pyRepr(v))
	}
	if strings.ContainsAny(s, "\n\r]") {
		return "", fmt.Errorf("the value %s holds a line end or \"]\"", pyQuote(s))
	}
	if eq.Number {
		if _, ok := textNumber(s); ok {
			return strings.TrimSpace(s), nil
		}
	}
	q := eq.Quote
	if q == 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String(), nil
}

// Repr is Python's repr() of a field's value, as a message shows it.
func Repr(v any) string { return pyRepr(norm(v)) }
