package parser

import (
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/seg-trace/seg/internal/lazyre"
)

// Need parts (sphinx-needs' :need_part: role, :np: for short) give a piece
// of a need's content an ID of its own, which a link names as "ID.part".
// sphinx-needs takes the part's ID from a leading "(part)" of the role's
// text ([\w-]+ in Python's sense), or else makes one of the first three
// hex digits, upper-cased, of the SHA-1 of the text; a part in a nested
// need is that need's.

var partID = lazyre.New(`^\(([\p{L}\p{N}\p{Mn}_-]+)\)`)

// NeedParts lists, sorted, the IDs of the need parts a need's body
// defines. The body is the need's own (Node.Body leaves nested nodes out),
// so the parts of a nested need are not its parent's.
func NeedParts(body string) []string {
	if !strings.Contains(body, ":np:`") && !strings.Contains(body, ":need_part:`") {
		return nil
	}
	var out []string
	for i := 0; i < len(body); i++ {
		switch {
		case strings.HasPrefix(body[i:], "``"):
			// An inline literal: its text is no markup.
			j := strings.Index(body[i+2:], "``")
			if j < 0 {
				return sortedParts(out)
			}
			i += 2 + j + 1
			continue
		case body[i] != ':' || i > 0 && isRoleChar(body, i-1):
			continue
		}
		var n int
		switch rest := body[i:]; {
		case strings.HasPrefix(rest, ":np:`"):
			n = len(":np:`")
		case strings.HasPrefix(rest, ":need_part:`"):
			n = len(":need_part:`")
		default:
			continue
		}
		text := body[i+n:]
		j := closingQuote(text)
		if j < 0 {
			break
		}
		out = append(out, partOf(roleTitle(unescapeRole(text[:j]))))
		i += n + j
	}
	return sortedParts(out)
}

func sortedParts(out []string) []string {
	slices.Sort(out)
	return slices.Compact(out)
}

// isRoleChar reports whether the byte at i of s is one a role cannot
// follow (a letter or digit: "x:np:`a`" is text).
func isRoleChar(s string, i int) bool {
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// closingQuote is the index of the backquote that ends a role's text, or
// -1: the first one not escaped by a backslash.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			return i
		}
	}
	return -1
}

// unescapeRole drops the backslashes of a role's text, as docutils does.
func unescapeRole(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// roleTitle is the text of a cross-reference role written "title <target>":
// its title, as Sphinx shows it (and sphinx-needs reads the part from).
func roleTitle(s string) string {
	if strings.HasSuffix(s, ">") {
		if k := strings.LastIndex(s, "<"); k > 0 && (s[k-1] == ' ' || s[k-1] == '\n') {
			return strings.TrimRight(s[:k], " \n")
		}
	}
	return s
}

// partOf is the ID sphinx-needs gives the part whose text is s.
func partOf(s string) string {
	if m := partID.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	sum := sha1.Sum([]byte(s))
	return strings.ToUpper(hex.EncodeToString(sum[:])[:3])
}
