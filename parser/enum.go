package parser

import (
	"bytes"
	"strings"
)

// enumerator matches an enumerated list marker ("1.", "(a)", "iv)", "#.")
// at the start of t, followed by spaces or the end, and applies docutils'
// is_enumerated_list_item: the next line must be blank, indented, or start
// with the next marker. Otherwise the line is paragraph text.
func (s *scanner) enumerator(bl block, i int, t []byte) (int, bool) {
	prefix, j := "", 0
	if t[0] == '(' {
		prefix, j = "(", 1
	}
	if j >= len(t) {
		return 0, false
	}
	// The candidate texts in the order of docutils' regular expression.
	var cands [3]int
	nc := 0
	c := t[j]
	switch {
	case c == '#':
		cands[nc] = j + 1
		nc++
	case c >= '0' && c <= '9':
		k := j
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		cands[nc] = k
		nc++
	case isAlpha(c):
		cands[nc] = j + 1
		nc++
		for _, set := range []string{"ivxlcdm", "IVXLCDM"} {
			k := j
			for k < len(t) && strings.IndexByte(set, t[k]) >= 0 {
				k++
			}
			if k > j+1 {
				cands[nc] = k
				nc++
			}
		}
	default:
		return 0, false
	}
	suffixes := ")."
	if prefix == "(" {
		suffixes = ")"
	}
	text, suffix, end := "", byte(0), 0
	for _, sfx := range []byte(suffixes) {
		for _, k := range cands[:nc] {
			if k < len(t) && t[k] == sfx {
				text, suffix, end = string(t[j:k]), sfx, k+1
				break
			}
		}
		if end > 0 {
			break
		}
	}
	if end == 0 {
		return 0, false
	}
	n, ok := prefixWS(t[end:], "")
	if !ok {
		return 0, false
	}
	next, valid := nextEnumerator(text)
	if !valid {
		return 0, false
	}
	if i+1 < bl.hi && s.rel(bl, i+1) == 0 {
		nl := s.lineText(bl, i+1)
		auto := prefix + "#" + string(suffix)
		if (next == "" || !bytes.HasPrefix(nl, []byte(prefix+next+string(suffix)))) &&
			!bytes.HasPrefix(nl, []byte(auto)) {
			return 0, false
		}
	}
	return end + n, true
}

// nextEnumerator is the enumerator after text in its sequence ("" when out
// of range); valid is false when text is not a valid ordinal.
func nextEnumerator(text string) (next string, valid bool) {
	switch {
	case text == "#":
		return "#", true
	case text[0] >= '0' && text[0] <= '9':
		return incDecimal(text), true
	case text == "i":
		return "ii", true
	case text == "I":
		return "II", true
	case len(text) == 1:
		c := text[0]
		if c == 'z' || c == 'Z' {
			return "", true
		}
		return string(c + 1), true
	}
	lower := text[0] >= 'a'
	n := fromRoman(strings.ToUpper(text))
	if n == 0 {
		return "", false
	}
	r := toRoman(n + 1)
	if lower {
		r = strings.ToLower(r)
	}
	return r, true
}

// incDecimal adds one to a decimal numeral of any length, as Python's
// str(int(text)+1) would.
func incDecimal(text string) string {
	t := strings.TrimLeft(text, "0")
	b := []byte("0" + t)
	for k := len(b) - 1; k >= 0; k-- {
		if b[k] < '9' {
			b[k]++
			break
		}
		b[k] = '0'
	}
	return strings.TrimLeft(string(b), "0")
}

var romanTable = []struct {
	n int
	s string
}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}}

// toRoman writes 1..4999 in Roman numerals, "" outside.
func toRoman(n int) string {
	if n < 1 || n > 4999 {
		return ""
	}
	var sb strings.Builder
	for _, r := range romanTable {
		for n >= r.n {
			sb.WriteString(r.s)
			n -= r.n
		}
	}
	return sb.String()
}

// fromRoman reads a canonical Roman numeral (as docutils' roman module
// accepts them), 0 when it is not one.
func fromRoman(s string) int {
	n, i := 0, 0
	for _, r := range romanTable {
		for strings.HasPrefix(s[i:], r.s) {
			n += r.n
			i += len(r.s)
			if n > 4999 {
				return 0
			}
		}
	}
	if i != len(s) || toRoman(n) != s {
		return 0
	}
	return n
}
