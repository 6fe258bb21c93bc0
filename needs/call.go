package needs

import (
	"errors"
	"strconv"
	"strings"
)

// Call is a dynamic function call as written in a need's option:
// "copy('status', need_id='REQ_1')" without its "[[ ]]".
type Call struct {
	Name string
	// Args and Kwargs are the arguments' values (strings, int64s,
	// float64s, bools, nil and []any lists).
	Args   []any
	Kwargs map[string]any
	// Keys are the keyword arguments' names in the order written.
	Keys []string
}

// ParseCall reads a dynamic function call whose arguments are literals,
// as sphinx-needs reads them (Python's ast: numbers, strings, booleans,
// None and lists, positional or by keyword).
func ParseCall(src string) (*Call, *FilterError) {
	p := &fparser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	name := p.next()
	if name.kind != tName {
		return nil, p.errAt(name, false, "a dynamic function is a call: name(arguments)")
	}
	c := &Call{Name: name.text, Kwargs: map[string]any{}}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	lit := evaluator{need: noFields{}}
	for !p.isOp(")") {
		key := ""
		if t := p.peek(); t.kind == tName && p.toks[p.i+1].kind == tOp && p.toks[p.i+1].text == "=" {
			key = t.text
			p.i += 2
		}
		e, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		v, err := lit.eval(e)
		if err != nil {
			return nil, &FilterError{Offset: e.start, End: e.end, Unsupported: true,
				Msg: "an argument that is not a literal (" + err.Msg + ")"}
		}
		if key != "" {
			if _, dup := c.Kwargs[key]; !dup {
				c.Keys = append(c.Keys, key)
			}
			c.Kwargs[key] = v
		} else if len(c.Kwargs) > 0 {
			return nil, &FilterError{Offset: e.start, End: e.end, Msg: "a positional argument after a keyword argument"}
		} else {
			c.Args = append(c.Args, v)
		}
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, false, "unexpected %q after the call", t.text)
	}
	return c, nil
}

// noFields is a need with no fields: only literals evaluate.
type noFields struct{}

func (noFields) Field(string) (any, bool) { return nil, false }

// PyStr is Python's str() of a value a function returns or takes.
func PyStr(v any) string { return pyStrOf(norm(v)) }

// PyRepr is Python's repr() of such a value.
func PyRepr(v any) string { return pyRepr(norm(v)) }

// Truthy is Python's truth value of such a value.
func Truthy(v any) bool { return truthy(norm(v)) }

// PyEqual is Python's == on such values.
func PyEqual(a, b any) bool { return pyEqual(norm(a), norm(b)) }

// PyFloatOf is Python's float(v) for a string or a number; ok is false
// where Python raises ValueError, and typeErr where it raises TypeError.
func PyFloatOf(v any) (f float64, ok, typeErr bool) {
	switch x := norm(v).(type) {
	case int64:
		return float64(x), true, false
	case float64:
		return x, true, false
	case bool:
		if x {
			return 1, true, false
		}
		return 0, true, false
	case string:
		s := strings.TrimSpace(x)
		if strings.Contains(s, "__") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") {
			return 0, false, false
		}
		g, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false, false
		}
		return g, true, false
	}
	return 0, false, true
}
