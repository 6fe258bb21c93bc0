package metamodel

import (
	"fmt"
	"strings"
)

// Cond is a condition of a graph check, as S-CORE writes them: a
// comparison "attr op value" (op one of == != > < >= <= contains; the
// three words separated by single spaces), or a mapping of one operator to
// its operands: and, or, xor (two or more, folded left to right), not
// (exactly one).
type Cond struct {
	// Op is "and", "or", "xor" or "not" for a compound condition, "" for
	// a comparison.
	Op   string
	Args []*Cond
	// Attr, Cmp and Value are a comparison's three words.
	Attr, Cmp, Value string
	Line             int
}

// Fields is what a condition reads of a need: a field's value (a string,
// or a list of strings for a link option or tags), and whether the need
// has the field at all.
type Fields interface {
	Field(name string) (value any, ok bool)
}

// Eval evaluates the condition on a need; missing lists the attributes
// the need does not have (S-CORE warns of each and counts the comparison
// false).
func (c *Cond) Eval(f Fields, missing *[]string) bool {
	switch c.Op {
	case "not":
		return !c.Args[0].Eval(f, missing)
	case "and", "or", "xor":
		v := c.Args[0].Eval(f, missing)
		for _, a := range c.Args[1:] {
			w := a.Eval(f, missing)
			switch c.Op {
			case "and":
				v = v && w
			case "or":
				v = v || w
			default:
				v = v != w
			}
		}
		return v
	}
	val, ok := f.Field(c.Attr)
	if !ok {
		*missing = append(*missing, c.Attr)
		return false
	}
	s, isStr := val.(string)
	switch c.Cmp {
	case "==":
		return isStr && s == c.Value
	case "!=":
		// A list is never equal to a word (Python compares a list with a
		// string as unequal).
		return !isStr || s != c.Value
	case "contains":
		return isStr && strings.Contains(s, c.Value)
	}
	if !isStr {
		// Python cannot order a list against a string; S-CORE's build
		// stops there. seg counts the comparison false.
		return false
	}
	switch c.Cmp {
	case ">":
		return s > c.Value
	case "<":
		return s < c.Value
	case ">=":
		return s >= c.Value
	case "<=":
		return s <= c.Value
	}
	return false
}

// String is the condition as S-CORE prints it in its messages: a
// comparison as written, a compound one as Python prints the mapping.
func (c *Cond) String() string {
	if c.Op == "" {
		return c.Attr + " " + c.Cmp + " " + c.Value
	}
	return "{" + pyRepr(c.Op) + ": [" + joinConds(c.Args) + "]}"
}

func joinConds(cs []*Cond) string {
	parts := make([]string, len(cs))
	for i, a := range cs {
		if a.Op == "" {
			parts[i] = pyRepr(a.String())
		} else {
			parts[i] = a.String()
		}
	}
	return strings.Join(parts, ", ")
}

func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

var comparisons = map[string]bool{"==": true, "!=": true, ">": true, "<": true, ">=": true, "<=": true, "contains": true}

// parseComparison reads "attr op value" as S-CORE does: split on single
// spaces into exactly three words.
func parseComparison(s string, line int) (*Cond, error) {
	parts := strings.Split(s, " ")
	if len(parts) != 3 {
		return nil, fmt.Errorf("condition %q is not \"attribute operator value\" (three words separated by single spaces)", s)
	}
	if !comparisons[parts[1]] {
		return nil, fmt.Errorf("condition %q: operator %q is none of ==, !=, >, <, >=, <=, contains", s, parts[1])
	}
	return &Cond{Attr: parts[0], Cmp: parts[1], Value: parts[2], Line: line}, nil
}
