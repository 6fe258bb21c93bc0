package needs

import (
	"regexp"
	"strings"

	"github.com/seg-trace/seg/internal/lazyre"
)

// needs_string_links turn field values into links in sphinx-needs' HTML
// (a Jira key into a Jira URL); seg writes the links they make into
// needs.json (Document.Map's seg_string_links), so that a script reading
// the file sees them. The templates are Jinja; seg renders the part
// string links use: {{ name }} of the regular expression's named groups,
// with the filters replace("a", "b"), lower, upper and trim. A template
// with anything else makes no link.

// StringLinked is one link a string link makes of a field's value.
type StringLinked struct {
	Name, URL string
}

// StringLinksOf are the links the project's string links make of the
// value of field (split on "," and ";", as sphinx-needs does), in the
// order of the value's items, then of the entries (by name).
func (n *Project) StringLinksOf(field, value string) []StringLinked {
	var out []StringLinked
	for _, item := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ';' }) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		for _, sl := range n.StringLinks {
			if !contains(sl.Options, field) {
				continue
			}
			m := sl.Regex.FindStringSubmatch(item)
			if m == nil {
				continue
			}
			groups := map[string]string{}
			for i, name := range sl.Regex.SubexpNames() {
				if name != "" && i < len(m) {
					groups[name] = m[i]
				}
			}
			url, ok1 := renderTemplate(sl.LinkURL, groups)
			name, ok2 := renderTemplate(sl.LinkName, groups)
			if ok1 && ok2 {
				out = append(out, StringLinked{Name: name, URL: url})
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	jinjaExpr   = lazyre.New(`\{\{(.*?)\}\}`)
	jinjaFilter = lazyre.New(`^\s*(\w+)\s*(?:\((.*)\))?\s*$`)
	jinjaArg    = lazyre.New(`^\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*$`)
)

// renderTemplate renders a string link's template; ok is false for a
// template seg does not render ({% ... %}, another filter, an expression).
func renderTemplate(tpl string, vars map[string]string) (string, bool) {
	if strings.Contains(tpl, "{%") || strings.Contains(tpl, "{#") {
		return "", false
	}
	ok := true
	out := jinjaExpr.ReplaceAllStringFunc(tpl, func(m string) string {
		parts := strings.Split(m[2:len(m)-2], "|")
		name := strings.TrimSpace(parts[0])
		if !regexp.MustCompile(`^\w+$`).MatchString(name) {
			ok = false
			return ""
		}
		v := vars[name]
		for _, f := range parts[1:] {
			fm := jinjaFilter.FindStringSubmatch(f)
			if fm == nil {
				ok = false
				return ""
			}
			var args []string
			if fm[2] != "" {
				for _, a := range splitArgs(fm[2]) {
					am := jinjaArg.FindStringSubmatch(a)
					if am == nil {
						ok = false
						return ""
					}
					args = append(args, am[1]+am[2])
				}
			}
			switch {
			case fm[1] == "replace" && len(args) == 2:
				v = strings.ReplaceAll(v, args[0], args[1])
			case fm[1] == "lower" && len(args) == 0:
				v = strings.ToLower(v)
			case fm[1] == "upper" && len(args) == 0:
				v = strings.ToUpper(v)
			case fm[1] == "trim" && len(args) == 0:
				v = strings.TrimSpace(v)
			default:
				ok = false
				return ""
			}
		}
		return v
	})
	return out, ok
}

// splitArgs splits filter arguments on the commas outside quotes.
func splitArgs(s string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
