package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text, tab\tand \\ backslash", "plain text, tab\tand \\ backslash"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"a\nb\rc\x00d\x7f", `a\x0ab\x0dc\x00d\x7f`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200f", `bidi \u202eevil\u202c \u2066x\u2069 \u200f`},
		{"sep \u2028 \u2029", `sep \u2028 \u2029`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
		{"日本語 é e\u0301 😀", "日本語 é e\u0301 😀"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// controlTree has a title that would set the window title and clear the
// screen, an ID (allowed by a permissive pattern) with an escape
// sequence, a file name with a line break that would forge a report line,
// and a bidirectional override.
var controlTree = map[string]string{
	"seg.toml": "id_pattern = '^.+$'\n",
	"docs/evil\nforged.rst:1:1: error: all good [fake]\n.rst": ".. sreq:: \x1b]0;owned\x07Title \x1b[2J clears\n" +
		"   :id: R-\x1b[31mRED\n\n" +
		".. test:: Test \u202eevil\u202c\n   :id: T-1\n   :verifies: R-\x1b[31mRED, NOPE\x1b[0m\n",
}

// Every text format escapes what the tree holds: no control character
// but the line break (between lines) and the tab reaches the output, and
// no line can be forged by a file name.
func TestTextFormatsEscape(t *testing.T) {
	c := checkOfFiles(t, controlTree)
	m := BuildMatrix(c, MatrixOptions{})
	outs := map[string]func(*bytes.Buffer) error{
		"text":         func(b *bytes.Buffer) error { return WriteText(b, c, TextOptions{Colored: false}) },
		"text colored": func(b *bytes.Buffer) error { return WriteText(b, c, TextOptions{Colored: true}) },
		"explain": func(b *bytes.Buffer) error {
			return WriteExplain(b, c, "R-\x1b[31mRED", ExplainOptions{Depth: -1, Colored: false})
		},
		"explain test": func(b *bytes.Buffer) error {
			return WriteExplain(b, c, "T-1", ExplainOptions{Depth: -1, Colored: false})
		},
		"github":     func(b *bytes.Buffer) error { return WriteGitHub(b, c, false) },
		"matrix md":  func(b *bytes.Buffer) error { return WriteMatrixMarkdown(b, m) },
		"matrix csv": func(b *bytes.Buffer) error { return WriteMatrixCSV(b, m) },
	}
	for name, write := range outs {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		if name == "text colored" {
			// The report's own colors are the only escape sequences.
			for _, sgr := range []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[22m", "\x1b[31;1m", "\x1b[33;1m", "\x1b[32;1m", "\x1b[35m", "\x1b[0;22m", "\x1b[36m"} {
				out = strings.ReplaceAll(out, sgr, "")
			}
		}
		for i, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e {
				t.Errorf("%s: control character %U at byte %d: %q", name, r, i, out[max(0, i-20):min(len(out), i+20)])
				break
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "forged.rst") {
				t.Errorf("%s: a file name forged the line %q", name, line)
			}
		}
		id := `R-\x1b[31mRED`
		if name == "matrix md" {
			id = `R-\\x1b\[31mRED`
		}
		if !strings.Contains(out, id) {
			t.Errorf("%s: the escaped ID is missing:\n%s", name, out)
		}
	}
}

// Carets under a snippet count display width: a wide character takes two
// columns, a combining mark none; the ID column aligns non-ASCII IDs.
func TestTextDisplayWidth(t *testing.T) {
	c := checkOfFiles(t, map[string]string{
		"seg.toml": "id_pattern = '^[^ ,]+$'\n",
		"a.rst": ".. sreq:: Wide\n   :id: 日本-1\n   :refines: 日本語, NOPE\n\n" +
			".. sreq:: Combining\n   :id: Ü-2\n   :refines: e\u0301e\u0301, NOPE2\n\n" +
			".. sreq:: Plain\n   :id: ABCDEFGH\n",
	})
	var b bytes.Buffer
	if err := WriteText(&b, c, TextOptions{Colored: false}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	var got []string
	for i, l := range lines {
		if strings.Contains(l, "^") {
			got = append(got, lines[i-1], l)
		}
		for _, id := range []string{"日本-1 ", "Ü-2 ", "ABCDEFGH "} {
			if strings.HasPrefix(l, id) {
				got = append(got, l[:strings.Index(l, "  unproven")+len("  unproven")])
			}
		}
	}
	want := []string{
		"   3 |    :refines: 日本語, NOPE",
		"     |              ^^^^^^",
		"   3 |    :refines: 日本語, NOPE",
		"     |                      ^^^^",
		"   7 |    :refines: éé, NOPE2",
		"     |              ^^",
		"   7 |    :refines: éé, NOPE2",
		"     |                  ^^^^^",
		"ABCDEFGH  unproven",
		"Ü-2       unproven",
		"日本-1    unproven",
	}
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], "é", "e\u0301")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, b.String())
	}
}
