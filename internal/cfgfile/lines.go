package cfgfile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/seg-trace/seg/internal/lazyre"
)

// Finding lines for errors the TOML decoder cannot place. Each helper
// returns 0 (no line) rather than a wrong guess.

// LineOfKey finds the first line that assigns key (or is the table header
// key), so a semantic error can point at a line.
func LineOfKey(data []byte, key string) int {
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == key || strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") ||
			strings.HasPrefix(t, `"`+key+`"`) {
			return i + 1
		}
	}
	return 0
}

var lineRx = lazyre.New(`line (\d+)`)

// LineOfError is the line a decoder's error message names, or 0.
func LineOfError(data []byte, err error) int {
	if m := lineRx.FindStringSubmatch(err.Error()); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	return 0
}

// DecodeError is the Error of a TOML file the decoder refused, on the
// line it names.
func DecodeError(path string, data []byte, err error) *Error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: path, Line: pe.Position.Line, Msg: pe.Message}
	}
	if msg, ok := typeError(err.Error()); ok {
		return &Error{File: path, Line: LineOfError(data, err), Msg: msg}
	}
	return &Error{File: path, Line: LineOfError(data, err), Msg: err.Error()}
}

// typeRx matches the decoder's message for a value of the wrong type.
var typeRx = lazyre.New(`\(last key "([^"]*)"\): incompatible types: TOML value has type (\S+); destination has type (\S+)$`)

// typeError rewrites the decoder's message for a value of the wrong type
// into the key as the file writes it, what it holds and what it should
// hold: `[needs.links] satisfies is a list; it takes a string`.
func typeError(msg string) (string, bool) {
	m := typeRx.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	key := m[1]
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = "[" + key[:i] + "] " + key[i+1:]
	}
	return fmt.Sprintf("%s is %s; it takes %s", key, typeName(m[2]), typeName(m[3])), true
}

// typeName says a Go or TOML type as a TOML user knows it.
func typeName(t string) string {
	switch {
	case t == "string":
		return "a string (in quotes)"
	case strings.HasPrefix(t, "[]") || t == "slice" || t == "array":
		return "a list ([...])"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || t == "integer":
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool" || t == "boolean":
		return "true or false"
	case strings.HasPrefix(t, "map") || t == "struct" || t == "table":
		return "a table"
	case strings.Contains(t, "Time") || strings.Contains(t, "Local"):
		return "a date or time"
	}
	return "a value of type " + t
}

// TableKeys lists the keys of the table at path, in file order.
func TableKeys(md toml.MetaData, path ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		if len(k) <= len(path) {
			continue
		}
		match := true
		for i, p := range path {
			if k[i] != p {
				match = false
				break
			}
		}
		if name := k[len(path)]; match && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// LineInSection is the line of key inside the [section] table (or the
// section's header when the key is not found).
func LineInSection(data []byte, section, key string) int {
	lines := strings.Split(string(data), "\n")
	in, header := false, 0
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = t == "["+section+"]"
			if in {
				header = i + 1
			}
			continue
		}
		if in && (strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") || strings.HasPrefix(t, `"`+key+`"`)) {
			return i + 1
		}
		if !in && strings.HasPrefix(t, section+"."+key) {
			return i + 1
		}
	}
	return header
}

// LineOfValue is the first line, from the one naming where on, that holds
// the quoted value (or a table header ending in .value]); else where's.
func LineOfValue(data []byte, where, value string) int {
	lines := strings.Split(string(data), "\n")
	start := LineOfKey(data, where)
	if start == 0 {
		for i, line := range lines {
			if strings.Contains(line, where) {
				start = i + 1
				break
			}
		}
	}
	if start == 0 {
		start = 1
	}
	for i := start - 1; i < len(lines); i++ {
		if strings.Contains(lines[i], `"`+value+`"`) || strings.Contains(lines[i], "'"+value+"'") ||
			strings.HasSuffix(strings.TrimSpace(lines[i]), "."+value+"]") {
			return i + 1
		}
	}
	return LineOfKey(data, where)
}

// NthLine is the line of the i-th entry of the array where (an inline
// table per line, or an [[needs.where]] header), or where's own line.
func NthLine(data []byte, where string, i int) int {
	lines := strings.Split(string(data), "\n")
	start := LineOfKey(data, where)
	n := 0
	for k, line := range lines {
		t := strings.TrimSpace(line)
		if t == "[[needs."+where+"]]" || (start > 0 && k+1 > start && strings.HasPrefix(t, "{")) ||
			(start > 0 && k+1 == start && strings.Contains(t, "{")) {
			if n == i {
				return k + 1
			}
			n++
		}
	}
	return start
}
