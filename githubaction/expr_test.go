package githubaction_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// A small evaluator of GitHub Actions expressions, for the subset the
// action uses in if: conditions, env: and with: values: literals,
// context paths (inputs.x, steps.id.outputs.y, github.event.a.b),
// ! == != && || and parentheses, and the status functions. It follows
// GitHub's rules where the action depends on them: strings compare
// without regard to case, values of different types compare as numbers,
// a missing property is null, and false, 0, "" and null are falsy.
// Anything else is an error, so the test cannot pass on an expression it
// does not understand.

type exprContext struct {
	values map[string]any // inputs, steps, github, runner, env
	failed bool           // a step before this one failed
}

func evalExpr(src string, ctx *exprContext) (any, error) {
	p := &exprParser{src: src, ctx: ctx}
	p.next()
	v, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, fmt.Errorf("expression %q: unexpected %q", src, p.tok)
	}
	return v, nil
}

// evalIf evaluates a step's if: (with or without ${{ }}); an if that
// calls no status function means success() && (if), as on GitHub.
func evalIf(cond string, ctx *exprContext) (bool, error) {
	cond = strings.TrimSpace(cond)
	if cond == "" {
		return !ctx.failed, nil
	}
	if strings.HasPrefix(cond, "${{") && strings.HasSuffix(cond, "}}") {
		cond = strings.TrimSpace(cond[3 : len(cond)-2])
	}
	status := false
	for _, f := range []string{"success(", "failure(", "always(", "cancelled("} {
		status = status || strings.Contains(cond, f)
	}
	v, err := evalExpr(cond, ctx)
	if err != nil {
		return false, err
	}
	if !status && ctx.failed {
		return false, nil
	}
	return truthy(v), nil
}

// interpolate replaces every ${{ expr }} in s by its value as a string.
func interpolate(s string, ctx *exprContext) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("unclosed ${{ in %q", s)
		}
		v, err := evalExpr(strings.TrimSpace(s[i+3:i+j]), ctx)
		if err != nil {
			return "", err
		}
		b.WriteString(s[:i])
		b.WriteString(toString(v))
		s = s[i+j+2:]
	}
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true
}

func toString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

func toNumber(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return x
	case string:
		if strings.TrimSpace(x) == "" {
			return 0
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

func equal(a, b any) bool {
	if sa, ok := a.(string); ok {
		if sb, ok := b.(string); ok {
			return strings.EqualFold(sa, sb)
		}
	}
	if ba, ok := a.(bool); ok {
		if bb, ok := b.(bool); ok {
			return ba == bb
		}
	}
	if a == nil && b == nil {
		return true
	}
	x, y := toNumber(a), toNumber(b)
	return x == y
}

type exprParser struct {
	src string
	pos int
	tok string
	ctx *exprContext
}

func (p *exprParser) next() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' || p.pos < len(p.src) && p.src[p.pos] == '\n' {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	rest := p.src[p.pos:]
	for _, op := range []string{"==", "!=", "&&", "||", "!", "(", ")", ".", ",", "[", "]"} {
		if strings.HasPrefix(rest, op) {
			p.tok = op
			p.pos += len(op)
			return
		}
	}
	if rest[0] == '\'' {
		end := 1
		for end < len(rest) {
			if rest[end] == '\'' {
				if end+1 < len(rest) && rest[end+1] == '\'' {
					end += 2
					continue
				}
				break
			}
			end++
		}
		p.tok = rest[:end+1]
		p.pos += end + 1
		return
	}
	end := 0
	for end < len(rest) {
		r := rune(rest[end])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
			break
		}
		end++
	}
	if end == 0 {
		p.tok = rest[:1]
		p.pos++
		return
	}
	p.tok = rest[:end]
	p.pos += end
}

func (p *exprParser) or() (any, error) {
	v, err := p.and()
	for err == nil && p.tok == "||" {
		p.next()
		var w any
		w, err = p.and()
		if !truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *exprParser) and() (any, error) {
	v, err := p.cmp()
	for err == nil && p.tok == "&&" {
		p.next()
		var w any
		w, err = p.cmp()
		if truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *exprParser) cmp() (any, error) {
	v, err := p.unary()
	if err != nil {
		return nil, err
	}
	if p.tok == "==" || p.tok == "!=" {
		op := p.tok
		p.next()
		w, err := p.unary()
		if err != nil {
			return nil, err
		}
		return equal(v, w) == (op == "=="), nil
	}
	return v, nil
}

func (p *exprParser) unary() (any, error) {
	if p.tok == "!" {
		p.next()
		v, err := p.unary()
		return !truthy(v), err
	}
	return p.primary()
}

func (p *exprParser) primary() (any, error) {
	tok := p.tok
	switch {
	case tok == "":
		return nil, fmt.Errorf("expression %q ends early", p.src)
	case tok == "(":
		p.next()
		v, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("expression %q: missing )", p.src)
		}
		p.next()
		return v, nil
	case tok[0] == '\'':
		p.next()
		return strings.ReplaceAll(tok[1:len(tok)-1], "''", "'"), nil
	case tok == "true" || tok == "false":
		p.next()
		return tok == "true", nil
	case tok == "null":
		p.next()
		return nil, nil
	case tok[0] >= '0' && tok[0] <= '9':
		p.next()
		return toNumber(tok), nil
	}
	p.next()
	if p.tok == "(" {
		p.next()
		if p.tok != ")" {
			return nil, fmt.Errorf("expression %q: %s() takes no arguments here", p.src, tok)
		}
		p.next()
		switch tok {
		case "success":
			return !p.ctx.failed, nil
		case "failure":
			return p.ctx.failed, nil
		case "always":
			return true, nil
		case "cancelled":
			return false, nil
		}
		return nil, fmt.Errorf("expression %q: unknown function %s", p.src, tok)
	}
	v, ok := p.ctx.values[tok]
	if !ok {
		return nil, fmt.Errorf("expression %q: unknown context %q", p.src, tok)
	}
	for p.tok == "." || p.tok == "[" {
		var key string
		if p.tok == "." {
			p.next()
			key = p.tok
		} else {
			p.next()
			if p.tok == "" || p.tok[0] != '\'' {
				return nil, fmt.Errorf("expression %q: want a string index", p.src)
			}
			key = strings.ReplaceAll(p.tok[1:len(p.tok)-1], "''", "'")
			p.next()
			if p.tok != "]" {
				return nil, fmt.Errorf("expression %q: missing ]", p.src)
			}
		}
		p.next()
		m, _ := v.(map[string]any)
		v = nil
		for k, x := range m {
			if strings.EqualFold(k, key) {
				v = x
			}
		}
	}
	return v, nil
}
