package parser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seg-trace/seg/diag"
)

// expectation is one ".. ERROR code" (or ".. WARNING code") comment of a
// test file.
type expectation struct {
	line, col int // col 0: any
	severity  diag.Severity
	code      string
	msg       *regexp.Regexp
	src       int // the comment's own line
}

var errorComment = regexp.MustCompile("^\\s*\\.\\. (ERROR|WARNING) ([a-z-]+)((?: (?:col|up)=\\d+)*)(?: `(.*)`)?\\s*$")

// expectations reads the ".. ERROR" comments of src, go/scanner style: each
// names a diagnostic on the closest line above it that is neither blank nor
// such a comment ("up=N" moves N lines higher, "col=N" pins the column, a
// back-quoted regular expression checks the message).
func expectations(t *testing.T, src string) []expectation {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []expectation
	for i, ln := range lines {
		m := errorComment.FindStringSubmatch(ln)
		if m == nil {
			if strings.Contains(ln, ".. ERROR") || strings.Contains(ln, ".. WARNING") {
				t.Fatalf("line %d: malformed ERROR comment %q", i+1, ln)
			}
			continue
		}
		target := i - 1
		for target >= 0 && (strings.TrimSpace(lines[target]) == "" || errorComment.MatchString(lines[target])) {
			target--
		}
		e := expectation{code: m[2], src: i + 1, severity: diag.Error}
		if m[1] == "WARNING" {
			e.severity = diag.Warning
		}
		for _, kv := range strings.Fields(m[3]) {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "col":
				e.col = n
			case "up":
				target -= n
			}
		}
		if m[4] != "" {
			e.msg = regexp.MustCompile(m[4])
		}
		e.line = target + 1
		out = append(out, e)
	}
	return out
}

// TestInlineDiagnostics checks every testdata/diag file, and the corpus
// file of hidden directives (which docutils checks too), against the
// diagnostics written inside it, reporting both the missing and the
// unexpected ones.
func TestInlineDiagnostics(t *testing.T) {
	for _, glob := range []string{"testdata/diag/*.rst", "testdata/corpus/42-hidden.rst", "testdata/corpus/43-comments.rst", "testdata/corpus/32-formfeed.rst"} {
		inlineDiagnostics(t, glob)
	}
}

func inlineDiagnostics(t *testing.T, glob string) {
	eachTestFile(t, glob, func(t *testing.T, fn string, src []byte, f *File) {
		want := expectations(t, string(src))
		used := make([]bool, len(f.Diagnostics))
		for _, e := range want {
			found := false
			for i, d := range f.Diagnostics {
				pos := f.Position(d.Span.Start)
				if used[i] || d.Code.Name != e.code || d.Severity() != e.severity || pos.Line != e.line {
					continue
				}
				if e.col != 0 && pos.Column != e.col {
					continue
				}
				if e.msg != nil && !e.msg.MatchString(d.Message) {
					continue
				}
				used[i], found = true, true
				break
			}
			if !found {
				t.Errorf("%s:%d: missing %s (col %d, message %v), from the comment on line %d; got on that line: %s",
					fn, e.line, e.code, e.col, e.msg, e.src, onLine(f, e.line))
			}
		}
		for i, d := range f.Diagnostics {
			if !used[i] {
				t.Errorf("%s: unexpected %s %s", f.Position(d.Span.Start), d.Code, d.Message)
			}
			if d.Severity() == 0 || d.Message == "" {
				t.Errorf("%s: diagnostic without severity or message: %+v", f.Position(d.Span.Start), d)
			}
		}
	})
}

func onLine(f *File, line int) string {
	var out []string
	for _, d := range f.Diagnostics {
		if p := f.Position(d.Span.Start); p.Line == line {
			out = append(out, fmt.Sprintf("%s %s %q", p, d.Code, d.Message))
		}
	}
	if out == nil {
		return "nothing"
	}
	return strings.Join(out, "; ")
}
