package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Printable is the one escaping rule of the text formats (the text
// report, explain, GitHub workflow commands, the Markdown and CSV
// matrix; docs/output.md): everything they print that comes from the
// tree -- titles, IDs, paths, source lines, and the messages that quote
// them -- goes through it, so that no file can drive the terminal or the
// log that shows the report (set its title, clear it, move the cursor,
// reorder text, forge a line).
//
//   - a byte that is not part of valid UTF-8, a C0 control character
//     other than the tab, and DEL are written \xNN (two hex digits);
//   - a C1 control character (U+0080 to U+009F), the line and paragraph
//     separators (U+2028, U+2029) and the bidirectional formatting
//     characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
//     U+2069) are written \uNNNN;
//   - everything else, the tab and the backslash included, is kept.
//
// The text formats are for people: a backslash is not doubled, so the
// escaped text is not meant to be decoded. The JSON formats and SARIF
// carry every string exactly.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if escaped(r, w) {
			break
		}
		i += w
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w <= 1, r < 0x80 && escaped(r, w):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case escaped(r, w):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// escaped reports whether the rune r, w bytes long, is escaped.
func escaped(r rune, w int) bool {
	switch {
	case r == utf8.RuneError && w <= 1:
		return true
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// widths measures text as a terminal shows it: East Asian wide
// characters take two columns, combining marks and other zero-width
// characters none (go-runewidth, which clusters graphemes). Ambiguous
// characters count as narrow whatever the locale, so that the report's
// bytes do not depend on the environment.
var widths = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// displayWidth is the number of terminal columns s takes, s printable.
func displayWidth(s string) int { return widths.StringWidth(s) }
