package report

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// jsonAppender writes a value as indented JSON straight into a buffer, byte
// for byte what a json.Encoder with SetEscapeHTML(false) and
// SetIndent(prefix, "  ") writes (less its final newline). encoding/json
// marshals compactly and then re-scans every byte to indent it; on a
// 50,000-requirement report that was most of the report's time. This one
// handles what seg's reports are made of (structs without embedded
// fields, slices, strings, integers, booleans, pointers, interfaces) and
// hands anything else (maps, floats, marshalers, embedded fields) to
// encoding/json. TestJSONAppenderMatchesEncodingJSON holds it to the
// standard library.
type jsonAppender struct {
	buf []byte
	err error
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// jsonField is one field of a struct, as encoding/json writes it.
type jsonField struct {
	index     int
	key       string // `"name": `
	omitEmpty bool
}

// jsonStruct is what the appender knows of a struct type; std means
// encoding/json must write it.
type jsonStruct struct {
	fields []jsonField
	std    bool
}

var jsonStructs sync.Map // reflect.Type -> *jsonStruct

func structInfo(t reflect.Type) *jsonStruct {
	if s, ok := jsonStructs.Load(t); ok {
		return s.(*jsonStruct)
	}
	s := &jsonStruct{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			s.std = true
			break
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validTagName(name) {
			name = ""
		}
		if name == "" {
			name = f.Name
		}
		for o := range strings.SplitSeq(opts, ",") {
			if o == "string" || o == "omitzero" {
				s.std = true
			}
		}
		key := appendJSONString(nil, name)
		s.fields = append(s.fields, jsonField{index: i, key: string(key) + ": ", omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	jsonStructs.Store(t, s)
	return s
}

// validTagName is encoding/json's test of a tag name; a name it rejects
// means the field's own name.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

var marshals sync.Map // reflect.Type -> bool

// marshalsItself reports whether t (or *t) has its own JSON or text
// encoding, which encoding/json uses instead of the type's structure.
func marshalsItself(t reflect.Type) bool {
	if m, ok := marshals.Load(t); ok {
		return m.(bool)
	}
	m := t.Implements(marshalerType) || t.Implements(textMarshalerType)
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		m = m || reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
	}
	marshals.Store(t, m)
	return m
}

// value appends v, whose first line is already indented by prefix.
func (a *jsonAppender) value(v reflect.Value, prefix string) {
	if !v.IsValid() {
		a.buf = append(a.buf, "null"...)
		return
	}
	t := v.Type()
	if t.Kind() != reflect.Interface && marshalsItself(t) {
		if t.Kind() == reflect.Pointer && v.IsNil() {
			a.buf = append(a.buf, "null"...)
			return
		}
		a.std(v, prefix)
		return
	}
	switch t.Kind() {
	case reflect.String:
		a.buf = appendJSONString(a.buf, v.String())
	case reflect.Bool:
		a.buf = strconv.AppendBool(a.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		a.buf = strconv.AppendInt(a.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		a.buf = strconv.AppendUint(a.buf, v.Uint(), 10)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			a.buf = append(a.buf, "null"...)
			return
		}
		a.value(v.Elem(), prefix)
	case reflect.Slice:
		a.slice(v, prefix)
	case reflect.Struct:
		a.object(v, prefix)
	default:
		a.std(v, prefix)
	}
}

// slice appends the slice v, whose first line is already indented by
// prefix.
func (a *jsonAppender) slice(v reflect.Value, prefix string) {
	if v.IsNil() {
		a.buf = append(a.buf, "null"...)
		return
	}
	if v.Type().Elem().Kind() == reflect.Uint8 {
		a.std(v, prefix)
		return
	}
	n := v.Len()
	if n == 0 {
		a.buf = append(a.buf, "[]"...)
		return
	}
	inner := prefix + "  "
	a.buf = append(a.buf, '[')
	for i := range n {
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.buf = append(a.buf, '\n')
		a.buf = append(a.buf, inner...)
		a.value(v.Index(i), inner)
	}
	a.buf = append(a.buf, '\n')
	a.buf = append(a.buf, prefix...)
	a.buf = append(a.buf, ']')
}

// object appends the struct v, whose first line is already indented by
// prefix.
func (a *jsonAppender) object(v reflect.Value, prefix string) {
	s := structInfo(v.Type())
	if s.std {
		a.std(v, prefix)
		return
	}
	inner := prefix + "  "
	open := false
	for _, f := range s.fields {
		fv := v.Field(f.index)
		if f.omitEmpty && emptyJSON(fv) {
			continue
		}
		if open {
			a.buf = append(a.buf, ',')
		} else {
			a.buf = append(a.buf, '{')
			open = true
		}
		a.buf = append(a.buf, '\n')
		a.buf = append(a.buf, inner...)
		a.buf = append(a.buf, f.key...)
		a.value(fv, inner)
	}
	if !open {
		a.buf = append(a.buf, "{}"...)
		return
	}
	a.buf = append(a.buf, '\n')
	a.buf = append(a.buf, prefix...)
	a.buf = append(a.buf, '}')
}

// std appends v as encoding/json writes it.
func (a *jsonAppender) std(v reflect.Value, prefix string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v.Interface()); err != nil {
		if a.err == nil {
			a.err = err
		}
		return
	}
	a.buf = append(a.buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it without
// HTML escaping: invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029 are
// escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
