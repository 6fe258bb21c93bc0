package glob

import (
	"regexp"
	"strings"
	"sync"
)

// SphinxMatch reports whether the slash path name matches pattern as
// Sphinx's exclude_patterns and include_patterns match (its
// sphinx.util.matching): "**" matches any characters, "/" included, so
// "**/x" needs a folder before x; "*" and "?" never match a "/"; "[...]"
// is a class, "[!...]" its complement (never a "/"); an unclosed "[" is
// itself. The whole name must match.
func SphinxMatch(pattern, name string) bool {
	return sphinxRegexp(pattern).MatchString(name)
}

var sphinxCache sync.Map // pattern -> *regexp.Regexp

func sphinxRegexp(pat string) *regexp.Regexp {
	if re, ok := sphinxCache.Load(pat); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(`^(?s:` + translateSphinx(pat) + `)$`)
	if err != nil {
		re = regexp.MustCompile(`[^\x00-\x{10FFFF}]`) // matches nothing
	}
	sphinxCache.Store(pat, re)
	return re
}

// translateSphinx is Sphinx's _translate_pattern, into Go's syntax.
func translateSphinx(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); {
		c := pat[i]
		i++
		switch c {
		case '*':
			if i < len(pat) && pat[i] == '*' {
				i++
				b.WriteString(`.*`)
			} else {
				b.WriteString(`[^/]*`)
			}
		case '?':
			b.WriteString(`[^/]`)
		case '[':
			j := i
			if j < len(pat) && pat[j] == '!' {
				j++
			}
			if j < len(pat) && pat[j] == ']' {
				j++
			}
			for j < len(pat) && pat[j] != ']' {
				j++
			}
			if j >= len(pat) {
				b.WriteString(`\[`)
				continue
			}
			stuff := pat[i:j]
			i = j + 1
			neg := false
			if strings.HasPrefix(stuff, "!") {
				neg, stuff = true, stuff[1:]
			}
			b.WriteByte('[')
			if neg {
				b.WriteString(`^/`)
			}
			for _, r := range stuff {
				switch r {
				case '\\', '[', ']', '^':
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			b.WriteByte(']')
		default:
			j := i
			for j < len(pat) && !strings.ContainsRune("*?[", rune(pat[j])) {
				j++
			}
			b.WriteString(regexp.QuoteMeta(pat[i-1 : j]))
			i = j
		}
	}
	return b.String()
}
